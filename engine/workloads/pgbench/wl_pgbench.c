/* wl_pgbench: options, server statistics and metrics of the pgbench step
 * (see wl_pgbench.h); the load itself runs in pgb_client.c. */
#include "wl_pgbench.h"

#include <errno.h>
#include <sys/random.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <libpq-fe.h>
#include "clock.h"
#include "pgb_estimate.h"
#include "pgb_log.h"
#include "pgb_metrics.h"
#include "pgb_run.h"
#include "pgb_run_as.h"
#include "pgb_vacuum.h"
#include "pgb_init.h"
#include "pgb_init_opts.h"
#include "pgb_opts_table.h"
#include "pgb_script_figs.h"
#include "pgb_tpcc.h"
#include "pgb_ycsb.h"
#include "pgb_ycsb_opts_table.h"
#include "safe_file.h"
#include "tail.h"

struct pgbw_opts {
	bool is_init;
	struct pgb_init_opts init;
	struct pgb_prog prog;
	bool uses_builtin;
	bool tpcc;            /* builtin tpcc-like: :scale from warehouse, its figures */
	bool ycsb;            /* builtin: ycsb-like (its insert sequence is set per run) */
	int64_t ycsb_records; /* its records: keys 0 .. records-1 were loaded */
	int protocol;
	int64_t clients, threads, transactions, scale;
	uint64_t seed;
	bool seed_rand; /* seed: rand (else time when !has_seed) */
	double duration, rate, progress;
	bool per_txn, report_statements, has_seed;
	bool vacuum;              /* as pgbench without -n */
	struct pgb_fail_cfg fail; /* failures, retries, latency limit, logs */
	const char *run_as;       /* \shell and \setshell as this user; NULL: root */
};

/* \shell and \setshell run /bin/sh with benchgrid's rights, root's, unless
 * run_as names a user: check says so once per command (a note, not an
 * error: a script may need it). Scripts in files are read only when the
 * step runs, so the note covers inline scripts and builtins. */
static void pgbw_shell_note(const struct pgbw_opts *o, struct diag *d)
{
	if (o->run_as)
		return;
	for (int i = 0; i < o->prog.nscripts; i++) {
		const struct pgb_script *sc = &o->prog.scripts[i];
		for (int k = 0; k < sc->ncmd; k++)
			if (sc->cmd[k].kind == PGB_CMD_SHELL || sc->cmd[k].kind == PGB_CMD_SETSHELL)
				diag_add(d, DIAG_NOTE, &sc->cmd[k].pos,
				         "pgbench: \\%s runs /bin/sh as root (benchgrid's user); set "
				         "pgbench.run_as to a user name to run it as that user",
				         sc->cmd[k].kind == PGB_CMD_SHELL ? "shell" : "setshell");
	}
}

/* seed: as pgbench's --random-seed: an unsigned 64-bit integer, `time`
 * (the default: from the clock) or `rand` (from the kernel's generator). */
static void pgbw_seed(const struct node *x, struct pgbw_opts *o, struct diag *d)
{
	const char *t = x->kind == NODE_SCALAR ? x->text : "";
	char *end = NULL;

	if (!strcmp(t, "time"))
		return;
	if (!strcmp(t, "rand")) {
		o->seed_rand = true;
		return;
	}
	errno = 0;
	unsigned long long v = *t >= '0' && *t <= '9' ? strtoull(t, &end, 10) : 0;
	if (!end || *end || errno) {
		diag_error(d, &x->pos,
		           "pgbench.seed: '%s' is not an unsigned 64-bit integer, time or rand "
		           "(pgbench's --random-seed)",
		           t);
		return;
	}
	o->seed = v;
	o->has_seed = true;
}

/* The indentation of a block scalar's first line (the line after its
 * indicator), from the scenario text diag holds; 0 when it has none. */
static int pgbw_block_indent(const struct src_pos *pos)
{
	char line[4096];

	if (!pos->file || pos->line <= 0 || !diag_source_line(pos->file, pos->line + 1, line, sizeof(line)))
		return 0;
	return (int)strspn(line, " ");
}

