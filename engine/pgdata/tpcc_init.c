/* tpcc_init: TPC-C's tables and data (see tpcc_init.h).
 *
 * Four tasks, each on its own connection and thread, own disjoint tables:
 * stock; order_line; customer and history; item, warehouse, district,
 * orders and new_order (the three big tables are about the same size). Each
 * task goes through its phases (load, vacuum, keys) on its own: no task
 * waits for another, as none touches another's tables.
 * Rows are formatted by hand into 1 MiB buffers of text COPY; random
 * strings take 6 bits of a 64-bit generator per character. The number of
 * lines of an order is a hash of (warehouse, district, order), so that the
 * orders task and the order_line task agree without talking. */
#include "tpcc_init.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libpq-fe.h>
#include "clock.h"
#include "tpcc_schema.h"

#define TPCC_ITEMS     100000
#define TPCC_DISTRICTS 10
#define TPCC_CUST      3000 /* per district */
#define TPCC_ORDERS    3000 /* per district */
#define TPCC_NEW_FROM  2101 /* orders from here on are undelivered, in new_order */
#define TPCC_C_LAST    157  /* NURand's C for c_last at load (pgb_tpcc.h) */

#define TPCC_BUF (1 << 20)

/* ---- random values ---- */

struct tpcc_rng {
	uint64_t s;
};

