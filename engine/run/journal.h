/* journal: what --resume, a share and `merge` read back from an output
 * directory.
 *
 *   journal.jsonl  one line per finished cell, appended and fsync'd; a torn
 *                  last line (kill -9 in the middle of a write) is dropped
 *   shards/I-of-N.jsonl  the same for share I of N (`run --shard`): each
 *                  share appends only to its own, so no two writers, on one
 *                  host or several, ever append to one file
 *   plan.tsv       every planned cell with a fingerprint of everything
 *                  that decides how it runs (its tree, repeat, warmup) and
 *                  its label
 * A resumed run skips the cells of the journal, and refuses to when a
 * finished cell's fingerprint changed. */
#ifndef BENCHGRID_JOURNAL_H
#define BENCHGRID_JOURNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cell.h"
#include "diag.h"
#include "results.h"
#include "spec.h"

#define JOURNAL_NAME "journal.jsonl"

/* All take the output directory's fd (outdir.h) and never follow a link in
 * it; outdir is its path, for messages. */

/* The fingerprint of a cell: a hash of everything that decides how it
 * runs (its interpolated tree, parameters, repeat and warmup). Each
 * finished cell records it as its fact `fingerprint`. */
uint64_t journal_cell_fingerprint(const struct spec *s, const struct cell *c, int64_t repeat, int64_t warmup);
/* Write plan.tsv (unless it holds these bytes already: the shares of a
 * sweep all write it): 0 or a negative errno. */
int journal_write_plan(int dirfd, const struct spec *s, const struct cell *cells, size_t n, int64_t repeat,
                       int64_t warmup);
/* On resume: every cell of run that is still planned must run the same way
 * now, or its old figures would be mixed with new ones. A cell's own
 * `fingerprint` fact is compared, else (older journals) plan.tsv's. 0 or
 * -EINVAL with errors in d. */
int journal_check_plan(int dirfd, const char *outdir, const struct run *run, const struct spec *s,
                       const struct cell *cells, size_t n, int64_t repeat, int64_t warmup, struct diag *d);
/* Read the cells of the journal `name` (in dirfd; shown as `shown` in
 * messages) into run; a cell finished twice keeps the one that started
 * last. With own (the journal this process appends to), a torn last line is
 * cut; another writer's journal is only read (its last line may be being
 * written). The number of cells read (0 when there is no journal) or
 * -EINVAL with the error in d (a link, a file that is not ours). */
int journal_load(struct run *run, int dirfd, const char *name, const char *shown, bool own, struct diag *d);
/* Is the journal name in dirfd locked by a live writer (a share running)? */
bool journal_busy(int dirfd, const char *name);
/* Open the journal `name` for appending: created (it must not exist) for a
 * new run, or the existing one of ours on resume. An fd, or a negative
 * errno with the error in d. */
int journal_open(int dirfd, const char *name, const char *shown, bool resume, struct diag *d);

/* The planned cells of plan.tsv, in run order. */
struct plan_entry {
	char id[13];
	size_t index;
	uint64_t fingerprint;
	char *label; /* the cell's parameters, "fs=ext4 bs=4k" (owned) */
};
/* Read plan.tsv: 0 with *out (free with journal_plan_free), -ENOENT when
 * there is none, or another negative errno (a read error is one: a file
 * replaced under the reader on NFS gives ESTALE). */
int journal_read_plan(int dirfd, struct plan_entry **out, size_t *n);
void journal_plan_free(struct plan_entry *p, size_t n);
/* Append a finished cell as one line and fsync: 0 or a negative errno; on
 * failure the journal is cut back to where it was (no torn line). */
int journal_append(int fd, const struct run_cell *rc);

#endif