/* Is a script string inline text rather than a file name? */
static bool pgbw_is_inline(const char *s)
{
	return strchr(s, '\n') || strchr(s, ';') || s[strspn(s, " \t")] == '\\';
}

/* A builtin: one script, or the scripts of a mix (tpcc-like's five, their
 * weights times `weight`). */
static int pgbw_add_builtin(struct pgbw_opts *o, const char *name, int64_t weight, const struct src_pos *pos,
                            struct diag *d)
{
	int n, rc = 0;
	const struct pgb_builtin_part *mix = pgb_builtin_mix(name, &n);

	o->uses_builtin = true;
	if (!mix)
		return pgb_prog_add(&o->prog, name, pgb_builtin(name), (int)weight, pos, false, d);
	if (!strcmp(name, "tpcc-like")) {
		o->tpcc = true;
		o->protocol = PGB_PROTO_PREPARED; /* its scripts use pipelines; protocol: wins */
		o->vacuum = false;                /* pgbench's tables are not there; vacuum: wins */
	}
	for (int i = 0; i < n && !rc; i++)
		rc = pgb_prog_add(&o->prog, mix[i].name, mix[i].text, (int)(mix[i].weight * weight), pos,
		                  false, d);
	return rc;
}

/* Add one script given as a string (file[@weight] or inline text) or a map
 * {file|text|builtin, weight}. `files` false (check time): file scripts are
 * only validated as names. */
static int pgbw_add_script(struct pgbw_opts *o, const struct node *n, const char *scenario_dir, bool files,
                           struct diag *d)
{
	const char *text = NULL, *file = NULL, *builtin = NULL;
	const struct node *tn = n, *x;
	int64_t weight = 1;
	char name[64], fbuf[4096];

	if (n->kind == NODE_MAP) {
		if (opt_check_keys(n, "pgbench.script", &pgb_script_table, d))
			return -EINVAL;
		int k = 0;

		if ((x = node_get(n, "file")) && !node_as_string(x, "pgbench.script.file", &file, d))
			k++, tn = x;
		if ((x = node_get(n, "text")) && !node_as_string(x, "pgbench.script.text", &text, d))
			k++, tn = x;
		if ((x = node_get(n, "builtin"))) {
			int b;

			if (node_as_enum(x, "pgbench.script.builtin", pgb_builtin_values, &b, d))
				return -EINVAL;
			builtin = pgb_builtin_values[b];
			k++, tn = x;
		}
		if (k != 1) {
			diag_error(d, &n->pos, "pgbench script: give exactly one of file, text, builtin");
			return -EINVAL;
		}
		if ((x = node_get(n, "weight")) &&
		    node_as_int(x, "pgbench.script.weight", 0, 1000000, &weight, d))
			return -EINVAL;
	} else {
		const char *s;

		if (node_as_string(n, "pgbench.script", &s, d))
			return -EINVAL;
		if (pgbw_is_inline(s)) {
			text = s;
		} else {
			/* pgbench's file@weight */
			snprintf(fbuf, sizeof(fbuf), "%s", s);
			char *at = strrchr(fbuf, '@');

			if (at && at[1] && strspn(at + 1, "0123456789") == strlen(at + 1)) {
				*at = '\0';
				weight = strtoll(at + 1, NULL, 10);
				if (weight > 1000000) {
					diag_error(d, &n->pos, "pgbench script: weight %s is above 1000000",
					           at + 1);
					return -EINVAL;
				}
			}
			file = fbuf;
			/* "select-only@2", as pgbench -b takes it */
			for (int b = 0; pgb_builtin_values[b]; b++)
				if (!strcmp(fbuf, pgb_builtin_values[b]))
					builtin = pgb_builtin_values[b];
		}
	}
	if (builtin && !strcmp(builtin, "ycsb-like")) {
		diag_error(d, &tn->pos,
		           "pgbench script: ycsb-like is a mix of scripts: give it as pgbench.builtin");
		return -EINVAL;
	}
	if (builtin)
		return pgbw_add_builtin(o, builtin, weight, &tn->pos, d);
	if (text) {
		struct src_pos pos = tn->pos;

		if (!strchr(text, '\n')) {
			/* one line: on the scalar's own line, after any quote */
			if (pos.line > 0)
				pos.line--;
			pos.col += tn->quoted ? 1 : 0;
		} else {
			pos.col = pgbw_block_indent(&tn->pos) + 1;
		}
		snprintf(name, sizeof(name), "script%d", o->prog.nscripts + 1);
		return pgb_prog_add(&o->prog, name, text, (int)weight, &pos, false, d);
	}
	if (!*file) {
		diag_error(d, &tn->pos, "pgbench script: empty file name");
		return -EINVAL;
	}
	if (!files)
		return 0;
	char path[4096], err[4096 + 512];
	size_t len;

