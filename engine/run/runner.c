/* runner: the cell lifecycle of `benchgrid run` (see runner.h). */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "expect.h"
#include "facts.h"
#include "fx_fs.h"
#include "fx_pg.h"
#include "knobs.h"
#include "lb.h"
#include "monitor.h"
#include "plan.h"
#include "progress.h"
#include "rep.h"
#include "results.h"
#include "state.h"
#include "units.h"
#include "wl_exec.h"
#include "workload_table.h"

/* Defined in spec.c: the cell tree with run-time names resolved. */
struct node *spec_cell_tree_rt(const struct spec *s, const struct cell *c, const struct node *runtime,
                               bool defer_runtime, struct diag *d);

static volatile sig_atomic_t g_stop;      /* SIGINT or SIGTERM seen */
static volatile sig_atomic_t g_step_stop; /* the running step must end: 1 signal, 2 timeout */

static void on_signal(int sig)
{
	(void)sig;
	g_stop = 1;
	g_step_stop = 1;
}

static void on_alarm(int sig)
{
	(void)sig;
	if (!g_step_stop)
		g_step_stop = 2;
}

static void install_signals(void)
{
	struct sigaction sa = {0};
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static void arm_timeout(double secs)
{
	struct itimerval it = {0};
	if (secs > 0) {
		it.it_value.tv_sec = (time_t)secs;
		it.it_value.tv_usec = (suseconds_t)((secs - (double)(time_t)secs) * 1e6);
		if (!it.it_value.tv_sec && !it.it_value.tv_usec)
			it.it_value.tv_usec = 1;
	}
	setitimer(ITIMER_REAL, &it, NULL);
}

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- fixtures: what stays up from one cell to the next ---- */

struct named_target {
	char *name;
	struct fx_fs *fs;
};

struct fixtures {
	struct node *target;  /* interpolated `target:` the filesystem was built from */
	struct node *targets; /* interpolated `targets:` */
	struct fx_fs *fs;
	struct named_target *named;
	size_t nnamed;
	struct node *knob_sysctl, *knob_queue;
	struct knobs *knobs;
	struct fx_pg *pg;
};

struct runner {
	struct spec *s;
	const struct runner_opts *o;
	char *outdir;
	char *work; /* temporary targets live here */
	struct run run;
	FILE *journal;
	struct fixtures fx;
	struct progress prog;
	struct lb *lua;
	size_t nfailed;
	int64_t repeat, warmup;
	double default_timeout;
};

static void knobs_down(struct runner *R, struct diag *d)
{
	if (R->fx.knobs)
		knobs_restore(R->fx.knobs, d);
	R->fx.knobs = NULL;
	node_free(R->fx.knob_sysctl);
	node_free(R->fx.knob_queue);
	R->fx.knob_sysctl = R->fx.knob_queue = NULL;
}

static void pg_down(struct runner *R)
{
	if (R->fx.pg)
		fx_pg_stop(R->fx.pg);
	R->fx.pg = NULL;
}

static void fs_down(struct runner *R, struct diag *d)
{
	for (size_t i = 0; i < R->fx.nnamed; i++) {
		if (R->fx.named[i].fs)
			fx_fs_teardown(R->fx.named[i].fs, d);
		free(R->fx.named[i].name);
	}
	free(R->fx.named);
	R->fx.named = NULL;
	R->fx.nnamed = 0;
	if (R->fx.fs)
		fx_fs_teardown(R->fx.fs, d);
	R->fx.fs = NULL;
	node_free(R->fx.target);
	node_free(R->fx.targets);
	R->fx.target = R->fx.targets = NULL;
}

/* Everything down, in reverse order of setup. */
static void fixtures_down(struct runner *R, struct diag *d)
{
	knobs_down(R, d);
	pg_down(R);
	fs_down(R, d);
}

static const char *resolve_target(void *ud, const char *name)
{
	struct runner *R = ud;
	if (!strcmp(name, "target") || !strcmp(name, "main"))
		return R->fx.fs ? fx_fs_path(R->fx.fs) : NULL;
	for (size_t i = 0; i < R->fx.nnamed; i++)
		if (!strcmp(R->fx.named[i].name, name))
			return fx_fs_path(R->fx.named[i].fs);
	if (name[0] == '/')
		return name;
	return NULL;
}

/* A `target:` of kind dir (a fresh temporary directory) when none is given. */
static struct node *default_target(void)
{
	struct node *t = node_new(NODE_MAP, NULL);
	node_map_put(t, "kind", NULL, node_new_scalar("dir", NULL));
	return t;
}

static bool same_targets(const struct node *a, const struct node *b)
{
	if (!a || !b)
		return a == b;
	if (a->kind != NODE_MAP || b->kind != NODE_MAP || a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		const struct node *o = node_get(b, a->keys[i]);
		if (!o || !fx_fs_same(a->items[i], o))
			return false;
	}
	return true;
}

/* Set up or reuse the filesystem(s) of a cell. */
static int fs_for_cell(struct runner *R, const struct node *tree, struct diag *d)
{
	const struct node *target = node_get(tree, "target");
	struct node *deflt = NULL;
	if (!target)
		target = deflt = default_target();
	const struct node *targets = node_get(tree, "targets");
	if (R->fx.fs && fx_fs_same(R->fx.target, target) && same_targets(R->fx.targets, targets)) {
		node_free(deflt);
		return 0;
	}
	/* A new filesystem: whatever lived on the old one goes first. */
	knobs_down(R, d);
	pg_down(R);
	fs_down(R, d);
	R->fx.fs = fx_fs_setup(target, R->work, R->o->yes, d);
	if (!R->fx.fs) {
		node_free(deflt);
		return -EIO;
	}
	R->fx.target = deflt ? deflt : node_clone(target);
	deflt = NULL;
	if (targets && targets->kind == NODE_MAP) {
		R->fx.named = calloc(targets->n, sizeof(*R->fx.named));
		for (size_t i = 0; i < targets->n; i++) {
			struct fx_fs *fs = fx_fs_setup(targets->items[i], R->work, R->o->yes, d);
			if (!fs)
				return -EIO;
			R->fx.named[R->fx.nnamed].name = strdup(targets->keys[i]);
			R->fx.named[R->fx.nnamed++].fs = fs;
		}
		R->fx.targets = node_clone(targets);
	}
	return 0;
}

static int knobs_for_cell(struct runner *R, const struct node *tree, struct diag *d)
{
	const struct node *sysctl = node_get(tree, "sysctl"), *queue = node_get(tree, "queue");
	if (R->fx.knobs && node_equal(sysctl, R->fx.knob_sysctl) && node_equal(queue, R->fx.knob_queue))
		return 0;
	knobs_down(R, d);
	if (!sysctl && !queue)
		return 0;
	R->fx.knobs = knobs_apply(sysctl, queue, fx_fs_blockdev(R->fx.fs), d);
	if (!R->fx.knobs)
		return -EIO;
	R->fx.knob_sysctl = node_clone(sysctl);
	R->fx.knob_queue = node_clone(queue);
	return 0;
}

/* ---- run-time names: ${target.path}, ${cell.id}, ... ---- */

static void put(struct node *m, const char *k, const char *v)
{
	node_map_put(m, k, NULL, node_new_scalar(v, NULL));
}

static struct node *runtime_names(struct runner *R, const struct cell *c, const char *cell_dir)
{
	struct node *m = node_new(NODE_MAP, NULL);
	char buf[64];
	if (R->fx.fs)
		put(m, "target.path", fx_fs_path(R->fx.fs));
	for (size_t i = 0; i < R->fx.nnamed; i++) {
		char key[256];
		snprintf(key, sizeof(key), "targets.%s.path", R->fx.named[i].name);
		put(m, key, fx_fs_path(R->fx.named[i].fs));
	}
	put(m, "cell.id", c->id);
	snprintf(buf, sizeof(buf), "%zu", c->index);
	node_map_put(m, "cell.index", NULL, node_new_scalar(buf, NULL));
	put(m, "cell.dir", cell_dir);
	put(m, "outdir", R->outdir);
	if (R->fx.pg) {
		put(m, "pg.conninfo", fx_pg_conninfo(R->fx.pg));
		if (fx_pg_logfile(R->fx.pg))
			put(m, "pg.log", fx_pg_logfile(R->fx.pg));
	}
	return m;
}

/* ---- steps ---- */

/* The first error of a diag list as one line. */
static void first_error(const struct diag *d, char *buf, size_t len)
{
	buf[0] = 0;
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].level == DIAG_ERROR) {
			diag_format_one(&d->v[i], buf, len);
			return;
		}
}

