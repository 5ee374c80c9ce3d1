/* spec_opts_table: the scenario's top level, a step, matrix: and profiles:
 * as option tables. Rows marked OPT_PENDING are keys this build does not
 * read yet (they are in the schema so editors know them). */
#include "spec_opts_table.h"

#define ROWS(a) (a), sizeof(a) / sizeof((a)[0])

/* Every map level also takes `x-...` keys in the schema (see cli_schema.c). */

static const char *const run_orders[] = {"grouped", "interleave", "random", NULL};

/* clang-format off */
static const struct opt_desc top_rows[] = {
    {"benchgrid", OPT_INT, NULL, "1", NULL, "format version; only 1 exists", 0, NULL, "{\"const\":1}", NULL},
    {"name", OPT_STRING, NULL, "the file name", NULL, "the run's title; ${var} in it takes the variables", 0, NULL, NULL, NULL},
    {"description", OPT_STRING, NULL, NULL, NULL, "shown in report.md as plain text", 0, NULL, NULL, NULL},
    {"notes", OPT_STRING, NULL, NULL, NULL, "the scenario's caveats, printed in report.md under the title", OPT_OR_LIST, NULL, NULL, NULL},
    {"include", OPT_STRING, NULL, NULL, NULL, "other scenario files merged before this one's keys (relative to this file)", OPT_OR_LIST, NULL, NULL, NULL},
    {"vars", OPT_MAP, NULL, NULL, NULL, "constants usable as ${name}; -D name=value overrides", 0, NULL, "{\"type\":\"object\",\"additionalProperties\":{\"type\":[\"string\",\"number\",\"boolean\",\"null\"]}}", NULL},
    {"profiles", OPT_MAP, NULL, "the first", NULL, "named sets of vars; -D profile=NAME selects one", OPT_MAP_OF, "profiles", NULL, NULL},
    {"matrix", OPT_MAP, NULL, "one cell", NULL, "the parameters to sweep: NAME: [values], zip, exclude, include, filter", 0, "matrix", NULL, NULL},
    {"repeat", OPT_INT, "runs", "1", NULL, "recorded runs of each cell's steps (1 to 1000000), or {min, max, until: 2%, metrics: [step.metric]}: more runs until the metrics are steady", 0, NULL,
     "{\"anyOf\":[{\"type\":\"integer\",\"minimum\":1},{\"type\":\"object\",\"properties\":{"
     "\"min\":{\"type\":\"integer\",\"minimum\":1,\"description\":\"runs always made\"},"
     "\"max\":{\"type\":\"integer\",\"minimum\":1,\"description\":\"most runs\"},"
     "\"until\":{\"type\":\"string\",\"pattern\":\"^[0-9.]+%$\",\"description\":\"stop once the confidence interval is within this percent of the mean\"},"
     "\"metrics\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"description\":\"the metrics the rule watches (step.metric)\"}},"
     "\"patternProperties\":{\"^x-\":{}},\"additionalProperties\":false}]}", NULL},
    {"warmup", OPT_INT, "runs", "0", NULL, "unrecorded runs before the recorded ones", 0, NULL, NULL, "0..1000000"},
    {"run_order", OPT_ENUM, NULL, "grouped", run_orders, "the order of the repetitions: each cell's in a row (grouped), repetition 1 of every cell then 2, ... (interleave), or shuffled with a recorded seed (random)", 0, NULL, NULL, NULL},
    {"run_order_seed", OPT_INT, NULL, NULL, NULL, "the seed of run_order: random", 0, NULL, NULL, NULL},
    {"timeout", OPT_DURATION, "s", NULL, NULL, "default time limit of every step", 0, NULL, NULL, NULL},
    {"lua_budget", OPT_DURATION, "s", "10s", NULL, "how long one hook call or !lua value may run before it is stopped", 0, NULL, NULL, NULL},
    {"models", OPT_BOOL, NULL, "true", NULL, "false: no target's model: is applied in the cell (its control arm); memory limits and sysctls stay", 0, NULL, NULL, NULL},
    {"model_scale", OPT_NUMBER, NULL, "1", NULL, "every model's bps/iops limits and refill_bps times this, latency service times divided by it (sizes unchanged)", 0, NULL, "{\"type\":\"number\",\"exclusiveMinimum\":0}", NULL},
    {"target", OPT_MAP, NULL, "{kind: dir}", NULL, "where the cell's files and PostgreSQL data live", 0, "target", NULL, NULL},
    {"targets", OPT_MAP, NULL, NULL, NULL, "more targets by name (a WAL file system, a tablespace), as ${targets.NAME.path}", OPT_MAP_OF, "target", NULL, NULL},
    {"postgres", OPT_MAP, NULL, NULL, NULL, "a managed (or external) PostgreSQL server", 0, "postgres", NULL, NULL},
    {"sysctl", OPT_MAP, NULL, NULL, NULL, "kernel settings (NAME: value) for the cell, restored afterwards", 0, NULL, "{\"type\":\"object\",\"additionalProperties\":{\"type\":[\"string\",\"number\",\"boolean\"]}}", NULL},
    {"queue", OPT_MAP, NULL, NULL, NULL, "block-queue settings of the target's device, restored afterwards", 0, "queue", NULL, NULL},
    {"steps", OPT_LIST, NULL, NULL, NULL, "what each cell runs, in order", OPT_REQUIRED, "step", NULL, NULL},
    {"hooks", OPT_STRING, NULL, NULL, NULL, "Lua hook functions (a block of Lua text)", 0, NULL, NULL, NULL},
    {"hooks_file", OPT_STRING, NULL, NULL, NULL, "a Lua file of hook functions, relative to the scenario", 0, NULL, NULL, NULL},
    {"expect", OPT_LIST, NULL, NULL, NULL, "published figures with tolerances, ratios and orders", 0, "expect",
     "{\"type\":\"array\",\"items\":{\"anyOf\":[{\"$ref\":\"#/$defs/expect.ratio\"},{\"$ref\":\"#/$defs/expect.order\"},{\"$ref\":\"#/$defs/expect\"}]}}", NULL},
    {"report", OPT_MAP, NULL, NULL, NULL, "pivot tables and charts of report.md", 0, "report", NULL, NULL},
};

