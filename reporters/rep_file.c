/* rep_file: atomic output files (see rep_file.h). */
#include "rep_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int rep_file_open(struct rep_file *rf, const char *outdir, const char *name, struct diag *d)
{
	memset(rf, 0, sizeof(*rf));
	if (asprintf(&rf->path, "%s/%s", outdir, name) < 0) {
		rf->path = NULL;
		return -ENOMEM;
	}
	if (asprintf(&rf->tmp, "%s.tmp", rf->path) < 0) {
		rf->tmp = NULL;
		free(rf->path);
		rf->path = NULL;
		return -ENOMEM;
	}
	rf->f = fopen(rf->tmp, "w");
	if (!rf->f) {
		int rc = -errno;
		diag_error(d, NULL, "cannot write %s: %s", rf->tmp, strerror(errno));
		free(rf->tmp);
		free(rf->path);
		memset(rf, 0, sizeof(*rf));
		return rc;
	}
	return 0;
}

int rep_file_commit(struct rep_file *rf, struct diag *d)
{
	int rc = 0;
	if (!rf->f)
		return -EINVAL;
	if (fflush(rf->f) != 0 || ferror(rf->f) || fsync(fileno(rf->f)) != 0)
		rc = -(errno ? errno : EIO);
	if (fclose(rf->f) != 0 && rc == 0)
		rc = -errno;
	rf->f = NULL;
	if (rc == 0 && rename(rf->tmp, rf->path) != 0)
		rc = -errno;
	if (rc < 0) {
		diag_error(d, NULL, "cannot write %s: %s", rf->path, strerror(-rc));
		unlink(rf->tmp);
	}
	free(rf->tmp);
	free(rf->path);
	rf->tmp = rf->path = NULL;
	return rc;
}

void rep_file_abort(struct rep_file *rf)
{
	if (rf->f) {
		fclose(rf->f);
		unlink(rf->tmp);
	}
	free(rf->tmp);
	free(rf->path);
	memset(rf, 0, sizeof(*rf));
}
