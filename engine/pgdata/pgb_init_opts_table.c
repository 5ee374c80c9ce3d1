/* pgb_init_opts_table: `init:`'s options (docs/sections/postgres.md). */
#include "pgb_init_opts_table.h"

const char *const pgb_init_method_values[] = {"range", "hash", NULL};
const char *const pgb_init_kind_values[] = {"pgbench", "tpcc", NULL};

/* clang-format off */
static const struct opt_desc init_rows[] = {
    {"scale", OPT_INT, NULL, "1", NULL, "scale factor: 100000 x scale accounts (-s)", 0, NULL, NULL, "1..2147483647"},
    {"fillfactor", OPT_INT, "%", "100", NULL, "table fill factor, 10 to 100 (-F)", 0, NULL, NULL, "10..100"},
    {"unlogged", OPT_BOOL, NULL, "false", NULL, "unlogged tables (--unlogged-tables)", 0, NULL, NULL, NULL},
    {"tablespace", OPT_STRING, NULL, NULL, NULL, "tables and indexes there: one of postgres.tablespaces or pg_default", 0, NULL, NULL, NULL},
    {"partitions", OPT_INT, NULL, "0", NULL, "partitions of pgbench_accounts (--partitions)", 0, NULL, NULL, "0..2147483647"},
    {"partition_method", OPT_ENUM, NULL, "range", pgb_init_method_values, "(--partition-method)", 0, NULL, NULL, NULL},
    {"server_side", OPT_BOOL, NULL, "false", NULL, "generate the rows in the server (-I dtGvp) instead of COPY", 0, NULL, NULL, NULL},
    {"foreign_keys", OPT_BOOL, NULL, "false", NULL, "add pgbench's foreign keys (--foreign-keys)", 0, NULL, NULL, NULL},
    {"kind", OPT_ENUM, NULL, "pgbench", pgb_init_kind_values, "pgbench's tables, or tpcc: TPC-C's nine tables for builtin tpcc-like (docs/steps/tpcc-like.md)", 0, NULL, NULL, NULL},
    {"warehouses", OPT_INT, NULL, "1", NULL, "kind: tpcc: TPC-C warehouses (about 100 MB each)", 0, NULL, NULL, "1..100000"},
};
/* clang-format on */

const struct opt_table pgb_init_opt_table = {
    "pgdata.init", "init: (postgres: init:, pgbench: init:)", "pgbench's tables, loaded as pgbench -i does.",
    init_rows,     sizeof(init_rows) / sizeof(init_rows[0]),  false,
};
