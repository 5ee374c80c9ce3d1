# store: the results history (engine/store/, docs/results.md): the schema
# and its migrations on a real SQLite file; run, store, history and
# concurrent writers through the command; the same against the managed
# PostgreSQL server.
bg_unit_test(test_store SOURCES tests/unit/test_store.c LABELS store TIMEOUT 60)
bg_script_test(store tests/integration/store.sh LABELS "store" TIMEOUT 120)
bg_script_test(store_pg tests/integration/store_pg.sh LABELS "store;pg;integration;root" TIMEOUT 180)
