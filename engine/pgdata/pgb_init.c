/* pgb_init: pgbench's tables and data (see pgb_init.h).
 *
 * The phases follow pgbench -i's default "dtgvp": drop, create tables,
 * generate data, vacuum, primary keys (plus "f" for foreign keys). The
 * client-side load truncates and loads in one transaction so that COPY can use
 * FREEZE (rows are written frozen and all-visible, which also makes the
 * following VACUUM cheap). Rows are formatted by hand into 1 MiB buffers.
 * Text COPY it is: binary COPY measured about twice as slow in the server
 * (PostgreSQL 15, scale 10), whose per-field binary input costs more than
 * parsing short integers. */
#include "pgb_init.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <libpq-fe.h>
#include "clock.h"
#include "tpcc_init.h"
#include "ycsb_init.h"

#define PGB_NBRANCHES 1
#define PGB_NTELLERS  10
#define PGB_NACCOUNTS 100000
/* pgbench switches aid to bigint from this scale on */
#define PGB_SCALE_BIGINT 20000
#define PGB_COPY_BUF     (1 << 20)

static int pgbi_exec(PGconn *c, const char *sql, struct step_result *res)
{
	PGresult *r = PQexec(c, sql);
	ExecStatusType st = PQresultStatus(r);

	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		result_fail(res, "pgbench init: %s: %s", sql, PQerrorMessage(c));
		PQclear(r);
		return -EIO;
	}
	PQclear(r);
	return 0;
}

/* The WITH / TABLESPACE tail of a CREATE TABLE. */
static void pgbi_tail(char *buf, size_t len, int fillfactor, const char *tsq)
{
	size_t n = 0;

	buf[0] = '\0';
	if (fillfactor > 0)
		n += snprintf(buf + n, len - n, " with (fillfactor=%d)", fillfactor);
	if (tsq && n < len)
		snprintf(buf + n, len - n, " tablespace %s", tsq);
}

static int pgbi_create(PGconn *c, const struct pgb_init_opts *o, int ff, const char *tsq,
                       struct step_result *res)
{
	static const struct {
		const char *name, *cols, *cols_big;
		bool ff;
	} ddl[] = {
	    {"pgbench_history", "tid int,bid int,aid    int,delta int,mtime timestamp,filler char(22)",
	     "tid int,bid int,aid bigint,delta int,mtime timestamp,filler char(22)", false},
	    {"pgbench_tellers", "tid int not null,bid int,tbalance int,filler char(84)", NULL, true},
	    {"pgbench_accounts", "aid    int not null,bid int,abalance int,filler char(84)",
	     "aid bigint not null,bid int,abalance int,filler char(84)", true},
	    {"pgbench_branches", "bid int not null,bbalance int,filler char(88)", NULL, true},
	};
	char sql[1024], tail[512];
	bool big = o->scale >= PGB_SCALE_BIGINT;

	for (size_t i = 0; i < sizeof(ddl) / sizeof(ddl[0]); i++) {
		bool acc = strcmp(ddl[i].name, "pgbench_accounts") == 0;
		bool part = acc && o->partitions > 0;

		/* a partitioned parent takes no storage options (its partitions do) */
		pgbi_tail(tail, sizeof(tail), ddl[i].ff && !part ? ff : 0, tsq);
		snprintf(sql, sizeof(sql), "create%s table %s(%s)%s%s", o->unlogged ? " unlogged" : "",
		         ddl[i].name, big && ddl[i].cols_big ? ddl[i].cols_big : ddl[i].cols,
		         part ? (o->partition_hash ? " partition by hash (aid)" : " partition by range (aid)")
		              : "",
		         tail);
		if (pgbi_exec(c, sql, res))
			return -EIO;
	}
	if (o->partitions <= 0)
		return 0;
	int64_t naccounts = (int64_t)PGB_NACCOUNTS * o->scale;
	int64_t part_size = (naccounts + o->partitions - 1) / o->partitions;

	pgbi_tail(tail, sizeof(tail), ff, tsq);
	for (int p = 1; p <= o->partitions; p++) {
		char bounds[128];

		if (o->partition_hash) {
			snprintf(bounds, sizeof(bounds), "with (modulus %d, remainder %d)", o->partitions,
			         p - 1);
		} else {
			char lo[32], hi[32];

			if (p == 1)
				snprintf(lo, sizeof(lo), "minvalue");
			else
				snprintf(lo, sizeof(lo), "%" PRId64, (p - 1) * part_size + 1);
			if (p == o->partitions)
				snprintf(hi, sizeof(hi), "maxvalue");
			else
				snprintf(hi, sizeof(hi), "%" PRId64, p * part_size + 1);
			snprintf(bounds, sizeof(bounds), "from (%s) to (%s)", lo, hi);
		}
		snprintf(sql, sizeof(sql),
		         "create%s table pgbench_accounts_%d partition of pgbench_accounts for values %s%s",
		         o->unlogged ? " unlogged" : "", p, bounds, tail);
		if (pgbi_exec(c, sql, res))
			return -EIO;
	}
	return 0;
}

