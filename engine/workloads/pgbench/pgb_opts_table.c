/* pgb_opts_table: the `pgbench:` step's options (docs/steps/pgbench.md). */
#include "pgb_opts_table.h"

#define ROWS(a) (a), sizeof(a) / sizeof((a)[0])

const char *const pgb_builtin_values[] = {"tpcb-like", "simple-update", "select-only",
                                          "tpcc-like", "ycsb-like",     NULL};
const char *const pgb_protocol_values[] = {"simple", "extended", "prepared", NULL};
const char *const pgb_connect_values[] = {"per_session", "per_transaction", NULL};

/* A script: its text, a file (name@weight), a builtin, or a map. */
#define SCRIPT "{\"anyOf\":[{\"type\":\"string\"},{\"$ref\":\"#/$defs/pgbench.script\"}]}"

/* clang-format off */
static const struct opt_desc pgb_rows[] = {
    {"builtin", OPT_ENUM, NULL, "tpcb-like", pgb_builtin_values, "a builtin script (-b)", 0, NULL, NULL, NULL},
    {"script", OPT_ANY, NULL, NULL, NULL, "one custom script (-f): its text, a file name, or {file|text|builtin, weight}", 0, NULL, SCRIPT, NULL},
    {"scripts", OPT_ANY, NULL, NULL, NULL, "several scripts, chosen per transaction by weight", 0, NULL, "{\"type\":\"array\",\"items\":" SCRIPT "}", NULL},
    {"ycsb", OPT_MAP, NULL, NULL, NULL, "with builtin: ycsb-like: its workload, distribution and sizes", 0, "pgbench.ycsb", NULL, NULL},
    {"protocol", OPT_ENUM, NULL, "simple", pgb_protocol_values, "query protocol (-M)", 0, NULL, NULL, NULL},
    {"clients", OPT_INT, NULL, "1", NULL, "concurrent connections (-c; 1 to 100000)", 0, NULL, NULL, "1..100000"},
    {"threads", OPT_INT, NULL, "1", NULL, "worker threads (-j; 1 to clients)", 0, NULL, NULL, "1..4096"},
    {"duration", OPT_DURATION, "s", NULL, NULL, "run time (-T)", 0, NULL, NULL, NULL},
    {"transactions", OPT_INT, NULL, "10", NULL, "transactions per client (-t); not with duration", 0, NULL, NULL, "1.."},
    {"rate", OPT_NUMBER, "tps", NULL, NULL, "target rate over all clients, Poisson schedule (-R)", 0, NULL, NULL, NULL},
    {"connect", OPT_ENUM, NULL, "per_session", pgb_connect_values, "per_transaction: a new connection per transaction (-C)", 0, NULL, NULL, NULL},
    {"progress", OPT_DURATION, "s", NULL, NULL, "interval of the tps and lat_ms time series (-P)", 0, NULL, NULL, NULL},
    {"scale", OPT_INT, NULL, "read from pgbench_branches", NULL, "value of :scale (-s)", 0, NULL, NULL, "1..2147483647"},
    {"init", OPT_MAP, NULL, NULL, NULL, "load pgbench's tables instead of running (pgbench -i); alone in its step", 0, "pgdata.init", NULL, NULL},
    {"report_statements", OPT_BOOL, NULL, "false", NULL, "per-command latencies (-r)", 0, NULL, NULL, NULL},
    {"seed", OPT_ANY, NULL, "time", NULL, "random seed (--random-seed): an unsigned 64-bit integer, time or rand", 0, NULL,
     "{\"anyOf\":[{\"type\":\"integer\",\"minimum\":0},{\"enum\":[\"time\",\"rand\"]},{\"type\":\"string\",\"pattern\":\"^[0-9]+$|\\\\$\\\\{\"}]}", NULL},
    {"run_as", OPT_STRING, NULL, "root (benchgrid's user)", NULL, "the user whose uid, gid and groups the \\shell and \\setshell commands run with", 0, NULL, NULL, NULL},
    {"vacuum", OPT_BOOL, NULL, "true", NULL, "vacuum and truncate before the run as pgbench does; false is pgbench's -n", 0, NULL, NULL, NULL},
    {"define", OPT_MAP, NULL, NULL, NULL, "variables of every client (-D name=value)", 0, NULL,
     "{\"type\":\"object\",\"additionalProperties\":{\"type\":[\"string\",\"number\",\"boolean\"]}}", NULL},
    {"latency_limit", OPT_DURATION, "s", NULL, NULL, "transactions above it are late; with rate, later ones are skipped (-L; needs a unit)", 0, NULL, NULL, NULL},
    {"max_tries", OPT_INT, NULL, "1", NULL, "tries of a transaction failing by serialization or deadlock; 0 = unbounded (--max-tries)", 0, NULL, NULL, "0..2147483647"},
    {"failures_detailed", OPT_BOOL, NULL, "false", NULL, "count failures by kind (--failures-detailed)", 0, NULL, NULL, NULL},
    {"verbose_errors", OPT_BOOL, NULL, "false", NULL, "every such error, retry and failure into the step's stderr log (--verbose-errors)", 0, NULL, NULL, NULL},
    {"log", OPT_BOOL, NULL, "false", NULL, "transaction logs, one file per thread (-l)", 0, NULL, NULL, NULL},
    {"aggregate_interval", OPT_DURATION, "s", NULL, NULL, "whole seconds: one log line per interval; needs log (--aggregate-interval)", 0, NULL, NULL, NULL},
    {"sampling_rate", OPT_NUMBER, NULL, "1", NULL, "share of transactions logged, in (0, 1]; needs log (--sampling-rate)", 0, NULL, NULL, NULL},
};

static const struct opt_desc script_rows[] = {
    {"file", OPT_STRING, NULL, NULL, NULL, "a script file, relative to the scenario", 0, NULL, NULL, NULL},
    {"text", OPT_STRING, NULL, NULL, NULL, "the script itself", 0, NULL, NULL, NULL},
    {"builtin", OPT_ENUM, NULL, NULL, pgb_builtin_values, "a builtin script", 0, NULL, NULL, NULL},
    {"weight", OPT_INT, NULL, "1", NULL, "relative chance of this script per transaction (0 to 1000000)", 0, NULL, NULL, "0..1000000"},
};
/* clang-format on */

const struct opt_table pgb_opt_table = {
    "pgbench",
    "pgbench: (step)",
    "The pgbench-compatible load driver (docs/steps/pgbench.md). Give one of builtin, script, scripts.",
    ROWS(pgb_rows),
    false,
};

const struct opt_table pgb_script_table = {
    "pgbench.script",
    "pgbench: script: (a map)",
    "Exactly one of file, text, builtin.",
    ROWS(script_rows),
    false,
};