/* A short summary of a step's headline figures for progress lines. */
static void step_summary(const struct step_result *r, char *buf, size_t len)
{
	static const char *const keys[] = {"mb_s",       "iops",    "tps", "lat_p99_us",
	                                   "lat_p99_ms", "seconds", NULL};
	buf[0] = 0;
	size_t used = 0;
	for (int i = 0; keys[i] && used < len; i++) {
		const struct metric *m = result_get(r, keys[i]);
		if (m)
			used += (size_t)snprintf(buf + used, len - used, "%s%s=%.4g", used ? " " : "",
			                         keys[i], m->value);
	}
	if (!used)
		snprintf(buf, len, "%.2fs", r->elapsed);
}

static const struct workload_ops *step_workload(const struct node *st, size_t *key)
{
	for (size_t k = 0; k < st->n; k++) {
		const struct workload_ops *w = workload_find(st->keys[k]);
		if (w) {
			*key = k;
			return w;
		}
	}
	return NULL;
}

enum { STEPS_OK = 0, STEPS_FAILED = 1, STEPS_INTERRUPTED = 2 };

/* Run every step of one repetition. rep < 0: a warmup run (not recorded). */
static int run_steps(struct runner *R, const struct cell *c, const struct node *tree, struct run_cell *rc,
                     long rep, const char *cell_dir)
{
	const struct node *steps = node_get(tree, "steps");
	for (size_t i = 0; steps && i < steps->n; i++) {
		const struct node *st = steps->items[i];
		char name[128];
		const struct node *nn = node_get(st, "name");
		if (nn && nn->kind == NODE_SCALAR)
			snprintf(name, sizeof(name), "%s", nn->text);
		else
			snprintf(name, sizeof(name), "step%zu", i + 1);
		bool record = true;
		double timeout = R->default_timeout;
		struct diag sd;
		diag_init(&sd);
		const struct node *v;
		if ((v = node_get(st, "record")))
			node_as_bool(v, "step.record", &record, &sd);
		if ((v = node_get(st, "timeout")))
			node_as_duration(v, "step.timeout", false, &timeout, &sd);
		size_t key = 0;
		const struct workload_ops *ops = step_workload(st, &key);
		struct node *opts = ops ? node_clone(st->items[key]) : NULL;
		struct step_result res;
		result_init(&res, name, ops ? ops->name : "?");

		if (R->lua && lb_has_hook(R->lua, "before_step") && opts) {
			struct node *over = NULL;
			if (lb_before_step(R->lua, c, name, opts, &over, &sd) == 0 && over &&
			    over->kind == NODE_MAP)
				for (size_t k = 0; k < over->n; k++)
					node_map_put(opts, over->keys[k], &over->kpos[k],
					             node_clone(over->items[k]));
			node_free(over);
		}
		progress_step(&R->prog, name);
		res.started = wall_now();
		double t0 = progress_now();
		int rc_run = 0;
		if (!ops) {
			result_fail(&res, "step %s has no workload", name);
		} else if (sd.nerrors == 0) {
			struct step_ctx cx = {
			    .cell = c,
			    .target_dir = R->fx.fs ? fx_fs_path(R->fx.fs) : R->work,
			    .cell_dir = cell_dir,
			    .pg_conninfo = R->fx.pg ? fx_pg_conninfo(R->fx.pg) : NULL,
			    .pg_log = R->fx.pg ? fx_pg_logfile(R->fx.pg) : NULL,
			    .step_name = name,
			    .scenario_dir = R->s->dir,
			    .timeout = timeout,
			    .stop = &g_step_stop,
			    .verbose = R->o->quiet ? 0 : 1,
			    .progress = progress_live,
			    .progress_ud = &R->prog,
			};
			g_step_stop = g_stop;
			/* Disk and CPU figures of the whole machine during the step. */
			const char *dev = R->fx.fs ? fx_fs_blockdev(R->fx.fs) : NULL;
			struct monitor *mon = monitor_start(dev, 1.0);
			if (!mon && dev) /* a device it cannot read: CPU figures at least */
				mon = monitor_start(NULL, 1.0);
			arm_timeout(timeout);
			rc_run = ops->run(opts, &cx, &res, &sd);
			arm_timeout(0);
			if (mon)
				monitor_stop(mon, &res);
		}
		res.elapsed = progress_now() - t0;
		char err[2048];
		first_error(&sd, err, sizeof(err));
		if (g_step_stop == 2 && !g_stop) {
			char t[32];
			units_format_duration(timeout, t, sizeof(t));
			free(res.error);
			res.error = NULL;
			result_fail(&res, "step '%s' timed out after %s", name, t);
		} else if (err[0]) {
			result_fail(&res, "%s", err);
		} else if (rc_run < 0 && !res.failed) {
			result_fail(&res, "step '%s' failed: %s", name, strerror(-rc_run));
		}
		diag_free(&sd);
		node_free(opts);
		if (g_stop) {
			result_free(&res);
			return STEPS_INTERRUPTED;
		}
		if (!res.failed && R->lua && lb_has_hook(R->lua, "after_step")) {
			struct diag hd;
			diag_init(&hd);
			if (lb_after_step(R->lua, c, name, &res, &hd) < 0) {
				first_error(&hd, err, sizeof(err));
				result_fail(&res, "%s", err[0] ? err : "after_step hook failed");
			}
			diag_free(&hd);
		}
		char summary[256];
		step_summary(&res, summary, sizeof(summary));
		progress_step_done(&R->prog, name, res.failed, res.failed ? res.error : summary);
		bool failed = res.failed;
		if (failed) {
			run_cell_set_status(rc, RUN_FAILED, "step %s: %s", name,
			                    res.error ? res.error : "failed");
			if (R->fx.pg && !fx_pg_alive(R->fx.pg)) {
				/* The server died: the next cell starts a new one. */
				pg_down(R);
			}
		}
		if (rep >= 0 && (record || failed))
			run_cell_take_step(rc, (size_t)rep, &res);
		else
			result_free(&res);
		if (failed)
			return STEPS_FAILED;
	}
	return STEPS_OK;
}

