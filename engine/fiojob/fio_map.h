/* fio_map: a fio job file (fio_ini) as a benchgrid scenario: one `io:` step
 * per job (identical jobs of one reporting group merged into one step of
 * their summed numjobs); the jobs fio runs together (no stonewall between
 * them) become a `parallel:` group of those steps; fio's options mapped one
 * to one to the io step's keys (the table is in fio_opts.c and
 * docs/import-fio.md). */
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
	size_t job;            /* its first fio job (0-based, [global] not counted) */
	size_t rgroup;         /* fio's reporting group (its groupid) */
	/* on the first step of a parallel group: the group's name, how many
	 * steps (this one and the next group_len - 1) it holds, its comments */
	char *group;
	size_t group_len;
	bool group_reporting; /* the group is one fio reporting group that fio sums */
	struct fio_strs group_notes;
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
