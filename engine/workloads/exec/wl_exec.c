/* wl_exec: the `exec:` step (see wl_exec.h). The command runs through
 * util/spawn: its own process group, so that a timeout can kill everything
 * it started (a shell pipeline, fio's job processes). */
#include "wl_exec.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "clock.h"
#include "exec_metrics.h"
#include "exec_opts_table.h"
#include "grow.h"
#include "lb.h"
#include "results_write.h"
#include "spawn.h"
#include "tail.h"
#include "utf8.h"

extern char **environ;

#define WL_EXEC_DEFAULT_CAPTURE ((size_t)64 << 20)
#define WL_EXEC_DEFAULT_TAIL    4096

/* --- options --- */

struct wl_exec_opts {
	const struct node *command;
	double timeout;
	const struct node *env;
	const char *parse;
	const struct node *parse_node;
	uint64_t tail;
};

static bool wl_exec_is_ident(const char *s)
{
	if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static int wl_exec_read_opts(const struct node *opts, struct wl_exec_opts *o, struct diag *d)
{
	int rc = 0;
	memset(o, 0, sizeof(*o));
	o->tail = WL_EXEC_DEFAULT_TAIL;
	if (opts && opts->kind == NODE_SCALAR) {
		/* `exec: "cmd"` is short for `exec: {command: "cmd"}`. */
		o->command = opts;
		return 0;
	}
	if (!opts || opts->kind != NODE_MAP) {
		diag_error(d, opts ? &opts->pos : NULL, "exec: expected a command or a map with `command:`");
		return -EINVAL;
	}
	if (opt_check_keys(opts, "exec", &exec_opt_table, d) < 0)
		rc = -EINVAL;
	o->command = node_get(opts, "command");
	if (!o->command) {
		diag_error(d, &opts->pos, "exec: `command:` is required");
		rc = -EINVAL;
	} else if (o->command->kind == NODE_SEQ) {
		if (o->command->n == 0) {
			diag_error(d, &o->command->pos, "exec.command: the argument list is empty");
			rc = -EINVAL;
		}
		for (size_t i = 0; i < o->command->n; i++) {
			const char *s;
			if (node_as_string(o->command->items[i], "exec.command[]", &s, d) < 0)
				rc = -EINVAL;
		}
	} else {
		const char *s;
		if (node_as_string(o->command, "exec.command", &s, d) < 0)
			rc = -EINVAL;
		else if (!*s) {
			diag_error(d, &o->command->pos, "exec.command: the command is empty");
			rc = -EINVAL;
		}
	}
	const struct node *n;
	if ((n = node_get(opts, "timeout")) && node_as_duration(n, "exec.timeout", true, &o->timeout, d) < 0)
		rc = -EINVAL;
	if ((n = node_get(opts, "tail")) && node_as_size(n, "exec.tail", true, &o->tail, d) < 0)
		rc = -EINVAL;
	if ((o->env = node_get(opts, "env"))) {
		if (o->env->kind != NODE_MAP) {
			diag_error(d, &o->env->pos, "exec.env: expected a map of NAME: value");
			rc = -EINVAL;
		} else {
			for (size_t i = 0; i < o->env->n; i++) {
				const char *s;
				if (!wl_exec_is_ident(o->env->keys[i])) {
					diag_error(d, &o->env->kpos[i],
					           "exec.env: '%s' is not a valid environment variable name",
					           o->env->keys[i]);
					rc = -EINVAL;
				}
				if (node_as_string(o->env->items[i], "exec.env value", &s, d) < 0)
					rc = -EINVAL;
			}
		}
	}
	if ((o->parse_node = node_get(opts, "parse"))) {
		if (node_as_string(o->parse_node, "exec.parse", &o->parse, d) < 0) {
			rc = -EINVAL;
		} else if (!lb_is_shipped_parser(o->parse) && !wl_exec_is_ident(o->parse)) {
			const char *sug = node_suggest(o->parse, lb_shipped_parsers());
			diag_error(d, &o->parse_node->pos,
			           "exec.parse: '%s' is neither a shipped parser (dd, pgbench, fio, hdparm, "
			           "bench.sh, sysbench) nor a Lua function name%s%s%s",
			           o->parse, sug ? "; did you mean '" : "", sug ? sug : "", sug ? "'?" : "");
			rc = -EINVAL;
		} else if (!lb_is_shipped_parser(o->parse)) {
			const char *sug = node_suggest(o->parse, lb_shipped_parsers());
			if (sug)
				diag_warn(
				    d, &o->parse_node->pos,
				    "exec.parse: '%s' is not a shipped parser; did you mean '%s'? (fine if "
				    "the hooks define a function of that name)",
				    o->parse, sug);
		}
	}
	if (opt_check_values(opts, "exec", &exec_opt_table, d) < 0)
		rc = -EINVAL;
	return rc;
}

static int wl_exec_check(const struct node *opts, struct diag *d)
{
	struct wl_exec_opts o;
	return wl_exec_read_opts(opts, &o, d);
}

/* --- environment --- */

struct wl_exec_env {
	char **v;
	size_t n, cap;
};

static void wl_exec_setenv(struct wl_exec_env *e, const char *name, const char *value)
{
	size_t nl = strlen(name);
	char *kv = malloc(nl + strlen(value) + 2);
	if (!kv)
		return;
	sprintf(kv, "%s=%s", name, value);
	for (size_t i = 0; i < e->n; i++) {
		if (!strncmp(e->v[i], name, nl) && e->v[i][nl] == '=') {
			free(e->v[i]);
			e->v[i] = kv;
			return;
		}
	}
	if (GROW(e->v, e->cap, e->n + 2, 64) < 0) { /* room for the NULL after it */
		free(kv);
		return;
	}
	e->v[e->n++] = kv;
	e->v[e->n] = NULL;
}

static void wl_exec_env_free(struct wl_exec_env *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->v[i]);
	free(e->v);
}