/* ---- one cell ---- */

static void cell_label(const struct cell *c, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t i = 0; i < c->params->n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", i ? " " : "", c->params->keys[i],
		                         c->params->items[i]->text);
	if (!c->params->n)
		snprintf(buf, len, "(single cell)");
}

static int mkdir_p(const char *path, mode_t mode)
{
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, mode) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, mode) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* Returns STEPS_* for the cell. */
static int run_cell(struct runner *R, const struct cell *c, struct run_cell *rc)
{
	char cell_dir[4096];
	snprintf(cell_dir, sizeof(cell_dir), "%s/cells/%s", R->outdir, c->id);
	mkdir_p(cell_dir, 0755);
	struct diag d;
	diag_init(&d);
	char err[2048];
	int status = STEPS_OK;
	struct node *tree0 = NULL, *tree1 = NULL, *tree = NULL, *rt = NULL;

	if (R->lua && lb_has_hook(R->lua, "before_cell")) {
		bool skip = false;
		char *reason = NULL;
		if (lb_before_cell(R->lua, c, &skip, &reason, &d) < 0)
			goto fail;
		if (skip) {
			run_cell_set_status(rc, RUN_SKIPPED, "skipped: %s",
			                    reason ? reason : "by before_cell");
			if (!R->o->quiet)
				progress_note(&R->prog, "  skipped: %s", reason ? reason : "by before_cell");
			free(reason);
			goto out;
		}
		free(reason);
	}
	/* Interpolate what is known now, set up the filesystems, then resolve
	 * ${target.path} and friends; PostgreSQL comes after the filesystems. */
	if (!(tree0 = spec_cell_tree(R->s, c, true, &d)))
		goto fail;
	if (fs_for_cell(R, tree0, &d) < 0)
		goto fail;
	rt = runtime_names(R, c, cell_dir);
	if (!(tree1 = spec_cell_tree_rt(R->s, c, rt, true, &d)))
		goto fail;
	if (knobs_for_cell(R, tree1, &d) < 0)
		goto fail;
	const struct node *pgsec = node_get(tree1, "postgres");
	if (pgsec) {
		progress_step(&R->prog, "postgres");
		if (fx_pg_prepare(&R->fx.pg, pgsec, fx_fs_path(R->fx.fs), cell_dir, resolve_target, R,
		                  &rc->facts, &d) < 0)
			goto fail;
	} else {
		pg_down(R);
	}
	node_free(rt);
	rt = runtime_names(R, c, cell_dir);
	if (!(tree = spec_cell_tree_rt(R->s, c, rt, false, &d)))
		goto fail;
	fx_fs_facts(R->fx.fs, &rc->facts);
	for (size_t i = 0; i < R->fx.nnamed; i++) {
		/* Facts of the named targets, prefixed with the target's name. */
		struct step_result nf;
		result_init(&nf, NULL, NULL);
		fx_fs_facts(R->fx.named[i].fs, &nf);
		for (size_t k = 0; k < nf.ni; k++) {
			char key[256];
			snprintf(key, sizeof(key), "%s.%s", R->fx.named[i].name, nf.info[k].key);
			result_info(&rc->facts, key, "%s", nf.info[k].value);
		}
		result_free(&nf);
	}
	for (long rep = -(long)R->warmup; rep < (long)R->repeat && status == STEPS_OK; rep++)
		status = run_steps(R, c, tree, rc, rep, cell_dir);
	if (status == STEPS_OK && rc->nreps && R->lua && lb_has_hook(R->lua, "after_cell")) {
		struct run_rep *last = &rc->reps[rc->nreps - 1];
		struct step_result **ptrs = calloc(last->nsteps + 1, sizeof(*ptrs));
		for (size_t i = 0; i < last->nsteps; i++)
			ptrs[i] = &last->steps[i];
		if (lb_after_cell(R->lua, c, ptrs, last->nsteps, &d) < 0) {
			first_error(&d, err, sizeof(err));
			run_cell_set_status(rc, RUN_FAILED, "after_cell: %s", err);
			status = STEPS_FAILED;
		}
		free(ptrs);
	}
	goto out;
fail:
	first_error(&d, err, sizeof(err));
	run_cell_set_status(rc, RUN_FAILED, "%s", err[0] ? err : "cell set-up failed");
	progress_note(&R->prog, "  FAILED: %s", err);
	status = g_stop ? STEPS_INTERRUPTED : STEPS_FAILED;
out:
	if (status == STEPS_FAILED && R->lua && lb_has_hook(R->lua, "on_error")) {
		struct diag hd;
		diag_init(&hd);
		lb_on_error(R->lua, c, rc->error ? rc->error : "failed", &hd);
		diag_free(&hd);
	}
	node_free(tree0);
	node_free(tree1);
	node_free(tree);
	node_free(rt);
	diag_free(&d);
	return status;
}