/* COPY writer: rows are formatted into a large buffer sent in one piece. */
struct pgbi_copy {
	PGconn *c;
	char *buf;
	size_t n;
	int err;
};

static void pgbi_flush(struct pgbi_copy *w)
{
	if (w->n && !w->err && PQputCopyData(w->c, w->buf, (int)w->n) != 1)
		w->err = -EIO;
	w->n = 0;
}

/* Append v in decimal (v >= 0) and a delimiter. */
static inline char *pgbi_num(char *p, int64_t v, char delim)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	*p++ = delim;
	return p;
}

/* COPY `n` generated rows of table `t` (0 branches, 1 tellers, 2 accounts). */
static int pgbi_copy_table(PGconn *c, int t, int64_t n, bool freeze, char *buf, struct step_result *res)
{
	static const char *const names[] = {"pgbench_branches", "pgbench_tellers", "pgbench_accounts"};
	static const char *const cols[] = {"bid,bbalance,filler", "tid,bid,tbalance,filler",
	                                   "aid,bid,abalance,filler"};
	char sql[256];
	struct pgbi_copy w = {.c = c, .buf = buf};

	snprintf(sql, sizeof(sql), "copy %s (%s) from stdin%s", names[t], cols[t],
	         freeze ? " with (freeze on)" : "");
	PGresult *r = PQexec(c, sql);

	if (PQresultStatus(r) != PGRES_COPY_IN) {
		result_fail(res, "pgbench init: %s: %s", sql, PQerrorMessage(c));
		PQclear(r);
		return -EIO;
	}
	PQclear(r);
	for (int64_t i = 1; i <= n; i++) {
		char *p = w.buf + w.n;

		/* rows as pgbench writes them: the filler is empty (blank-padded) */
		p = pgbi_num(p, i, '\t');
		if (t == 1)
			p = pgbi_num(p, (i - 1) / PGB_NTELLERS + 1, '\t');
		else if (t == 2)
			p = pgbi_num(p, (i - 1) / PGB_NACCOUNTS + 1, '\t');
		memcpy(p, "0\t\n", 3);
		w.n = (size_t)(p + 3 - w.buf);
		if (w.n > PGB_COPY_BUF - 64)
			pgbi_flush(&w);
	}
	pgbi_flush(&w);
	if (PQputCopyEnd(c, w.err ? "client write failed" : NULL) != 1)
		w.err = -EIO;
	r = PQgetResult(c);
	if (PQresultStatus(r) != PGRES_COMMAND_OK) {
		result_fail(res, "pgbench init: COPY %s: %s", names[t], PQerrorMessage(c));
		w.err = -EIO;
	}
	PQclear(r);
	while ((r = PQgetResult(c)))
		PQclear(r);
	return w.err;
}

static int pgbi_load(PGconn *c, const struct pgb_init_opts *o, struct step_result *res)
{
	char sql[512];
	int64_t s = o->scale;

	if (pgbi_exec(c, "begin", res) ||
	    pgbi_exec(c,
	              "truncate table pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers",
	              res))
		return -EIO;
	if (o->server_side) {
		snprintf(sql, sizeof(sql),
		         "insert into pgbench_branches(bid,bbalance) select bid, 0 from generate_series(1, "
		         "%" PRId64 ") as bid",
		         PGB_NBRANCHES * s);
		if (pgbi_exec(c, sql, res))
			return -EIO;
		snprintf(
		    sql, sizeof(sql),
		    "insert into pgbench_tellers(tid,bid,tbalance) select tid, (tid - 1) / %d + 1, 0 from "
		    "generate_series(1, %" PRId64 ") as tid",
		    PGB_NTELLERS, PGB_NTELLERS * s);
		if (pgbi_exec(c, sql, res))
			return -EIO;
		snprintf(sql, sizeof(sql),
		         "insert into pgbench_accounts(aid,bid,abalance,filler) select aid, (aid - 1) / %d + "
		         "1, 0, '' "
		         "from generate_series(1, %" PRId64 ") as aid",
		         PGB_NACCOUNTS, PGB_NACCOUNTS * s);
		if (pgbi_exec(c, sql, res))
			return -EIO;
	} else {
		char *buf = malloc(PGB_COPY_BUF);

		if (!buf) {
			result_fail(res, "pgbench init: out of memory");
			return -ENOMEM;
		}
		/* FREEZE needs the truncate in this transaction and no partitions */
		bool freeze = o->partitions <= 0;
		int rc = pgbi_copy_table(c, 0, PGB_NBRANCHES * s, freeze, buf, res);
		if (!rc)
			rc = pgbi_copy_table(c, 1, PGB_NTELLERS * s, freeze, buf, res);
		if (!rc)
			rc = pgbi_copy_table(c, 2, PGB_NACCOUNTS * s, freeze, buf, res);
		free(buf);
		if (rc)
			return rc;
	}
	return pgbi_exec(c, "commit", res);
}

