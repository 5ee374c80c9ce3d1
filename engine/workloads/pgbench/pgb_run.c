/* pgb_run: a pgbench load from start to end (see pgb_run.h): the clients
 * dealt to threads, the start gate, the watch over stop flag, timeout and
 * progress, and the figures merged after the join. */
#include "pgb_run.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>
#include "pgb_client.h"
#include "pgb_meta.h"
#include "pgb_val.h"

void pgb_run_out_free(struct pgb_run_out *out)
{
	free(out->cmd_ns);
	free(out->cmd_n);
	free(out->script_lat);
	free(out->script_rb);
	out->cmd_ns = NULL;
	out->cmd_n = NULL;
	out->script_lat = NULL;
	out->script_rb = NULL;
}

/* Per-script histograms and ROLLBACK counts (left NULL without memory:
 * the figures are then missing, the run goes on). */
static void pgb_run_script_stats(int n, struct hist **lat, int64_t **rb)
{
	*lat = calloc((size_t)n, sizeof(**lat));
	*rb = calloc((size_t)n, sizeof(**rb));
	if (!*lat || !*rb) {
		free(*lat);
		free(*rb);
		*lat = NULL;
		*rb = NULL;
		return;
	}
	for (int i = 0; i < n; i++)
		hist_init(&(*lat)[i]);
}

static void pgbc_sleep_ns(int64_t ns)
{
	struct timespec ts = {.tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000};

	nanosleep(&ts, NULL);
}

/* A run's threads and clients, and what they share. */
struct pgbc_run {
	const struct pgb_run_cfg *cfg;
	struct pgbc_shared sh;
	struct pgbc_thread *th;
	struct pgbc_client *cl;
	int nth;
};

/* A client's variables before its first transaction: the automatic ones,
 * then define:'s, which win over them as pgbench -D does. */
static void pgbc_client_vars(struct pgbc_client *c, const struct pgb_run_cfg *cfg, int64_t default_seed)
{
	const struct pgb_prog *p = cfg->prog;

	c->vars[PGB_VAR_SCALE] = (struct pgb_val){.type = PGB_V_INT, .i = cfg->scale};
	c->vars[PGB_VAR_CLIENT_ID] = (struct pgb_val){.type = PGB_V_INT, .i = c->id};
	c->vars[PGB_VAR_RANDOM_SEED] = (struct pgb_val){.type = PGB_V_INT, .i = (int64_t)cfg->seed};
	c->vars[PGB_VAR_DEFAULT_SEED] = (struct pgb_val){.type = PGB_V_INT, .i = default_seed};
	for (int v = 0; v < p->nvar; v++)
		if (p->defval[v] && pgb_val_set_text(&c->vars[v], p->defval[v], strlen(p->defval[v])))
			pgbc_fail(c->th->sh, "out of memory");
}

/* Deal the clients to threads in contiguous runs, as pgbench does, and set
 * up each: epoll, counters, generators, variables. A failure is recorded
 * with pgbc_fail (the threads then end at once). */
static void pgbc_setup(struct pgbc_run *r)
{
	const struct pgb_run_cfg *cfg = r->cfg;
	const struct pgb_prog *p = cfg->prog;
	struct pgbc_shared *sh = &r->sh;
	/* pgbench's order of seeding: clients, :default_seed (no draw when
	 * define: sets it), threads */
	struct pgb_rng *crng = calloc(cfg->clients, sizeof(*crng));
	struct pgb_thread_rngs *trng = calloc(r->nth, sizeof(*trng));

	if (!crng || !trng) {
		pgbc_fail(sh, "out of memory");
		free(crng);
		free(trng);
		return;
	}
	pgb_rand_seed_run(cfg->seed, cfg->clients, r->nth, p->defval[PGB_VAR_DEFAULT_SEED] != NULL, crng,
	                  trng, &sh->default_seed);
	for (int i = 0, ci = 0; i < r->nth; i++) {
		struct pgbc_thread *t = &r->th[i];
		int n = pgb_rand_thread_nclients(cfg->clients, r->nth, i);

		t->sh = sh;
		t->idx = i;
		t->cl = &r->cl[ci];
		t->ncl = t->nactive = n;
		t->ep = epoll_create1(EPOLL_CLOEXEC);
		hist_init(&t->lat);
		t->cmd_ns = calloc(sh->ncmd + 1, sizeof(double));
		t->cmd_n = calloc(sh->ncmd + 1, sizeof(int64_t));
		if (cfg->prog->nscripts > 1) /* per-script figures (pgb_run_out) */
			pgb_run_script_stats(cfg->prog->nscripts, &t->script_lat, &t->script_rb);
		t->rngs = trng[i];
		if (cfg->rate > 0)
			t->sched_mean_us = pgb_rand_throttle_us(cfg->rate, r->nth);
		if (t->ep < 0 || !t->cmd_ns || !t->cmd_n)
			pgbc_fail(sh, "cannot set up thread %d: %s", i,
			          t->ep < 0 ? strerror(errno) : "out of memory");
		for (int k = 0; k < n; k++, ci++) {
			struct pgbc_client *c = &r->cl[ci];

			c->th = t;
			c->id = ci;
			c->rng = crng[ci];
			c->sock = -1;
			c->vars = calloc(p->nvar, sizeof(*c->vars));
			c->prepared = calloc(p->nscripts, sizeof(bool));
			if (!c->vars || !c->prepared) {
				pgbc_fail(sh, "out of memory");
				continue;
			}
			pgbc_client_vars(c, cfg, sh->default_seed);
		}
	}
	free(crng);
	free(trng);
}

