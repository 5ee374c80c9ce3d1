/* merge: join the shares of a sweep (see merge.h). */
#include "merge.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "expect.h"
#include "journal.h"
#include "jsonio.h"
#include "outdir.h"
#include "rep.h"
#include "results.h"
#include "safe_file.h"
#include "share.h"
#include "term_escape.h"

/* What shards/I-of-N.json says of one share. */
struct share_info {
	char *name; /* "I/N" */
	char *host;
	double started, finished;
	bool running; /* its journal is locked: a process still writes it */
	json_t *cells;
};

struct merge {
	const char *outdir;
	int outfd, sharesfd;
	struct run run; /* the facts of the earliest share, then every cell */
	bool have_header;
	struct share_info *shares;
	size_t nshares;
};

/* A file of DIR (or DIR/shards) as JSON: never through a link, a regular
 * file only (a FIFO a share left there does not block), at most
 * SAFE_FILE_RESULTS_MAX bytes (util/safe_file). */
static json_t *load_json_at(int dirfd, const char *name)
{
	struct stat st;
	char err[512];
	size_t len;
	int fd = safe_file_openat(dirfd, name, SAFE_FILE_PRIVATE_OK, &st, err, sizeof(err));
	char *text =
	    fd >= 0 ? safe_file_read_fd(fd, name, SAFE_FILE_RESULTS_MAX, &len, err, sizeof(err)) : NULL;
	json_t *v = text ? json_loadb(text, len, 0, NULL) : NULL;
	free(text);
	return v;
}

/* The run's facts (scenario, report:, expect:, machine) from a results
 * file; the earliest-started one wins, as the sweep began there. */
static void take_header(struct merge *M, int dirfd, const char *name, struct diag *d)
{
	json_t *v = load_json_at(dirfd, name);
	if (!v)
		return;
	struct run r;
	struct diag rd;
	diag_init(&rd);
	if (results_from_json(&r, v, name, &rd) == 0) {
		/* Only the facts: the journals are the record of the cells. */
		for (size_t i = 0; i < r.ncells; i++)
			run_cell_free(&r.cells[i]);
		r.ncells = 0;
		if (!M->have_header || r.started < M->run.started) {
			run_free(&M->run);
			M->run = r;
			M->have_header = true;
		} else {
			run_free(&r);
		}
	} else {
		diag_warn(d, NULL, "%s/%s: not read: %s", M->outdir, name,
		          rd.n ? rd.v[0].msg : "not a results file");
	}
	diag_free(&rd);
	json_decref(v);
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a > b && !strcmp(s + a - b, suf);
}

static void take_share_info(struct merge *M, const char *name)
{
	json_t *v = load_json_at(M->sharesfd, name);
	if (!v)
		return;
	struct share_info si = {
	    .name = strdup(jsonio_get_str(v, "share", "?")),
	    .host = strdup(jsonio_get_str(v, "host", "?")),
	    .started = jsonio_get_num(v, "started", 0),
	    .finished = jsonio_get_num(v, "finished", 0),
	    .cells = json_incref(json_object_get(v, "cells")),
	};
	/* A live share holds an flock on its journal (share_lock). */
	char journal[80];
	snprintf(journal, sizeof(journal), "%.*s.jsonl", (int)(strlen(name) - 5), name);
	si.running = journal_busy(M->sharesfd, journal);
	json_decref(v);
	M->shares = realloc(M->shares, (M->nshares + 1) * sizeof(*M->shares));
	M->shares[M->nshares++] = si;
}

/* Every share's files: facts, who ran what, and the finished cells. */
static int read_shares(struct merge *M, struct diag *d)
{
	int fd = dup(M->sharesfd);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	struct dirent *e;
	char **journals = NULL;
	size_t nj = 0;
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		if (has_suffix(e->d_name, ".results.json"))
			take_header(M, M->sharesfd, e->d_name, d);
		else if (has_suffix(e->d_name, ".json"))
			take_share_info(M, e->d_name);
		else if (share_is_journal(e->d_name, &(size_t){0}, &(size_t){0})) {
			journals = realloc(journals, (nj + 1) * sizeof(*journals));
			journals[nj++] = strdup(e->d_name);
		}
	}
	closedir(dir);
	int rc = 0;
	for (size_t i = 0; i < nj; i++) {
		char shown[4400];
		snprintf(shown, sizeof(shown), "%s/%s/%s", M->outdir, SHARES_DIR, journals[i]);
		if (journal_load(&M->run, M->sharesfd, journals[i], shown, false, d) < 0)
			rc = -EINVAL;
		free(journals[i]);
	}
	free(journals);
	return rc;
}