/* PGHOST, PGPORT, ... from a conninfo, so that psql/pgbench reach the cell's
 * server without options. */
static void wl_exec_pg_env(struct wl_exec_env *e, const char *conninfo)
{
	static const char *const map[][2] = {{"host", "PGHOST"},       {"hostaddr", "PGHOSTADDR"},
	                                     {"port", "PGPORT"},       {"user", "PGUSER"},
	                                     {"dbname", "PGDATABASE"}, {"password", "PGPASSWORD"}};
	wl_exec_setenv(e, "BENCHGRID_PG_CONNINFO", conninfo);
	char *err = NULL;
	PQconninfoOption *opts = PQconninfoParse(conninfo, &err);
	if (!opts) {
		PQfreemem(err);
		return;
	}
	for (PQconninfoOption *o = opts; o->keyword; o++) {
		if (!o->val)
			continue;
		for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
			if (!strcmp(o->keyword, map[i][0]))
				wl_exec_setenv(e, map[i][1], o->val);
	}
	PQconninfoFree(opts);
}

static void wl_exec_build_env(struct wl_exec_env *e, const struct wl_exec_opts *o, const struct step_ctx *cx)
{
	for (char **p = environ; p && *p; p++) {
		const char *eq = strchr(*p, '=');
		if (!eq)
			continue;
		char name[256];
		snprintf(name, sizeof(name), "%.*s", (int)(eq - *p), *p);
		wl_exec_setenv(e, name, eq + 1);
	}
	size_t ninherited = e->n;
	const struct cell *c = cx->cell;
	if (c && c->params && c->params->kind == NODE_MAP) {
		for (size_t i = 0; i < c->params->n; i++) {
			const struct node *v = c->params->items[i];
			if (v->kind != NODE_SCALAR)
				continue;
			char up[256] = "BENCHGRID_";
			size_t k = strlen(up);
			for (const char *s = c->params->keys[i]; *s && k + 1 < sizeof(up); s++)
				up[k++] = isalnum((unsigned char)*s) ? (char)toupper((unsigned char)*s) : '_';
			up[k] = 0;
			wl_exec_setenv(e, up, v->text);
			/* The bare name too, unless it would replace an inherited
			 * variable such as PATH or HOME. */
			const char *name = c->params->keys[i];
			bool inherited = false;
			size_t nl = strlen(name);
			for (size_t j = 0; j < ninherited; j++)
				if (!strncmp(e->v[j], name, nl) && e->v[j][nl] == '=')
					inherited = true;
			if (wl_exec_is_ident(name) && !inherited)
				wl_exec_setenv(e, name, v->text);
		}
		char idx[32];
		snprintf(idx, sizeof(idx), "%zu", c->index);
		wl_exec_setenv(e, "BENCHGRID_CELL_INDEX", idx);
		wl_exec_setenv(e, "BENCHGRID_CELL_ID", c->id);
	}
	if (cx->target_dir)
		wl_exec_setenv(e, "BENCHGRID_TARGET_DIR", cx->target_dir);
	if (cx->cell_dir)
		wl_exec_setenv(e, "BENCHGRID_CELL_DIR", cx->cell_dir);
	if (cx->scenario_dir)
		wl_exec_setenv(e, "BENCHGRID_SCENARIO_DIR", cx->scenario_dir);
	if (cx->step_name)
		wl_exec_setenv(e, "BENCHGRID_STEP", cx->step_name);
	const char *conninfo = step_ctx_name(cx, "pg.conninfo");
	if (conninfo)
		wl_exec_pg_env(e, conninfo);
	if (o->env)
		for (size_t i = 0; i < o->env->n; i++)
			wl_exec_setenv(e, o->env->keys[i], o->env->items[i]->text);
}