	if (file[0] == '/' || !scenario_dir)
		snprintf(path, sizeof(path), "%s", file);
	else
		snprintf(path, sizeof(path), "%s/%s", scenario_dir, file);
	/* safe_file's rules: no link, a regular file, at most 16 MiB,
	 * readable by everyone */
	char *buf = safe_file_read(path, 0, SAFE_FILE_TEXT_MAX, &len, err, sizeof(err));

	if (!buf) {
		diag_error(d, &tn->pos, "pgbench script: %s", err);
		return -EINVAL;
	}
	struct src_pos pos = {.file = diag_intern(path), .line = 1, .col = 1};
	int rc = pgb_prog_add(&o->prog, file, buf, (int)weight, &pos, true, d);

	free(buf);
	return rc;
}

/* define: {name: value}, pgbench's -D: text values, converted when an
 * expression reads them. */
static int pgbw_defines(struct pgbw_opts *o, const struct node *x, struct diag *d)
{
	int rc = 0;

	if (x->kind != NODE_MAP) {
		diag_error(d, &x->pos, "pgbench.define: expected a map of variable names to values");
		return -EINVAL;
	}
	for (size_t i = 0; i < x->n; i++) {
		const char *v;

		if (node_as_string(x->items[i], "pgbench.define", &v, d)) {
			rc = -EINVAL;
			continue;
		}
		int e = pgb_prog_define(&o->prog, x->keys[i], v);

		if (e == -EINVAL)
			diag_error(d, &x->kpos[i],
			           "pgbench.define: '%s' is not a variable name (letters, digits, _)",
			           x->keys[i]);
		else if (e)
			diag_error(d, &x->kpos[i], "pgbench.define: out of memory");
		rc = e ? e : rc;
	}
	return rc;
}

/* builtin: one script, tpcc-like's mix, or ycsb-like's (pgb_ycsb.h). */
static int pgbw_builtin(struct pgbw_opts *o, const struct node *opts, const struct node *b, struct diag *d)
{
	struct pgb_ycsb_opts y;
	int e;

	if (node_as_enum(b, "pgbench.builtin", pgb_builtin_values, &e, d))
		return 0; /* counted in d */
	if (strcmp(pgb_builtin_values[e], "ycsb-like")) {
		pgbw_add_builtin(o, pgb_builtin_values[e], 1, &b->pos, d);
		return 0;
	}
	o->ycsb = true;
	o->vacuum = false; /* pgbench's tables are not its data */
	if (pgb_ycsb_parse(node_get(opts, "ycsb"), &y, d) || pgb_ycsb_add(&o->prog, &y, &b->pos, d))
		return -EINVAL;
	o->ycsb_records = y.records;
	return 0;
}

/* Read and validate every option; files only when `files`. */
static int pgbw_parse(const struct node *opts, const char *scenario_dir, bool files, struct pgbw_opts *o,
                      struct diag *d)
{
	const struct node *x;
	int e, rc = 0;
	size_t nerr0 = d->nerrors;

