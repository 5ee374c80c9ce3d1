/* pgb_client: threads of non-blocking clients (see pgb_client.h).
 *
 * Client states:
 *   CS_CHOOSE    between transactions. Stops the client when its count is
 *                reached, the duration is over or the run is aborted. With a
 *                rate, takes the next start time of the thread's Poisson
 *                schedule and waits in CS_THROTTLE until then; else it picks a
 *                script by weight, connects (per-transaction mode) and starts
 *                the transaction in CS_CMD.
 *   CS_THROTTLE  waiting for the scheduled start; latency counts from it.
 *   CS_CMD       executing commands: \set runs at once, \sleep goes to
 *                CS_SLEEP, SQL is sent and goes to CS_WAIT; after the last
 *                command the transaction's latency is recorded.
 *   CS_SLEEP     in a \sleep until its deadline.
 *   CS_WAIT      waiting for the server's results of one statement.
 *   CS_ROLLBACK  after a serialization failure or deadlock inside a
 *                transaction block: waiting for ROLLBACK, then counts the
 *                transaction as failed and goes on.
 *   CS_DONE      finished (its connection is closed).
 * Any other error (bad statement, lost connection) aborts the whole run: the
 * first message wins and every thread stops at its next turn. */
#include "pgb_client.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>
#include <libpq-fe.h>
#include "pgb_eval.h"

enum pgbc_state { CS_CHOOSE, CS_THROTTLE, CS_CMD, CS_SLEEP, CS_WAIT, CS_ROLLBACK, CS_DONE };

struct pgbc_thread;

struct pgbc_client {
	struct pgbc_thread *th;
	int id;
	enum pgbc_state state;
	PGconn *conn;
	int sock;
	struct pgb_rng rng;
	int script, cmd;
	int64_t ntx;
	int64_t sched, txn_begin, cmd_begin, wake; /* ns */
	bool *prepared;                            /* per script, on the current connection */
	struct pgb_val *vars;
	bool err_retry; /* the statement failed with a retryable error */
	char *qbuf;     /* simple protocol: the statement with values */
	size_t qcap;
	char pval[PGB_MAX_PARAMS][32];
	const char *pv[PGB_MAX_PARAMS];
};

struct pgbc_shared;

struct pgbc_thread {
	struct pgbc_shared *sh;
	int idx;
	pthread_t tid;
	struct pgbc_client *cl;
	int ncl, nactive;
	int ep;
	int64_t start, end_time, next_sched, finished_at;
	double sched_mean_ns;
	struct pgb_rng rng; /* schedule and script choice */
	/* read by the progress sampler (relaxed atomics) */
	int64_t ntx_pub, latsum_pub;
	int64_t ntx, failed, latsum, connections, conn_ns;
	struct hist lat;
	double *cmd_ns;
	int64_t *cmd_n;
};

struct pgbc_shared {
	const struct pgb_run_cfg *cfg;
	int *cmd_base; /* first flat command index of each script */
	int ncmd;
	/* start gate: threads count themselves in when connected, then wait for go */
	pthread_cond_t cond;
	int nready;
	bool go;
	int abort;     /* set once: stop every thread */
	int nfinished; /* threads done */
	pthread_mutex_t lock;
	char error[4096];
};

static inline int64_t pgbc_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static bool pgbc_aborted(const struct pgbc_shared *sh)
{
	return __atomic_load_n(&sh->abort, __ATOMIC_RELAXED) != 0;
}

/* Record the first fatal error and stop everybody. */
static void pgbc_fail(struct pgbc_shared *sh, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pgbc_fail(struct pgbc_shared *sh, const char *fmt, ...)
{
	pthread_mutex_lock(&sh->lock);
	if (!sh->error[0]) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(sh->error, sizeof(sh->error), fmt, ap);
		va_end(ap);
		/* libpq messages end with a newline */
		size_t n = strlen(sh->error);
		while (n && (sh->error[n - 1] == '\n' || sh->error[n - 1] == ' '))
			sh->error[--n] = '\0';
	}
	pthread_mutex_unlock(&sh->lock);
	__atomic_store_n(&sh->abort, 1, __ATOMIC_RELAXED);
}