static inline uint64_t tpcc_next(struct tpcc_rng *r)
{
	/* splitmix64 */
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static inline int64_t tpcc_rand(struct tpcc_rng *r, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(tpcc_next(r) % (uint64_t)(hi - lo + 1));
}

static inline int tpcc_nurand(struct tpcc_rng *r, int a, int x, int y, int c)
{
	return (int)(((tpcc_rand(r, 0, a) | tpcc_rand(r, x, y)) + c) % (y - x + 1) + x);
}

/* The number of lines of an order: 5 to 15, the same in every task. */
static int tpcc_ol_cnt(uint64_t seed, int w, int d, int o)
{
	struct tpcc_rng r = {seed ^ ((uint64_t)w << 32 | (uint64_t)d << 20 | (uint64_t)o)};

	return (int)tpcc_rand(&r, 5, 15);
}

/* ---- row formatting ---- */

static const char tpcc_alnum[65] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ab";
static const char *const tpcc_syl[10] = {"BAR", "OUGHT", "ABLE",  "PRI",   "PRES",
                                         "ESE", "ANTI",  "CALLY", "ATION", "EING"};

static inline char *put_num(char *p, int64_t v)
{
	char tmp[24];
	int n = 0;

	if (v < 0) {
		*p++ = '-';
		v = -v;
	}
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	*p++ = '\t';
	return p;
}

/* v / 10^digits with `digits` decimals ("12.34", "0.1234"). */
static inline char *put_fix(char *p, int64_t v, int digits)
{
	int64_t scale = digits == 2 ? 100 : 10000;

	if (v < 0) {
		*p++ = '-';
		v = -v;
	}
	p = put_num(p, v / scale);
	p[-1] = '.';
	int64_t f = v % scale;
	for (int k = digits - 1; k >= 0; k--) {
		p[k] = (char)('0' + f % 10);
		f /= 10;
	}
	p += digits;
	*p++ = '\t';
	return p;
}

static inline char *put_str(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	p += n;
	*p++ = '\t';
	return p;
}

/* A random a-string (clause 4.3.2.2) of lo..hi characters. */
static inline char *put_astr(char *p, struct tpcc_rng *r, int lo, int hi)
{
	int n = lo == hi ? lo : (int)tpcc_rand(r, lo, hi);

	while (n > 0) {
		uint64_t x = tpcc_next(r);

		for (int k = 0; k < 10 && n > 0; k++, n--, x >>= 6)
			*p++ = tpcc_alnum[x & 63];
	}
	*p++ = '\t';
	return p;
}

/* A random n-string of n digits. */
static inline char *put_nstr(char *p, struct tpcc_rng *r, int n)
{
	while (n > 0) {
		uint64_t x = tpcc_next(r);

		for (int k = 0; k < 16 && n > 0; k++, n--, x >>= 4)
			*p++ = (char)('0' + (x & 15) % 10);
	}
	*p++ = '\t';
	return p;
}

/* i_data / s_data: 26..50 characters, 10 % with "ORIGINAL" inside. */
static inline char *put_data(char *p, struct tpcc_rng *r)
{
	char *s = p;

	p = put_astr(p, r, 26, 50);
	if (tpcc_rand(r, 1, 10) == 1) {
		int len = (int)(p - 1 - s);

		memcpy(s + tpcc_rand(r, 0, len - 8), "ORIGINAL", 8);
	}
	return p;
}

/* street_1, street_2, city, state, zip (clause 4.3.2.7) */
static inline char *put_address(char *p, struct tpcc_rng *r)
{
	p = put_astr(p, r, 10, 20);
	p = put_astr(p, r, 10, 20);
	p = put_astr(p, r, 10, 20);
	*p++ = (char)('A' + tpcc_rand(r, 0, 25));
	*p++ = (char)('A' + tpcc_rand(r, 0, 25));
	*p++ = '\t';
	p = put_nstr(p, r, 4);
	memcpy(p - 1, "11111\t", 6);
	return p + 5;
}

static inline char *put_last(char *p, int n)
{
	for (int k = 100; k; k /= 10) {
		const char *s = tpcc_syl[n / k % 10];
		size_t l = strlen(s);

		memcpy(p, s, l);
		p += l;
	}
	*p++ = '\t';
	return p;
}

static inline char *put_null(char *p)
{
	memcpy(p, "\\N\t", 3);
	return p + 3;
}

/* ---- one task ---- */

struct tpcc_load {
	const char *conninfo;
	const struct pgb_init_opts *o;
	const char *tsq; /* quoted tablespace or NULL */
	char now[32];    /* the load's timestamp */
	uint64_t seed;
	int abort; /* a task failed or the watcher cancelled (atomic: TPCC_ABORTED) */
	pthread_mutex_t lock;
	char error[2048]; /* the first failure */
};

#define TPCC_ABORTED(ld) __atomic_load_n(&(ld)->abort, __ATOMIC_ACQUIRE) /* tasks, watcher, main */
struct tpcc_task {
	struct tpcc_load *ld;
	int idx;
	double phase_s[3]; /* how long its load, vacuum and keys took (0: not done) */
	PGconn *c;
	PGcancel *cancel;
	char *buf;
	size_t n;
	int64_t rows;
	struct tpcc_rng rng;
	bool failed;
};

static void tpcc_fail(struct tpcc_task *t, const char *what, const char *msg)
{
	struct tpcc_load *ld = t->ld;

	t->failed = true;
	pthread_mutex_lock(&ld->lock);
	if (!ld->error[0])
		snprintf(ld->error, sizeof(ld->error), "tpcc init: %s: %s", what, msg);
	__atomic_store_n(&ld->abort, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&ld->lock);
}

static int tpcc_exec(struct tpcc_task *t, const char *sql)
{
	PGresult *r = PQexec(t->c, sql);
	ExecStatusType st = PQresultStatus(r);

	PQclear(r);
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		tpcc_fail(t, sql, PQerrorMessage(t->c));
		return -EIO;
	}
	return 0;
}

static int tpcc_flush(struct tpcc_task *t)
{
	if (TPCC_ABORTED(t->ld))
		return -EINTR;
	if (t->n && PQputCopyData(t->c, t->buf, (int)t->n) != 1) {
		tpcc_fail(t, "COPY", PQerrorMessage(t->c));
		return -EIO;
	}
	t->n = 0;
	return 0;
}

/* Room for one more row of at most 4 kB. */
static inline int tpcc_room(struct tpcc_task *t, char *p)
{
	t->n = (size_t)(p - t->buf);
	t->rows++;
	return t->n > TPCC_BUF - 4096 ? tpcc_flush(t) : 0;
}

/* End a row: its last field's tab becomes the newline. */
#define ROW_END(p) ((p)[-1] = '\n')

/* Per table: its rows of warehouse w (district d for the district-level
 * tables; item ignores both and is called once). */