static int pgbi_keys(PGconn *c, const char *tsq, bool foreign, struct step_result *res)
{
	static const char *const pk[] = {"alter table pgbench_branches add primary key (bid)",
	                                 "alter table pgbench_tellers add primary key (tid)",
	                                 "alter table pgbench_accounts add primary key (aid)"};
	static const char *const fk[] = {
	    "alter table pgbench_tellers add constraint pgbench_tellers_bid_fkey foreign key (bid) "
	    "references pgbench_branches",
	    "alter table pgbench_accounts add constraint pgbench_accounts_bid_fkey foreign key (bid) "
	    "references pgbench_branches",
	    "alter table pgbench_history add constraint pgbench_history_bid_fkey foreign key (bid) "
	    "references pgbench_branches",
	    "alter table pgbench_history add constraint pgbench_history_tid_fkey foreign key (tid) "
	    "references pgbench_tellers",
	    "alter table pgbench_history add constraint pgbench_history_aid_fkey foreign key (aid) "
	    "references pgbench_accounts",
	};
	char sql[512];

	if (foreign) {
		for (size_t i = 0; i < sizeof(fk) / sizeof(fk[0]); i++)
			if (pgbi_exec(c, fk[i], res))
				return -EIO;
		return 0;
	}
	for (size_t i = 0; i < sizeof(pk) / sizeof(pk[0]); i++) {
		snprintf(sql, sizeof(sql), "%s%s%s", pk[i], tsq ? " using index tablespace " : "",
		         tsq ? tsq : "");
		if (pgbi_exec(c, sql, res))
			return -EIO;
	}
	return 0;
}

/* Watchdog of one init: cancels the running statement when the stop flag is
 * set or the deadline passes, so a long load does not outlive its step. */
struct pgbi_watch {
	PGconn *c;
	volatile sig_atomic_t *stop;
	double deadline; /* monotonic seconds, 0 = none */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool done;
	int why; /* 0, or 1 stopped, 2 timed out */
};

static void *pgbi_watch_main(void *arg)
{
	struct pgbi_watch *w = arg;
	PGcancel *cancel = PQgetCancel(w->c);

	pthread_mutex_lock(&w->lock);
	while (!w->done) {
		double wake = clock_wall() + 0.05; /* the condition's clock is CLOCK_REALTIME */
		struct timespec ts = {.tv_sec = (time_t)wake,
		                      .tv_nsec = (long)((wake - (double)(time_t)wake) * 1e9)};

		pthread_cond_timedwait(&w->cond, &w->lock, &ts);
		if (w->done)
			break;
		if (!w->why && w->stop && __atomic_load_n(w->stop, __ATOMIC_ACQUIRE))
			w->why = 1;
		else if (!w->why && w->deadline > 0 && clock_mono() >= w->deadline)
			w->why = 2;
		/* again every turn: a cancel between two statements hits nothing */
		if (w->why && cancel) {
			char err[256];

			PQcancel(cancel, err, sizeof(err));
		}
	}
	pthread_mutex_unlock(&w->lock);
	PQfreeCancel(cancel);
	return NULL;
}

int pgb_init_run(const char *conninfo, const struct pgb_init_opts *o, struct step_result *res, struct diag *d)
{
	return pgb_init_run_ctl(conninfo, o, NULL, 0, res, d);
}

/* Options a caller built by hand (not through pgb_init_opts_parse). */
static int pgbi_opts_ok(const struct pgb_init_opts *o, struct diag *d)
{
	if (o->scale < 1) {
		diag_error(d, NULL, "pgbench init: scale must be at least 1 (got %d)", o->scale);
		return -EINVAL;
	}
	if (o->fillfactor && (o->fillfactor < 10 || o->fillfactor > 100)) {
		diag_error(d, NULL, "pgbench init: fillfactor must be between 10 and 100 (got %d)",
		           o->fillfactor);
		return -EINVAL;
	}
	if (o->partitions < 0) {
		diag_error(d, NULL, "pgbench init: partitions must not be negative (got %d)", o->partitions);
		return -EINVAL;
	}
	return 0;
}