static void pgbc_disconnect(struct pgbc_client *c)
{
	if (!c->conn)
		return;
	if (c->sock >= 0)
		epoll_ctl(c->th->ep, EPOLL_CTL_DEL, c->sock, NULL);
	PQfinish(c->conn);
	c->conn = NULL;
	c->sock = -1;
}

static void pgbc_quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

static int pgbc_connect(struct pgbc_client *c)
{
	const struct pgb_run_cfg *cfg = c->th->sh->cfg;
	const char *keys[] = {"dbname", "application_name", NULL};
	const char *vals[] = {cfg->conninfo, cfg->app_name ? cfg->app_name : "benchgrid", NULL};
	int64_t t0 = pgbc_now();

	c->conn = PQconnectdbParams(keys, vals, 1);
	if (PQstatus(c->conn) != CONNECTION_OK) {
		pgbc_fail(c->th->sh, "client %d: cannot connect: %s", c->id, PQerrorMessage(c->conn));
		PQfinish(c->conn);
		c->conn = NULL;
		return -1;
	}
	/* notices (and a dying server's FATAL) go into errors, not to stderr */
	PQsetNoticeProcessor(c->conn, pgbc_quiet, NULL);
	c->sock = PQsocket(c->conn);
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};

	if (epoll_ctl(c->th->ep, EPOLL_CTL_ADD, c->sock, &ev)) {
		pgbc_fail(c->th->sh, "client %d: epoll_ctl: %s", c->id, strerror(errno));
		return -1;
	}
	memset(c->prepared, 0, cfg->prog->nscripts * sizeof(bool));
	c->th->connections++;
	c->th->conn_ns += pgbc_now() - t0;
	return 0;
}

/* Prepare every statement of the script on this connection. */
static int pgbc_prepare(struct pgbc_client *c, int s)
{
	const struct pgb_script *sc = &c->th->sh->cfg->prog->scripts[s];

	for (int i = 0; i < sc->ncmd; i++) {
		const struct pgb_cmd *cmd = &sc->cmd[i];
		char name[32];

		if (cmd->kind != PGB_CMD_SQL)
			continue;
		snprintf(name, sizeof(name), "P%d_%d", s, i);
		PGresult *r = PQprepare(c->conn, name, cmd->sql, 0, NULL);

		if (PQresultStatus(r) != PGRES_COMMAND_OK) {
			pgbc_fail(c->th->sh, "client %d: script %s line %d: cannot prepare \"%s\": %s", c->id,
			          sc->name, cmd->line, cmd->text, PQerrorMessage(c->conn));
			PQclear(r);
			return -1;
		}
		PQclear(r);
	}
	c->prepared[s] = true;
	return 0;
}

static int pgbc_choose_script(struct pgbc_client *c)
{
	const struct pgb_prog *p = c->th->sh->cfg->prog;

	if (p->nscripts == 1)
		return 0;
	int64_t w = pgb_rand_uniform(&c->rng, 0, p->total_weight - 1);

	for (int i = 0; i < p->nscripts; i++) {
		if (w < p->scripts[i].weight)
			return i;
		w -= p->scripts[i].weight;
	}
	return p->nscripts - 1;
}

