/* pgb_init_opts_table: `init:`'s options (docs/sections/postgres.md). */
#include "pgb_init_opts_table.h"

const char *const pgb_init_method_values[] = {"range", "hash", NULL};
const char *const pgb_init_kind_values[] = {"pgbench", "tpcc", "ycsb", NULL};

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
    {"kind", OPT_ENUM, NULL, "pgbench", pgb_init_kind_values, "the data set: pgbench's tables; tpcc: TPC-C's nine tables for builtin tpcc-like (docs/steps/tpcc-like.md); ycsb: YCSB's usertable (docs/steps/ycsb-like.md)", 0, NULL, NULL, NULL},
    {"warehouses", OPT_INT, NULL, "1", NULL, "kind: tpcc: TPC-C warehouses (about 100 MB each)", 0, NULL, NULL, "1..100000"},
    /* kind: ycsb, YCSB's usertable (ycsb_init.h) */
    {"records", OPT_INT, NULL, "1000", NULL, "kind ycsb: rows of usertable (YCSB's recordcount)", 0, NULL, NULL, "1..2147483647"},
    {"fields", OPT_INT, NULL, "10", NULL, "kind ycsb: field0..fieldN-1 (YCSB's fieldcount)", 0, NULL, NULL, "1..100"},
    {"field_length", OPT_INT, "bytes", "100", NULL, "kind ycsb: bytes of each field (YCSB's fieldlength)", 0, NULL, NULL, "1..65536"},
};
/* clang-format on */

const struct opt_table pgb_init_opt_table = {
    "pgdata.init",
    "init: (postgres: init:, pgbench: init:)",
    "pgbench's tables, loaded as pgbench -i does (or kind: ycsb, YCSB's usertable).",
    init_rows,
    sizeof(init_rows) / sizeof(init_rows[0]),
    false,
};