static int rows_item(struct tpcc_task *t, int w, int d)
{
	struct tpcc_rng *r = &t->rng;

	(void)w, (void)d;
	for (int i = 1; i <= TPCC_ITEMS; i++) {
		char *p = t->buf + t->n;

		p = put_num(p, i);
		p = put_num(p, tpcc_rand(r, 1, 10000));
		p = put_astr(p, r, 14, 24);
		p = put_fix(p, tpcc_rand(r, 100, 10000), 2);
		p = put_data(p, r);
		ROW_END(p);
		if (tpcc_room(t, p))
			return -EIO;
	}
	return 0;
}

static int rows_warehouse(struct tpcc_task *t, int w, int d)
{
	struct tpcc_rng *r = &t->rng;
	char *p = t->buf + t->n;

	(void)d;
	p = put_num(p, w);
	p = put_astr(p, r, 6, 10);
	p = put_address(p, r);
	p = put_fix(p, tpcc_rand(r, 0, 2000), 4);
	p = put_fix(p, 30000000, 2); /* 300000.00 */
	ROW_END(p);
	return tpcc_room(t, p);
}

static int rows_stock(struct tpcc_task *t, int w, int d)
{
	struct tpcc_rng *r = &t->rng;

	(void)d;
	for (int i = 1; i <= TPCC_ITEMS; i++) {
		char *p = t->buf + t->n;

		p = put_num(p, i);
		p = put_num(p, w);
		p = put_num(p, tpcc_rand(r, 10, 100));
		for (int k = 0; k < 10; k++)
			p = put_astr(p, r, 24, 24);
		memcpy(p, "0\t0\t0\t", 6);
		p = put_data(p + 6, r);
		ROW_END(p);
		if (tpcc_room(t, p))
			return -EIO;
	}
	return 0;
}

static int rows_district(struct tpcc_task *t, int w, int d)
{
	struct tpcc_rng *r = &t->rng;
	char *p = t->buf + t->n;

	p = put_num(p, d);
	p = put_num(p, w);
	p = put_astr(p, r, 6, 10);
	p = put_address(p, r);
	p = put_fix(p, tpcc_rand(r, 0, 2000), 4);
	p = put_fix(p, 3000000, 2); /* 30000.00 */
	p = put_num(p, TPCC_ORDERS + 1);
	ROW_END(p);
	return tpcc_room(t, p);
}

static int rows_customer(struct tpcc_task *t, int w, int d)
{
	struct tpcc_rng *r = &t->rng;
	size_t nowlen = strlen(t->ld->now);

	for (int c = 1; c <= TPCC_CUST; c++) {
		char *p = t->buf + t->n;

		p = put_num(p, c);
		p = put_num(p, d);
		p = put_num(p, w);
		p = put_astr(p, r, 8, 16);
		p = put_str(p, "OE", 2);
		p = put_last(p, c <= 1000 ? c - 1 : tpcc_nurand(r, 255, 0, 999, TPCC_C_LAST));
		p = put_address(p, r);
		p = put_nstr(p, r, 16);
		p = put_str(p, t->ld->now, nowlen);
		p = put_str(p, tpcc_rand(r, 1, 10) == 1 ? "BC" : "GC", 2);
		p = put_str(p, "50000.00", 8);
		p = put_fix(p, tpcc_rand(r, 0, 5000), 4);
		p = put_str(p, "-10.00\t10.00\t1\t0",
		            16); /* balance, ytd_payment, payment_cnt, delivery_cnt */
		p = put_astr(p, r, 300, 500);
		ROW_END(p);
		if (tpcc_room(t, p))
			return -EIO;
	}
	return 0;
}

static int rows_history(struct tpcc_task *t, int w, int d)
{
	size_t nowlen = strlen(t->ld->now);

	for (int c = 1; c <= TPCC_CUST; c++) {
		char *p = t->buf + t->n;

		p = put_num(p, c);
		p = put_num(p, d);
		p = put_num(p, w);
		p = put_num(p, d);
		p = put_num(p, w);
		p = put_str(p, t->ld->now, nowlen);
		p = put_str(p, "10.00", 5);
		p = put_astr(p, &t->rng, 12, 24);
		ROW_END(p);
		if (tpcc_room(t, p))
			return -EIO;
	}
	return 0;
}