	memset(o, 0, sizeof(*o));
	pgb_prog_init(&o->prog);
	o->clients = o->threads = 1;
	o->transactions = 10;
	o->vacuum = true;
	if (opts->kind == NODE_NULL) {
		o->uses_builtin = true;
		if (pgb_prog_add(&o->prog, "tpcb-like", pgb_builtin("tpcb-like"), 1, &opts->pos, false, d) ||
		    pgb_prog_finish(&o->prog, d))
			return -EINVAL;
		return 0;
	}
	/* An unknown key is one error among the others (nerr0 counts it). */
	if (opt_check_keys(opts, "pgbench", &pgb_opt_table, d) && opts->kind != NODE_MAP)
		return -EINVAL;
	if ((x = node_get(opts, "init"))) {
		o->is_init = true;
		for (size_t i = 0; i < opts->n; i++)
			if (strcmp(opts->keys[i], "init")) {
				diag_error(d, &opts->kpos[i],
				           "pgbench: '%s' cannot be combined with init (an init step only "
				           "loads data)",
				           opts->keys[i]);
				rc = -EINVAL;
			}
		return pgb_init_opts_parse(x, "pgbench.init", &o->init, d) || rc ? -EINVAL : 0;
	}
	const struct node *b = node_get(opts, "builtin"), *s = node_get(opts, "script"),
	                  *ss = node_get(opts, "scripts");

	if (!!b + !!s + !!ss > 1) {
		diag_error(d, &opts->pos, "pgbench: give only one of builtin, script, scripts");
		rc = -EINVAL;
	} else if (b) {
		rc |= pgbw_builtin(o, opts, b, d);
	} else if (s) {
		pgbw_add_script(o, s, scenario_dir, files, d);
	} else if (ss) {
		if (ss->kind != NODE_SEQ || ss->n == 0) {
			diag_error(d, &ss->pos, "pgbench.scripts: expected a list of scripts");
			rc = -EINVAL;
		} else {
			for (size_t i = 0; i < ss->n; i++)
				pgbw_add_script(o, ss->items[i], scenario_dir, files, d);
		}
	} else {
		o->uses_builtin = true;
		pgb_prog_add(&o->prog, "tpcb-like", pgb_builtin("tpcb-like"), 1, &opts->pos, false, d);
	}
	if ((x = node_get(opts, "ycsb")) && !o->ycsb) {
		diag_error(d, &x->pos, "pgbench.ycsb: only with builtin: ycsb-like");
		rc = -EINVAL;
	}
	if ((x = node_get(opts, "protocol")) &&
	    !node_as_enum(x, "pgbench.protocol", pgb_protocol_values, &e, d))
		o->protocol = e;
	if ((x = node_get(opts, "clients")))
		node_as_int(x, "pgbench.clients", 1, 100000, &o->clients, d);
	if ((x = node_get(opts, "threads")))
		node_as_int(x, "pgbench.threads", 1, 4096, &o->threads, d);
	const struct node *du = node_get(opts, "duration"), *tr = node_get(opts, "transactions");

	if (du && tr) {
		diag_error(d, &tr->pos, "pgbench: give duration or transactions, not both");
		rc = -EINVAL;
	}
	if (du)
		node_as_duration(du, "pgbench.duration", false, &o->duration, d);
	if (tr)
		node_as_int(tr, "pgbench.transactions", 1, INT64_MAX / 2, &o->transactions, d);
	if ((x = node_get(opts, "rate")) && !node_as_double(x, "pgbench.rate", &o->rate, d) &&
	    !(o->rate > 0)) {
		diag_error(d, &x->pos, "pgbench.rate: must be a positive number of transactions per second");
		rc = -EINVAL;
	}
	if ((x = node_get(opts, "connect")) && !node_as_enum(x, "pgbench.connect", pgb_connect_values, &e, d))
		o->per_txn = e == 1;
	if ((x = node_get(opts, "progress")))
		node_as_duration(x, "pgbench.progress", false, &o->progress, d);
	if ((x = node_get(opts, "scale")))
		node_as_int(x, "pgbench.scale", 1, INT32_MAX, &o->scale, d);
	if ((x = node_get(opts, "report_statements")))
		node_as_bool(x, "pgbench.report_statements", &o->report_statements, d);
	if ((x = node_get(opts, "seed")))
		pgbw_seed(x, o, d);
	if ((x = node_get(opts, "vacuum")))
		node_as_bool(x, "pgbench.vacuum", &o->vacuum, d);
	if ((x = node_get(opts, "run_as")) && !node_as_string(x, "pgbench.run_as", &o->run_as, d) &&
	    !*o->run_as) {
		diag_error(d, &x->pos, "pgbench.run_as: expected a user name");
		rc = -EINVAL;
	}
	pgb_fail_opts_parse(opts, o->duration, o->rate, &o->fail, d);
	if ((x = node_get(opts, "define")))
		pgbw_defines(o, x, d);
	if (o->threads > o->clients && (x = node_get(opts, "threads"))) {
		diag_error(d, &x->pos,
		           "pgbench.threads: %" PRId64 " threads for %" PRId64
		           " clients (at most one thread per client)",
		           o->threads, o->clients);
		rc = -EINVAL;
	}
	if (opt_check_values(opts, "pgbench", &pgb_opt_table, d) < 0)
		rc = -EINVAL;
	if (d->nerrors == nerr0 && pgb_prog_finish(&o->prog, d))
		rc = -EINVAL;
	if (d->nerrors == nerr0 && pgb_prog_check_protocol(&o->prog, o->protocol == PGB_PROTO_SIMPLE, d))
		rc = -EINVAL;
	if (d->nerrors == nerr0 && !files)
		pgbw_shell_note(o, d);
	return rc || d->nerrors > nerr0 ? -EINVAL : 0;
}