/* Send one SQL command. */
static int pgbc_send(struct pgbc_client *c, const struct pgb_cmd *cmd)
{
	const struct pgb_run_cfg *cfg = c->th->sh->cfg;
	const struct pgb_script *sc = &cfg->prog->scripts[c->script];
	int ok;

	for (int k = 0; k < cmd->nparams; k++) {
		const struct pgb_val *v = &c->vars[cmd->param_var[k]];

		if (v->type == PGB_V_UNSET) {
			pgbc_fail(c->th->sh, "client %d: script %s line %d: undefined variable :%s in \"%s\"",
			          c->id, sc->name, cmd->line, cfg->prog->var[cmd->param_var[k]], cmd->text);
			return -1;
		}
		pgb_val_format(v, c->pval[k], sizeof(c->pval[k]));
		c->pv[k] = c->pval[k];
	}
	switch (cfg->protocol) {
	case PGB_PROTO_SIMPLE: {
		size_t need = 1;

		for (int k = 0; k <= cmd->nparams; k++)
			need += cmd->fraglen[k] + (k < cmd->nparams ? strlen(c->pv[k]) : 0);
		if (need > c->qcap) {
			char *nb = realloc(c->qbuf, need);

			if (!nb) {
				pgbc_fail(c->th->sh, "out of memory");
				return -1;
			}
			c->qbuf = nb;
			c->qcap = need;
		}
		char *o = c->qbuf;

		for (int k = 0; k <= cmd->nparams; k++) {
			memcpy(o, cmd->frag[k], cmd->fraglen[k]);
			o += cmd->fraglen[k];
			if (k < cmd->nparams) {
				size_t l = strlen(c->pv[k]);

				memcpy(o, c->pv[k], l);
				o += l;
			}
		}
		*o = '\0';
		ok = PQsendQuery(c->conn, c->qbuf);
		break;
	}
	case PGB_PROTO_EXTENDED:
		ok = PQsendQueryParams(c->conn, cmd->sql, cmd->nparams, NULL, c->pv, NULL, NULL, 0);
		break;
	default: {
		char name[32];

		snprintf(name, sizeof(name), "P%d_%d", c->script, c->cmd);
		ok = PQsendQueryPrepared(c->conn, name, cmd->nparams, c->pv, NULL, NULL, 0);
		break;
	}
	}
	if (!ok) {
		pgbc_fail(c->th->sh, "client %d: script %s line %d: cannot send \"%s\": %s", c->id, sc->name,
		          cmd->line, cmd->text, PQerrorMessage(c->conn));
		return -1;
	}
	return 0;
}

static void pgbc_end_txn(struct pgbc_client *c, int64_t now, bool failed)
{
	struct pgbc_thread *t = c->th;

	if (failed) {
		t->failed++;
	} else {
		int64_t lat = now - c->txn_begin;

		hist_record(&t->lat, (uint64_t)(lat > 0 ? lat : 0));
		t->ntx++;
		t->latsum += lat;
		__atomic_store_n(&t->ntx_pub, t->ntx, __ATOMIC_RELAXED);
		__atomic_store_n(&t->latsum_pub, t->latsum, __ATOMIC_RELAXED);
	}
	c->ntx++;
	if (t->sh->cfg->connect_per_txn)
		pgbc_disconnect(c);
	c->state = CS_CHOOSE;
}

static void pgbc_finish(struct pgbc_client *c)
{
	pgbc_disconnect(c);
	c->state = CS_DONE;
	c->th->nactive--;
}

/* Start a transaction now (after any throttling wait). */
static int pgbc_start_txn(struct pgbc_client *c, int64_t now)
{
	const struct pgb_run_cfg *cfg = c->th->sh->cfg;

	c->script = pgbc_choose_script(c);
	if (!c->conn && pgbc_connect(c))
		return -1;
	if (cfg->protocol == PGB_PROTO_PREPARED && !c->prepared[c->script] && pgbc_prepare(c, c->script))
		return -1;
	/* with a rate, latency counts from the scheduled start; connecting is
	 * not part of a transaction's latency (as in pgbench) */
	c->txn_begin = cfg->rate > 0 ? c->sched : (cfg->connect_per_txn ? pgbc_now() : now);
	c->cmd = 0;
	c->state = CS_CMD;
	return 0;
}

