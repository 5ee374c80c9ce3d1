/* step_one: one step, read, run and recorded (see step_one.h). */
#include "step_one.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "devmodel.h"
#include "fx_pg.h"
#include "headline.h"
#include "interrupt.h"
#include "lb.h"
#include "monitor.h"
#include "pg_activity.h"
#include "rep_fmt.h"
#include "units.h"
#include "workload_table.h"

void step_run_first_error(const struct diag *d, char *buf, size_t len)
{
	buf[0] = 0;
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].level == DIAG_ERROR) {
			diag_format_one(&d->v[i], buf, len);
			return;
		}
}

/* One figure of a progress line: "iops=25800", "lat_p99=1.234 ms". */
static size_t summary_put(const struct metric *m, char *buf, size_t used, size_t len)
{
	char num[64], label[64];
	bool time = strncmp(m->name, "lat_", 4) == 0 || !strcmp(m->name, "elapsed_s");
	snprintf(label, sizeof(label), "%s", m->name);
	if (!strncmp(label, "lat_p99_", 8))
		label[7] = 0; /* lat_p99_us, lat_p99_ms: lat_p99 in its own unit */
	rep_fmt_quantity(m->value, time ? m->unit : NULL, num, sizeof(num));
	int w = snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "", label, num);
	return w > 0 && (size_t)w < len - used ? used + (size_t)w : len;
}

/* A short summary of a step's figures for progress lines, as people read
 * numbers (rep_fmt.h), its headline first (headline.h): "iops=25800
 * lat_p99=1.234 ms mb_s=100.8 seconds=1". */
void step_summary(const struct step_result *r, char *buf, size_t len)
{
	static const char *const more[] = {"mb_s", "iops", "tps", "lat_p99_us", "lat_p99_ms", "seconds"};
	const char *shown[HEADLINE_MAX + 8];
	size_t ns = headline_names(r, shown, HEADLINE_MAX), used = 0;
	buf[0] = 0;
	for (size_t i = 0; i < ns && used < len; i++)
		used = summary_put(result_get(r, shown[i]), buf, used, len);
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]) && used < len; i++) {
		const struct metric *m = result_get(r, more[i]);
		bool dup = false;
		for (size_t k = 0; k < ns; k++)
			dup |= !strcmp(shown[k], more[i]) ||
			       (!strncmp(shown[k], "lat_p99_", 8) && !strncmp(more[i], "lat_p99_", 8));
		if (m && !dup)
			used = summary_put(m, buf, used, len);
	}
	if (!used) {
		char num[64];
		rep_fmt_quantity(r->elapsed, "s", num, sizeof(num));
		snprintf(buf, len, "%s", num);
	}
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

/* The step's name, settings and workload, as written (no options yet). */
static void step_read_settings(const struct run_env *E, const struct node *st, size_t i, struct step *S,
                               size_t *key, struct diag *sd)
{
	spec_step_name(st, i, S->name, sizeof(S->name));
	S->record = true;
	S->server_stats = true;
	S->timeout = E->default_timeout;
	S->opts = NULL;
	const struct node *v;
	if ((v = node_get(st, "record")))
		node_as_bool(v, "step.record", &S->record, sd);
	if ((v = node_get(st, "server_stats")))
		node_as_bool(v, "step.server_stats", &S->server_stats, sd);
	if ((v = node_get(st, "timeout")))
		node_as_duration(v, "step.timeout", false, &S->timeout, sd);
	*key = 0;
	S->ops = step_workload(st, key);
}

void step_read(struct run_env *E, const struct cell *c, const struct node *st, size_t i, struct step *S,
               struct diag *sd)
{
	size_t key = 0;
	step_read_settings(E, st, i, S, &key, sd);
	S->opts = S->ops ? node_clone(st->items[key]) : NULL;
	if (E->lua && lb_has_hook(E->lua, "before_step") && S->opts) {
		struct node *over = NULL;
		if (lb_before_step(E->lua, c, S->name, S->opts, &over, sd) == 0 && over &&
		    over->kind == NODE_MAP)
			for (size_t k = 0; k < over->n; k++)
				node_map_put(S->opts, over->keys[k], &over->kpos[k],
				             node_clone(over->items[k]));
		node_free(over);
	}
}

/* The server's activity is sampled during the steps of the workloads that
 * say so (their metrics' server_activity: pgbench and exec), as often as
 * the workload says (pgbench: at each progress report), else every second
 * (as the monitor). */
