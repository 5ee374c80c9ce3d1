/* runner: the sweep of `benchgrid run` (see runner.h): the output
 * directory, the cell loop with its ETA, and the end of the run (fixtures
 * down, results, hooks, reports). A cell is cell_run.c's; its steps are
 * step_run.c's; the fixtures that stay up between cells fixture_set.c's. */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cell_run.h"
#include "clock.h"
#include "contain.h"
#include "estimate.h"
#include "expect.h"
#include "facts.h"
#include "interrupt.h"
#include "journal.h"
#include "lb.h"
#include "outdir.h"
#include "plan.h"
#include "repeat_until.h"
#include "rep.h"
#include "results.h"
#include "selection.h"
#include "share.h"
#include "state.h"
#include "step_run.h"
#include "units.h"

struct runner {
	struct run_env E;
	const struct runner_opts *o;
	struct run run;
	int journal;       /* journal.jsonl, appended per finished cell */
	int work_token;    /* the state journal's entry for the work directory */
	bool write_failed; /* results could not be written: the run fails */
	bool down_failed;  /* teardown left something behind: the run fails */
	/* A share of a sweep (--shard): its files, and the cells other writers
	 * of the directory finished (not this run's results). */
	bool sharded;
	char host[256]; /* this host's name, recorded in every cell */
	struct share sh;
	struct run done;
	char journal_shown[4300]; /* the journal's path, for messages */
	int results_fd;           /* where results.json (or the share's) goes */
	const char *results_name;
};

/* Is cell k of the run order this run's to run? */
static bool is_mine(const struct runner *R, size_t k)
{
	return !R->sharded || R->o->shards->share_of[k] == R->o->share;
}

static bool is_finished(const struct runner *R, const char *id)
{
	return run_find_cell(&R->run, id) || run_find_cell(&R->done, id);
}

/* repeat, run_order, warmup and timeout of the scenario (spec_open
 * checked them). */
static void read_settings(struct runner *R, const struct spec *s, struct diag *d)
{
	const struct node *v;
	repeat_spec_read(s->root, &R->E.rs, d);
	R->E.repeat = R->E.rs.max;
	bool has_seed = false;
	run_order_read(s->root, &R->E.order, &has_seed, &R->E.order_seed, d);
	if (!has_seed) /* recorded in results.json: the order can be replayed */
		R->E.order_seed = ((uint64_t)(clock_wall() * 1e6) ^ ((uint64_t)getpid() << 32)) & INT64_MAX;
	if ((v = node_get(s->root, "warmup")))
		node_as_int(v, "warmup", 0, 1000000, &R->E.warmup, d);
	if ((v = node_get(s->root, "timeout")))
		node_as_duration(v, "timeout", false, &R->E.default_timeout, d);
}