/* Advance the client as far as it goes without waiting. */
static void pgbc_run(struct pgbc_client *c)
{
	struct pgbc_thread *t = c->th;
	const struct pgb_run_cfg *cfg = t->sh->cfg;
	char err[256];

	for (;;) {
		int64_t now;

		switch (c->state) {
		case CS_CHOOSE:
			if (pgbc_aborted(t->sh) || (cfg->duration <= 0 && c->ntx >= cfg->transactions)) {
				pgbc_finish(c);
				return;
			}
			now = pgbc_now();
			if (cfg->duration > 0 && now >= t->end_time) {
				pgbc_finish(c);
				return;
			}
			if (cfg->rate > 0) {
				c->sched = t->next_sched;
				t->next_sched +=
				    (int64_t)(-log(1.0 - pgb_rng_double(&t->rng)) * t->sched_mean_ns);
				if (cfg->duration > 0 && c->sched >= t->end_time) {
					pgbc_finish(c);
					return;
				}
				if (c->sched > now) {
					c->wake = c->sched;
					c->state = CS_THROTTLE;
					return;
				}
			}
			if (pgbc_start_txn(c, now))
				return;
			break;
		case CS_THROTTLE:
			now = pgbc_now();
			if (now < c->wake)
				return;
			if (pgbc_aborted(t->sh)) {
				pgbc_finish(c);
				return;
			}
			if (pgbc_start_txn(c, now))
				return;
			break;
		case CS_SLEEP:
			now = pgbc_now();
			if (now < c->wake)
				return;
			if (cfg->per_statement) {
				int fi = t->sh->cmd_base[c->script] + c->cmd;

				t->cmd_ns[fi] += (double)(now - c->cmd_begin);
				t->cmd_n[fi]++;
			}
			c->cmd++;
			c->state = CS_CMD;
			break;
		case CS_CMD: {
			const struct pgb_script *sc = &cfg->prog->scripts[c->script];

			if (c->cmd >= sc->ncmd) {
				pgbc_end_txn(c, pgbc_now(), false);
				break;
			}
			const struct pgb_cmd *cmd = &sc->cmd[c->cmd];

			if (cfg->per_statement)
				c->cmd_begin = pgbc_now();
			if (cmd->kind == PGB_CMD_SQL) {
				if (pgbc_send(c, cmd))
					return;
				c->state = CS_WAIT;
				return;
			}
			struct pgb_val v;

			if (pgb_eval(cmd->expr, c->vars, &c->rng, &v, err, sizeof(err))) {
				pgbc_fail(t->sh, "client %d: script %s line %d: %s: %s", c->id, sc->name,
				          cmd->line, cmd->text, err);
				return;
			}
			if (cmd->kind == PGB_CMD_SET) {
				c->vars[cmd->var] = v;
				if (cfg->per_statement) {
					int fi = t->sh->cmd_base[c->script] + c->cmd;

					t->cmd_ns[fi] += (double)(pgbc_now() - c->cmd_begin);
					t->cmd_n[fi]++;
				}
				c->cmd++;
				break;
			}
			/* \sleep */
			double us = (v.type == PGB_V_INT ? (double)v.i : v.d) * (double)cmd->unit_us;

			c->wake = (cfg->per_statement ? c->cmd_begin : pgbc_now()) + (int64_t)(us * 1000.0);
			c->state = CS_SLEEP;
			return;
		}
		case CS_WAIT:
		case CS_ROLLBACK:
		case CS_DONE: return;
		}
	}
}

static bool pgbc_retryable(const PGresult *r)
{
	const char *st = PQresultErrorField(r, PG_DIAG_SQLSTATE);

	return st && (!strcmp(st, "40001") || !strcmp(st, "40P01"));
}

/* An error that ends the session (FATAL/PANIC, or SQLSTATE class 08
 * connection exception or 57 operator intervention such as a crash
 * shutdown): reported as a lost connection, not as a bad statement. */
static bool pgbc_fatal(const PGresult *r)
{
	const char *sev = PQresultErrorField(r, PG_DIAG_SEVERITY_NONLOCALIZED);
	const char *st = PQresultErrorField(r, PG_DIAG_SQLSTATE);

	if (sev && (!strcmp(sev, "FATAL") || !strcmp(sev, "PANIC")))
		return true;
	return st && (!strncmp(st, "08", 2) || !strncmp(st, "57", 2));
}

