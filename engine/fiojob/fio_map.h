/* fio_map: a fio job file (fio_ini) as a benchgrid scenario: one `io:` step
 * per job, or per group of jobs that run together (no stonewall between
 * them) with the same options; fio's options mapped one to one to the io
 * step's keys (the table is in fio_opts.c and docs/import-fio.md). */
#ifndef BENCHGRID_FIO_MAP_H
#define BENCHGRID_FIO_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "diag.h"
#include "fio_ini.h"
#include "fio_job.h"
#include "fio_kv.h"

struct fio_step {
	char *name;
	struct fio_kvl io;
	struct fio_strs notes; /* comments written above the step's keys */
};

struct fio_scenario {
	char *source; /* the job file as given */
	char *name;
	char *target_kind; /* "dir" or "device" */
	char *target_path; /* NULL: a fresh temporary directory */
	bool destroy;      /* a device target that is written */
	struct fio_step *step;
	size_t n, cap;
	struct fio_strs notes; /* comments in the header */
};

/* Map the job file. Every option or value benchgrid does not support is
 * reported at its line: an error, or a warning and a comment in the
 * scenario with `partial`. fio's ioengine names are mapped by engine_of
 * (fio_job.h). Returns 0 when a scenario can be written. */
int fio_map(const struct fio_ini *ini, const char *source, bool partial, fio_engine_fn engine_of,
            struct fio_scenario *sc, struct diag *d);
void fio_scenario_free(struct fio_scenario *sc);

#endif