static int pgbw_check(const struct node *opts, struct diag *d)
{
	struct pgbw_opts o;
	int rc = pgbw_parse(opts, NULL, false, &o, d);

	pgb_prog_free(&o.prog);
	return rc;
}

/* ---- server statistics ---- */

struct pgbw_stats {
	bool ok, wal_ok;
	double blks_hit, blks_read, xact_commit, deadlocks, temp_bytes;
	uint64_t lsn;
};

static void pgbw_read_stats(PGconn *c, struct pgbw_stats *s)
{
	memset(s, 0, sizeof(*s));
	if (!c || PQstatus(c) != CONNECTION_OK)
		return;
	PQclear(PQexec(c, "select pg_stat_clear_snapshot()"));
	PGresult *r =
	    PQexec(c, "select blks_hit, blks_read, xact_commit, deadlocks, temp_bytes from pg_stat_database "
	              "where datname = current_database()");

	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) {
		s->ok = true;
		s->blks_hit = atof(PQgetvalue(r, 0, 0));
		s->blks_read = atof(PQgetvalue(r, 0, 1));
		s->xact_commit = atof(PQgetvalue(r, 0, 2));
		s->deadlocks = atof(PQgetvalue(r, 0, 3));
		s->temp_bytes = atof(PQgetvalue(r, 0, 4));
	}
	PQclear(r);
	r = PQexec(c, "select pg_current_wal_lsn()");
	unsigned hi, lo;

	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 &&
	    sscanf(PQgetvalue(r, 0, 0), "%X/%X", &hi, &lo) == 2) {
		s->wal_ok = true;
		s->lsn = ((uint64_t)hi << 32) | lo;
	}
	PQclear(r);
}

/* Wait (up to 2 s) until the client backends have exited, so that they have
 * flushed their statistics. */
static void pgbw_wait_backends(PGconn *c, const char *app)
{
	const char *p[1] = {app};

	for (int i = 0; i < 200 && c && PQstatus(c) == CONNECTION_OK; i++) {
		PGresult *r =
		    PQexecParams(c, "select count(*) from pg_stat_activity where application_name = $1", 1,
		                 NULL, p, NULL, NULL, 0);
		bool none = PQresultStatus(r) != PGRES_TUPLES_OK || atoi(PQgetvalue(r, 0, 0)) == 0;

		PQclear(r);
		if (none)
			return;
		usleep(10000);
	}
}

static void pgbw_fail(struct step_result *res, const struct step_ctx *cx, const char *msg)
{
	const char *log = step_ctx_name(cx, "pg.log");
	char *tail = log ? tail_file(log, 0, 10, 2047) : NULL;

	if (tail && tail[0])
		result_fail(res, "pgbench: %s\nserver log (%s, last lines):\n%s", msg, log, tail);
	else
		result_fail(res, "pgbench: %s", msg);
	free(tail);
}