/* The socket of a client in CS_WAIT or CS_ROLLBACK is readable. */
static void pgbc_input(struct pgbc_client *c)
{
	struct pgbc_thread *t = c->th;
	const struct pgb_run_cfg *cfg = t->sh->cfg;
	const struct pgb_script *sc = &cfg->prog->scripts[c->script];
	const struct pgb_cmd *cmd = &sc->cmd[c->cmd < sc->ncmd ? c->cmd : sc->ncmd - 1];

	if (c->state != CS_WAIT && c->state != CS_ROLLBACK) {
		/* unexpected input (e.g. the server going away): let libpq look */
		if (c->conn && (!PQconsumeInput(c->conn) || PQstatus(c->conn) == CONNECTION_BAD))
			pgbc_fail(t->sh, "client %d: connection to the server lost: %s", c->id,
			          PQerrorMessage(c->conn));
		return;
	}
	if (!PQconsumeInput(c->conn)) {
		pgbc_fail(t->sh, "client %d: connection to the server lost during \"%s\": %s", c->id,
		          cmd->text, PQerrorMessage(c->conn));
		return;
	}
	while (!PQisBusy(c->conn)) {
		PGresult *r = PQgetResult(c->conn);

		if (!r) {
			int64_t now = pgbc_now();

			if (c->state == CS_ROLLBACK) {
				c->err_retry = false;
				pgbc_end_txn(c, now, true);
			} else if (c->err_retry) {
				c->err_retry = false;
				if (PQtransactionStatus(c->conn) == PQTRANS_INERROR) {
					if (!PQsendQuery(c->conn, "ROLLBACK")) {
						pgbc_fail(t->sh, "client %d: cannot send ROLLBACK: %s", c->id,
						          PQerrorMessage(c->conn));
						return;
					}
					c->state = CS_ROLLBACK;
					return;
				}
				pgbc_end_txn(c, now, true);
			} else {
				if (cfg->per_statement) {
					int fi = t->sh->cmd_base[c->script] + c->cmd;

					t->cmd_ns[fi] += (double)(now - c->cmd_begin);
					t->cmd_n[fi]++;
				}
				c->cmd++;
				c->state = CS_CMD;
			}
			pgbc_run(c);
			return;
		}
		ExecStatusType st = PQresultStatus(r);

		if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK && st != PGRES_EMPTY_QUERY) {
			if (c->state == CS_WAIT && st == PGRES_FATAL_ERROR && pgbc_retryable(r) &&
			    PQstatus(c->conn) == CONNECTION_OK) {
				c->err_retry = true;
			} else if (PQstatus(c->conn) == CONNECTION_BAD || pgbc_fatal(r)) {
				pgbc_fail(t->sh, "client %d: connection to the server lost during \"%s\": %s",
				          c->id, cmd->text, PQresultErrorMessage(r));
			} else {
				pgbc_fail(t->sh, "client %d: script %s line %d: statement \"%s\" failed: %s",
				          c->id, sc->name, cmd->line,
				          c->state == CS_ROLLBACK ? "ROLLBACK" : cmd->text,
				          PQresultErrorMessage(r));
			}
		}
		PQclear(r);
		if (pgbc_aborted(t->sh))
			return;
	}
}

static void *pgbc_thread_main(void *arg)
{
	struct pgbc_thread *t = arg;
	struct pgbc_shared *sh = t->sh;
	const struct pgb_run_cfg *cfg = sh->cfg;
	struct epoll_event ev[64];

	if (!cfg->connect_per_txn)
		for (int i = 0; i < t->ncl && !pgbc_aborted(sh); i++)
			if (pgbc_connect(&t->cl[i]))
				break;
	pthread_mutex_lock(&sh->lock);
	sh->nready++;
	pthread_cond_broadcast(&sh->cond);
	while (!sh->go)
		pthread_cond_wait(&sh->cond, &sh->lock);
	pthread_mutex_unlock(&sh->lock);
	t->start = pgbc_now();
	t->end_time = t->start + (int64_t)(cfg->duration * 1e9);
	t->next_sched = t->start;
	for (int i = 0; i < t->ncl; i++)
		pgbc_run(&t->cl[i]);
	while (t->nactive > 0) {
		if (pgbc_aborted(sh)) {
			for (int i = 0; i < t->ncl; i++)
				if (t->cl[i].state != CS_DONE)
					pgbc_finish(&t->cl[i]);
			break;
		}
		int64_t now = pgbc_now(), wake = INT64_MAX;

		for (int i = 0; i < t->ncl; i++) {
			struct pgbc_client *c = &t->cl[i];

			if (c->state == CS_SLEEP || c->state == CS_THROTTLE) {
				if (c->wake <= now) {
					pgbc_run(c);
					now = pgbc_now();
				}
				if ((c->state == CS_SLEEP || c->state == CS_THROTTLE) && c->wake < wake)
					wake = c->wake;
			} else if (c->state == CS_CHOOSE || c->state == CS_CMD) {
				pgbc_run(c);
			}
		}
		if (t->nactive == 0)
			break;
		/* wake at the earliest deadline (rounded up to a millisecond), or
		 * at least every 100 ms to notice an abort or the end of the run */
		int ms = 100;

		if (cfg->duration > 0 && t->end_time > now && (t->end_time - now) / 1000000 + 1 < ms)
			ms = (int)((t->end_time - now) / 1000000 + 1);
		if (wake != INT64_MAX) {
			int64_t d = wake > now ? (wake - now + 999999) / 1000000 : 0;

			if (d < ms)
				ms = (int)d;
		}
		int n = epoll_wait(t->ep, ev, 64, ms);

		if (n < 0 && errno != EINTR) {
			pgbc_fail(sh, "epoll_wait: %s", strerror(errno));
			continue;
		}
		for (int i = 0; i < n; i++)
			pgbc_input(ev[i].data.ptr);
	}
	t->finished_at = pgbc_now();
	__atomic_add_fetch(&sh->nfinished, 1, __ATOMIC_RELEASE);
	return NULL;
}