/* The share that was given cell id last (a resubmission with another
 * number of shares gives it again), or NULL. */
static const struct share_info *share_of(const struct merge *M, const char *id)
{
	const struct share_info *best = NULL;
	for (size_t i = 0; i < M->nshares; i++) {
		size_t k;
		json_t *c;
		json_array_foreach(M->shares[i].cells, k, c)
		{
			if (json_is_string(c) && !strcmp(json_string_value(c), id) &&
			    (!best || M->shares[i].started > best->started))
				best = &M->shares[i];
		}
	}
	return best;
}

/* Text from the shard folders (ids, labels, hosts, share names, errors)
 * reaches the terminal escaped (term_escape.h): one-line fields with
 * their line breaks shown, the error with its lines kept. */
static void say(const char *s)
{
	term_fput(stderr, s, 0);
}

static void gap_head(const char *what, const struct plan_entry *pe)
{
	fprintf(stderr, "%s: ", what);
	say(pe->id);
	fputs(" (", stderr);
	say(pe->label);
	fputs("): ", stderr);
}

/* List the planned cells that did not finish ok; returns how many. */
static size_t list_gaps(const struct merge *M, const struct plan_entry *p, size_t np, bool quiet)
{
	size_t gaps = 0;
	for (size_t k = 0; k < np; k++) {
		const struct run_cell *c = run_find_cell(&M->run, p[k].id);
		/* an interleaved share killed between two repetitions of a cell */
		const char *partial = c ? result_info_get(&c->facts, "repeat.partial") : NULL;
		if (c && c->status != RUN_FAILED && !partial)
			continue;
		gaps++;
		if (quiet)
			continue;
		const struct share_info *si = share_of(M, p[k].id);
		if (partial) {
			const char *share = result_info_get(&c->facts, "share");
			gap_head("unfinished", &p[k]);
			fputs("share ", stderr);
			say(share ? share : "-");
			fputs(": ", stderr);
			say(partial);
			fputs(" recorded; run that share again\n", stderr);
		} else if (c) {
			const char *host = result_info_get(&c->facts, "host");
			const char *share = result_info_get(&c->facts, "share");
			gap_head("failed", &p[k]);
			fputs("share ", stderr);
			say(share ? share : "-");
			fputs(" on ", stderr);
			say(host ? host : "?");
			fputs(": ", stderr);
			term_fput(stderr, c->error ? c->error : "(no error text)", TERM_KEEP_LINES);
			fputc('\n', stderr);
		} else if (si) {
			gap_head("missing", &p[k]);
			fputs("share ", stderr);
			say(si->name);
			fputs(" on ", stderr);
			say(si->host);
			fprintf(stderr, "%s\n",
			        si->running ? " (that share is still running)"
			        : si->finished > 0
			            ? " (that share finished without it: killed or interrupted?)"
			            : " (that share ended before it: killed?)");
		} else {
			gap_head("missing", &p[k]);
			fputs("no share has run it yet\n", stderr);
		}
	}
	return gaps;
}

/* Only planned cells count (a journal may hold cells of an --only run). */
static void keep_planned(struct merge *M, const struct plan_entry *p, size_t np)
{
	size_t out = 0;
	for (size_t i = 0; i < M->run.ncells; i++) {
		bool planned = false;
		for (size_t k = 0; k < np && !planned; k++)
			planned = !strcmp(p[k].id, M->run.cells[i].id);
		if (planned)
			M->run.cells[out++] = M->run.cells[i];
		else
			run_cell_free(&M->run.cells[i]);
	}
	M->run.ncells = out;
	M->run.nplanned = np;
}

/* The machine facts are the earliest share's: when shares ran on several
 * hosts, say which hosts, so nobody reads one host's facts as all's. */
