/* pgb_run_as: pgbench.run_as, the user \shell and \setshell run as: its
 * uid, gid and groups, read once before the run. */
#include "pgb_run_as.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>

int pgb_run_as_user(const char *name, struct pgb_run_cfg *cfg, gid_t **groups, char *err, size_t errlen)
{
	struct passwd *pw = getpwnam(name);
	if (!pw) {
		snprintf(err, errlen, "pgbench.run_as: no user '%s' on this machine", name);
		return -ENOENT;
	}
	int n = 32;
	*groups = calloc((size_t)n, sizeof(gid_t));
	if (*groups && getgrouplist(name, pw->pw_gid, *groups, &n) < 0) {
		gid_t *more = realloc(*groups, (size_t)n * sizeof(gid_t));
		if (more)
			*groups = more;
		if (!more || getgrouplist(name, pw->pw_gid, *groups, &n) < 0) {
			free(*groups);
			*groups = NULL;
		}
	}
	if (!*groups) {
		snprintf(err, errlen, "pgbench.run_as: cannot read the groups of '%s'", name);
		return -ENOMEM;
	}
	cfg->shell_as_user = true;
	cfg->shell_uid = pw->pw_uid;
	cfg->shell_gid = pw->pw_gid;
	cfg->shell_groups = *groups;
	cfg->shell_ngroups = (size_t)n;
	return 0;
}
