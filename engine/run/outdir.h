/* outdir: the output directory of a run and the files written into it
 * whole: created with its parents, written as NAME.tmp then fsync'd and
 * renamed, so a killed run never leaves half a file. */
#ifndef BENCHGRID_OUTDIR_H
#define BENCHGRID_OUTDIR_H

#include <stddef.h>
#include <sys/types.h>

/* benchgrid-out/NAME-YYYYmmdd-HHMMSS for the scenario's name (malloc'd),
 * or NULL. */
char *outdir_default(const char *scenario_name);
/* mkdir -p: 0 or a negative errno. */
int outdir_mkdir_p(const char *path, mode_t mode);
/* Replace path by text atomically: 0 or a negative errno. */
int outdir_write_atomic(const char *path, const char *text, size_t len);
/* A copy of the scenario file as OUTDIR/scenario.yaml, for the record. */
void outdir_copy_scenario(const char *outdir, const char *scenario_file);

#endif