/* One progress sample: tps and mean latency since the previous one. */
static void pgbc_progress(struct pgbc_run *r, int64_t now, int64_t start, int64_t *prev_ntx,
                          int64_t *prev_lat, int64_t *prev_t)
{
	int64_t ntx = 0, lat = 0;

	for (int i = 0; i < r->nth; i++) {
		ntx += __atomic_load_n(&r->th[i].ntx_pub, __ATOMIC_RELAXED);
		lat += __atomic_load_n(&r->th[i].latsum_pub, __ATOMIC_RELAXED);
	}
	double dt = (now - *prev_t) / 1e9;
	double tps = dt > 0 ? (ntx - *prev_ntx) / dt : 0;
	double lms = ntx > *prev_ntx ? (lat - *prev_lat) / 1e6 / (double)(ntx - *prev_ntx) : 0;

	if (r->cfg->on_progress)
		r->cfg->on_progress(r->cfg->progress_arg, (now - start) / 1e9, tps, lms);
	*prev_ntx = ntx, *prev_lat = lat, *prev_t = now;
}

/* The calling thread while the clients run: the stop flag, the timeout and
 * progress samples, until every thread has finished; then the join. */
static void pgbc_watch(struct pgbc_run *r, struct pgb_run_out *out)
{
	const struct pgb_run_cfg *cfg = r->cfg;
	struct pgbc_shared *sh = &r->sh;
	int64_t start = pgbc_now(), next_prog = start + (int64_t)(cfg->progress * 1e9);
	int64_t deadline = cfg->timeout > 0 ? start + (int64_t)(cfg->timeout * 1e9) : INT64_MAX;
	int64_t prev_ntx = 0, prev_lat = 0, prev_t = start;

	while (__atomic_load_n(&sh->nfinished, __ATOMIC_ACQUIRE) < r->nth) {
		int64_t now = pgbc_now(), until = now + 50000000;

		if (cfg->progress > 0 && next_prog < until)
			until = next_prog;
		if (until > now)
			pgbc_sleep_ns(until - now);
		now = pgbc_now();
		if (cfg->stop && __atomic_load_n(cfg->stop, __ATOMIC_ACQUIRE) && !pgbc_aborted(sh)) {
			out->stopped = true;
			__atomic_store_n(&sh->abort, 1, __ATOMIC_RELAXED);
		}
		if (now >= deadline && !pgbc_aborted(sh))
			pgbc_fail(sh, "timed out after %.3g s", cfg->timeout);
		if (cfg->progress > 0 && now >= next_prog && !pgbc_aborted(sh)) {
			pgbc_progress(r, now, start, &prev_ntx, &prev_lat, &prev_t);
			next_prog += (int64_t)(cfg->progress * 1e9);
		}
	}
	int64_t last = start;

	for (int i = 0; i < r->nth; i++) {
		pthread_join(r->th[i].tid, NULL);
		if (r->th[i].finished_at > last)
			last = r->th[i].finished_at;
	}
	out->elapsed = (last - start) / 1e9;
}

