/* pgb_client: threads of non-blocking clients (see pgb_client.h; each
 * client state, what it waits for and where it goes next, is described at
 * enum pgbc_state there). Any error other than a retryable one (bad
 * statement, lost connection) aborts the whole run: the first message wins
 * and every thread stops at its next turn. */
#include "pgb_client.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>
#include <libpq-fe.h>
#include "pgb_eval.h"
#include "pgb_run_cfg.h"

/* Record the first fatal error and stop everybody. */
void pgbc_fail(struct pgbc_shared *sh, const char *fmt, ...)
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

void pgbc_disconnect(struct pgbc_client *c)
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
	int64_t w = pgb_rand_uniform(&c->th->rngs.choose, 0, p->total_weight - 1);

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

	c->rolled_back |= cmd->rollback;
	for (int k = 0; k < cmd->nparams; k++) {
		const struct pgb_val *v = &c->vars[cmd->param_var[k]];

		if (v->type == PGB_V_UNSET) {
			pgbc_fail(c->th->sh, "client %d: script %s line %d: undefined variable :%s in \"%s\"",
			          c->id, sc->name, cmd->line, cfg->prog->var[cmd->param_var[k]], cmd->text);
			return -1;
		}
		/* text values as they are, others formatted into pval */
		c->pv[k] = pgb_val_str(v, c->pval[k], sizeof(c->pval[k]), &c->pvlen[k]);
	}
	switch (cfg->protocol) {
	case PGB_PROTO_SIMPLE: {
		size_t need = 1;

		for (int k = 0; k <= cmd->nparams; k++)
			need += cmd->fraglen[k] + (k < cmd->nparams ? c->pvlen[k] : 0);
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
				memcpy(o, c->pv[k], c->pvlen[k]);
				o += c->pvlen[k];
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

/* Retries, late, logs at a transaction's end (only when one is on): out of
 * line, so that the default path stays as it was. */
static __attribute__((noinline, cold)) void pgbc_end_txn_rt(struct pgbc_client *c, int64_t now, bool failed)
{
	struct pgbc_thread *t = c->th;

	pgb_retry_txn_end(&c->rt, &t->rt, &t->sh->cfg->fail,
	                  &(struct pgb_retry_end){c->id, c->script, c->ntx + 1, c->txn_begin, now, t->start,
	                                          failed, false});
}

static void pgbc_end_txn(struct pgbc_client *c, int64_t now, bool failed)
{
	struct pgbc_thread *t = c->th;

	if (__builtin_expect(t->rt.on, 0))
		pgbc_end_txn_rt(c, now, failed);
	if (failed) {
		t->failed++;
	} else {
		int64_t lat = now - c->txn_begin;

		hist_record(&t->lat, (uint64_t)(lat > 0 ? lat : 0));
		if (t->script_lat) {
			hist_record(&t->script_lat[c->script], (uint64_t)(lat > 0 ? lat : 0));
			t->script_rb[c->script] += c->rolled_back;
		}
		t->ntx++;
		t->latsum += lat;
		__atomic_store_n(&t->ntx_pub, t->ntx, __ATOMIC_RELAXED);
		__atomic_store_n(&t->latsum_pub, t->latsum, __ATOMIC_RELAXED);
	}
	c->rolled_back = false;
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

/* \sleep for v units: a whole number, as pgbench's atoi(); CS_SLEEP. */
static void pgbc_sleep(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd,
                       const struct pgb_val *v)
{
	if (v->type != PGB_V_INT && v->type != PGB_V_DOUBLE) {
		pgbc_fail(c->th->sh, "client %d: script %s line %d: %s: invalid sleep time", c->id, sc->name,
		          cmd->line, cmd->text);
		return;
	}
	if (v->type == PGB_V_DOUBLE && !(fabs(v->d) < 9.2e18)) { /* NaN or beyond int64: no cast */
		pgbc_fail(c->th->sh, "client %d: script %s line %d: %s: invalid sleep time", c->id, sc->name,
		          cmd->line, cmd->text);
		return;
	}
	double us = (v->type == PGB_V_INT ? (double)v->i : (double)(int64_t)v->d) * (double)cmd->unit_us;

	c->wake = (c->th->sh->cfg->per_statement ? c->cmd_begin : pgbc_now()) + (int64_t)(us * 1000.0);
	c->state = CS_SLEEP;
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
	if (__builtin_expect(c->th->rt.on, 0))
		pgb_retry_txn_begin(&c->rt, &c->rng, cfg->connect_per_txn ? pgbc_now() : now);
	return 0;
}

/* A try failed with a serialization failure or deadlock and is rolled
 * back: run it again, end it as failed, or stop (pgb_retry.c decides). */
static void pgbc_after_error(struct pgbc_client *c, int64_t now)
{
	struct pgbc_thread *t = c->th;
	const struct pgb_run_cfg *cfg = t->sh->cfg;

	switch (pgb_retry_decide(&c->rt, &t->rt, &cfg->fail, c->id, now - c->txn_begin,
	                         cfg->duration > 0 && now >= t->end_time)) {
	case PGB_RETRY_AGAIN:
		pgb_retry_again(&c->rt, &c->rng);
		c->cmd = 0;
		c->state = CS_CMD;
		break;
	case PGB_RETRY_STOP: pgbc_finish(c); break;
	default: pgbc_end_txn(c, now, true);
	}
}

/* Advance the client as far as it goes without waiting. */
/* With rate and latency_limit: a transaction already later than the limit
 * when its time comes is skipped and counted, as pgbench -R with -L does. */
static bool pgbc_skip_late(struct pgbc_client *c, int64_t now)
{
	struct pgbc_thread *t = c->th;
	const struct pgb_run_cfg *cfg = t->sh->cfg;

	if (!cfg->fail.latency_limit_ns || c->sched >= now - cfg->fail.latency_limit_ns)
		return false;
	c->ntx++;
	pgb_retry_txn_end(
	    &c->rt, &t->rt, &cfg->fail,
	    &(struct pgb_retry_end){c->id, c->script, c->ntx, c->sched, now, t->start, false, true});
	return true;
}

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
				t->next_sched += 1000 * pgb_rand_poisson(&t->rngs.throttle, t->sched_mean_us);
				if (pgbc_skip_late(c, now))
					break;
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
				if (c->in_pipe) { /* results at \endpipeline */
					c->cmd++;
					break;
				}
				c->state = CS_WAIT;
				return;
			}
			if (cmd->kind > PGB_CMD_SLEEP) {
				if (t->sh->meta->exec(c, sc, cmd))
					return;
				break;
			}
			struct pgb_val v;
			struct pgb_eval_ctx ec = pgbc_eval_ctx(c);

			if (pgb_eval(cmd->expr, &ec, &v, err, sizeof(err))) {
				pgbc_fail(t->sh, "client %d: script %s line %d: %s: %s", c->id, sc->name,
				          cmd->line, cmd->text, err);
				return;
			}
			if (cmd->kind == PGB_CMD_SET) {
				pgb_val_set(&c->vars[cmd->var], &v);
				if (cfg->per_statement) {
					int fi = t->sh->cmd_base[c->script] + c->cmd;

					t->cmd_ns[fi] += (double)(pgbc_now() - c->cmd_begin);
					t->cmd_n[fi]++;
				}
				c->cmd++;
				break;
			}
			pgbc_sleep(c, sc, cmd, &v);
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

/* Input at \endpipeline: once every result is in, the next command. */
static void pgbc_pipe_input(struct pgbc_client *c)
{
	if (c->th->sh->meta->pipe_input(c) != 1)
		return;
	if (c->th->sh->cfg->per_statement) {
		int fi = c->th->sh->cmd_base[c->script] + c->cmd;

		c->th->cmd_ns[fi] += (double)(pgbc_now() - c->cmd_begin);
		c->th->cmd_n[fi]++;
	}
	c->cmd++;
	c->state = CS_CMD;
	pgbc_run(c);
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
	if (c->pipe_wait) {
		pgbc_pipe_input(c);
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
				pgbc_after_error(c, now);
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
				pgbc_after_error(c, now);
			} else {
				if (cmd->gset && t->sh->meta->gset_end(c, sc, cmd))
					return;
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
				pgb_retry_note_error(&c->rt, &cfg->fail, r, c->id, c->cmd, c->script);
			} else if (PQstatus(c->conn) == CONNECTION_BAD || pgbc_fatal(r)) {
				pgbc_fail(t->sh, "client %d: connection to the server lost during \"%s\": %s",
				          c->id, cmd->text, PQresultErrorMessage(r));
			} else {
				pgbc_fail(t->sh, "client %d: script %s line %d: statement \"%s\" failed: %s",
				          c->id, sc->name, cmd->line,
				          c->state == CS_ROLLBACK ? "ROLLBACK" : cmd->text,
				          PQresultErrorMessage(r));
			}
		} else if (cmd->gset && c->state == CS_WAIT) {
			r = t->sh->meta->result(c, sc, cmd, r);
		}
		PQclear(r);
		if (pgbc_aborted(t->sh))
			return;
	}
}

void *pgbc_thread_main(void *arg)
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
