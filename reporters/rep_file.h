/* rep_file: a reporter's output file, written whole: open opens outdir (a
 * directory, once) and a fresh temporary file in it (O_EXCL|O_NOFOLLOW,
 * results_write.h's results_file); commit fsyncs and renames it over NAME,
 * abort removes it, so an interrupted `benchgrid report` never leaves half a
 * report behind and a link planted in outdir is never written through. */
#ifndef BENCHGRID_REP_FILE_H
#define BENCHGRID_REP_FILE_H

#include <stdio.h>

#include "diag.h"
#include "results_write.h"

struct rep_file {
	FILE *f; /* write the report here */
	int dirfd;
	char *path; /* OUTDIR/NAME, for messages */
	struct results_file out;
};
/* 0 or a negative errno with the error in d. */
int rep_file_open(struct rep_file *rf, const char *outdir, const char *name, struct diag *d);
/* 0 or a negative errno (a write, fsync or rename failed: ENOSPC...) with
 * the error in d; the temporary file is gone either way. */
int rep_file_commit(struct rep_file *rf, struct diag *d);
void rep_file_abort(struct rep_file *rf);

#endif
