/* cli_schema_tables: every section's option table, found by name, for the
 * JSON Schema and docs/options.md. cli sees all layers, so the links
 * between tables (a target's `model:` is devmodel's table, a step's `io:`
 * the io workload's) are resolved here rather than by the layers, which may
 * not include each other. The workloads' tables and their keys in a step
 * come from the workload table (workload_ops.tables, .step_row). */
#ifndef BENCHGRID_CLI_SCHEMA_TABLES_H
#define BENCHGRID_CLI_SCHEMA_TABLES_H

#include "opt_table.h"

/* NULL-terminated, the top level first, in the order of docs/options.md. */
const struct opt_table *const *cli_schema_tables(void);

/* The table called `name`, or NULL. */
const struct opt_table *cli_schema_table(const char *name);

#endif