static int rows_orders(struct tpcc_task *t, int w, int d)
{
	struct tpcc_rng *r = &t->rng;
	size_t nowlen = strlen(t->ld->now);
	int perm[TPCC_CUST];

	/* o_c_id: a random permutation of the district's customers */
	for (int c = 0; c < TPCC_CUST; c++)
		perm[c] = c + 1;
	for (int c = TPCC_CUST - 1; c > 0; c--) {
		int j = (int)tpcc_rand(r, 0, c), x = perm[c];

		perm[c] = perm[j];
		perm[j] = x;
	}
	for (int o = 1; o <= TPCC_ORDERS; o++) {
		char *p = t->buf + t->n;

		p = put_num(p, o);
		p = put_num(p, d);
		p = put_num(p, w);
		p = put_num(p, perm[o - 1]);
		p = put_str(p, t->ld->now, nowlen);
		p = o < TPCC_NEW_FROM ? put_num(p, tpcc_rand(r, 1, 10)) : put_null(p);
		p = put_num(p, tpcc_ol_cnt(t->ld->seed, w, d, o));
		p = put_num(p, 1);
		ROW_END(p);
		if (tpcc_room(t, p))
			return -EIO;
	}
	return 0;
}

static int rows_new_order(struct tpcc_task *t, int w, int d)
{
	for (int o = TPCC_NEW_FROM; o <= TPCC_ORDERS; o++) {
		char *p = t->buf + t->n;

		p = put_num(p, o);
		p = put_num(p, d);
		p = put_num(p, w);
		ROW_END(p);
		if (tpcc_room(t, p))
			return -EIO;
	}
	return 0;
}

static int rows_order_line(struct tpcc_task *t, int w, int d)
{
	struct tpcc_rng *r = &t->rng;
	size_t nowlen = strlen(t->ld->now);

	for (int o = 1; o <= TPCC_ORDERS; o++) {
		int n = tpcc_ol_cnt(t->ld->seed, w, d, o);
		bool done = o < TPCC_NEW_FROM; /* delivered */

		for (int l = 1; l <= n; l++) {
			char *p = t->buf + t->n;

			p = put_num(p, o);
			p = put_num(p, d);
			p = put_num(p, w);
			p = put_num(p, l);
			p = put_num(p, tpcc_rand(r, 1, TPCC_ITEMS));
			p = put_num(p, w);
			p = done ? put_str(p, t->ld->now, nowlen) : put_null(p);
			p = put_num(p, 5);
			p = put_fix(p, done ? 0 : tpcc_rand(r, 1, 999999), 2);
			p = put_astr(p, r, 24, 24);
			ROW_END(p);
			if (tpcc_room(t, p))
				return -EIO;
		}
	}
	return 0;
}

/* level: 0 once, 1 per warehouse, 2 per district */
static const struct {
	const char *table;
	int level;
	int (*rows)(struct tpcc_task *t, int w, int d);
} tpcc_gen[] = {
    {"item", 0, rows_item},         {"warehouse", 1, rows_warehouse}, {"stock", 1, rows_stock},
    {"district", 2, rows_district}, {"customer", 2, rows_customer},   {"history", 2, rows_history},
    {"orders", 2, rows_orders},     {"new_order", 2, rows_new_order}, {"order_line", 2, rows_order_line},
};

static int tpcc_rows(struct tpcc_task *t, const char *table)
{
	int W = t->ld->o->warehouses;

	for (size_t g = 0; g < sizeof(tpcc_gen) / sizeof(tpcc_gen[0]); g++) {
		if (strcmp(tpcc_gen[g].table, table))
			continue;
		if (tpcc_gen[g].level == 0)
			return tpcc_gen[g].rows(t, 0, 0);
		for (int w = 1; w <= W; w++)
			for (int d = 1; d <= (tpcc_gen[g].level == 2 ? TPCC_DISTRICTS : 1); d++)
				if (tpcc_gen[g].rows(t, w, d))
					return -EIO;
		return 0;
	}
	return -EINVAL;
}