static void pgbw_progress(void *arg, double t, double tps, double lat_ms)
{
	void **a = arg;
	struct step_result *res = a[0];
	const struct step_ctx *cx = a[1];

	result_sample(res, "tps", "tps", t, tps);
	result_sample(res, "lat_ms", "ms", t, lat_ms);
	if (cx->progress) /* the runner's progress line shows it */
		cx->progress(cx->progress_ud, "tps", tps);
	else if (cx->verbose > 0)
		fprintf(stderr, "progress: %.1f s, %.1f tps, lat %.3f ms\n", t, tps, lat_ms);
}

/* An init: step: pgbench's data load. */
static int pgbw_run_init(const struct pgbw_opts *o, const struct step_ctx *cx, struct step_result *res,
                         struct diag *d)
{
	int rc = pgb_init_run_ctl(step_ctx_name(cx, "pg.conninfo"), &o->init, cx->stop, cx->timeout, res, d);

	if (rc && rc != -EINVAL && res->error) {
		/* the same message, with the server log's last lines under it */
		char msg[4096];

		snprintf(msg, sizeof(msg), "%s", res->error);
		free(res->error);
		res->error = NULL;
		res->failed = false;
		pgbw_fail(res, cx, msg);
	}
	return rc;
}

/* Without scale:, as pgbench: the number of branches. 0, or -EIO (res
 * failed) when a builtin script needs it and the tables are not there. */
static int pgbw_scale(PGconn *mon, struct pgbw_opts *o, const struct step_ctx *cx, struct step_result *res)
{
	if (o->scale)
		return 0;
	PGresult *r =
	    PQexec(mon, o->tpcc ? "select count(*) from warehouse" : "select count(*) from pgbench_branches");

	if (PQresultStatus(r) == PGRES_TUPLES_OK)
		o->scale = atoll(PQgetvalue(r, 0, 0));
	PQclear(r);
	if (o->scale <= 0 && o->uses_builtin) {
		pgbw_fail(res, cx,
		          o->tpcc ? "cannot read the number of warehouses from warehouse (no TPC-C tables? "
		                    "run a step with init: {kind: tpcc} first, or set scale:)"
		                  : "cannot read the scale from pgbench_branches (no pgbench tables? run a "
		                    "step with init: first, or set scale:)");
		return -EIO;
	}
	if (o->scale <= 0)
		o->scale = 1;
	return 0;
}

static void pgbw_metrics(const struct pgbw_opts *o, const struct pgb_run_out *out,
                         const struct pgbw_stats *before, const struct pgbw_stats *after,
                         struct step_result *res)
{
	const struct hist *h = &out->lat;
	double el = out->elapsed > 0 ? out->elapsed : 1e-9;

