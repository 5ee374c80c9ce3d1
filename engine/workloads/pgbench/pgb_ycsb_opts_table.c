/* pgb_ycsb_opts_table: see pgb_ycsb_opts_table.h. */
#include "pgb_ycsb_opts_table.h"

const char *const pgb_ycsb_workload_values[] = {"a", "b", "c", "d", "e", "f", NULL};
const char *const pgb_ycsb_dist_values[] = {"zipfian", "uniform", "latest", NULL};

/* clang-format off */
static const struct opt_desc rows[] = {
    {"workload", OPT_ENUM, NULL, "a", pgb_ycsb_workload_values, "YCSB's core workload: a 50/50 read/update, b 95/5 read/update, c read, d 95/5 read/insert (latest), e 95/5 scan/insert, f 50/50 read/read-modify-write", 0, NULL, NULL, NULL},
    {"distribution", OPT_ENUM, NULL, "the workload's (latest for d, else zipfian)", pgb_ycsb_dist_values, "request distribution (YCSB's requestdistribution)", 0, NULL, NULL, NULL},
    {"records", OPT_INT, NULL, "1000", NULL, "rows loaded in usertable, as init: {kind: ycsb, records} (YCSB's recordcount)", 0, NULL, NULL, "1..2147483647"},
    {"fields", OPT_INT, NULL, "10", NULL, "fields of usertable, as loaded (YCSB's fieldcount)", 0, NULL, NULL, "1..100"},
    {"field_length", OPT_INT, "bytes", "100", NULL, "bytes of a written field (YCSB's fieldlength)", 0, NULL, NULL, "1..65536"},
    {"scan_length", OPT_INT, NULL, "100", NULL, "a scan reads 1 to this many rows, uniformly (YCSB's maxscanlength)", 0, NULL, NULL, "1..1000000"},
};
/* clang-format on */

const struct opt_table pgb_ycsb_table = {
    "pgbench.ycsb",
    "pgbench: ycsb: (with builtin: ycsb-like)",
    "YCSB's core workloads over usertable (docs/steps/ycsb-like.md).",
    rows,
    sizeof(rows) / sizeof(rows[0]),
    false,
};