static int tpcc_copy(struct tpcc_task *t, const char *table)
{
	char sql[128];
	PGresult *r;

	snprintf(sql, sizeof(sql), "copy %s from stdin with (freeze on)", table);
	r = PQexec(t->c, sql);
	if (PQresultStatus(r) != PGRES_COPY_IN) {
		PQclear(r);
		tpcc_fail(t, sql, PQerrorMessage(t->c));
		return -EIO;
	}
	PQclear(r);
	int rc = tpcc_rows(t, table);

	if (!rc)
		rc = tpcc_flush(t);
	if (PQputCopyEnd(t->c, rc ? "load stopped" : NULL) != 1 && !rc) {
		tpcc_fail(t, sql, PQerrorMessage(t->c));
		rc = -EIO;
	}
	r = PQgetResult(t->c);
	if (PQresultStatus(r) != PGRES_COMMAND_OK && !rc) {
		tpcc_fail(t, sql, PQerrorMessage(t->c));
		rc = -EIO;
	}
	PQclear(r);
	while ((r = PQgetResult(t->c)))
		PQclear(r);
	return rc;
}

/* Load the task's tables: truncate and COPY FREEZE in one transaction. */
static int tpcc_task_load(struct tpcc_task *t, const char *const *tabs)
{
	char sql[512];

	if (tpcc_exec(t, "begin"))
		return -1;
	for (int i = 0; tabs[i] && !TPCC_ABORTED(t->ld); i++) {
		snprintf(sql, sizeof(sql), "truncate table %s", tabs[i]);
		if (tpcc_exec(t, sql) || tpcc_copy(t, tabs[i]))
			return -1;
	}
	return TPCC_ABORTED(t->ld) || tpcc_exec(t, "commit") ? -1 : 0;
}

static int tpcc_task_vacuum(struct tpcc_task *t, const char *const *tabs)
{
	char sql[512];

	for (int i = 0; tabs[i] && !TPCC_ABORTED(t->ld); i++) {
		snprintf(sql, sizeof(sql), "vacuum analyze %s", tabs[i]);
		if (tpcc_exec(t, sql))
			return -1;
	}
	return TPCC_ABORTED(t->ld) ? -1 : 0;
}

static int tpcc_task_keys(struct tpcc_task *t, const char *const *tabs)
{
	char sql[512];

	for (int i = 0; tabs[i] && !TPCC_ABORTED(t->ld); i++)
		for (size_t k = 0; k < sizeof(tpcc_keys) / sizeof(tpcc_keys[0]) && !TPCC_ABORTED(t->ld);
		     k++) {
			const char *bar = strchr(tpcc_keys[k], '|'), *ts = t->ld->tsq;

			if (strncmp(tpcc_keys[k], tabs[i], (size_t)(bar - tpcc_keys[k])) ||
			    tabs[i][bar - tpcc_keys[k]])
				continue;

			if (bar[1] == '(')
				snprintf(sql, sizeof(sql), "create index on %s %s%s%s", tabs[i], bar + 1,
				         ts ? " tablespace " : "", ts ? ts : "");
			else
				snprintf(sql, sizeof(sql), "alter table %s add %s%s%s", tabs[i], bar + 1,
				         ts ? " using index tablespace " : "", ts ? ts : "");
			if (tpcc_exec(t, sql))
				return -1;
		}
	return TPCC_ABORTED(t->ld) ? -1 : 0;
}

/* A task goes through its phases on its own: its tables are its alone, so
 * it need not wait for the others (a barrier between phases left a CPU
 * idle while the largest table still loaded). */
static void *tpcc_task_main(void *arg)
{
	struct tpcc_task *t = arg;
	int (*const phase[3])(struct tpcc_task *, const char *const *) = {tpcc_task_load, tpcc_task_vacuum,
	                                                                  tpcc_task_keys};
	double start = clock_mono();

	for (int p = 0; p < 3 && phase[p](t, tpcc_task_tables[t->idx]) == 0; p++) {
		double now = clock_mono();

		t->phase_s[p] = now - start;
		start = now;
	}
	return NULL;
}

