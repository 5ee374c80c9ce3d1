# pg: the managed PostgreSQL server (`postgres:` section).
# Starts real servers (initdb, postgres) as the postgres user when root.
bg_unit_test(test_fx_pg SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_fx_pg.c LABELS pg root
  SKIPPABLE test_wal_dir_leftover)
# The section end to end through the CLI: reuse decisions, kill -9 + cleanup.
bg_script_test(pg_cluster tests/integration/pg_cluster.sh LABELS integration root pg TIMEOUT 300)
# reinit: never | per-cell | when-written through the CLI
bg_script_test(pg_reinit tests/integration/pg_reinit.sh LABELS integration root pg TIMEOUT 300)
# memory_limit: the server in a memory cgroup (v1 here; v2 skipped), kill -9 + cleanup
bg_script_test(pg_memcg tests/integration/pg_memcg.sh LABELS integration root pg TIMEOUT 300)
