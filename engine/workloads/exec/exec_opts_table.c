/* exec_opts_table: the `exec:` step's options (docs/steps/exec.md). */
#include "exec_opts_table.h"

/* clang-format off */
static const struct opt_desc exec_rows[] = {
    {"command", OPT_STRING, NULL, NULL, NULL, "a string runs with /bin/sh -c; a list is the argument vector, run without a shell", OPT_REQUIRED | OPT_OR_LIST, NULL, NULL, NULL},
    {"timeout", OPT_DURATION, "s", "the step's timeout", NULL, "then SIGTERM to the command's process group, SIGKILL a second later", 0, NULL, NULL, NULL},
    {"env", OPT_MAP, NULL, NULL, NULL, "extra environment variables, NAME: value", 0, NULL,
     "{\"type\":\"object\",\"propertyNames\":{\"pattern\":\"^[A-Za-z_][A-Za-z0-9_]*$\"},\"additionalProperties\":{\"type\":[\"string\",\"number\",\"boolean\"]}}", NULL},
    {"parse", OPT_STRING, NULL, NULL, NULL, "a shipped parser (dd, pgbench, fio, hdparm, bench.sh, sysbench) or a Lua function of hooks:", 0, NULL, NULL, NULL},
    {"tail", OPT_SIZE, "bytes", "4k", NULL, "how much of the end of stdout and stderr is kept and quoted in errors", 0, NULL, NULL, NULL},
};
/* clang-format on */

const struct opt_table exec_opt_table = {
    "exec",
    "exec: (step)",
    "An external command and its parser (docs/steps/exec.md). `exec: \"CMD\"` is short for `exec: {command: "
    "\"CMD\"}`.",
    exec_rows,
    sizeof(exec_rows) / sizeof(exec_rows[0]),
    false,
};