void pgb_run_out_free(struct pgb_run_out *out)
{
	free(out->cmd_ns);
	free(out->cmd_n);
	out->cmd_ns = NULL;
	out->cmd_n = NULL;
}

static void pgbc_sleep_ns(int64_t ns)
{
	struct timespec ts = {.tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000};

	nanosleep(&ts, NULL);
}

int pgb_run(const struct pgb_run_cfg *cfg, struct pgb_run_out *out)
{
	const struct pgb_prog *p = cfg->prog;
	struct pgbc_shared sh = {.cfg = cfg};
	int nth = cfg->threads < 1 ? 1 : cfg->threads > cfg->clients ? cfg->clients : cfg->threads;
	struct pgbc_thread *th = calloc(nth, sizeof(*th));
	struct pgbc_client *cl = calloc(cfg->clients, sizeof(*cl));
	int rc = 0, started = 0;

	memset(out, 0, sizeof(*out));
	hist_init(&out->lat);
	sh.cmd_base = calloc(p->nscripts + 1, sizeof(int));
	for (int s = 0; s < p->nscripts && sh.cmd_base; s++)
		sh.cmd_base[s + 1] = sh.cmd_base[s] + p->scripts[s].ncmd;
	sh.ncmd = sh.cmd_base ? sh.cmd_base[p->nscripts] : 0;
	out->ncmd = sh.ncmd;
	out->cmd_ns = calloc(sh.ncmd + 1, sizeof(double));
	out->cmd_n = calloc(sh.ncmd + 1, sizeof(int64_t));
	if (!th || !cl || !sh.cmd_base || !out->cmd_ns || !out->cmd_n) {
		free(th);
		free(cl);
		free(sh.cmd_base);
		snprintf(out->error, sizeof(out->error), "out of memory");
		return -ENOMEM;
	}
	pthread_mutex_init(&sh.lock, NULL);
	pthread_cond_init(&sh.cond, NULL);
	/* clients are dealt to threads in contiguous runs, as pgbench does */
	for (int i = 0, ci = 0; i < nth; i++) {
		struct pgbc_thread *t = &th[i];
		int n = cfg->clients / nth + (i < cfg->clients % nth);

		t->sh = &sh;
		t->idx = i;
		t->cl = &cl[ci];
		t->ncl = t->nactive = n;
		t->ep = epoll_create1(EPOLL_CLOEXEC);
		hist_init(&t->lat);
		t->cmd_ns = calloc(sh.ncmd + 1, sizeof(double));
		t->cmd_n = calloc(sh.ncmd + 1, sizeof(int64_t));
		pgb_rng_seed(&t->rng, cfg->seed ^ (0x51ed2701ull * (uint64_t)(i + 1)));
		if (cfg->rate > 0)
			t->sched_mean_ns = 1e9 * nth / cfg->rate;
		if (t->ep < 0 || !t->cmd_ns || !t->cmd_n)
			pgbc_fail(&sh, "cannot set up thread %d: %s", i,
			          t->ep < 0 ? strerror(errno) : "out of memory");
		for (int k = 0; k < n; k++, ci++) {
			struct pgbc_client *c = &cl[ci];

			c->th = t;
			c->id = ci;
			c->sock = -1;
			pgb_rng_seed(&c->rng, cfg->seed + 0x9e3779b97f4a7c15ull * (uint64_t)(ci + 1));
			c->vars = calloc(p->nvar, sizeof(*c->vars));
			c->prepared = calloc(p->nscripts, sizeof(bool));
			if (!c->vars || !c->prepared) {
				pgbc_fail(&sh, "out of memory");
				continue;
			}
			c->vars[PGB_VAR_SCALE] = (struct pgb_val){.type = PGB_V_INT, .i = cfg->scale};
			c->vars[PGB_VAR_CLIENT_ID] = (struct pgb_val){.type = PGB_V_INT, .i = ci};
		}
	}
	for (int i = 0; i < nth; i++) {
		if (pthread_create(&th[i].tid, NULL, pgbc_thread_main, &th[i])) {
			pgbc_fail(&sh, "cannot start thread %d", i);
			break;
		}
		started++;
	}
	/* all threads connected: start them together */
	pthread_mutex_lock(&sh.lock);
	while (sh.nready < started)
		pthread_cond_wait(&sh.cond, &sh.lock);
	sh.go = true;
	pthread_cond_broadcast(&sh.cond);
	pthread_mutex_unlock(&sh.lock);
	if (started == nth) {
		int64_t start = pgbc_now(), next_prog = start + (int64_t)(cfg->progress * 1e9);
		int64_t deadline = cfg->timeout > 0 ? start + (int64_t)(cfg->timeout * 1e9) : INT64_MAX;
		int64_t prev_ntx = 0, prev_lat = 0, prev_t = start;

		while (__atomic_load_n(&sh.nfinished, __ATOMIC_ACQUIRE) < nth) {
			int64_t now = pgbc_now(), until = now + 50000000;

			if (cfg->progress > 0 && next_prog < until)
				until = next_prog;
			if (until > now)
				pgbc_sleep_ns(until - now);
			now = pgbc_now();
			if (cfg->stop && *cfg->stop && !pgbc_aborted(&sh)) {
				out->stopped = true;
				__atomic_store_n(&sh.abort, 1, __ATOMIC_RELAXED);
			}
			if (now >= deadline && !pgbc_aborted(&sh))
				pgbc_fail(&sh, "timed out after %.3g s", cfg->timeout);
			if (cfg->progress > 0 && now >= next_prog && !pgbc_aborted(&sh)) {
				int64_t ntx = 0, lat = 0;

				for (int i = 0; i < nth; i++) {
					ntx += __atomic_load_n(&th[i].ntx_pub, __ATOMIC_RELAXED);
					lat += __atomic_load_n(&th[i].latsum_pub, __ATOMIC_RELAXED);
				}
				double dt = (now - prev_t) / 1e9;
				double tps = dt > 0 ? (ntx - prev_ntx) / dt : 0;
				double lms =
				    ntx > prev_ntx ? (lat - prev_lat) / 1e6 / (double)(ntx - prev_ntx) : 0;

				if (cfg->on_progress)
					cfg->on_progress(cfg->progress_arg, (now - start) / 1e9, tps, lms);
				prev_ntx = ntx, prev_lat = lat, prev_t = now;
				next_prog += (int64_t)(cfg->progress * 1e9);
			}
		}
		int64_t last = start;

		for (int i = 0; i < nth; i++) {
			pthread_join(th[i].tid, NULL);
			if (th[i].finished_at > last)
				last = th[i].finished_at;
		}
		out->elapsed = (last - start) / 1e9;
	} else {
		/* a thread failed to start: the run is aborted, the others end at once */
		for (int i = 0; i < started; i++)
			pthread_join(th[i].tid, NULL);
	}
	for (int i = 0; i < nth; i++) {
		struct pgbc_thread *t = &th[i];

		hist_merge(&out->lat, &t->lat);
		out->transactions += t->ntx;
		out->failed += t->failed;
		out->connections += t->connections;
		if (cfg->connect_per_txn)
			out->conn_time += t->conn_ns / 1e9;
		for (int k = 0; k < sh.ncmd && t->cmd_ns; k++) {
			out->cmd_ns[k] += t->cmd_ns[k];
			out->cmd_n[k] += t->cmd_n[k];
		}
		free(t->cmd_ns);
		free(t->cmd_n);
		if (t->ep >= 0)
			close(t->ep);
	}
	for (int i = 0; i < cfg->clients; i++) {
		pgbc_disconnect(&cl[i]);
		free(cl[i].vars);
		free(cl[i].prepared);
		free(cl[i].qbuf);
	}
	if (sh.error[0]) {
		snprintf(out->error, sizeof(out->error), "%s", sh.error);
		rc = -EIO;
	}
	pthread_cond_destroy(&sh.cond);
	pthread_mutex_destroy(&sh.lock);
	free(sh.cmd_base);
	free(th);
	free(cl);
	return rc;
}