/* ---- output directory, journal, resume ---- */

static int write_file_atomic(const char *path, const char *text, size_t len)
{
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	size_t off = 0;
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);
		if (w < 0) {
			int e = errno;
			close(fd);
			return -e;
		}
		off += (size_t)w;
	}
	fsync(fd);
	close(fd);
	if (rename(tmp, path) < 0)
		return -errno;
	return 0;
}

/* The fingerprint of a cell: everything that decides how it runs. */
static uint64_t cell_fingerprint(const struct spec *s, const struct cell *c, int64_t repeat, int64_t warmup)
{
	struct diag d;
	diag_init(&d);
	struct node *t = spec_cell_tree(s, c, true, &d);
	uint64_t h = node_hash(t) ^ node_hash(c->params) * 0x9E3779B97F4A7C15ULL;
	h ^= (uint64_t)repeat * 1000003u + (uint64_t)warmup;
	node_free(t);
	diag_free(&d);
	return h;
}

static int write_plan_file(struct runner *R, const struct cell *cells, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fprintf(f, "# id\tfingerprint\tindex\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s\t%016llx\t%zu\n", cells[i].id,
		        (unsigned long long)cell_fingerprint(R->s, &cells[i], R->repeat, R->warmup),
		        cells[i].index);
	fclose(f);
	char path[4200];
	snprintf(path, sizeof(path), "%s/plan.tsv", R->outdir);
	int rc = write_file_atomic(path, buf, len);
	free(buf);
	return rc;
}