/* Merge the threads' figures into out and release threads and clients. */
static void pgbc_collect(struct pgbc_run *r, struct pgb_run_out *out)
{
	for (int i = 0; i < r->nth; i++) {
		struct pgbc_thread *t = &r->th[i];

		hist_merge(&out->lat, &t->lat);
		out->transactions += t->ntx;
		out->failed += t->failed;
		pgb_retry_thread_end(&t->rt, &r->cfg->fail, t->start, t->finished_at, &out->fail);
		out->connections += t->connections;
		if (r->cfg->connect_per_txn)
			out->conn_time += t->conn_ns / 1e9;
		for (int k = 0; k < r->sh.ncmd && t->cmd_ns; k++) {
			out->cmd_ns[k] += t->cmd_ns[k];
			out->cmd_n[k] += t->cmd_n[k];
		}
		for (int s = 0; s < r->cfg->prog->nscripts && t->script_lat && out->script_lat; s++) {
			hist_merge(&out->script_lat[s], &t->script_lat[s]);
			out->script_rb[s] += t->script_rb[s];
		}
		free(t->script_lat);
		free(t->script_rb);
		free(t->cmd_ns);
		free(t->cmd_n);
		if (t->ep >= 0)
			close(t->ep);
	}
	for (int i = 0; i < r->cfg->clients; i++) {
		pgbc_disconnect(&r->cl[i]);
		PQclear(r->cl[i].gset_res);
		for (int v = 0; r->cl[i].vars && v < r->cfg->prog->nvar; v++)
			pgb_val_clear(&r->cl[i].vars[v]);
		free(r->cl[i].vars);
		free(r->cl[i].prepared);
		free(r->cl[i].qbuf);
	}
}

int pgb_run(const struct pgb_run_cfg *cfg, struct pgb_run_out *out)
{
	const struct pgb_prog *p = cfg->prog;
	struct pgbc_run r = {.cfg = cfg, .sh = {.cfg = cfg, .meta = &pgbm_ops}};
	int rc = 0, started = 0;

	r.nth = cfg->threads < 1 ? 1 : cfg->threads > cfg->clients ? cfg->clients : cfg->threads;
	r.th = calloc(r.nth, sizeof(*r.th));
	r.cl = calloc(cfg->clients, sizeof(*r.cl));
	memset(out, 0, sizeof(*out));
	hist_init(&out->lat);
	r.sh.cmd_base = calloc(p->nscripts + 1, sizeof(int));
	for (int s = 0; s < p->nscripts && r.sh.cmd_base; s++)
		r.sh.cmd_base[s + 1] = r.sh.cmd_base[s] + p->scripts[s].ncmd;
	r.sh.ncmd = r.sh.cmd_base ? r.sh.cmd_base[p->nscripts] : 0;
	out->ncmd = r.sh.ncmd;
	out->cmd_ns = calloc(r.sh.ncmd + 1, sizeof(double));
	out->cmd_n = calloc(r.sh.ncmd + 1, sizeof(int64_t));
	if (p->nscripts > 1)
		pgb_run_script_stats(p->nscripts, &out->script_lat, &out->script_rb);
	if (!r.th || !r.cl || !r.sh.cmd_base || !out->cmd_ns || !out->cmd_n) {
		free(r.th);
		free(r.cl);
		free(r.sh.cmd_base);
		snprintf(out->error, sizeof(out->error), "out of memory");
		return -ENOMEM;
	}
	pthread_mutex_init(&r.sh.lock, NULL);
	pthread_cond_init(&r.sh.cond, NULL);
	pgbc_setup(&r);
	for (int i = 0; i < r.nth; i++)
		pgb_retry_thread_init(&r.th[i].rt, &cfg->fail, i, &r.th[i].rngs.sample);
	for (int i = 0; i < r.nth; i++) {
		if (pthread_create(&r.th[i].tid, NULL, pgbc_thread_main, &r.th[i])) {
			pgbc_fail(&r.sh, "cannot start thread %d", i);
			break;
		}
		started++;
	}
	/* all threads connected: start them together */
	pthread_mutex_lock(&r.sh.lock);
	while (r.sh.nready < started)
		pthread_cond_wait(&r.sh.cond, &r.sh.lock);
	r.sh.go = true;
	pthread_cond_broadcast(&r.sh.cond);
	pthread_mutex_unlock(&r.sh.lock);
	if (started == r.nth) {
		pgbc_watch(&r, out);
	} else {
		/* a thread failed to start: the run is aborted, the others end at once */
		for (int i = 0; i < started; i++)
			pthread_join(r.th[i].tid, NULL);
	}
	pgbc_collect(&r, out);
	if (r.sh.error[0]) {
		snprintf(out->error, sizeof(out->error), "%s", r.sh.error);
		rc = -EIO;
	}
	pthread_cond_destroy(&r.sh.cond);
	pthread_mutex_destroy(&r.sh.lock);
	free(r.sh.cmd_base);
	free(r.th);
	free(r.cl);
	return rc;
}
