/* share: the files of one share of a sweep (`run --shard i/n`) in the
 * output directory shared by every host:
 *
 *   shards/I-of-N.jsonl         the share's journal (journal.h), held with an
 *                               flock while the share runs, so the same share
 *                               started twice is refused
 *   shards/I-of-N.json          who runs it: {"share", "host", "pid",
 *                               "started", "finished" (0 while running),
 *                               "cells": [ids of the share]}
 *   shards/I-of-N.results.json  the share's cells in results.json's format
 *                               (the run's facts for `merge`)
 * Every file is written whole (temporary name, fsync, rename) or appended
 * only by its own share: nothing is appended by two writers. */
#ifndef BENCHGRID_SHARE_H
#define BENCHGRID_SHARE_H

#include <stdbool.h>
#include <stddef.h>

#include "cell.h"
#include "diag.h"
#include "outdir.h" /* SHARES_DIR */
#include "results.h"

struct share {
	size_t i, n;
	int dirfd;        /* DIR/shards */
	char journal[64]; /* "I-of-N.jsonl" */
	char meta[64];    /* "I-of-N.json" */
	char results[64]; /* "I-of-N.results.json" */
	char shown[4200]; /* DIR/shards/I-of-N.jsonl, for messages */
	char host[256];
};

/* Create and open DIR/shards (outfd is DIR). 0 or -EINVAL with d. */
int share_open(struct share *sh, int outfd, const char *outdir, size_t i, size_t n, struct diag *d);
void share_close(struct share *sh);
/* Take the share's lock on its open journal (retried for 2 s: `merge`
 * tests the lock for a moment): 0, or -EINVAL with d when another process
 * runs the same share into this directory. */
int share_lock(const struct share *sh, int journal_fd, struct diag *d);
/* The cells other writers finished: journal.jsonl and every other share's
 * journal, read without changing them. A share of another split (another
 * n) that is still running is refused: the two would run the same cells.
 * 0 or -EINVAL with d. */
int share_load_others(const struct share *sh, int outfd, const char *outdir, struct run *done,
                      struct diag *d);
/* Is name a share's journal ("I-of-N.jsonl")? Its i and n, if so. */
bool share_is_journal(const char *name, size_t *i, size_t *n);
/* Write shards/I-of-N.json for the share's cells (share_of[k] == sh->i). */
int share_write_meta(const struct share *sh, const struct cell *cells, size_t n, const size_t *share_of,
                     double started, double finished);

#endif