static struct pg_activity *step_server_stats(struct run_env *E, const struct step *S)
{
	if (!S->server_stats || !E->fx.pg || !fx_pg_alive(E->fx.pg) || !S->ops->metrics ||
	    !S->ops->metrics->server_activity)
		return NULL;
	double every = S->ops->sample_every ? S->ops->sample_every(S->opts) : 1.0;
	return pg_activity_start(E->fx.pg, every > 0 ? every : 1.0);
}

int step_exec(struct run_env *E, const struct cell *c, const struct step *S, long rep, const char *cell_dir,
              struct step_result *res, struct diag *sd, volatile sig_atomic_t *own_stop)
{
	const char *refuse = NULL;
	/* What the fixtures offer the step, by name (pg.conninfo, ...). */
	struct node *names = node_new(NODE_MAP, NULL);
	if (names)
		fixture_set_names(&E->fx, names);
	struct step_ctx cx = {
	    .cell = c,
	    .target_dir = fixture_set_dir(&E->fx, E->work),
	    .device = fixture_set_device(&E->fx, &refuse),
	    .cell_dir = cell_dir,
	    .cell_dirfd = E->cellfd,
	    .names = names,
	    .lua = E->lua,
	    .step_name = S->name,
	    .rep = rep,
	    .nrep = E->repeat,
	    .scenario_dir = E->s->dir,
	    .timeout = S->timeout,
	    .stop = own_stop ? own_stop : interrupt_step_flag(),
	    .verbose = E->quiet ? 0 : 1,
	    .progress = progress_live,
	    .progress_ud = &E->prog,
	};
	cx.device_refuse = refuse;
	if (own_stop) {
		/* On a thread beside others (step_conc.h): the live line and the
		 * Lua state belong to the main thread, the timeout is the
		 * workload's own (cx.timeout) and the watcher's. */
		cx.progress = NULL;
		cx.lua = NULL;
		cx.overlaps = true;
	}
	/* CPU figures of the whole machine and those of every device of the
	 * cell (its targets' and the disks under their images) during the step. */
	struct monitor *mon = monitor_start_devs(&E->devs, 1.0);
	struct pg_activity *act = step_server_stats(E, S);
	if (!own_stop) {
		interrupt_step_begin(S->timeout);
		devmodel_step_begin(E->fx.dm);
	}
	double t0 = clock_mono();
	int rc = S->ops->run(S->opts, &cx, res, sd);
	if (!own_stop) {
		devmodel_step_util(E->fx.dm, res); /* model.NAME.utilisation */
		interrupt_step_end();
	}
	pg_activity_stop(act, res);
	if (mon)
		monitor_stop(mon, res);
	devmodel_step_series(E->fx.dm, t0, clock_mono(), res); /* model.NAME.cache_full */
	node_free(names);
	return rc;
}

/* Why the step failed, if it did: timeout, an error, or the workload's rc. */
void step_verdict(const struct step *S, const struct diag *sd, int rc_run, bool timed_out,
                  struct step_result *res)
{
	char err[2048];
	step_run_first_error(sd, err, sizeof(err));
	if (timed_out) {
		char t[32];
		units_format_duration(S->timeout, t, sizeof(t));
		free(res->error);
		res->error = NULL;
		result_fail(res, "step '%s' timed out after %s", S->name, t);
	} else if (err[0]) {
		result_fail(res, "%s", err);
	} else if (rc_run < 0 && !res->failed) {
		result_fail(res, "step '%s' failed: %s", S->name, strerror(-rc_run));
	}
}

static void step_after_hook(struct run_env *E, const struct cell *c, const struct step *S,
                            struct step_result *res)
{
	if (res->failed || !E->lua || !lb_has_hook(E->lua, "after_step"))
		return;
	struct diag hd;
	diag_init(&hd);
	if (lb_after_step(E->lua, c, S->name, res, &hd) < 0) {
		char err[2048];
		step_run_first_error(&hd, err, sizeof(err));
		result_fail(res, "%s", err[0] ? err : "after_step hook failed");
	}
	diag_free(&hd);
}

/* A step its `when:` skips in this cell: recorded as skipped, with why
 * (not a failure: the cell goes on with its next step), unless the step
 * says record: false. */