/* --- running the step --- */

/* Keep a full copy of a stream in the cell folder, written whole and never
 * through a link. 0, or a negative errno with what was lost in lost. */
static int wl_exec_save(const struct step_ctx *cx, const char *ext, const char *text, size_t len,
                        struct step_result *res, char *lost, size_t lostlen)
{
	if (!cx->cell_dir || !len)
		return 0;
	char name[160];
	step_file_name(cx, ext, name, sizeof(name));
	int dfd = cx->cell_dirfd > 0 ? cx->cell_dirfd
	                             : open(cx->cell_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int rc = dfd < 0 ? -errno : results_file_write(dfd, name, text, len);
	if (dfd >= 0 && dfd != cx->cell_dirfd)
		close(dfd);
	if (rc < 0) {
		snprintf(lost, lostlen,
		         "exec: cannot save its %s (%zu bytes) as %s/%s: %s; that copy is lost", ext, len,
		         cx->cell_dir, name, strerror(-rc));
		return rc;
	}
	result_info(res, ext[3] == 'o' ? "stdout_file" : "stderr_file", "%s/%s", cx->cell_dir, name);
	return 0;
}

/* The last `max` bytes of a captured stream (from a line start when there
 * is one, else from a character start) as valid UTF-8: NUL and invalid
 * bytes become U+FFFD, so the stored tail neither stops at a NUL nor breaks
 * results.json. Control characters are kept (the writers escape them).
 * malloc'd; NULL when out of memory. */
static char *wl_exec_tail(const char *text, size_t len, size_t max)
{
	if (!text || !len)
		return strdup("");
	const char *t = tail_text(text, len, max);
	size_t n = len - (size_t)(t - text);
	if (t != text) {
		size_t k = utf8_sync(t, n);
		t += k;
		n -= k;
	}
	return utf8_clean(t, n, 0, NULL);
}

/* "sh: 1: NAME: not found" (dash) or "sh: NAME: command not found" (bash). */
static void wl_exec_sh_missing(const char *err, const char *cmd, char *name, size_t len)
{
	const char *p = strstr(err, ": not found");
	if (!p)
		p = strstr(err, ": command not found");
	if (p) {
		const char *s = p;
		while (s > err && s[-1] != ' ' && s[-1] != '\n')
			s--;
		snprintf(name, len, "%.*s", (int)(p - s), s);
		return;
	}
	while (*cmd == ' ')
		cmd++;
	size_t n = strcspn(cmd, " \t;|&");
	snprintf(name, len, "%.*s", (int)n, cmd);
}

static void wl_exec_describe(const struct wl_exec_opts *o, char *buf, size_t len)
{
	if (o->command->kind == NODE_SCALAR) {
		snprintf(buf, len, "%s", o->command->text);
		return;
	}
	size_t k = 0;
	buf[0] = 0;
	for (size_t i = 0; i < o->command->n && k + 1 < len; i++)
		k += snprintf(buf + k, len - k, "%s%s", i ? " " : "", o->command->items[i]->text);
}

static int wl_exec_parse(const struct wl_exec_opts *o, const struct step_ctx *cx, const struct spawn_run *p,
                         struct step_result *res)
{
	struct lb *L = cx->lua, *own = NULL;
	struct diag d;
	diag_init(&d);
	int rc = 0;
	if (!L) {
		if (!lb_is_shipped_parser(o->parse)) {
			result_fail(res,
			            "%s:%d:%d: error: exec.parse: '%s' is not a shipped parser, and this "
			            "step has no Lua state to find it in (the scenario has no hooks, or "
			            "the step runs beside others: Lua runs on the main thread only)",
			            o->parse_node->pos.file ? o->parse_node->pos.file : "?",
			            o->parse_node->pos.line, o->parse_node->pos.col, o->parse);
			diag_free(&d);
			return -ENOENT;
		}
		char file[4096];
		snprintf(file, sizeof(file), "%s/scenario", cx->scenario_dir ? cx->scenario_dir : ".");
		L = own = lb_new(file, 0, &d);
	}
	if (L) {
		/* Parsers see stdout, then stderr (dd and pgbench's progress
		 * lines print there). */
		size_t len = p->nout + 1 + p->nerr;
		char *text = malloc(len + 1);
		if (text) {
			memcpy(text, p->out, p->nout);
			text[p->nout] = '\n';
			memcpy(text + p->nout + 1, p->err, p->nerr);
			text[len] = 0;
			rc = lb_parse_output(L, o->parse, &o->parse_node->pos, text, len, res, &d);
			free(text);
		} else {
			rc = -ENOMEM;
		}
	} else {
		rc = -ENOMEM;
	}
	if (rc < 0) {
		char msg[2048] = "exec.parse failed";
		for (size_t i = 0; i < d.n; i++) {
			if (d.v[i].level == DIAG_ERROR) {
				diag_format_one(&d.v[i], msg, sizeof(msg));
				break;
			}
		}
		result_fail(res, "%s", msg);
	}
	lb_free(own);
	diag_free(&d);
	return rc;
}

static int wl_exec_run(const struct node *opts, const struct step_ctx *cx, struct step_result *res,
                       struct diag *d)
{
	struct wl_exec_opts o;
	if (wl_exec_read_opts(opts, &o, d) < 0)
		return -EINVAL;
	const char *argv_sh[4] = {"/bin/sh", "-c", NULL, NULL};
	const char **argv = argv_sh;
	bool shell = o.command->kind == NODE_SCALAR;
	if (shell) {
		argv_sh[2] = o.command->text;
	} else {
		argv = calloc(o.command->n + 1, sizeof(*argv));
		if (!argv)
			return -ENOMEM;
		for (size_t i = 0; i < o.command->n; i++)
			argv[i] = o.command->items[i]->text;
	}
	struct wl_exec_env env = {0};
	wl_exec_build_env(&env, &o, cx);
	char desc[1024];
	wl_exec_describe(&o, desc, sizeof(desc));
	result_info(res, "command", "%s", desc);
	double timeout = o.timeout > 0 ? o.timeout : cx->timeout;
	struct spawn_run p = {
	    .c = {.argv = argv, .cwd = cx->target_dir, .envp = env.v, .out_fd = -1, .err_fd = -1},
	    .timeout = timeout,
	    .stop = cx->stop,
	    .max_capture = WL_EXEC_DEFAULT_CAPTURE};
	if (res->started == 0)
		res->started = clock_wall();
	int rc = spawn_run(&p);
	wl_exec_env_free(&env);
	if (!shell)
		free(argv);
	if (rc < 0) {
		result_fail(res, "exec: cannot start '%s': %s", desc, strerror(-rc));
		return rc;
	}
	char *otail_buf = wl_exec_tail(p.out, p.nout, o.tail);
	char *etail_buf = wl_exec_tail(p.err, p.nerr, o.tail);
	const char *otail = otail_buf ? otail_buf : "", *etail = etail_buf ? etail_buf : "";
	result_metric(res, "exit_status", p.status, "");
	result_metric(res, "elapsed_s", p.elapsed, "s");
	res->elapsed = p.elapsed;
	result_info(res, "stdout_tail", "%s", otail);
	result_info(res, "stderr_tail", "%s", etail);
	if (p.out_truncated || p.err_truncated)
		result_info(res, "warning", "exec: output beyond %zu MiB per stream was dropped",
		            WL_EXEC_DEFAULT_CAPTURE >> 20);
	char lost[4600] = "";
	int lost_rc = wl_exec_save(cx, "stdout", p.out, p.nout, res, lost, sizeof(lost));
	if (lost_rc == 0)
		lost_rc = wl_exec_save(cx, "stderr", p.err, p.nerr, res, lost, sizeof(lost));
	const char *why = *etail ? etail : otail;
	const char *sep = *why ? "\n" : "";
	char missing[256];
	if (p.why.exec_errno == ENOENT) {
		result_fail(res, "exec: command not found: %s",
		            shell ? "/bin/sh" : o.command->items[0]->text);
		rc = -ENOENT;
	} else if (p.why.exec_errno) {
		result_fail(res, "exec: cannot run %s: %s", shell ? "/bin/sh" : o.command->items[0]->text,
		            strerror(p.why.exec_errno));
		rc = -p.why.exec_errno;
	} else if (p.why.cgroup_errno) {
		result_fail(res, "exec: cannot join the run's cgroup: %s", strerror(p.why.cgroup_errno));
		rc = -p.why.cgroup_errno;
	} else if (p.why.cwd_errno) {
		result_fail(res, "exec: cannot enter the target directory %s: %s", cx->target_dir,
		            strerror(p.why.cwd_errno));
		rc = -p.why.cwd_errno;
	} else if (p.timed_out) {
		result_fail(res, "exec: timed out after %g s, killed: %s%s%s", timeout, desc, sep, why);
		rc = -ETIMEDOUT;
	} else if (p.stopped) {
		result_fail(res, "exec: interrupted, killed: %s", desc);
		rc = -EINTR;
	} else if (shell && p.status == 127 &&
	           (strstr(p.err, ": not found") || strstr(p.err, "command not found"))) {
		wl_exec_sh_missing(p.err, desc, missing, sizeof(missing));
		result_fail(res, "exec: command not found: %s (in: %s)", missing, desc);
		rc = -ENOENT;
	} else if (p.term_signal) {
		result_fail(res, "exec: killed by signal %d (%s): %s%s%s", p.term_signal,
		            strsignal(p.term_signal), desc, sep, why);
		rc = -EIO;
	} else if (p.status != 0) {
		result_fail(res, "exec: exit status %d: %s%s%s", p.status, desc, sep, why);
		rc = -EIO;
	} else if (o.parse) {
		rc = wl_exec_parse(&o, cx, &p, res);
	}
	/* A step whose saved output is lost fails, and says what was lost. */
	if (lost_rc < 0) {
		result_info(res, "lost", "%s", lost);
		result_fail(res, "%s", lost);
		if (rc >= 0)
			rc = lost_rc;
	}
	free(otail_buf);
	free(etail_buf);
	spawn_run_free(&p);
	return rc;
}

/* plan's estimate (step_estimate.h): a command declares no time, and may
 * write anything, rows of the server's database too. */
static void wl_exec_estimate(const struct node *opts, struct step_estimate *e)
{
	(void)opts;
	e->writes_db = true;
}

static const struct opt_desc wl_exec_step_row = {.name = "exec",
                                                 .type = OPT_MAP,
                                                 .doc = "an external command and its parser",
                                                 .flags = OPT_OR_STRING,
                                                 .ref = "exec"};

const struct workload_ops wl_exec_ops = {
    .version = WORKLOAD_OPS_VERSION,
    .name = "exec",
    .help = "run an external command (dd, fio, pgbench, a script) and parse its output",
    .step_row = &wl_exec_step_row,
    .tables = (const struct opt_table *const[]){&exec_opt_table, NULL},
    .metrics = &exec_metric_names,
    .check = wl_exec_check,
    .run = wl_exec_run,
    .estimate = wl_exec_estimate,
};