int pgb_init_run_ctl(const char *conninfo, const struct pgb_init_opts *o, volatile sig_atomic_t *stop,
                     double timeout, struct step_result *res, struct diag *d)
{
	if (o->tpcc)
		return tpcc_init_run(conninfo, o, stop, timeout, res, d);
	if (pgbi_opts_ok(o, d))
		return -EINVAL;
	if (!conninfo) {
		result_fail(res, "pgbench init: no PostgreSQL server (add a postgres: section)");
		return -EINVAL;
	}
	double t0 = clock_mono(), t;
	PGconn *c = PQconnectdb(conninfo);
	char *tsq = NULL;
	int rc = -EIO;
	struct pgbi_watch watch = {0};
	pthread_t watcher;
	bool watching = false;

	if (PQstatus(c) != CONNECTION_OK) {
		result_fail(res, "pgbench init: cannot connect: %s", PQerrorMessage(c));
		goto out;
	}
	PQclear(PQexec(c, "set client_min_messages = warning"));
	if (stop || timeout > 0) {
		watch.c = c;
		watch.stop = stop;
		watch.deadline = timeout > 0 ? t0 + timeout : 0;
		pthread_mutex_init(&watch.lock, NULL);
		pthread_cond_init(&watch.cond, NULL);
		watching = pthread_create(&watcher, NULL, pgbi_watch_main, &watch) == 0;
		if (!watching) {
			pthread_mutex_destroy(&watch.lock);
			pthread_cond_destroy(&watch.cond);
		}
	}
	if (o->tablespace) {
		tsq = PQescapeIdentifier(c, o->tablespace, strlen(o->tablespace));
		if (!tsq) {
			result_fail(res, "pgbench init: bad tablespace name: %s", PQerrorMessage(c));
			goto out;
		}
	}
	int ff = o->fillfactor ? o->fillfactor : 100;

	if (o->ycsb) { /* YCSB's usertable instead (ycsb_init.h) */
		if (!(rc = ycsb_init_load(c, o, tsq, res)))
			result_metric(res, "init_s", clock_mono() - t0, "s");
		goto out;
	}
	t = clock_mono();
	if (pgbi_exec(
	        c,
	        "drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers",
	        res))
		goto out;
	result_metric(res, "init_drop_s", clock_mono() - t, "s");
	t = clock_mono();
	if (pgbi_create(c, o, ff, tsq, res))
		goto out;
	result_metric(res, "init_create_s", clock_mono() - t, "s");
	t = clock_mono();
	if ((rc = pgbi_load(c, o, res)))
		goto out;
	rc = -EIO;
	result_metric(res, "init_load_s", clock_mono() - t, "s");
	t = clock_mono();
	if (pgbi_exec(c, "vacuum analyze pgbench_branches", res) ||
	    pgbi_exec(c, "vacuum analyze pgbench_tellers", res) ||
	    pgbi_exec(c, "vacuum analyze pgbench_accounts", res) ||
	    pgbi_exec(c, "vacuum analyze pgbench_history", res))
		goto out;
	result_metric(res, "init_vacuum_s", clock_mono() - t, "s");
	t = clock_mono();
	if (pgbi_keys(c, tsq, false, res))
		goto out;
	result_metric(res, "init_pkeys_s", clock_mono() - t, "s");
	if (o->foreign_keys) {
		t = clock_mono();
		if (pgbi_keys(c, tsq, true, res))
			goto out;
		result_metric(res, "init_fkeys_s", clock_mono() - t, "s");
	}
	result_metric(res, "init_s", clock_mono() - t0, "s");
	result_info(res, "pgbench.scale", "%d", o->scale);
	rc = 0;
out:
	if (watching) {
		pthread_mutex_lock(&watch.lock);
		watch.done = true;
		pthread_cond_signal(&watch.cond);
		pthread_mutex_unlock(&watch.lock);
		pthread_join(watcher, NULL);
		pthread_mutex_destroy(&watch.lock);
		pthread_cond_destroy(&watch.cond);
		if (rc && watch.why) {
			/* the cancel is the cause, not the statement it hit */
			free(res->error);
			res->error = NULL;
			res->failed = false;
			if (watch.why == 1)
				result_fail(res, "pgbench init: stopped");
			else
				result_fail(res, "pgbench init: timed out after %.3g s", timeout);
		}
	}
	PQfreemem(tsq);
	PQfinish(c);
	return rc;
}