	result_metric(res, "tps", out->transactions / el, "tps");
	result_metric(res, "transactions", (double)out->transactions, "");
	result_metric(res, "failed", (double)out->failed, "");
	result_metric(res, "lat_mean_ms", hist_mean(h) / 1e6, "ms");
	result_metric(res, "lat_stddev_ms", hist_stddev(h) / 1e6, "ms");
	result_metric(res, "lat_p50_ms", hist_percentile(h, 50) / 1e6, "ms");
	result_metric(res, "lat_p90_ms", hist_percentile(h, 90) / 1e6, "ms");
	result_metric(res, "lat_p95_ms", hist_percentile(h, 95) / 1e6, "ms");
	result_metric(res, "lat_p99_ms", hist_percentile(h, 99) / 1e6, "ms");
	result_metric(res, "lat_max_ms", hist_max(h) / 1e6, "ms");
	if (hist_count(h)) { /* the latency charts' data (docs/results.md): one interval */
		struct hist_text ht = {0};
		hist_text_add(&ht, 0, out->elapsed, h->bucket);
		if (hist_text_str(&ht)) {
			result_info(res, "lat_hist", "%s", ht.s);
			result_info(res, "lat_hist_of", "transactions"); /* the charts' noun */
		}
		hist_text_free(&ht);
	}
	result_metric(res, "duration_s", out->elapsed, "s");
	if (o->per_txn && out->connections)
		result_metric(res, "conn_mean_ms", out->conn_time * 1e3 / out->connections, "ms");
	pgb_script_figs(&o->prog, out, o->tpcc, res);
	if (o->report_statements) {
		for (int k = 0, s = 0, c = 0; k < out->ncmd; k++, c++) {
			while (c >= o->prog.scripts[s].ncmd)
				s++, c = 0;
			char name[32];

			snprintf(name, sizeof(name), "stmt%d_ms", k + 1);
			result_metric(res, name, out->cmd_n[k] ? out->cmd_ns[k] / out->cmd_n[k] / 1e6 : 0,
			              "ms");
			snprintf(name, sizeof(name), "stmt%d", k + 1);
			result_info(res, name, "%s", o->prog.scripts[s].cmd[c].text);
		}
	}
	if (before->ok && after->ok) {
		double hit = after->blks_hit - before->blks_hit, rd = after->blks_read - before->blks_read;

		result_metric(res, "cache_hit_ratio", hit + rd > 0 ? hit / (hit + rd) : 1.0, "");
		result_metric(res, "blks_read", rd, "");
		result_metric(res, "xact_commit", after->xact_commit - before->xact_commit, "");
		result_metric(res, "deadlocks", after->deadlocks - before->deadlocks, "");
		result_metric(res, "temp_bytes", after->temp_bytes - before->temp_bytes, "bytes");
	}
	if (before->wal_ok && after->wal_ok)
		result_metric(res, "wal_bytes", (double)(after->lsn - before->lsn), "bytes");
	pgb_fail_metrics(&o->fail, &out->fail, res);
	if (out->stopped)
		result_info(res, "warning", "pgbench: stopped early by a signal");
}

/* debug() and \shell lines: into the step's stderr log, which pgb_log.c
 * opens with the run (verbose_errors writes there too), or stderr. */
static void pgbw_debug_line(void *arg, const char *line)
{
	const struct pgb_fail_cfg *f = arg;

	fputs(line, f->err_log ? f->err_log : stderr);
}

/* The load: the clients run the scripts while `mon` reads the server's
 * statistics before and after. */
static int pgbw_run_load(PGconn *mon, struct pgbw_opts *o, const struct step_ctx *cx, struct step_result *res)
{
	struct pgbw_stats before, after;
	char app[64], msg[4200];

	snprintf(app, sizeof(app), "benchgrid-pgbench-%d", (int)getpid());
	if (!o->has_seed && o->seed_rand) {
		if (getrandom(&o->seed, sizeof(o->seed), 0) != (ssize_t)sizeof(o->seed)) {
			result_fail(res, "pgbench: seed: rand: cannot read random bytes: %s",
			            strerror(errno));
			return -EIO;
		}
	} else if (!o->has_seed) {
		o->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	}
	result_info(res, "pgbench.seed", "%" PRIu64, o->seed);
	result_info(res, "pgbench.scale", "%" PRId64, o->scale);
	result_info(res, "pgbench.protocol", "%s", pgb_protocol_values[o->protocol]);
	if (o->vacuum) /* before the statistics and the clock, as pgbench */
		pgb_vacuum(mon, res);
	else
		result_info(res, "pgbench.vacuum", "skipped (vacuum: false)");
	pgbw_read_stats(mon, &before);

	void *parg[2] = {res, (void *)cx};
	struct pgb_run_cfg cfg = {
	    .conninfo = step_ctx_name(cx, "pg.conninfo"),
	    .app_name = app,
	    .prog = &o->prog,
	    .protocol = o->protocol,
	    .clients = (int)o->clients,
	    .threads = (int)o->threads,
	    .duration = o->duration,
	    .transactions = o->transactions,
	    .rate = o->rate,
	    .connect_per_txn = o->per_txn,
	    .progress = o->progress,
	    .scale = o->scale,
	    .per_statement = o->report_statements,
	    .seed = (uint64_t)o->seed,
	    .debug = pgbw_debug_line,
	    .stop = cx->stop,
	    .timeout = cx->timeout,
	    .on_progress = pgbw_progress,
	    .progress_arg = parg,
	    .fail = o->fail,
	};
	cfg.debug_arg = &cfg.fail;
	gid_t *groups = NULL;
	if (o->run_as && pgb_run_as_user(o->run_as, &cfg, &groups, msg, sizeof(msg))) {
		result_fail(res, "%s", msg);
		return -EINVAL;
	}
	struct pgb_run_out *out = calloc(1, sizeof(*out));
	int rc = 0;

	if (!out) {
		free(groups);
		result_fail(res, "pgbench: out of memory");
		return -ENOMEM;
	}
	if ((rc = pgb_log_start(&cfg.fail, cx, cfg.threads < cfg.clients ? cfg.threads : cfg.clients, res))) {
		free(out);
		free(groups);
		return rc;
	}
	if (pgb_run(&cfg, out)) {
		snprintf(msg, sizeof(msg), "%s", out->error);
		pgbw_fail(res, cx, msg);
		/* a crashed server also ends the monitor connection: no stats */
		rc = -EIO;
	} else {
		pgbw_wait_backends(mon, app);
		pgbw_read_stats(mon, &after);
		pgbw_metrics(o, out, &before, &after, res);
	}
	if (pgb_log_end(&cfg.fail, cx, res) && !rc)
		rc = -EIO;
	pgb_run_out_free(out);
	free(out);
	free(groups);
	return rc;
}