/* On resume: every finished cell that is still planned must run the same
 * way now, or its old figures would be mixed with new ones. */
static int check_resume_plan(struct runner *R, const struct cell *cells, size_t n, struct diag *d)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/plan.tsv", R->outdir);
	FILE *f = fopen(path, "r");
	if (!f && errno == ENOENT && R->run.ncells == 0)
		return 0; /* killed before anything was written: start afresh */
	if (!f) {
		diag_error(d, NULL, "--resume: %s: %s (not a benchgrid output directory?)", path,
		           strerror(errno));
		return -ENOENT;
	}
	char line[256];
	int bad = 0;
	while (fgets(line, sizeof(line), f)) {
		char id[32];
		unsigned long long fp;
		if (line[0] == '#' || sscanf(line, "%31s %llx", id, &fp) != 2)
			continue;
		if (!run_find_cell(&R->run, id))
			continue;
		for (size_t i = 0; i < n; i++) {
			if (strcmp(cells[i].id, id))
				continue;
			uint64_t now = cell_fingerprint(R->s, &cells[i], R->repeat, R->warmup);
			if (now != fp) {
				char label[256];
				cell_label(&cells[i], label, sizeof(label));
				diag_error(
				    d, NULL,
				    "--resume: the scenario changed for finished cell %s (%s): its target, "
				    "settings, steps or repeat count differ; use a new output directory",
				    id, label);
				bad = -EINVAL;
			}
		}
	}
	fclose(f);
	return bad;
}