/* Run every task at once, each through its phases. 0 or -EIO. */
static int tpcc_run_tasks(struct tpcc_task *tasks)
{
	pthread_t th[TPCC_NTASK];
	bool started[TPCC_NTASK] = {0};

	for (int i = 0; i < TPCC_NTASK; i++) {
		started[i] = pthread_create(&th[i], NULL, tpcc_task_main, &tasks[i]) == 0;
		if (!started[i])
			tpcc_fail(&tasks[i], "load", "cannot start a thread");
	}
	for (int i = 0; i < TPCC_NTASK; i++)
		if (started[i])
			pthread_join(th[i], NULL);
	return TPCC_ABORTED(tasks[0].ld) ? -EIO : 0;
}

/* ---- the watcher: stop flag and timeout ---- */

struct tpcc_watch {
	struct tpcc_task *tasks;
	volatile sig_atomic_t *stop;
	double deadline;
	int done; /* set by the main thread: atomic */
	int why;  /* 1 stopped, 2 timed out */
};

static void *tpcc_watch_main(void *arg)
{
	struct tpcc_watch *w = arg;

	while (!__atomic_load_n(&w->done, __ATOMIC_ACQUIRE)) {
		usleep(50000);
		if (!w->why && w->stop && __atomic_load_n(w->stop, __ATOMIC_ACQUIRE))
			w->why = 1;
		else if (!w->why && w->deadline > 0 && clock_mono() >= w->deadline)
			w->why = 2;
		if (!w->why)
			continue;
		__atomic_store_n(&w->tasks[0].ld->abort, 1, __ATOMIC_RELEASE);
		for (int i = 0; i < TPCC_NTASK; i++) {
			char err[256];

			if (w->tasks[i].cancel)
				PQcancel(w->tasks[i].cancel, err, sizeof(err));
		}
	}
	return NULL;
}

/* ---- the run ---- */

static int tpcc_check(const struct pgb_init_opts *o, struct diag *d)
{
	if (o->warehouses < 1) {
		diag_error(d, NULL, "tpcc init: warehouses must be at least 1 (got %d)", o->warehouses);
		return -EINVAL;
	}
	if (o->fillfactor && (o->fillfactor < 10 || o->fillfactor > 100)) {
		diag_error(d, NULL, "tpcc init: fillfactor must be between 10 and 100 (got %d)",
		           o->fillfactor);
		return -EINVAL;
	}
	return 0;
}

/* Drop and create the tables on the first task's connection. */
static int tpcc_create(struct tpcc_task *t, struct step_result *res)
{
	const struct pgb_init_opts *o = t->ld->o;
	char sql[2048];
	double t0 = clock_mono();
	size_t n = 0;

	n += snprintf(sql, sizeof(sql), "drop table if exists ");
	for (size_t i = 0; i < sizeof(tpcc_tables) / sizeof(tpcc_tables[0]); i++)
		n += snprintf(sql + n, sizeof(sql) - n, "%s%s", i ? ", " : "", tpcc_tables[i]);
	if (tpcc_exec(t, sql))
		return -EIO;
	result_metric(res, "init_drop_s", clock_mono() - t0, "s");
	t0 = clock_mono();
	for (size_t i = 0; i < sizeof(tpcc_ddl) / sizeof(tpcc_ddl[0]); i++) {
		n = (size_t)snprintf(sql, sizeof(sql), "create%s table %s", o->unlogged ? " unlogged" : "",
		                     tpcc_ddl[i]);
		if (o->fillfactor)
			n += snprintf(sql + n, sizeof(sql) - n, " with (fillfactor=%d)", o->fillfactor);
		if (t->ld->tsq)
			snprintf(sql + n, sizeof(sql) - n, " tablespace %s", t->ld->tsq);
		if (tpcc_exec(t, sql))
			return -EIO;
	}
	result_metric(res, "init_create_s", clock_mono() - t0, "s");
	return 0;
}

