/* step_conc: steps beside steps (see step_conc.h). */
#include "step_conc.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "devmodel.h"
#include "group_total.h"
#include "interrupt.h"
#include "progress.h"
#include "spec.h"
#include "spec_steps.h"
#include "step_one.h"

/* Why the watcher stopped a step (none: it ended by itself). */
enum conc_why { WHY_NONE, WHY_SIGNAL, WHY_TIMEOUT, WHY_FAILED, WHY_FIRST, WHY_FOREGROUND };

/* A step that runs on its own thread. */
struct live {
	struct run_env *E;
	const struct cell *c;
	const char *cell_dir;
	long rep;
	struct step S;
	struct step_result res;
	struct diag sd;
	volatile sig_atomic_t stop; /* its step_ctx.stop: set with __atomic_store_n (the
	                             * step's thread reads it) */
	enum conc_why why;
	char why_step[128]; /* the step whose end or failure stopped it */
	pthread_t tid;
	bool started, finished;
	int done; /* atomic: the workload returned */
	int rc;
	bool background, first; /* first: of an until: first group */
	double t0, t1, origin;  /* monotonic; origin: the overlap's clock */
	char overlapped[512];
};

/* The steps that run now or have run in this repetition. */
struct conc {
	struct live **v;
	size_t n, cap;
	double origin; /* the start of the current overlap, or < 0 */
	char facts[1024];
	/* The device models' utilisation over the last overlap that ended
	 * (model.NAME.*_util): the steps of an overlap share the device's
	 * limit, so each of them gets the overlap's figures. */
	struct step_result util;
	double util_origin;
};

bool step_conc_wanted(const struct node *steps)
{
	bool first;
	for (size_t i = 0; steps && steps->kind == NODE_SEQ && i < steps->n; i++)
		if (spec_step_group(steps->items[i], &first) || spec_step_background(steps->items[i]))
			return true;
	return false;
}

static bool live_done(const struct live *l)
{
	return !l->started || __atomic_load_n(&l->done, __ATOMIC_ACQUIRE);
}

static bool live_running(const struct live *l)
{
	return l->started && !l->finished && !live_done(l);
}