/* Read the journal of an earlier run; drop a torn last line. */
static int load_journal(struct runner *R, const char *path, struct diag *d)
{
	FILE *f = fopen(path, "r+");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long good_end = 0;
	size_t loaded = 0;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] != '\n')
			break; /* torn write: kill -9 in the middle of a line */
		struct run_cell c;
		struct diag ld;
		diag_init(&ld);
		if (results_cell_parse_line(line, (size_t)len, &c, &ld) == 0) {
			/* A cell finished twice (resumed run) keeps the newest. */
			struct run_cell *old = run_find_cell(&R->run, c.id);
			if (old) {
				run_cell_free(old);
				*old = c;
			} else {
				run_take_cell(&R->run, &c);
			}
			loaded++;
		} else {
			diag_free(&ld);
			break;
		}
		diag_free(&ld);
		good_end = ftell(f);
	}
	free(line);
	fclose(f);
	if (truncate(path, good_end) < 0)
		diag_warn(d, NULL, "cannot truncate %s: %s", path, strerror(errno));
	return (int)loaded;
}

static int journal_append(struct runner *R, const struct run_cell *rc)
{
	if (results_cell_write_line(R->journal, rc) < 0)
		return -EIO;
	if (fflush(R->journal) != 0)
		return -errno;
	fsync(fileno(R->journal));
	return 0;
}

static void save_results(struct runner *R, struct diag *d)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/results.json", R->outdir);
	results_write_json(&R->run, path, d);
}

static double declared_seconds(const struct node *n)
{
	double sum = 0;
	if (!n)
		return 0;
	if (n->kind == NODE_MAP)
		for (size_t i = 0; i < n->n; i++) {
			double t;
			if ((!strcmp(n->keys[i], "runtime") || !strcmp(n->keys[i], "duration")) &&
			    n->items[i]->kind == NODE_SCALAR &&
			    units_parse_duration(n->items[i]->text, &t, NULL, 0) == 0)
				sum += t;
			else
				sum += declared_seconds(n->items[i]);
		}
	else if (n->kind == NODE_SEQ)
		for (size_t i = 0; i < n->n; i++)
			sum += declared_seconds(n->items[i]);
	return sum;
}

static void print_warning(void *arg, const char *msg)
{
	progress_note(arg, "  warning: %s", msg);
}

/* Like hyperfine: say when a sample is an outlier or the first run is slow. */
static void report_repeat_warnings(struct runner *R, const struct run_cell *rc)
{
	if (R->repeat < 2 || R->o->quiet)
		return;
	struct cell_summary *sum = run_cell_summarize(rc);
	if (!sum)
		return;
	run_cell_warnings(sum, print_warning, &R->prog);
	cell_summary_free(sum);
}

static void default_outdir(struct runner *R)
{
	char stamp[32];
	time_t t = time(NULL);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&t));
	char *name = strdup(R->s->name);
	for (char *p = name; *p; p++)
		if (*p == '/' || *p == ' ')
			*p = '_';
	char *dot = strstr(name, ".yaml");
	if (dot)
		*dot = 0;
	if (asprintf(&R->outdir, "benchgrid-out/%s-%s", name, stamp) < 0)
		R->outdir = NULL;
	free(name);
}

