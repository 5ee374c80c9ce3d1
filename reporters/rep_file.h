/* rep_file: a reporter's output file, written whole: open outdir/NAME.tmp;
 * commit fsyncs and renames it, abort removes it, so an interrupted
 * `benchgrid report` never leaves half a report behind. */
#ifndef BENCHGRID_REP_FILE_H
#define BENCHGRID_REP_FILE_H

#include <stdio.h>

#include "diag.h"

struct rep_file {
	FILE *f;
	char *tmp, *path;
};
int rep_file_open(struct rep_file *rf, const char *outdir, const char *name, struct diag *d);
int rep_file_commit(struct rep_file *rf, struct diag *d);
void rep_file_abort(struct rep_file *rf);

#endif
