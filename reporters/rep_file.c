/* rep_file: atomic output files (see rep_file.h). */
#include "rep_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void rep_file_clear(struct rep_file *rf)
{
	if (rf->dirfd >= 0)
		close(rf->dirfd);
	free(rf->path);
	memset(rf, 0, sizeof(*rf));
	rf->dirfd = -1;
}

int rep_file_open(struct rep_file *rf, const char *outdir, const char *name, struct diag *d)
{
	memset(rf, 0, sizeof(*rf));
	rf->dirfd = -1;
	if (asprintf(&rf->path, "%s/%s", outdir, name) < 0) {
		rf->path = NULL;
		return -ENOMEM;
	}
	int rc = 0;
	rf->dirfd = open(outdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rf->dirfd < 0)
		rc = -errno;
	else
		rc = results_file_open(&rf->out, rf->dirfd, name);
	if (rc < 0) {
		diag_error(d, NULL, "cannot write %s: %s", rf->path, strerror(-rc));
		rep_file_clear(rf);
		return rc;
	}
	rf->f = rf->out.f;
	return 0;
}

int rep_file_commit(struct rep_file *rf, struct diag *d)
{
	if (!rf->f)
		return -EINVAL;
	int rc = results_file_commit(&rf->out);
	if (rc < 0)
		diag_error(d, NULL, "cannot write %s: %s", rf->path, strerror(-rc));
	rep_file_clear(rf);
	return rc;
}

void rep_file_abort(struct rep_file *rf)
{
	if (rf->f)
		results_file_abort(&rf->out);
	if (rf->f || rf->path)
		rep_file_clear(rf);
}