int tpcc_init_run(const char *conninfo, const struct pgb_init_opts *o, volatile sig_atomic_t *stop,
                  double timeout, struct step_result *res, struct diag *d)
{
	if (tpcc_check(o, d))
		return -EINVAL;
	if (!conninfo) {
		result_fail(res, "tpcc init: no PostgreSQL server (add a postgres: section)");
		return -EINVAL;
	}
	double t0 = clock_mono();
	struct tpcc_load ld = {.conninfo = conninfo, .o = o, .seed = 0x7063632d6c696b65ULL};
	struct tpcc_task tasks[TPCC_NTASK] = {0};
	struct tpcc_watch watch = {.tasks = tasks, .stop = stop, .deadline = timeout > 0 ? t0 + timeout : 0};
	pthread_t watcher;
	bool watching = false;
	char *tsq = NULL;
	int rc = -EIO;
	time_t now = time(NULL);
	struct tm tmv;

	pthread_mutex_init(&ld.lock, NULL);
	strftime(ld.now, sizeof(ld.now), "%Y-%m-%d %H:%M:%S", localtime_r(&now, &tmv));
	for (int i = 0; i < TPCC_NTASK; i++) {
		tasks[i].ld = &ld;
		tasks[i].idx = i;
		tasks[i].rng.s = ld.seed * (uint64_t)(i + 1) + 1;
		tasks[i].c = PQconnectdb(conninfo);
		if (PQstatus(tasks[i].c) != CONNECTION_OK) {
			tpcc_fail(&tasks[i], "cannot connect", PQerrorMessage(tasks[i].c));
			goto out;
		}
		tasks[i].cancel = PQgetCancel(tasks[i].c);
		PQclear(PQexec(tasks[i].c, "set client_min_messages = warning"));
		if (!(tasks[i].buf = malloc(TPCC_BUF))) {
			tpcc_fail(&tasks[i], "load", "out of memory");
			goto out;
		}
	}
	if (stop || timeout > 0)
		watching = pthread_create(&watcher, NULL, tpcc_watch_main, &watch) == 0;
	if (o->tablespace) {
		tsq = PQescapeIdentifier(tasks[0].c, o->tablespace, strlen(o->tablespace));
		if (!tsq) {
			tpcc_fail(&tasks[0], "bad tablespace name", PQerrorMessage(tasks[0].c));
			goto out;
		}
		ld.tsq = tsq;
	}
	if (tpcc_create(&tasks[0], res))
		goto out;
	if (tpcc_run_tasks(tasks))
		goto out;
	/* the phases overlap (each task moves on alone): each figure is the
	 * longest task's time in it */
	static const char *const phase_names[3] = {"init_load_s", "init_vacuum_s", "init_pkeys_s"};
	for (int p = 0; p < 3; p++) {
		double longest = 0;

		for (int i = 0; i < TPCC_NTASK; i++)
			longest = tasks[i].phase_s[p] > longest ? tasks[i].phase_s[p] : longest;
		result_metric(res, phase_names[p], longest, "s");
	}
	int64_t rows = 0;

	for (int i = 0; i < TPCC_NTASK; i++)
		rows += tasks[i].rows;
	result_metric(res, "init_rows", (double)rows, "");
	result_metric(res, "init_s", clock_mono() - t0, "s");
	result_info(res, "tpcc.warehouses", "%d", o->warehouses);
	rc = 0;
out:
	if (watching) {
		__atomic_store_n(&watch.done, 1, __ATOMIC_RELEASE);
		pthread_join(watcher, NULL);
	}
	if (rc) {
		if (watch.why == 1)
			result_fail(res, "tpcc init: stopped");
		else if (watch.why == 2)
			result_fail(res, "tpcc init: timed out after %.3g s", timeout);
		else
			result_fail(res, "%s", ld.error[0] ? ld.error : "tpcc init: failed");
	}
	for (int i = 0; i < TPCC_NTASK; i++) {
		if (tasks[i].cancel)
			PQfreeCancel(tasks[i].cancel);
		PQfinish(tasks[i].c);
		free(tasks[i].buf);
	}
	PQfreemem(tsq);
	pthread_mutex_destroy(&ld.lock);
	return rc;
}