int runner_run(struct spec *s, struct cell *cells, size_t n, const struct runner_opts *o, struct diag *d)
{
	struct runner R = {.s = s, .o = o, .repeat = 1};
	const struct node *v;
	if ((v = node_get(s->root, "repeat")))
		node_as_int(v, "repeat", 1, 1000000, &R.repeat, d);
	if ((v = node_get(s->root, "warmup")))
		node_as_int(v, "warmup", 0, 1000000, &R.warmup, d);
	if ((v = node_get(s->root, "timeout")))
		node_as_duration(v, "timeout", false, &R.default_timeout, d);
	if (o->outdir)
		R.outdir = strdup(o->outdir);
	else
		default_outdir(&R);

	if (o->dry_run) {
		printf("would run %zu cell%s into %s\n", n, n == 1 ? "" : "s", R.outdir);
		plan_print(s, cells, n, PLAN_TABLE, stdout);
		free(R.outdir);
		return 0;
	}
	int rc = mkdir_p(R.outdir, 0755);
	if (rc < 0) {
		diag_error(d, NULL, "cannot create output directory %s: %s", R.outdir, strerror(-rc));
		free(R.outdir);
		return rc;
	}
	run_init(&R.run);
	char path[4200];
	snprintf(path, sizeof(path), "%s/journal.jsonl", R.outdir);
	if (o->resume) {
		int loaded = load_journal(&R, path, d);
		if (loaded < 0) {
			diag_error(d, NULL, "--resume: cannot read %s: %s", path, strerror(-loaded));
			goto early_fail;
		}
		if (check_resume_plan(&R, cells, n, d) < 0)
			goto early_fail;
	} else {
		struct stat st;
		if (stat(path, &st) == 0) {
			diag_error(
			    d, NULL,
			    "%s already holds a run; use --resume %s to complete it, or another -o directory",
			    R.outdir, R.outdir);
			goto early_fail;
		}
	}
	run_set(&R.run.scenario_file, s->file);
	run_set(&R.run.name, s->name);
	run_set(&R.run.description, s->description);
	run_set(&R.run.tool_version, BENCHGRID_VERSION);
	char hash[32];
	snprintf(hash, sizeof(hash), "%016llx", (unsigned long long)node_hash(s->root));
	run_set(&R.run.scenario_hash, hash);
	R.run.started = wall_now();
	R.run.nplanned = n;
	R.run.repeat = (size_t)R.repeat;
	R.run.warmup = (size_t)R.warmup;
	R.run.report_cfg = node_clone(node_get(s->root, "report"));
	R.run.expect_cfg = node_clone(node_get(s->root, "expect"));
	facts_machine(&R.run.env);
	if (write_plan_file(&R, cells, n) < 0)
		diag_warn(d, NULL, "cannot write %s/plan.tsv", R.outdir);
	R.journal = fopen(path, "a");
	if (!R.journal) {
		diag_error(d, NULL, "cannot open %s: %s", path, strerror(errno));
		goto early_fail;
	}
	{
		/* A copy of the scenario, for the record. */
		char sp[4200];
		snprintf(sp, sizeof(sp), "%s/scenario.yaml", R.outdir);
		FILE *in = fopen(s->file, "rb");
		if (in) {
			char *buf = NULL;
			size_t len = 0;
			FILE *m = open_memstream(&buf, &len);
			char chunk[8192];
			size_t r;
			while ((r = fread(chunk, 1, sizeof(chunk), in)) > 0)
				fwrite(chunk, 1, r, m);
			fclose(m);
			fclose(in);
			write_file_atomic(sp, buf, len);
			free(buf);
		}
	}
	const char *base = o->work_dir ? o->work_dir : "/var/tmp";
	if (asprintf(&R.work, "%s/benchgrid-XXXXXX", base) < 0 || !mkdtemp(R.work)) {
		diag_error(d, NULL, "cannot create a work directory in %s: %s", base, strerror(errno));
		goto early_fail;
	}
	/* Servers run as another user (postgres) and must pass through it. */
	chmod(R.work, 0711);
	if (state_open(state_default_path()) < 0)
		diag_warn(d, NULL,
		          "cannot open the state journal %s: `benchgrid cleanup` will not know this run",
		          state_default_path());
	/* After kill -9, cleanup removes the (then empty) work directory too. */
	int work_token = state_push("rmdir", R.work, NULL);
	R.lua = s->lua;
	wl_exec_set_lua(R.lua);
	install_signals();
	progress_init(&R.prog, o->quiet);
	if (R.lua) { /* also without a setup hook: it gives `finish` the name */
		struct diag hd;
		diag_init(&hd);
		if (lb_setup(R.lua, s->name, &hd) < 0) {
			diag_move(d, &hd);
			goto early_fail;
		}
		diag_free(&hd);
	}

	size_t to_run = 0;
	for (size_t i = 0; i < n; i++)
		if (!run_find_cell(&R.run, cells[i].id))
			to_run++;
	if (o->resume && !o->quiet)
		fprintf(stderr, "resuming %s: %zu of %zu cells finished, %zu to run\n", R.outdir, n - to_run,
		        n, to_run);
	double declared = declared_seconds(node_get(s->root, "steps")) * (double)(R.repeat + R.warmup);
	double spent = 0;
	size_t k = 0, finished = 0;
	bool interrupted = false;
	for (size_t i = 0; i < n && !g_stop; i++) {
		const struct cell *c = &cells[i];
		if (run_find_cell(&R.run, c->id))
			continue;
		k++;
		char label[512];
		cell_label(c, label, sizeof(label));
		/* ETA: declared durations of what is left plus the overhead seen so far. */
		double overhead = finished ? spent / (double)finished - declared : 0;
		double eta = (double)(to_run - k + 1) * (declared + (overhead > 0 ? overhead : 0));
		progress_cell(&R.prog, k, to_run, label, eta);
		struct run_cell *rc = run_add_cell(&R.run, c);
		char id[13];
		memcpy(id, c->id, sizeof(id));
		rc->started = wall_now();
		double t0 = progress_now();
		int st = run_cell(&R, c, rc);
		rc = run_find_cell(&R.run, id);
		rc->elapsed = progress_now() - t0;
		if (st == STEPS_INTERRUPTED || g_stop) {
			/* Not finished: drop it, resume will run it again. */
			run_cell_free(rc);
			R.run.ncells--;
			interrupted = true;
			break;
		}
		spent += rc->elapsed;
		finished++;
		if (R.prog.tty)
			progress_note(&R.prog, "[%zu/%zu] %s: %s (%.1f s)", k, to_run, label,
			              rc->status == RUN_OK ? "ok" : run_status_name(rc->status), rc->elapsed);
		report_repeat_warnings(&R, rc);
		if (journal_append(&R, rc) < 0)
			progress_note(&R.prog, "warning: cannot append to the journal: %s", strerror(errno));
		save_results(&R, d);
		if (rc->status == RUN_FAILED) {
			R.nfailed++;
			if (o->fail_fast) {
				progress_note(&R.prog, "--fail-fast: stopping after the first failed cell");
				break;
			}
		}
	}
	interrupted |= g_stop != 0;
	progress_end(&R.prog);
	if (interrupted && !o->quiet)
		fprintf(stderr, "interrupted: tearing down; finished cells are kept in %s (--resume %s)\n",
		        R.outdir, R.outdir);
	fixtures_down(&R, d);
	if (R.work) {
		/* Never crosses a mount point nor follows a symlink. */
		state_undo_action("rmtree", R.work, NULL, d);
		if (work_token > 0)
			state_done(work_token);
	}
	state_close();
	run_sort_cells(&R.run);
	R.run.finished = interrupted ? 0 : wall_now();
	save_results(&R, d);
	if (R.lua && lb_has_hook(R.lua, "finish")) {
		struct diag hd;
		diag_init(&hd);
		if (lb_finish(R.lua, R.outdir, &hd) < 0)
			diag_move(d, &hd);
		diag_free(&hd);
	}
	rep_write_all(&R.run, R.outdir, d);
	/* `expect:` entries with strict: true make a FAIL fail the run. */
	long strict_failures = expect_strict_failures(&R.run, d);
	fclose(R.journal);
	size_t nf = 0;
	for (size_t i = 0; i < R.run.ncells; i++)
		nf += R.run.cells[i].status == RUN_FAILED;
	if (!o->quiet)
		fprintf(stderr, "%zu cell%s finished, %zu failed; results in %s\n", R.run.ncells,
		        R.run.ncells == 1 ? "" : "s", nf, R.outdir);
	run_free(&R.run);
	free(R.outdir);
	free(R.work);
	wl_exec_set_lua(NULL);
	if (interrupted)
		return 130;
	if (strict_failures > 0 && !o->quiet)
		fprintf(stderr, "%ld strict expectation%s failed\n", strict_failures,
		        strict_failures == 1 ? "" : "s");
	return nf || strict_failures > 0 ? 1 : 0;
early_fail:
	progress_end(&R.prog);
	run_free(&R.run);
	if (R.journal)
		fclose(R.journal);
	if (R.work)
		rmdir(R.work);
	free(R.work);
	free(R.outdir);
	return -EINVAL;
}
