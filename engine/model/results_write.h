/* results_write: a run as results.json, a cell as one journal line.
 *
 * results.json (format "benchgrid-results", version 1) is the contract; see
 * docs/results.md. It is written as a fresh temporary file (O_EXCL|O_NOFOLLOW),
 * fsync, rename, fsync(dir), so a kill at any moment leaves either the old or
 * the new file, and a link planted in the directory is never written through. The same cell
 * object, on one line, is what the runner's journal appends per finished
 * cell; results_read.h reads both back. */
#ifndef BENCHGRID_RESULTS_WRITE_H
#define BENCHGRID_RESULTS_WRITE_H

#include <jansson.h>
#include <stdio.h>

#include "diag.h"
#include "node.h"
#include "run_cells.h"

/* An output file written whole into the directory dirfd, never through a
 * link: a fresh temporary ".NAME.XXXXXX.tmp" created with O_CREAT|O_EXCL|
 * O_NOFOLLOW (mode 0644), written through f, then fsync'd and renamed over
 * NAME (renameat replaces a link named NAME, it never follows one) and the
 * directory fsync'd. Any failure removes the temporary file. */
struct results_file {
	FILE *f;
	int fd, dirfd;
	char tmp[288];
	char name[256];
};
/* 0 or a negative errno (name must be a plain file name). */
int results_file_open(struct results_file *rf, int dirfd, const char *name);
/* Flush, fsync, close, rename, fsync the directory: 0 or a negative errno
 * (the first error of any of them: ENOSPC surfaces here at the latest). */
int results_file_commit(struct results_file *rf);
/* Close and remove the temporary file; NAME is left as it was. */
void results_file_abort(struct results_file *rf);
/* The whole of buf as NAME in dirfd: 0 or a negative errno. */
int results_file_write(int dirfd, const char *name, const void *buf, size_t len);
/* The same, unless NAME holds exactly these bytes already (then nothing is
 * written: writers that share a directory do not replace a file under one
 * another's readers). */
int results_file_write_changed(int dirfd, const char *name, const void *buf, size_t len);
/* Open the directory of path (O_DIRECTORY; "." for a bare name) and point
 * *base at its last component: a directory fd, or -1 with errno. */
int results_open_dir_of(const char *path, const char **base);

/* Write the whole run as results.json through a results_file: into dirfd
 * as name, or at path (its directory opened once). 0 or a negative errno,
 * with the error in d. */
int results_write_json_at(const struct run *r, int dirfd, const char *name, struct diag *d);
int results_write_json(const struct run *r, const char *path, struct diag *d);
/* One cell as a single-line JSON object followed by '\n' (journal record). */
int results_cell_write_line(FILE *f, const struct run_cell *c);

/* The JSON trees written (new references). */
json_t *results_run_json(const struct run *r);
json_t *results_cell_json(const struct run_cell *c);
/* A scenario node as JSON: maps, sequences; unquoted scalars that are JSON
 * numbers or true/false are written as such, everything else as strings. */
json_t *results_node_json(const struct node *n);

#endif