static const struct opt_desc step_rows[] = {
    {"name", OPT_STRING, NULL, "step1, step2, ... by position", NULL, "the step's name; metrics are addressed as NAME.metric", 0, NULL, NULL, NULL},
    {"record", OPT_BOOL, NULL, "true", NULL, "false: run it (a warmup) but keep no figures", 0, NULL, NULL, NULL},
    {"timeout", OPT_DURATION, "s", "the scenario's timeout", NULL, "time limit of the step", 0, NULL, NULL, NULL},
    {"server_stats", OPT_BOOL, NULL, "true", NULL, "false: do not sample the server's activity (pgbench and exec steps)", 0, NULL, NULL, NULL},
    {"headline", OPT_LIST, NULL, "by the step: iops (random, blocks <= 64 KiB), mb_s (sequential, larger blocks), tps (pgbench), elapsed_s (exec); lat_p99", NULL, "the metrics a person reads first (reports, compare, history, the live line), e.g. [iops, lat_p99_us]", 0, NULL,
     "{\"type\":\"array\",\"minItems\":1,\"items\":{\"type\":\"string\"}}", NULL},
    {"when", OPT_BOOL, NULL, "true", NULL, "run the step only when true: a !lua predicate over the cell's parameters and vars", OPT_ELSEWHERE, NULL, NULL, NULL},
    {"background", OPT_BOOL, NULL, "false", NULL, "true: the step starts and the next steps start beside it; it runs until the cell's foreground steps end, then is stopped cleanly (its figures cover the overlap)", 0, NULL, NULL, NULL},
    {"parallel", OPT_MAP, NULL, NULL, NULL, "instead of a workload: a group of steps that start together, {until: all|first, steps: [...]}; the group's when, timeout, record and server_stats apply to its steps", 0, "parallel", NULL, NULL},
};

static const char *const until_values[] = {"all", "first", NULL};

static const struct opt_desc parallel_rows[] = {
    {"until", OPT_ENUM, NULL, "all", until_values, "when the group ends: when all its steps have ended, or when the first ends (the others are then stopped cleanly)", 0, NULL, NULL, NULL},
    {"steps", OPT_LIST, NULL, NULL, NULL, "the steps that start together (two or more; each with its own name and metrics; no when:, background: or parallel: in them)", OPT_REQUIRED, "step", NULL, NULL},
    {"group_reporting", OPT_BOOL, NULL, "false", NULL, "io steps only: also record one total of the group, named after it (GROUP.iops, GROUP.read.lat_p99_us, ...), summed as fio's group_reporting sums a reporting group", 0, NULL, NULL, NULL},
};

static const struct opt_desc matrix_rows[] = {
    {"zip", OPT_MAP, NULL, NULL, NULL, "axes that vary together (equal-length lists), as one axis; or a list of such maps, one axis each", 0, NULL,
     "{\"anyOf\":[{\"type\":\"object\",\"additionalProperties\":{\"type\":\"array\"}},{\"type\":\"array\",\"items\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"array\"}}}]}", NULL},
    {"exclude", OPT_LIST, NULL, NULL, NULL, "cells to drop: maps of parameter: value (plain values, not lists)", 0, NULL,
     "{\"type\":\"array\",\"items\":{\"type\":\"object\",\"minProperties\":1,\"additionalProperties\":{\"type\":[\"string\",\"number\",\"boolean\",\"null\"]}}}", NULL},
    {"include", OPT_LIST, NULL, NULL, NULL, "extra cells: maps of parameter: value (plain values)", 0, NULL,
     "{\"type\":\"array\",\"items\":{\"type\":\"object\",\"minProperties\":1,\"additionalProperties\":{\"type\":[\"string\",\"number\",\"boolean\",\"null\"]}}}", NULL},
    {"filter", OPT_STRING, NULL, NULL, NULL, "a !lua predicate over the parameters: cells where it is false are dropped", 0, NULL, NULL, NULL},
};
/* clang-format on */

const struct opt_table spec_top_table = {
    "scenario",
    "Scenario (top level)",
    "The keys of a scenario file. Every map also takes keys starting with x- (ignored; a place for YAML "
    "anchors).",
    ROWS(top_rows),
    false,
};

const struct opt_table spec_step_table = {
    "step",
    "Steps (steps: [...])",
    "Each step is a map with one workload key (io, pgbench or exec), or a parallel: group, and these common "
    "keys.",
    ROWS(step_rows),
    false,
};

const struct opt_table spec_parallel_table = {
    "parallel",
    "parallel: (a group of steps that start together)",
    "A step with parallel: runs its steps at once, each on its own thread, each with its own metrics "
    "(NAME.metric). Their time series count seconds from the start of the first step of the overlap.",
    ROWS(parallel_rows),
    false,
};

const struct opt_table spec_matrix_table = {
    "matrix",
    "matrix:",
    "Any other key is a parameter: NAME: [values] (the axes of the cross product).",
    ROWS(matrix_rows),
    true,
};

const struct opt_table spec_profile_table = {
    "profiles",
    "profiles: NAME:",
    "A profile is a map of variable: value, used instead of vars: of the same name.",
    NULL,
    0,
    true,
};
