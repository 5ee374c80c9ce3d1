/* pgb_run_as: the user pgbench.run_as names, for the shell commands. */
#ifndef PGB_RUN_AS_H
#define PGB_RUN_AS_H

#include <stddef.h>
#include <sys/types.h>

#include "pgb_run_cfg.h"

/* Fills cfg's shell_* fields with `name`'s uid, gid and groups (*groups:
 * the caller frees it after the run). 0, or a negative errno with a
 * message naming pgbench.run_as in err. */
int pgb_run_as_user(const char *name, struct pgb_run_cfg *cfg, gid_t **groups, char *err, size_t errlen);

#endif