static int pgbw_run(const struct node *opts, const struct step_ctx *cx, struct step_result *res,
                    struct diag *d)
{
	struct pgbw_opts o;
	double t0 = clock_mono();
	int rc;

	res->started = clock_wall();
	if ((rc = pgbw_parse(opts, cx->scenario_dir, true, &o, d))) {
		pgb_prog_free(&o.prog);
		return -EINVAL;
	}
	if (!step_ctx_name(cx, "pg.conninfo")) {
		result_fail(res, "pgbench: no PostgreSQL server for this step (add a postgres: section)");
		pgb_prog_free(&o.prog);
		return -EINVAL;
	}
	if (o.is_init) {
		pgb_prog_free(&o.prog);
		rc = pgbw_run_init(&o, cx, res, d);
		res->elapsed = clock_mono() - t0;
		return rc;
	}
	PGconn *mon = PQconnectdb(step_ctx_name(cx, "pg.conninfo"));

	if (PQstatus(mon) != CONNECTION_OK) {
		char msg[4200];

		snprintf(msg, sizeof(msg), "cannot connect: %s", PQerrorMessage(mon));
		pgbw_fail(res, cx, msg);
		rc = -EIO;
	} else {
		rc = pgbw_scale(mon, &o, cx, res);
		if (o.ycsb)
			pgb_ycsb_seq_start(mon, o.ycsb_records);
		if (!rc)
			rc = pgbw_run_load(mon, &o, cx, res);
	}
	PQfinish(mon);
	pgb_prog_free(&o.prog);
	res->elapsed = clock_mono() - t0;
	return rc;
}

/* --- the server's sampler --- */

/* The server's activity is sampled at each progress report (progress:),
 * so its series line up with the step's; every second without one. */
static double pgbw_sample_every(const struct node *o)
{
	const struct node *p = o && o->kind == NODE_MAP ? node_get(o, "progress") : NULL;
	double every = 1.0;
	struct diag ignored;
	diag_init(&ignored);
	if (p && node_as_duration(p, "pgbench.progress", false, &every, &ignored) < 0)
		every = 1.0;
	diag_free(&ignored);
	return every > 0 ? every : 1.0;
}

static const struct opt_desc pgbw_step_row = {
    .name = "pgbench", .type = OPT_MAP, .doc = "the pgbench-compatible load", .ref = "pgbench"};

const struct workload_ops wl_pgbench_ops = {
    .version = WORKLOAD_OPS_VERSION,
    .name = "pgbench",
    .help = "pgbench-compatible PostgreSQL load (builtin or custom scripts) or pgbench's data load (init:)",
    .step_row = &pgbw_step_row,
    .tables = (const struct opt_table *const[]){&pgb_opt_table, &pgb_script_table, &pgb_ycsb_table, NULL},
    .metrics = &pgb_metric_names,
    .check = pgbw_check,
    .run = pgbw_run,
    .estimate = pgb_estimate,
    .sample_every = pgbw_sample_every,
};