void step_skip(struct run_env *E, const struct node *st, size_t i, const char *why, struct run_cell *rc,
               long rep)
{
	struct step S;
	size_t key = 0;
	struct diag quiet; /* check reported any bad setting */
	diag_init(&quiet);
	step_read_settings(E, st, i, &S, &key, &quiet);
	diag_free(&quiet);
	struct step_result res;
	result_init(&res, S.name, S.ops ? S.ops->name : "?");
	result_skip(&res, why);
	res.started = clock_wall();
	progress_step(&E->prog, S.name);
	char line[300];
	snprintf(line, sizeof(line), "skipped (%s)", why);
	progress_step_done(&E->prog, S.name, false, line);
	if (rep >= 0 && S.record)
		run_cell_take_step(rc, (size_t)rep, &res);
	else
		result_free(&res);
}

/* The step's `headline: [a, b]` as the info "headline" ("a b"), which the
 * rule of headline.h reads wherever the step's figures are shown. */
static void step_headline_info(const struct node *st, struct step_result *res)
{
	const struct node *h = node_get(st, "headline");
	if (!h)
		return;
	char names[1024];
	size_t used = 0;
	names[0] = 0;
	for (size_t i = 0; h->kind == NODE_SEQ && i < h->n && used < sizeof(names); i++)
		if (h->items[i]->kind == NODE_SCALAR)
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", used ? " " : "",
			                         h->items[i]->text);
	if (h->kind == NODE_SCALAR)
		snprintf(names, sizeof(names), "%s", h->text);
	if (names[0])
		result_info(res, "headline", "%s", names);
}

/* A headline name the step did not produce: said in its warnings. */
static void warn_headline_missing(struct step_result *res)
{
	const char *list = result_info_get(res, "headline");
	if (!list || res->failed)
		return;
	char copy[1024], *save = NULL;
	snprintf(copy, sizeof(copy), "%s", list);
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (!result_get(res, w))
			result_info(res, "warning", "headline: the step gave no metric %s", w);
}

/* A step that asked for `direct: true` (O_DIRECT: io's, or any workload's
 * option of that name) on a loop device that reads its image through the
 * page cache measures that cache, not the disk: say so in the step's
 * warnings (report.md shows them). What the step declares decides, not its
 * kind. */
static void warn_direct_on_buffered_loop(const struct step *S, const struct run_cell *rc,
                                         struct step_result *res)
{
	const struct node *n = S->opts ? node_get(S->opts, "direct") : NULL;
	const char *dio = result_info_get(&rc->facts, "dev.loop_direct_io");
	bool direct = false;
	struct diag q;
	diag_init(&q);
	if (n && node_as_bool(n, "direct", &direct, &q) == 0 && direct && dio && !strcmp(dio, "0"))
		result_info(
		    res, "warning",
		    "direct: true, but the loop device %s reads and writes its image through the "
		    "host's page cache (target direct_io off): the figures are the cache's",
		    result_info_get(&rc->facts, "fs.source") ? result_info_get(&rc->facts, "fs.source") : "");
	diag_free(&q);
}

void step_begin(struct run_env *E, const struct cell *c, const struct node *st, size_t i, struct step *S,
                struct step_result *res, struct diag *sd)
{
	diag_init(sd);
	step_read(E, c, st, i, S, sd);
	result_init(res, S->name, S->ops ? S->ops->name : "?");
	progress_step(&E->prog, S->name);
	res->started = clock_wall();
	step_headline_info(st, res);
	if (!S->ops)
		result_fail(res, "step %s has no workload", S->name);
}

int step_end(struct run_env *E, const struct cell *c, struct step *S, struct run_cell *rc, long rep,
             struct step_result *res, struct diag *sd, int rc_run, bool timed_out)
{
	step_verdict(S, sd, rc_run, timed_out, res);
	warn_direct_on_buffered_loop(S, rc, res);
	diag_free(sd);
	node_free(S->opts);
	S->opts = NULL;
	if (interrupt_requested()) {
		result_free(res);
		return STEPS_INTERRUPTED;
	}
	step_after_hook(E, c, S, res);
	warn_headline_missing(res);
	char summary[256];
	step_summary(res, summary, sizeof(summary));
	progress_step_done(&E->prog, S->name, res->failed, res->failed ? res->error : summary);
	bool failed = res->failed;
	if (failed) {
		run_cell_set_status(rc, RUN_FAILED, "step %s: %s", S->name,
		                    res->error ? res->error : "failed");
		fixture_set_check_pg(&E->fx);
	}
	if (rep >= 0 && (S->record || failed))
		run_cell_take_step(rc, (size_t)rep, res);
	else
		result_free(res);
	return failed ? STEPS_FAILED : STEPS_OK;
}