static void note_hosts(struct merge *M)
{
	char *list = NULL;
	size_t len = 0, distinct = 0;
	FILE *f = open_memstream(&list, &len);
	if (!f)
		return;
	for (size_t i = 0; i < M->nshares; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(M->shares[i].host, M->shares[j].host);
		if (!seen)
			fprintf(f, "%s%s", distinct++ ? ", " : "", M->shares[i].host);
	}
	fclose(f);
	const char *from = result_info_get(&M->run.env, "machine.host");
	if (distinct > 1)
		result_info(&M->run.env, "machine.hosts", "%s (the other machine.* facts are %s's)", list,
		            from ? from : "one host");
	free(list);
}

/* results.json, the reports and `expect:`: 0 or 1 (a write failed or a
 * strict expectation failed). */
static int write_outputs(struct merge *M, struct diag *d)
{
	int bad = 0;
	note_hosts(M);
	run_sort_cells(&M->run);
	double last = 0;
	for (size_t i = 0; i < M->nshares; i++)
		last = M->shares[i].finished > last ? M->shares[i].finished : last;
	M->run.finished = last > 0 ? last : clock_wall();
	int rc = results_write_json_at(&M->run, M->outfd, "results.json", d);
	if (rc < 0) {
		diag_error(d, NULL, "cannot write %s/results.json: %s", M->outdir, strerror(-rc));
		bad = 1;
	}
	rc = rep_write_all(&M->run, M->outdir, d);
	if (rc < 0 && rc != -EINVAL)
		bad = 1;
	if (expect_strict_failures(&M->run, d) > 0)
		bad = 1;
	return bad;
}

static int merge_plan(struct merge *M, bool quiet, struct diag *d)
{
	struct plan_entry *p;
	size_t np;
	int rc = journal_read_plan(M->outfd, &p, &np);
	if (rc < 0) {
		diag_error(d, NULL, "%s/plan.tsv: %s", M->outdir,
		           rc == -ENOENT ? "missing: not the output directory of a benchgrid run"
		                         : strerror(-rc));
		return -EINVAL;
	}
	char err[4600] = "", path[4200];
	snprintf(path, sizeof(path), "%s/%s", M->outdir, SHARES_DIR);
	/* A local run has no shares/ (and merge does not make one). */
	struct stat st;
	bool has_shares = fstatat(M->outfd, SHARES_DIR, &st, AT_SYMLINK_NOFOLLOW) == 0;
	if (has_shares)
		M->sharesfd = outdir_subdir(M->outfd, SHARES_DIR, path, err, sizeof(err));
	take_header(M, M->outfd, "results.json", d); /* a local run's, if any */
	char shown[4300];
	snprintf(shown, sizeof(shown), "%s/%s", M->outdir, JOURNAL_NAME);
	if ((has_shares && (M->sharesfd < 0 || read_shares(M, d) < 0)) ||
	    journal_load(&M->run, M->outfd, JOURNAL_NAME, shown, false, d) < 0) {
		if (err[0])
			diag_error(d, NULL, "output directory: %s", err);
		journal_plan_free(p, np);
		return -EINVAL;
	}
	if (!M->have_header) {
		diag_error(
		    d, NULL,
		    "%s holds no results file of a share (shards/I-of-N.results.json) nor results.json: "
		    "no share has started yet",
		    M->outdir);
		journal_plan_free(p, np);
		return -EINVAL;
	}
	keep_planned(M, p, np);
	size_t gaps = list_gaps(M, p, np, quiet);
	int bad = write_outputs(M, d);
	if (!quiet) {
		fprintf(
		    stderr,
		    "merged %zu of %zu planned cells from %zu share%s: %zu missing or failed; results in ",
		    M->run.ncells, np, M->nshares, M->nshares == 1 ? "" : "s", gaps);
		say(M->outdir);
		fputc('\n', stderr);
	}
	journal_plan_free(p, np);
	return gaps || bad ? 1 : 0;
}

int merge_run(const char *outdir, bool quiet, struct diag *d)
{
	struct merge M = {.outdir = outdir, .sharesfd = -1};
	run_init(&M.run);
	if ((M.outfd = outdir_open(outdir, true, d)) < 0)
		return -EINVAL;
	int rc = merge_plan(&M, quiet, d);
	for (size_t i = 0; i < M.nshares; i++) {
		free(M.shares[i].name);
		free(M.shares[i].host);
		json_decref(M.shares[i].cells);
	}
	free(M.shares);
	run_free(&M.run);
	if (M.sharesfd >= 0)
		close(M.sharesfd);
	close(M.outfd);
	return rc;
}