/* The journal of an earlier run (--resume), or none in a fresh directory. */
static int load_earlier(struct runner *R, const struct cell *cells, size_t n, struct diag *d)
{
	struct stat st;
	if (fstatat(R->E.outfd, SHARES_DIR, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		diag_error(d, NULL,
		           "%s holds the shares of a sweep (%s/): run a share again with --shard i/n, join "
		           "them with `benchgrid merge %s`, or use another -o directory",
		           R->E.outdir, SHARES_DIR, R->E.outdir);
		return -EINVAL;
	}
	if (R->o->resume) {
		if (journal_load(&R->run, R->E.outfd, JOURNAL_NAME, R->journal_shown, true, d) < 0)
			return -EINVAL;
		return journal_check_plan(R->E.outfd, R->E.outdir, &R->run, R->E.s, cells, n,
		                          (int64_t)R->E.rs.fingerprint, R->E.warmup, d);
	}
	if (fstatat(R->E.outfd, JOURNAL_NAME, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		diag_error(d, NULL,
		           "%s already holds a run; use --resume %s to complete it, or another -o directory",
		           R->E.outdir, R->E.outdir);
		return -EINVAL;
	}
	return 0;
}

/* --dry-run: the output directory's rules of a real run, read only: the
 * folder itself (outdir_probe), a sweep's shares in it, a run in it without
 * --resume. 0, or -EINVAL with the reason in d. */
static int dry_run_outdir(struct runner *R, struct diag *d)
{
	int fd = outdir_probe(R->E.outdir, R->o->resume && !R->sharded, d);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return -EINVAL;
	struct stat st;
	int rc = 0;
	if (!R->sharded && fstatat(fd, SHARES_DIR, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		diag_error(d, NULL,
		           "%s holds the shares of a sweep (%s/): run a share again with --shard i/n, join "
		           "them with `benchgrid merge %s`, or use another -o directory",
		           R->E.outdir, SHARES_DIR, R->E.outdir);
		rc = -EINVAL;
	} else if (!R->sharded && !R->o->resume && fstatat(fd, JOURNAL_NAME, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		diag_error(d, NULL,
		           "%s already holds a run; use --resume %s to complete it, or another -o directory",
		           R->E.outdir, R->E.outdir);
		rc = -EINVAL;
	}
	close(fd);
	return rc;
}

/* Every share of a sweep must run the same plan, or the shares would
 * overlap or leave cells out: the cells of plan.tsv (when a share wrote it
 * already) must be these. */
static int cmp_id(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int same_cells_planned(struct runner *R, const struct cell *cells, size_t n, struct diag *d)
{
	struct plan_entry *p;
	size_t np;
	int rc = journal_read_plan(R->E.outfd, &p, &np);
	if (rc == -ENOENT)
		return 0;
	if (rc < 0) {
		diag_error(d, NULL, "%s/plan.tsv: %s", R->E.outdir, strerror(-rc));
		return -EINVAL;
	}
	const char **ids = malloc((n ? n : 1) * sizeof(*ids));
	for (size_t i = 0; i < n; i++)
		ids[i] = cells[i].id;
	qsort(ids, n, sizeof(*ids), cmp_id);
	size_t unknown = 0;
	for (size_t k = 0; k < np; k++) {
		const char *key = p[k].id;
		unknown += !bsearch(&key, ids, n, sizeof(*ids), cmp_id);
	}
	free(ids);
	journal_plan_free(p, np);
	if (unknown || np != n) {
		diag_error(d, NULL,
		           "%s holds the plan of another sweep (%zu cells there, %zu here, %zu of them not "
		           "in this plan): every share must run the same scenario with the same -D and "
		           "--only; use another -o directory",
		           R->E.outdir, np, n, unknown);
		return -EINVAL;
	}
	return 0;
}

/* A share joins a directory that other shares, here or on other hosts, may
 * be writing: its own journal (locked: the same share twice is refused),
 * the cells the others finished, and the plan, which must be theirs. */
static int open_share(struct runner *R, const struct cell *cells, size_t n, struct diag *d)
{
	if (share_open(&R->sh, R->E.outfd, R->E.outdir, R->o->share, R->o->shards->nshards, d) < 0)
		return -EINVAL;
	snprintf(R->journal_shown, sizeof(R->journal_shown), "%s", R->sh.shown);
	if (same_cells_planned(R, cells, n, d) < 0 ||
	    (R->journal = journal_open(R->sh.dirfd, R->sh.journal, R->sh.shown, true, d)) < 0 ||
	    share_lock(&R->sh, R->journal, d) < 0 ||
	    journal_load(&R->run, R->sh.dirfd, R->sh.journal, R->sh.shown, true, d) < 0 ||
	    share_load_others(&R->sh, R->E.outfd, R->E.outdir, &R->done, d) < 0)
		return -EINVAL;
	if (journal_check_plan(R->E.outfd, R->E.outdir, &R->run, R->E.s, cells, n,
	                       (int64_t)R->E.rs.fingerprint, R->E.warmup, d) < 0 ||
	    journal_check_plan(R->E.outfd, R->E.outdir, &R->done, R->E.s, cells, n,
	                       (int64_t)R->E.rs.fingerprint, R->E.warmup, d) < 0)
		return -EINVAL;
	R->results_fd = R->sh.dirfd;
	R->results_name = R->sh.results;
	return 0;
}

static void describe_run(struct runner *R, const struct spec *s, size_t n)
{
	run_set(&R->run.scenario_file, s->file);
	run_set(&R->run.name, s->name);
	run_set(&R->run.description, s->description);
	run_set(&R->run.tool_version, BENCHGRID_VERSION);
	char hash[32];
	snprintf(hash, sizeof(hash), "%016llx", (unsigned long long)node_hash(s->root));
	run_set(&R->run.scenario_hash, hash);
	R->run.started = clock_wall();
	R->run.in_progress = true;
	R->run.nplanned = n;
	R->run.repeat = (size_t)R->E.repeat;
	result_info(&R->run.env, "run.order", "%s", run_order_names[R->E.order]);
	if (R->E.order == RUN_ORDER_RANDOM)
		result_info(&R->run.env, "run.order_seed", "%llu", (unsigned long long)R->E.order_seed);
	if (R->E.rs.until_pct > 0)
		result_info(&R->run.env, "run.repeat_until", "min %lld, max %lld, until %g%%",
		            (long long)R->E.rs.min, (long long)R->E.rs.max, R->E.rs.until_pct);
	R->run.warmup = (size_t)R->E.warmup;
	R->run.report_cfg = node_clone(node_get(s->root, "report"));
	R->run.expect_cfg = node_clone(node_get(s->root, "expect"));
	R->run.notes_cfg = node_clone(node_get(s->root, "notes"));
	facts_machine(&R->run.env);
	result_info(&R->run.env, "machine.host", "%s", R->host);
}

/* The output directory with its journal, plan and scenario copy. Every
 * failure here is -EINVAL (exit status 2): nothing has run yet. */
static int open_outdir(struct runner *R, const struct spec *s, const struct cell *cells, size_t n,
                       struct diag *d)
{
	/* A share creates the directory or joins the other shares in it. */
	if ((R->E.outfd = outdir_open(R->E.outdir, R->o->resume && !R->sharded, d)) < 0)
		return -EINVAL;
	R->results_fd = R->E.outfd;
	R->results_name = "results.json";
	snprintf(R->journal_shown, sizeof(R->journal_shown), "%s/%s", R->E.outdir, JOURNAL_NAME);
	char path[4200], err[4600];
	snprintf(path, sizeof(path), "%s/cells", R->E.outdir);
	if ((R->E.cellsfd = outdir_subdir(R->E.outfd, "cells", path, err, sizeof(err))) < 0) {
		diag_error(d, NULL, "output directory: %s", err);
		return -EINVAL;
	}
	if (R->sharded ? open_share(R, cells, n, d) < 0 : load_earlier(R, cells, n, d) < 0)
		return -EINVAL;
	describe_run(R, s, R->sharded ? R->o->shards->ncells[R->o->share] : n);
	int rc = journal_write_plan(R->E.outfd, s, cells, n, (int64_t)R->E.rs.fingerprint, R->E.warmup);
	const char *what = "plan.tsv";
	static const struct defines none = {0};
	if (rc == 0 && !R->sharded && !R->o->resume) { /* a resumed run keeps its own */
		rc = selection_write(R->E.outfd, R->o->defines ? R->o->defines : &none,
		                     R->o->only ? R->o->only : &none);
		what = SELECTION_NAME;
	}
	if (rc == 0) {
		rc = outdir_copy_scenario(R->E.outfd, s->file);
		what = "scenario.yaml";
	}
	if (rc < 0) {
		diag_error(d, NULL, "cannot write %s/%s: %s", R->E.outdir, what, strerror(-rc));
		return -EINVAL;
	}
	if (R->sharded)
		return share_write_meta(&R->sh, cells, n, R->o->shards->share_of, R->run.started, 0) < 0
		           ? (diag_error(d, NULL, "cannot write %s/%s/%s", R->E.outdir, SHARES_DIR,
		                         R->sh.meta),
		              -EINVAL)
		           : 0;
	if ((R->journal = journal_open(R->E.outfd, JOURNAL_NAME, R->journal_shown, R->o->resume, d)) < 0)
		return -EINVAL;
	return 0;
}

/* The work directory, the state journal, signals, progress and Lua setup. */
static int start(struct runner *R, struct spec *s, struct diag *d)
{
	const char *base = R->o->work_dir ? R->o->work_dir : "/var/tmp";
	if (asprintf(&R->E.work, "%s/benchgrid-XXXXXX", base) < 0 || !mkdtemp(R->E.work)) {
		diag_error(d, NULL, "cannot create a work directory in %s: %s", base, strerror(errno));
		return -EINVAL;
	}
	/* Servers run as another user (postgres) and must pass through it. */
	chmod(R->E.work, 0711);
	if (state_open(state_default_path()) < 0)
		diag_warn(d, NULL,
		          "cannot open the state journal %s: `benchgrid cleanup` will not know this run",
		          state_default_path());
	/* `cleanup` names the run that left an action by its id and folder. */
	char id[17], *dir = realpath(R->E.outdir, NULL);
	run_id(&R->run, id);
	state_set_run(id, dir ? dir : R->E.outdir);
	free(dir);
	/* After kill -9, cleanup removes the (then empty) work directory too. */
	R->work_token = state_push("rmdir", R->E.work, NULL);
	/* Every command from here on is journalled and runs in the run's cgroup. */
	contain_start(d);
	R->E.lua = s->lua; /* steps get it in their step_ctx (step_run.c) */
	interrupt_install();
	if (R->E.lua) /* a signal stops a running hook, even inside string.find */
		lb_set_stop(R->E.lua, interrupt_stop_flag());
	progress_init(&R->E.prog, R->o->quiet);
	if (R->E.lua) { /* also without a setup hook: it gives `finish` the name */
		struct diag hd;
		diag_init(&hd);
		if (lb_setup(R->E.lua, s->name, &hd) < 0) {
			diag_move(d, &hd);
			contain_end(d);
			progress_end(&R->E.prog);
			return -EINVAL;
		}
		diag_free(&hd);
	}
	return 0;
}

static void print_warning(void *arg, const char *msg)
{
	progress_note(arg, "  warning: %s", msg);
}

/* Like hyperfine: say when a sample is an outlier or the first run is slow. */
static void report_repeat_warnings(struct runner *R, const struct run_cell *rc)
{
	if (R->E.repeat < 2 || R->o->quiet)
		return;
	struct cell_summary *sum = run_cell_summarize_opt(rc, false); /* no interval needed */
	if (!sum)
		return;
	run_cell_warnings(sum, print_warning, &R->E.prog);
	cell_summary_free(sum);
}

/* Rewrite results.json; a failure fails the run. */
static void write_results(struct runner *R, struct diag *d)
{
	struct diag wd;
	diag_init(&wd);
	int rc = results_write_json_at(&R->run, R->results_fd, R->results_name, &wd);
	if (rc < 0) {
		diag_error(d, NULL, "cannot write %s/%s%s: %s", R->E.outdir, R->sharded ? SHARES_DIR "/" : "",
		           R->results_name, strerror(-rc));
		R->write_failed = true;
	}
	diag_free(&wd);
}

/* A finished cell: progress, warnings, journal and results.json. */
static void cell_finished(struct runner *R, struct run_cell *rc, size_t k, size_t to_run, const char *label,
                          struct diag *d)
{
	if (R->E.prog.tty)
		progress_note(&R->E.prog, "[%zu/%zu] %s: %s (%.1f s)", k, to_run, label,
		              rc->status == RUN_OK ? "ok" : run_status_name(rc->status), rc->elapsed);
	report_repeat_warnings(R, rc);
	int e = journal_append(R->journal, rc);
	if (e < 0) {
		/* The cell says what was lost (in results.json, if that can be written). */
		char *was = rc->error;
		rc->error = NULL;
		run_cell_set_status(rc, RUN_FAILED,
		                    "not recorded: cannot append to %s: %s; --resume will run this "
		                    "cell again%s%s",
		                    R->journal_shown, strerror(-e), was ? "; " : "", was ? was : "");
		free(was);
		diag_error(d, NULL, "cell %s (%s) was not recorded in %s: %s", rc->id, label,
		           R->journal_shown, strerror(-e));
		R->write_failed = true;
	}
	write_results(R, d);
}

/* Where the cell ran (results of several hosts are told apart by it) and
 * the fingerprint of what it ran. */
static void record_identity(const struct runner *R, const struct cell *c, struct run_cell *rc)
{
	result_info(&rc->facts, "host", "%s", R->host);
	if (R->sharded)
		result_info(&rc->facts, "share", "%zu/%zu", R->sh.i, R->sh.n);
	/* What it ran with, for --resume and the other shares (journal.h). */
	result_info(&rc->facts, "fingerprint", "%016llx",
	            (unsigned long long)journal_cell_fingerprint(R->E.s, c, (int64_t)R->E.rs.fingerprint,
	                                                         R->E.warmup));
}

/* Remove every info entry `key` of r. */
static void info_remove(struct step_result *r, const char *key)
{
	size_t k = 0;
	for (size_t i = 0; i < r->ni; i++) {
		if (!strcmp(r->info[i].key, key)) {
			free(r->info[i].key);
			free(r->info[i].value);
		} else {
			r->info[k++] = r->info[i];
		}
	}
	r->ni = k;
}

/* What the sweep knows of each cell of the plan. */
struct cell_state {
	bool begun;   /* opened in this process: its before_cell hook ran */
	bool warm;    /* its warm-ups ran in this process */
	bool done;    /* finished (ok, failed, skipped): no more slots */
	size_t reps;  /* recorded repetitions so far (a resumed cell's too) */
	size_t k;     /* its number in the progress lines */
	double spent; /* monotonic seconds of its slots so far */
};

struct sweep {
	const struct cell *cells; /* the plan's, in run order */
	struct cell_state *cs;    /* one per cell of cells */
	struct cell_session S;
	double opened; /* clock_mono() when S was opened */
	size_t to_run, started, finished;
	double declared, spent; /* seconds: declared per repetition; spent on finished cells */
};

/* Drop an unfinished repetition (and, for a cell with none recorded, the
 * cell): an interrupted slot leaves nothing half done. */
static void drop_unfinished(struct runner *R, const char *id, size_t keep_reps, bool keep_cell)
{
	struct run_cell *rc = run_find_cell(&R->run, id);
	if (!rc)
		return;
	for (size_t r = keep_reps; r < rc->nreps; r++) {
		for (size_t i = 0; i < rc->reps[r].nsteps; i++)
			result_free(&rc->reps[r].steps[i]);
		free(rc->reps[r].steps);
	}
	if (rc->nreps > keep_reps)
		rc->nreps = keep_reps;
	if (keep_cell && keep_reps)
		return;
	size_t i = (size_t)(rc - R->run.cells);
	run_cell_free(rc);
	memmove(&R->run.cells[i], &R->run.cells[i + 1], (R->run.ncells - i - 1) * sizeof(*rc));
	R->run.ncells--;
}

static void close_session(struct runner *R, struct sweep *W, int status, bool last)
{
	if (!W->S.open)
		return;
	const struct cell *c = W->S.c;
	struct run_cell *rc = run_find_cell(&R->run, c->id);
	W->cs[c - W->cells].spent += clock_mono() - W->opened;
	if (rc) {
		int st = cell_close(&R->E, &W->S, rc, status, last);
		(void)st;
	} else {
		memset(&W->S, 0, sizeof(W->S));
	}
	R->E.cellfd = -1;
}

/* A cell is done: what stopped its repetitions, then journal and results. */
static void cell_done(struct runner *R, struct sweep *W, const struct cell *c, int status,
                      const char *stopped, double worst_pct, const char *worst, struct diag *d)
{
	close_session(R, W, status, true);
	struct run_cell *rc = run_find_cell(&R->run, c->id);
	struct cell_state *st = &W->cs[c - W->cells];
	st->done = true;
	if (!rc)
		return;
	info_remove(&rc->facts, "repeat.partial");
	if (R->E.rs.until_pct > 0 && stopped) {
		result_info(&rc->facts, "repeat.runs", "%zu", st->reps);
		result_info(&rc->facts, "repeat.stopped", "%s", stopped);
		if (worst && worst[0] && isfinite(worst_pct))
			result_info(&rc->facts, "repeat.ci_pct", "%.3g %s", worst_pct, worst);
	}
	rc->elapsed = st->spent;
	record_identity(R, c, rc);
	W->spent += st->spent;
	W->finished++;
	char label[512];
	cell_label(c, label, sizeof(label));
	cell_finished(R, rc, st->k, W->to_run, label, d);
}

/* With run_order interleave or random, a cell's repetitions are not
 * contiguous: each finished one goes to the journal at once (the cell's
 * line so far, marked repeat.partial), so a kill loses none of them. */
static void rep_recorded(struct runner *R, struct sweep *W, struct run_cell *rc, const struct cell *c,
                         size_t reps, struct diag *d)
{
	result_info(&rc->facts, "repeat.partial", "%zu of at most %lld repetitions", reps,
	            (long long)R->E.repeat);
	record_identity(R, c, rc);
	rc->elapsed = W->cs[c - W->cells].spent + clock_mono() - W->opened;
	int e = journal_append(R->journal, rc);
	if (e < 0) {
		diag_error(d, NULL, "cell %s: repetition %zu was not recorded in %s: %s", rc->id, reps,
		           R->journal_shown, strerror(-e));
		R->write_failed = true;
	}
}

/* Open cell c for its next slot (closing the cell open before). The
 * cell's record, or NULL when the cell ended here (set-up failed, skipped). */
static struct run_cell *open_cell(struct runner *R, struct sweep *W, const struct cell *c, struct diag *d)
{
	struct cell_state *st = &W->cs[c - W->cells];
	close_session(R, W, STEPS_OK, false);
	struct run_cell *rc = run_find_cell(&R->run, c->id);
	char label[512];
	cell_label(c, label, sizeof(label));
	if (R->E.order != RUN_ORDER_GROUPED) { /* one repetition per slot */
		size_t used = strlen(label);
		snprintf(label + used, sizeof(label) - used, " (rep %zu)", st->reps + 1);
	}
	if (!st->begun) {
		st->k = ++W->started;
		double overhead = W->finished ? W->spent / (double)W->finished -
		                                    W->declared * (double)(R->E.repeat + R->E.warmup)
		                              : 0;
		double eta =
		    (double)(W->to_run - st->k + 1) *
		    (W->declared * (double)(R->E.repeat + R->E.warmup) + (overhead > 0 ? overhead : 0));
		progress_cell(&R->E.prog, st->k, W->to_run, label, eta);
	} else {
		progress_cell(&R->E.prog, st->k, W->to_run, label, -1);
	}
	if (!rc) {
		rc = run_add_cell(&R->run, c);
		rc->started = clock_wall();
	}
	W->opened = clock_mono();
	int s = cell_open(&R->E, c, rc, !st->begun, &W->S);
	st->begun = true;
	if (s == STEPS_OK)
		return rc;
	if (s == STEPS_INTERRUPTED) {
		close_session(R, W, s, false);
		return NULL;
	}
	cell_done(R, W, c, s == CELL_SKIPPED ? STEPS_OK : s, NULL, NAN, NULL, d);
	return NULL;
}

/* Run one slot: the cell's next repetition. false when interrupted. */
static bool run_slot(struct runner *R, struct sweep *W, const struct cell *c, struct diag *d)
{
	struct cell_state *st = &W->cs[c - W->cells];
	if (st->done)
		return true;
	if (!W->S.open || W->S.c != c) {
		if (!open_cell(R, W, c, d))
			return !interrupt_requested();
	}
	struct run_cell *rc = run_find_cell(&R->run, c->id);
	int s = cell_rep(&R->E, &W->S, rc, st->reps, st->warm);
	st->warm = true;
	rc = run_find_cell(&R->run, c->id);
	if (s == STEPS_INTERRUPTED || interrupt_requested()) {
		close_session(R, W, STEPS_INTERRUPTED, false);
		/* grouped: the cell was never journalled; else its reps were */
		drop_unfinished(R, c->id, st->reps, R->E.order != RUN_ORDER_GROUPED);
		return false;
	}
	st->reps++;
	double worst_pct = NAN;
	char worst[256] = "";
	const char *stopped = NULL;
	if (s != STEPS_OK)
		stopped = "failed";
	else if (R->E.rs.until_pct > 0 && st->reps >= (size_t)R->E.rs.min &&
	         repeat_converged(&R->E.rs, rc, &worst_pct, worst, sizeof(worst)))
		stopped = "converged";
	else if (st->reps >= (size_t)R->E.repeat)
		stopped = "max";
	if (stopped && R->E.rs.until_pct > 0 && !worst[0])
		repeat_converged(&R->E.rs, rc, &worst_pct, worst, sizeof(worst));
	if (stopped)
		cell_done(R, W, c, s, stopped, worst_pct, worst, d);
	else if (R->E.order != RUN_ORDER_GROUPED)
		rep_recorded(R, W, rc, c, st->reps, d);
	return true;
}

/* The journal's partial cells (an interleaved run killed): their recorded
 * repetitions count, the rest is still to run. */
static bool is_partial(const struct runner *R, const char *id)
{
	const struct run_cell *rc = run_find_cell(&R->run, id);
	return rc && result_info_get(&rc->facts, "repeat.partial");
}

/* Run the slots the journal lacks in the run order. Returns true when
 * interrupted. */
static bool sweep(struct runner *R, const struct cell *cells, size_t n, struct diag *d)
{
	struct sweep W = {.cells = cells, .cs = calloc(n ? n : 1, sizeof(*W.cs)), .S = {.cellfd = -1}};
	size_t *which = malloc((n ? n : 1) * sizeof(*which));
	size_t mine = 0, nw = 0;
	for (size_t i = 0; i < n; i++) {
		if (!is_mine(R, i))
			continue;
		mine++;
		const struct cell *c = &cells[i];
		if (is_finished(R, c->id) && !is_partial(R, c->id))
			continue;
		const struct run_cell *rc = run_find_cell(&R->run, c->id);
		W.cs[c - cells].reps = rc ? rc->nreps : 0;
		W.cs[c - cells].spent = rc ? rc->elapsed : 0;
		which[nw++] = i;
	}
	W.to_run = nw;
	if (R->sharded && !R->o->quiet)
		fprintf(stderr,
		        "share %zu/%zu on %s: %zu of the plan's %zu cells, %zu finished, %zu to run\n",
		        R->sh.i, R->sh.n, R->sh.host, mine, n, mine - nw, nw);
	else if (R->o->resume && !R->o->quiet)
		fprintf(stderr, "resuming %s: %zu of %zu cells finished, %zu to run\n", R->E.outdir, n - nw,
		        n, nw);
	W.declared = estimate_declared_seconds(node_get(R->E.s->root, "steps"));
	size_t ns = 0;
	struct run_slot *seq =
	    run_order_build(which, nw, (size_t)R->E.repeat, R->E.order, R->E.order_seed, &ns);
	progress_plan(&R->E.prog, estimate_slots_seconds(R->E.s, cells, n, seq, ns), ns); /* the ETA's */
	bool stop = false;
	for (size_t k = 0; k < ns && !stop && !interrupt_requested(); k++) {
		const struct cell *c = &cells[seq[k].cell];
		bool ran = !W.cs[c - cells].done;
		double t0 = clock_mono();
		if (!run_slot(R, &W, c, d))
			break;
		progress_slot_took(&R->E.prog, clock_mono() - t0, ran);
		const struct run_cell *rc = run_find_cell(&R->run, c->id);
		if (W.cs[c - cells].done && rc && rc->status == RUN_FAILED && R->o->fail_fast) {
			progress_note(&R->E.prog, "--fail-fast: stopping after the first failed cell");
			stop = true;
		}
	}
	close_session(R, &W, STEPS_OK, false);
	free(seq);
	free(which);
	free(W.cs);
	return interrupt_requested();
}

/* A share ends with its own files: the reports need every share's cells
 * and come from `benchgrid merge`, as do the finish hook and `expect:`. */
static int finish_share(struct runner *R, const struct cell *cells, size_t n, bool interrupted,
                        struct diag *d)
{
	if (share_write_meta(&R->sh, cells, n, R->o->shards->share_of, R->run.started, R->run.finished) < 0) {
		diag_error(d, NULL, "cannot write %s/%s/%s", R->E.outdir, SHARES_DIR, R->sh.meta);
		R->write_failed = true;
	}
	size_t nf = 0;
	for (size_t i = 0; i < R->run.ncells; i++)
		nf += R->run.cells[i].status == RUN_FAILED;
	if (!R->o->quiet)
		fprintf(stderr,
		        "share %zu/%zu: %zu cell%s finished, %zu failed; when every share is done: "
		        "benchgrid merge %s\n",
		        R->sh.i, R->sh.n, R->run.ncells, R->run.ncells == 1 ? "" : "s", nf, R->E.outdir);
	if (interrupted)
		return 130;
	return nf || R->write_failed || R->down_failed ? 1 : 0;
}

/* Tear down, write the results and reports, run the finish hook. Returns
 * the exit status of the run. */
static int finish(struct runner *R, const struct cell *cells, size_t n, bool interrupted, struct diag *d)
{
	progress_end(&R->E.prog);
	if (interrupted && !R->o->quiet)
		fprintf(stderr, "interrupted: tearing down; finished cells are kept in %s (%s %s%s)\n",
		        R->E.outdir, R->sharded ? "rerun the share: -o" : "--resume", R->E.outdir,
		        R->sharded ? " --shard with the same i/n" : "");
	/* What the steps left running may hold the mounts: end it first. */
	contain_end(d);
	fixture_set_down(&R->E.fx, d);
	mon_devs_free(&R->E.devs);
	/* Never crosses a mount point nor follows a symlink. */
	/* A failed removal stays in the journal for `benchgrid cleanup`. */
	int work_rm = state_undo_action("rmtree", R->E.work, NULL, d);
	if (work_rm == 0 && R->work_token > 0)
		state_done(R->work_token);
	if ((R->down_failed = R->E.fx.down_failures > 0 || work_rm < 0))
		fprintf(stderr, "teardown did not undo everything this run set up: the run fails (the errors "
		                "follow); fix the cause, then run `benchgrid cleanup`\n");
	state_close();
	run_sort_cells(&R->run);
	R->run.finished = interrupted ? 0 : clock_wall();
	R->run.in_progress = false; /* the final file has every interval */
	write_results(R, d);
	if (R->sharded)
		return finish_share(R, cells, n, interrupted, d);
	/* After a signal no Lua runs (the stop flag ends every call at once). */
	if (R->E.lua && !interrupted && lb_has_hook(R->E.lua, "finish")) {
		struct diag hd;
		diag_init(&hd);
		if (lb_finish(R->E.lua, R->E.outdir, &hd) < 0)
			diag_move(d, &hd);
		diag_free(&hd);
	}
	/* A configuration error (-EINVAL) is reported and does not fail the run. */
	int rep = rep_write_all(&R->run, R->E.outdir, d);
	if (rep < 0 && rep != -EINVAL)
		R->write_failed = true;
	/* `expect:` entries with strict: true make a FAIL fail the run. */
	long strict_failures = expect_strict_failures(&R->run, d);
	size_t nf = 0;
	for (size_t i = 0; i < R->run.ncells; i++)
		nf += R->run.cells[i].status == RUN_FAILED;
	if (!R->o->quiet)
		fprintf(stderr, "%zu cell%s finished, %zu failed; results in %s\n", R->run.ncells,
		        R->run.ncells == 1 ? "" : "s", nf, R->E.outdir);
	if (R->write_failed)
		fprintf(stderr,
		        "the results could not all be written into %s: the run failed (the errors "
		        "follow)\n",
		        R->E.outdir);
	if (interrupted)
		return 130;
	if (strict_failures > 0 && !R->o->quiet)
		fprintf(stderr, "%ld strict expectation%s failed\n", strict_failures,
		        strict_failures == 1 ? "" : "s");
	return nf || strict_failures > 0 || R->write_failed || R->down_failed ? 1 : 0;
}

int runner_run(struct spec *s, struct cell *cells, size_t n, const struct runner_opts *o, struct diag *d)
{
	struct runner R = {.E = {.s = s,
	                         .allow_destroy = o->yes,
	                         .quiet = o->quiet,
	                         .outfd = -1,
	                         .cellsfd = -1,
	                         .cellfd = -1},
	                   .o = o,
	                   .journal = -1,
	                   .sharded = o->shards != NULL,
	                   .sh = {.dirfd = -1}};
	read_settings(&R, s, d);
	if (gethostname(R.host, sizeof(R.host) - 1) < 0)
		snprintf(R.host, sizeof(R.host), "unknown");
	R.E.outdir = o->outdir ? strdup(o->outdir) : outdir_default(s->name);
	if (o->dry_run && dry_run_outdir(&R, d) < 0) {
		free(R.E.outdir);
		return -EINVAL;
	}
	if (o->dry_run) {
		printf("would run %zu cell%s into %s\n", n, n == 1 ? "" : "s", R.E.outdir);
		plan_print(s, cells, n, PLAN_TABLE, stdout);
		free(R.E.outdir);
		return 0;
	}
	run_init(&R.run);
	run_init(&R.done);
	int rc = open_outdir(&R, s, cells, n, d);
	if (rc == 0 && R.sharded && o->shards->ncells[o->share] == 0) {
		/* More shares than run-order groups: nothing to do here. */
		if (!o->quiet)
			fprintf(stderr,
			        "share %zu/%zu: nothing to do: the plan has %zu run-order group%s for %zu "
			        "shares (--split-groups splits groups, at the cost of repeated set-ups)\n",
			        o->share, o->shards->nshards, o->shards->ngroups,
			        o->shards->ngroups == 1 ? "" : "s", o->shards->nshards);
		share_write_meta(&R.sh, cells, n, o->shards->share_of, R.run.started, clock_wall());
		rc = -ENODATA;
	}
	if (rc == 0)
		rc = start(&R, s, d);
	if (rc == 0)
		rc = finish(&R, cells, n, sweep(&R, cells, n, d), d);
	if (R.journal >= 0)
		close(R.journal);
	if (R.E.cellsfd >= 0)
		close(R.E.cellsfd);
	if (R.E.outfd >= 0)
		close(R.E.outfd);
	if (rc < 0 && R.E.work)
		rmdir(R.E.work);
	if (rc == -ENODATA)
		rc = 0;
	share_close(&R.sh);
	run_free(&R.done);
	run_free(&R.run);
	repeat_spec_free(&R.E.rs);
	free(R.E.outdir);
	free(R.E.work);
	return rc;
}