static void *live_main(void *arg)
{
	struct live *l = arg;
	l->rc = l->S.ops && l->sd.nerrors == 0
	            ? step_exec(l->E, l->c, &l->S, l->rep, l->cell_dir, &l->res, &l->sd, &l->stop)
	            : 0;
	l->t1 = clock_mono();
	__atomic_store_n(&l->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void add_name(char *list, size_t len, const char *name)
{
	size_t u = strlen(list);
	snprintf(list + u, len - u, "%s%s", u ? ", " : "", name);
}

/* Start step i; the steps running now and it overlap. */
static struct live *launch(struct conc *K, struct run_env *E, const struct cell *c, const struct node *st,
                           size_t i, long rep, const char *cell_dir)
{
	struct live *l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	if (K->n == K->cap) {
		size_t cap = K->cap ? 2 * K->cap : 8;
		struct live **v = realloc(K->v, cap * sizeof(*v));
		if (!v) {
			free(l);
			return NULL;
		}
		K->v = v, K->cap = cap;
	}
	K->v[K->n++] = l;
	*l = (struct live){.E = E, .c = c, .cell_dir = cell_dir, .rep = rep};
	l->background = spec_step_background(st);
	spec_step_group(st, &l->first);
	step_begin(E, c, st, i, &l->S, &l->res, &l->sd);
	bool alone = true;
	for (size_t k = 0; k + 1 < K->n; k++)
		if (live_running(K->v[k])) {
			alone = false;
			add_name(l->overlapped, sizeof(l->overlapped), K->v[k]->S.name);
			add_name(K->v[k]->overlapped, sizeof(K->v[k]->overlapped), l->S.name);
		}
	if (alone || K->origin < 0)
		devmodel_step_begin(E->fx.dm); /* an overlap begins */
	l->t0 = clock_mono();
	if (alone || K->origin < 0)
		K->origin = l->t0;
	l->origin = K->origin;
	if (pthread_create(&l->tid, NULL, live_main, l) == 0)
		l->started = true;
	else
		result_fail(&l->res, "step %s: cannot start its thread", l->S.name);
	return l;
}

static void stop_one(struct live *l, enum conc_why why, const char *by)
{
	if (!live_running(l) || l->why != WHY_NONE)
		return;
	/* A step past its own timeout when another step's end or failure stops
	 * it keeps its own verdict: the stop does not excuse it. */
	if ((why == WHY_FAILED || why == WHY_FIRST || why == WHY_FOREGROUND) && l->S.timeout > 0 &&
	    clock_mono() - l->t0 >= l->S.timeout)
		why = WHY_TIMEOUT, by = NULL;
	l->why = why;
	snprintf(l->why_step, sizeof(l->why_step), "%s", by ? by : "");
	__atomic_store_n(&l->stop, 1, __ATOMIC_RELEASE);
}

static bool live_failed(const struct live *l)
{
	return l->res.failed || l->rc < 0 || l->sd.nerrors > 0;
}

/* Watch the steps of K until every step of the foreground fg[0..nfg) has
 * ended (nfg 0: until every step has ended). */
static void watch(struct conc *K, struct live **fg, size_t nfg)
{
	struct timespec tick = {0, 20 * 1000 * 1000};
	for (;;) {
		double now = clock_mono();
		for (size_t k = 0; k < K->n; k++) {
			struct live *l = K->v[k];
			if (interrupt_requested())
				stop_one(l, WHY_SIGNAL, NULL);
			/* the workload times itself out; this is the backstop */
			if (live_running(l) && l->S.timeout > 0 && now - l->t0 > l->S.timeout + 1.0)
				stop_one(l, WHY_TIMEOUT, NULL);
			if (l->finished || !l->started || !live_done(l) || l->why != WHY_NONE)
				continue;
			if (live_failed(l)) /* a failing step stops every other */
				for (size_t j = 0; j < K->n; j++)
					stop_one(K->v[j], WHY_FAILED, l->S.name);
		}
		bool all = true;
		for (size_t k = 0; k < nfg; k++) {
			struct live *l = fg[k];
			all &= live_done(l);
			if (live_done(l) && l->first && l->why == WHY_NONE)
				for (size_t j = 0; j < nfg; j++)
					stop_one(fg[j], WHY_FIRST, l->S.name);
		}
		if (!nfg)
			for (size_t k = 0; k < K->n; k++)
				all &= live_done(K->v[k]);
		if (all)
			return;
		nanosleep(&tick, NULL);
	}
}

/* The series of an overlapping step on the overlap's clock. */
static void shift_series(struct live *l)
{
	double off = l->t0 - l->origin;
	if (off <= 0)
		return;
	for (size_t s = 0; s < l->res.ns; s++)
		for (size_t k = 0; k < l->res.s[s].n; k++)
			l->res.s[s].t[k] += off;
}

/* The overlap that began at K->origin has ended: the models' utilisation
 * over it, for its steps. */
static void overlap_util(struct conc *K, struct run_env *E)
{
	result_free(&K->util);
	result_init(&K->util, "overlap", "");
	devmodel_step_util(E->fx.dm, &K->util);
	K->util_origin = K->origin;
}

/* Join l, say how it ran, and end it (step_one.h): STEPS_*. */
static int finish(struct conc *K, struct live *l, struct run_cell *rc, long rep, const struct node *st)
{
	if (l->started)
		pthread_join(l->tid, NULL);
	l->finished = true;
	l->res.elapsed = (l->started ? l->t1 : clock_mono()) - l->t0;
	if (l->origin == K->util_origin)
		for (size_t m = 0; m < K->util.nm; m++)
			result_metric(&l->res, K->util.m[m].name, K->util.m[m].value, K->util.m[m].unit);
	bool first;
	const char *group = spec_step_group(st, &first);
	if (group)
		result_info(&l->res, "group", "%s (until: %s)", group, first ? "first" : "all");
	if (l->background)
		result_info(&l->res, "background", "true");
	if (l->overlapped[0]) {
		result_info(&l->res, "overlapped", "%s", l->overlapped);
		shift_series(l);
		result_info(&l->res, "clock",
		            "series in seconds since the overlap began; this step started %.3f s after",
		            l->t0 - l->origin);
	}
	static const char *const why_text[] = {
	    [WHY_FAILED] = "stopped: step %s failed",
	    [WHY_FIRST] = "stopped: step %s ended first (until: first)",
	    [WHY_FOREGROUND] = "stopped: the foreground steps ended (last: %s)",
	};
	if (l->why == WHY_FAILED || l->why == WHY_FIRST || l->why == WHY_FOREGROUND) {
		/* stopped cleanly by us: what it measured stands */
		l->res.failed = false;
		free(l->res.error);
		l->res.error = NULL;
		diag_free(&l->sd);
		diag_init(&l->sd);
		l->rc = 0;
		char why[300];
		snprintf(why, sizeof(why), why_text[l->why], l->why_step);
		result_info(&l->res, "stopped", "%s", why);
		result_info(&l->res, "warning", "%s", why);
	}
	return step_end(l->E, l->c, &l->S, rc, rep, &l->res, &l->sd, l->rc, l->why == WHY_TIMEOUT);
}

/* group_reporting: true: the group's steps just recorded in repetition
 * rep, as one more result named after the group (group_total.h). */
static void record_total(struct run_env *E, struct run_cell *rc, long rep, const char *group,
                         struct live **fg, size_t nfg)
{
	if (rep < 0 || (size_t)rep >= rc->nreps)
		return;
	const struct run_rep *R = &rc->reps[rep];
	const struct step_result **m = calloc(nfg ? nfg : 1, sizeof(*m));
	size_t n = 0;
	for (size_t k = 0; m && k < nfg; k++)
		for (size_t s = R->nsteps; s-- > 0;)
			if (!strcmp(R->steps[s].step, fg[k]->S.name)) {
				m[n++] = &R->steps[s];
				break;
			}
	struct step_result total;
	result_init(&total, group, "io");
	if (m && n == nfg && group_total(m, n, &total) == 0) {
		for (size_t k = 0; k < n; k++) {
			total.started =
			    k == 0 || m[k]->started < total.started ? m[k]->started : total.started;
			total.elapsed = m[k]->elapsed > total.elapsed ? m[k]->elapsed : total.elapsed;
		}
		char summary[256];
		step_summary(&total, summary, sizeof(summary));
		progress_step_done(&E->prog, group, false, summary);
		run_cell_take_step(rc, (size_t)rep, &total);
	}
	result_free(&total);
	free(m);
}

static void live_free(struct conc *K)
{
	for (size_t k = 0; k < K->n; k++)
		free(K->v[k]);
	free(K->v);
}

/* One line of the cell's fact steps.overlap. */
static void fact_add(struct conc *K, struct live **v, size_t n, const char *how)
{
	char line[400] = "";
	for (size_t k = 0; k < n; k++)
		add_name(line, sizeof(line), v[k]->S.name);
	size_t u = strlen(K->facts);
	snprintf(K->facts + u, sizeof(K->facts) - u, "%s%s%s", u ? "; " : "", line, how);
}

/* Index of the step i's group's last step + 1 (i + 1 alone). */
static size_t unit_end(const struct node *steps, size_t i)
{
	/* by the group's index: two groups can have one name (an unnamed
	 * group's default name may be another group's explicit one) */
	long g = spec_step_group_index(steps->items[i]);
	size_t j = i + 1;
	while (g >= 0 && j < steps->n && spec_step_group_index(steps->items[j]) == g &&
	       !spec_step_background(steps->items[j]))
		j++;
	return j;
}

/* Step i was skipped (its group's when:): after a group's last step, its
 * total is recorded skipped too, so that what refers to it is skipped. */
static void skip_total(const struct node *steps, size_t i, const char *why, struct run_cell *rc, long rep)
{
	bool first;
	const char *g = spec_step_group(steps->items[i], &first);
	if (!g || !spec_step_group_totals(steps->items[i]) || rep < 0 || unit_end(steps, i) != i + 1)
		return;
	struct step_result total;
	result_init(&total, g, "io");
	result_skip(&total, why);
	run_cell_take_step(rc, (size_t)rep, &total);
	result_free(&total);
}

/* Stop the background steps still running, join and end every step not
 * ended yet; *status: the first that is not STEPS_OK. */
static void finish_all(struct conc *K, const struct node *steps, size_t *idx, struct run_cell *rc, long rep,
                       const char *last_fg, int *status)
{
	for (size_t k = 0; k < K->n; k++)
		stop_one(K->v[k], interrupt_requested() ? WHY_SIGNAL : WHY_FOREGROUND, last_fg);
	watch(K, NULL, 0);
	bool any = false; /* a step not finished whose overlap has no figures yet */
	for (size_t k = 0; k < K->n; k++)
		any |= !K->v[k]->finished && K->v[k]->origin != K->util_origin;
	if (any)
		overlap_util(K, K->v[0]->E);
	for (size_t k = 0; k < K->n; k++) {
		if (K->v[k]->finished)
			continue;
		int st = finish(K, K->v[k], rc, rep, steps->items[idx[k]]);
		if (*status == STEPS_OK || st == STEPS_INTERRUPTED)
			*status = st;
	}
}

/* A step could not be set up to start (out of memory): the cell fails. */
static void launch_failed(const struct node *st, int *status)
{
	const struct node *nn = st->kind == NODE_MAP ? node_get(st, "name") : NULL;
	fprintf(stderr, "%s:%d:%d: error: step %s: cannot start it: out of memory\n",
	        st->pos.file ? st->pos.file : "?", st->pos.line, st->pos.col,
	        nn && nn->kind == NODE_SCALAR ? nn->text : "?");
	*status = STEPS_FAILED;
}

int step_conc_rep(struct run_env *E, const struct cell *c, const struct node *tree, struct run_cell *rc,
                  long rep, const char *cell_dir)
{
	const struct node *steps = node_get(tree, "steps");
	struct conc K = {.origin = -1, .util_origin = -2};
	result_init(&K.util, "overlap", "");
	size_t *idx = calloc(steps->n, sizeof(*idx)); /* K.v[k] is step idx[k] */
	int status = STEPS_OK;
	char last_fg[128] = "";
	if (!idx)
		return STEPS_FAILED;
	for (size_t i = 0; i < steps->n && status == STEPS_OK && !interrupt_requested();) {
		char why[256];
		if (spec_step_skipped(E->s, tree, i, why, sizeof(why))) {
			step_skip(E, steps->items[i], i, why, rc, rep);
			skip_total(steps, i, why, rc, rep);
			i++;
			continue;
		}
		if (spec_step_background(steps->items[i])) {
			idx[K.n] = i;
			struct live *l = launch(&K, E, c, steps->items[i], i, rep, cell_dir);
			if (!l) {
				launch_failed(steps->items[i], &status);
				break;
			}
			fact_add(&K, &l, 1, " in the background of the next steps");
			i++;
			continue;
		}
		size_t j = unit_end(steps, i), n0 = K.n;
		for (size_t k = i; k < j && status == STEPS_OK; k++) {
			idx[K.n] = k;
			if (!launch(&K, E, c, steps->items[k], k, rep, cell_dir))
				launch_failed(steps->items[k], &status);
		}
		size_t nfg = K.n - n0;
		if (status != STEPS_OK) /* finish_all stops and ends those that started */
			break;
		struct live **fg = K.v + n0;
		bool first;
		const char *g = spec_step_group(steps->items[i], &first);
		if (g) {
			char how[200];
			snprintf(how, sizeof(how), " together (group %s, until: %s)", g,
			         first ? "first" : "all");
			fact_add(&K, fg, nfg, how);
		}
		watch(&K, fg, nfg);
		bool last = j >= steps->n || interrupt_requested();
		for (size_t k = 0; k < nfg; k++)
			last |= live_failed(fg[k]) && fg[k]->why == WHY_NONE;
		if (last) { /* the background steps end with the last foreground */
			for (size_t k = 0; k < n0; k++)
				stop_one(K.v[k], interrupt_requested() ? WHY_SIGNAL : WHY_FOREGROUND,
				         fg[nfg - 1]->S.name);
			watch(&K, NULL, 0);
		}
		bool runs_on = false; /* a background step goes on beside the next steps */
		for (size_t k = 0; k < n0; k++)
			runs_on |= !K.v[k]->finished && !live_done(K.v[k]);
		if (!runs_on)
			overlap_util(&K, E);
		/* the foreground unit ends: record it (scenario order) */
		for (size_t k = 0; k < nfg; k++) {
			int st = finish(&K, K.v[n0 + k], rc, rep, steps->items[idx[n0 + k]]);
			if (status == STEPS_OK || st == STEPS_INTERRUPTED)
				status = st;
		}
		if (g && status == STEPS_OK && spec_step_group_totals(steps->items[i]))
			record_total(E, rc, rep, g, fg, nfg);
		/* a background step that failed meanwhile fails the cell */
		for (size_t k = 0; k < n0; k++)
			if (!K.v[k]->finished && live_done(K.v[k]) && live_failed(K.v[k]) &&
			    K.v[k]->why == WHY_NONE && status == STEPS_OK)
				status = STEPS_FAILED;
		snprintf(last_fg, sizeof(last_fg), "%s", K.v[K.n - 1]->S.name);
		if (!runs_on)
			K.origin = -1; /* nothing runs on: the next overlap has its own clock */
		i = j;
	}
	finish_all(&K, steps, idx, rc, rep, last_fg, &status);
	if (K.facts[0] && rep >= 0)
		result_info(&rc->facts, "steps.overlap", "%s", K.facts);
	if (interrupt_requested())
		status = STEPS_INTERRUPTED;
	live_free(&K);
	result_free(&K.util);
	free(idx);
	return status;
}
