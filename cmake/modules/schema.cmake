# schema: the option tables (base/opt_table), `benchgrid schema`, the JSON
# Schema and docs/options.md made from them (docs/editors.md).
bg_unit_test(test_opt_table SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_opt_table.c LABELS "core;schema")
# The checked-in docs/benchgrid.schema.json and docs/options.md are what the
# binary writes; prints the command that refreshes them when stale.
bg_script_test(schema_fresh tests/integration/schema_fresh.sh LABELS "schema;cli" TIMEOUT 60)
# Every scenario of examples/ and specs/ validates against the schema with
# python3-jsonschema; the golden bad cases it can catch are rejected.
bg_script_test(schema tests/integration/schema.sh LABELS "schema" TIMEOUT 60)
# `schema -o FILE` refuses a symlink at FILE and replaces a file whole.
bg_script_test(schema_output tests/integration/schema_output.sh LABELS "schema;cli" TIMEOUT 30)
