/* test_lb: the Lua bridge — hooks in order with their arguments, filters,
 * !lua values, derived metrics, error lines, the time budget, the sandbox,
 * require, and the shipped parsers on real captured tool output. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <pthread.h>
#include <signal.h>

#include "lb.h"
#include "matrix.h"
#include "spec.h"

#include "test_timing.h"
#include "test_util.h"

static const struct diag_entry *first_error(const struct diag *d)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].level == DIAG_ERROR)
			return &d->v[i];
	return NULL;
}

/* Params map from "k=v" pairs (values as written, unquoted). */
static struct node *params(const char *first, ...)
{
	struct node *m = node_new(NODE_MAP, NULL);
	va_list ap;
	va_start(ap, first);
	for (const char *kv = first; kv; kv = va_arg(ap, const char *)) {
		const char *eq = strchr(kv, '=');
		char k[64];
		snprintf(k, sizeof(k), "%.*s", (int)(eq - kv), kv);
		node_map_put(m, k, NULL, node_new_scalar(eq + 1, NULL));
	}
	va_end(ap);
	return m;
}

/* A string value computed by Lua (through lb_eval). */
static char *lua_str(struct lb *L, const char *expr)
{
	struct diag d;
	diag_init(&d);
	struct node *e = node_new_scalar(expr, NULL), *out = NULL;
	int rc = lb_eval(L, e, NULL, &out, &d);
	if (rc)
		fail_msg("eval %s: %s", expr, diag_text(&d));
	char *s = strdup(out->text);
	node_free(out);
	node_free(e);
	diag_free(&d);
	return s;
}

static struct lb *load_yaml(const char *yaml, double budget, struct node **root, struct diag *d)
{
	*root = spec_load_string("scenario.yaml", yaml, d);
	assert_non_null(*root);
	struct lb *L = lb_new("scenario.yaml", budget, d);
	assert_non_null(L);
	lb_load_hooks(L, node_get(*root, "hooks"), NULL, NULL, d);
	return L;
}

/* --- hooks --- */

static const char hooks_yaml[] =
    "name: t\n"
    "hooks: |\n"
    "  calls = {}\n"
    "  local function add(s) calls[#calls + 1] = s end\n"
    "  function setup(ctx) add('setup:' .. ctx.scenario) end\n"
    "  function before_cell(cell)\n"
    "    add(('before_cell:%d:%s:%d:%s'):format(cell.index, cell.id, cell.params.bs, cell.fs))\n"
    "    if cell.fs == 'btrfs' then cell:skip('no btrfs today') end\n"
    "  end\n"
    "  function before_step(step, cell)\n"
    "    add('before_step:' .. step.name .. ':' .. step.options.bs)\n"
    "    if step.name == 'seq' then return {bs = step.options.bs * 2, extra = 'x'} end\n"
    "  end\n"
    "  function after_step(step, result, cell)\n"
    "    add(('after_step:%s:%g'):format(step.name, result.tps))\n"
    "    result:metric('tps_per_client', result.tps / cell.clients, 'tps')\n"
    "    kept = result\n"
    "  end\n"
    "  function after_cell(cell, results)\n"
    "    add(('after_cell:%d:%g:%g'):format(#results, results.ro.tps, results[1].tps))\n"
    "  end\n"
    "  function finish(run)\n"
    "    add('finish')\n"
    "    run:write('extra.txt', 'hello from finish')\n"
    "  end\n"
    "  function on_error(err, cell) add('on_error:' .. err .. ':' .. cell.id) end\n"
    "steps:\n"
    "  - name: seq\n"
    "    io: {bs: 4k, size: 1GiB}\n";

static void test_hooks_in_order(void **state)
{
	struct diag d;
	diag_init(&d);
	struct node *root;
	struct lb *L = load_yaml(hooks_yaml, 0, &root, &d);
	assert_int_equal(d.nerrors, 0);
	static const char *const names[] = {"setup",      "before_cell", "before_step", "after_step",
	                                    "after_cell", "finish",      "on_error"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_true(lb_has_hook(L, names[i]));
	assert_false(lb_has_hook(L, "calls"));
	assert_false(lb_has_hook(L, "nothing"));

	struct cell c = {.index = 3, .params = params("bs=4k", "fs=ext4", "clients=8", NULL)};
	strcpy(c.id, "abcdef012345");
	assert_int_equal(lb_setup(L, "t", &d), 0);
	bool skip = true;
	char *why = NULL;
	assert_int_equal(lb_before_cell(L, &c, &skip, &why, &d), 0);
	assert_false(skip);
	assert_null(why);

	const struct node *steps = node_get(root, "steps");
	const struct node *opts = node_get(steps->items[0], "io");
	struct node *ovr = NULL;
	assert_int_equal(lb_before_step(L, &c, "seq", opts, &ovr, &d), 0);
	assert_non_null(ovr);
	uint64_t bs;
	assert_int_equal(node_as_size(node_get(ovr, "bs"), "io.bs", false, &bs, &d), 0);
	assert_int_equal(bs, 8192);
	/* the override keeps the position of the option it replaces */
	assert_int_equal(node_get(ovr, "bs")->pos.line, node_get(opts, "bs")->pos.line);
	assert_string_equal(node_get(ovr, "extra")->text, "x");
	node_free(ovr);
	ovr = (struct node *)1;
	assert_int_equal(lb_before_step(L, &c, "ro", opts, &ovr, &d), 0);
	assert_null(ovr);

	struct step_result seq, ro;
	result_init(&seq, "seq", "io");
	result_init(&ro, "ro", "pgbench");
	result_metric(&seq, "tps", 100, "tps");
	result_metric(&ro, "tps", 4000, "tps");
	assert_int_equal(lb_after_step(L, &c, "ro", &ro, &d), 0);
	const struct metric *m = result_get(&ro, "tps_per_client");
	assert_non_null(m);
	assert_true(m->value == 500.0);
	assert_string_equal(m->unit, "tps");
	struct step_result *all[] = {&seq, &ro};
	assert_int_equal(lb_after_cell(L, &c, all, 2, &d), 0);

	char dir[] = "/tmp/test_lb_outXXXXXX";
	assert_non_null(mkdtemp(dir));
	assert_int_equal(lb_finish(L, dir, &d), 0);
	char path[256];
	snprintf(path, sizeof(path), "%s/extra.txt", dir);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char buf[64] = "";
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "hello from finish");
	unlink(path);
	rmdir(dir);
	assert_int_equal(lb_on_error(L, &c, "disk full", &d), 0);
	assert_int_equal(d.nerrors, 0);

	char *calls = lua_str(L, "table.concat(calls, '|')");
	assert_string_equal(calls, "setup:t|before_cell:3:abcdef012345:4096:ext4|before_step:seq:4096|"
	                           "before_step:ro:4096|after_step:ro:4000|after_cell:2:4000:100|finish|"
	                           "on_error:disk full:abcdef012345");
	free(calls);

	/* A result kept past its hook is no longer usable. */
	struct node *e = node_new_scalar("kept.tps", NULL), *out = NULL;
	assert_int_not_equal(lb_eval(L, e, NULL, &out, &d), 0);
	assert_non_null(strstr(diag_text(&d), "no longer valid"));
	node_free(e);

	/* cell:skip */
	diag_free(&d);
	diag_init(&d);
	node_free(c.params);
	c.params = params("bs=1k", "fs=btrfs", "clients=2", NULL);
	assert_int_equal(lb_before_cell(L, &c, &skip, &why, &d), 0);
	assert_true(skip);
	assert_string_equal(why, "no btrfs today");
	free(why);

	result_free(&seq);
	result_free(&ro);
	node_free(c.params);
	node_free(root);
	lb_free(L);
	diag_free(&d);
}

/* --- filter and !lua values --- */

static int filter_cb(void *ud, const struct node *expr, const struct node *p, bool *keep, struct diag *d)
{
	return lb_filter(ud, expr, p, keep, d);
}

static void test_filter_drops_cells(void **state)
{
	struct diag d;
	diag_init(&d);
	struct node *root = spec_load_string("m.yaml",
	                                     "matrix:\n"
	                                     "  fs: [ext4, xfs]\n"
	                                     "  clients: [10, 20, 40]\n"
	                                     "  filter: !lua \"clients <= 20 and fs ~= 'xfs'\"\n",
	                                     &d);
	assert_non_null(root);
	struct lb *L = lb_new("m.yaml", 0, &d);
	struct matrix_opts mo = {.filter = filter_cb, .filter_ud = L};
	struct cell *cells = NULL;
	size_t n = 0;
	assert_int_equal(matrix_expand(node_get(root, "matrix"), &mo, &cells, &n, &d), 0);
	assert_int_equal(d.nerrors, 0);
	assert_int_equal(n, 2);
	assert_string_equal(node_get(cells[0].params, "fs")->text, "ext4");
	assert_string_equal(node_get(cells[1].params, "clients")->text, "20");
	assert_int_equal(cells[1].index, 1);
	matrix_free(cells, n);

	/* A filter that is not a boolean is an error at its position. */
	struct node *e = node_new_scalar("clients + 1", &(struct src_pos){"m.yaml", 4, 11});
	struct node *p = params("clients=3", NULL);
	bool keep;
	assert_int_equal(lb_filter(L, e, p, &keep, &d), -EINVAL);
	assert_non_null(strstr(diag_text(&d), "m.yaml:4:11: error: filter: \"clients + 1\" gave a number"));
	node_free(e);
	node_free(p);
	node_free(root);
	lb_free(L);
	diag_free(&d);
}

static void test_lua_values_typed(void **state)
{
	struct diag d;
	diag_init(&d);
	struct lb *L = lb_new("v.yaml", 0, &d);
	struct node *p =
	    params("bs=4k", "runtime=30s", "fs=ext4", "clients=8", "ratio=0.25", "fsync=true", NULL);
	struct src_pos at = {"v.yaml", 7, 9};
	struct node *e, *out;

	/* a number */
	e = node_new_scalar("clients * 2 + 1", &at);
	assert_int_equal(lb_eval(L, e, p, &out, &d), 0);
	int64_t iv;
	assert_int_equal(node_as_int(out, "clients", 1, 1000, &iv, &d), 0);
	assert_int_equal(iv, 17);
	assert_int_equal(out->pos.line, 7);
	node_free(out);
	node_free(e);
	/* a size: bs is 4096 bytes in Lua */
	e = node_new_scalar("bs * 16", &at);
	assert_int_equal(lb_eval(L, e, p, &out, &d), 0);
	uint64_t sz;
	assert_int_equal(node_as_size(out, "io.size", false, &sz, &d), 0);
	assert_int_equal(sz, 65536);
	node_free(out);
	node_free(e);
	/* a size built as text */
	e = node_new_scalar("(bs // 1024) .. 'KiB'", &at);
	assert_int_equal(lb_eval(L, e, p, &out, &d), 0);
	assert_int_equal(node_as_size(out, "io.bs", false, &sz, &d), 0);
	assert_int_equal(sz, 4096);
	node_free(out);
	node_free(e);
	/* a duration in seconds */
	e = node_new_scalar("runtime / 4", &at);
	assert_int_equal(lb_eval(L, e, p, &out, &d), 0);
	double secs;
	assert_int_equal(node_as_duration(out, "duration", false, &secs, &d), 0);
	assert_true(secs == 7.5);
	node_free(out);
	node_free(e);
	/* a string */
	e = node_new_scalar("fs .. '-' .. tostring(fsync) .. '-' .. ratio", &at);
	assert_int_equal(lb_eval(L, e, p, &out, &d), 0);
	assert_string_equal(out->text, "ext4-true-0.25");
	assert_true(out->quoted);
	node_free(out);
	node_free(e);
	/* a boolean */
	e = node_new_scalar("fsync and clients > 4", &at);
	assert_int_equal(lb_eval(L, e, p, &out, &d), 0);
	bool b;
	assert_int_equal(node_as_bool(out, "fsync", &b, &d), 0);
	assert_true(b);
	node_free(out);
	node_free(e);
	assert_int_equal(d.nerrors, 0);

	/* type-checked like a literal: a string where a size is expected */
	e = node_new_scalar("fs", &at);
	assert_int_equal(lb_eval(L, e, p, &out, &d), 0);
	assert_int_equal(node_as_size(out, "io.bs", false, &sz, &d), -EINVAL);
	assert_non_null(strstr(diag_text(&d), "v.yaml:7:9: error: io.bs"));
	node_free(out);
	node_free(e);

	/* undefined names, nil, tables and assignments are errors at the expression */
	static const char *const bad[][2] = {{"nosuch + 1", "undefined name 'nosuch'"},
	                                     {"nil", "gave nil"},
	                                     {"{1, 2}", "gave a table"},
	                                     {"(function() clients = 1 end)()", "read-only"},
	                                     {"clients +", "syntax error"}};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		diag_free(&d);
		diag_init(&d);
		e = node_new_scalar(bad[i][0], &at);
		out = NULL;
		assert_int_not_equal(lb_eval(L, e, p, &out, &d), 0);
		assert_null(out);
		const struct diag_entry *err = first_error(&d);
		assert_non_null(err);
		assert_int_equal(err->pos.line, 7);
		if (!strstr(err->msg, bad[i][1]))
			fail_msg("%s: expected '%s' in: %s", bad[i][0], bad[i][1], err->msg);
		node_free(e);
	}
	node_free(p);
	lb_free(L);
	diag_free(&d);
}

/* --- error positions --- */

static const char err_yaml[] = "name: t\n"                      /* 1 */
                               "hooks: |\n"                     /* 2 */
                               "  function setup(ctx)\n"        /* 3: block line 1 */
                               "    local x = 1\n"              /* 4 */
                               "    error('boom in setup')\n"   /* 5: block line 3 */
                               "  end\n"                        /* 6 */
                               "  function before_cell(cell)\n" /* 7 */
                               "    return undefined_thing\n"   /* 8 */
                               "  end\n";                       /* 9 */

static void check_err_lines(struct lb *L, const char *file, struct diag *d)
{
	assert_int_equal(d->nerrors, 0);
	assert_int_equal(lb_setup(L, "t", d), -EINVAL);
	const struct diag_entry *e = first_error(d);
	assert_non_null(e);
	assert_string_equal(e->pos.file, file);
	assert_int_equal(e->pos.line, 5);
	if (access(file, R_OK) == 0) /* the column needs the source on disk */
		assert_int_equal(e->pos.col, 5);
	assert_non_null(strstr(e->msg, "setup: boom in setup"));
	diag_free(d);
	diag_init(d);
	struct cell c = {.params = NULL};
	bool skip;
	assert_int_equal(lb_before_cell(L, &c, &skip, NULL, d), -EINVAL);
	e = first_error(d);
	assert_int_equal(e->pos.line, 8);
	assert_non_null(strstr(e->msg, "undefined global 'undefined_thing'"));
}

static void test_error_line_in_yaml(void **state)
{
	struct diag d;
	diag_init(&d);
	struct node *root;
	/* From a string (the source is not on disk). */
	struct lb *L = load_yaml(err_yaml, 0, &root, &d);
	check_err_lines(L, "scenario.yaml", &d);
	lb_free(L);
	node_free(root);
	diag_free(&d);

	/* From a file on disk. */
	diag_init(&d);
	char path[] = "/tmp/test_lb_errXXXXXX.yaml";
	int fd = mkstemps(path, 5);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, err_yaml, strlen(err_yaml)), (ssize_t)strlen(err_yaml));
	close(fd);
	root = spec_load_file(path, &d);
	assert_non_null(root);
	L = lb_new(path, 0, &d);
	assert_int_equal(lb_load_hooks(L, node_get(root, "hooks"), NULL, NULL, &d), 0);
	check_err_lines(L, path, &d);
	lb_free(L);
	node_free(root);
	diag_free(&d);

	/* A syntax error on block line 2 is the file's line 4. */
	diag_init(&d);
	L = load_yaml("hooks: |\n  x = 1\n  function f(\n  end\n", 0, &root, &d);
	const struct diag_entry *e = first_error(&d);
	assert_non_null(e);
	assert_int_equal(e->pos.line, 4);
	assert_non_null(strstr(e->msg, "syntax error"));
	lb_free(L);
	node_free(root);
	unlink(path);
	diag_free(&d);
}

/* --- budget --- */

/* The budget is wall time, as docs/sections/lua.md promises; the overshoot
 * past it is judged on the time the thread was given (test_timing.h): a
 * loaded machine may hold it off the CPU after the deadline. A hook that
 * never stops is ended by the watchdog, which names it. */
static const char *watched_hook;

static void watchdog_fired(int sig)
{
	(void)sig;
	static const char msg[] = "watchdog: a hook was not stopped within 60 s:\n";
	ssize_t w = write(2, msg, sizeof(msg) - 1);
	if (watched_hook)
		w = write(2, watched_hook, strlen(watched_hook));
	(void)w;
	_exit(1);
}

static void watch(const char *hook)
{
	watched_hook = hook;
	signal(SIGALRM, hook ? watchdog_fired : SIG_DFL);
	alarm(hook ? 60 : 0);
}

/* The time a hook that computes may take past its deadline, not counting
 * its waits for a CPU (test_timing.h): the longest stretch between two
 * checks of the budget is one s:upper() of 16 MiB in test_budget_pattern,
 * about 8 ms here (with 64 MiB, 0.14 s was seen under a load of 18 on 2
 * CPUs). A hook in bench.sh also waits for its killed child, which needs a
 * CPU of its own to exit, hence the wider margin of those. */
#define SPIN_MARGIN 0.25

/* Fail unless the call timed by sw stopped within `margin` s of the time
 * the thread was given after the marked deadline, naming the hook. */
static void expect_within(const struct stopwatch *sw, double margin, const char *hook)
{
	double waited, given = stopwatch_given(sw, &waited);
	if (given > margin)
		fail_msg("hook `%s`: stopped %.2f s after its deadline (%.2f s wall, %.2f s of it waiting "
		         "for a CPU), "
		         "more than %.2f s",
		         hook, given, sw->end_wall - sw->mark_wall, waited, margin);
}

/* Load `prep` (with a budget of 60 s: it may build big data), then `hooks`,
 * and expect setup() to be stopped at `budget`. */
static void expect_stopped_after(const char *prep, const char *hooks, double budget)
{
	struct diag d;
	diag_init(&d);
	struct lb *L = lb_new("b.yaml", prep ? 60 : budget, &d);
	if (prep) {
		assert_int_equal(lb_run_string(L, "p.lua", prep, &d), 0);
		lb_set_budget(L, budget);
	}
	assert_int_equal(lb_run_string(L, "b.lua", hooks, &d), 0);
	struct stopwatch sw;
	watch(hooks);
	stopwatch_start(&sw);
	assert_int_equal(stopwatch_mark_in(&sw, budget), 0);
	int rc = lb_setup(L, "b", &d);
	stopwatch_stop(&sw);
	double dt = stopwatch_wall(&sw);
	watch(NULL);
	if (rc != -ETIME)
		fail_msg("hook `%s`: not stopped (rc %d): %s", hooks, rc, diag_text(&d));
	if (dt < budget * 0.9)
		fail_msg("hook `%s`: stopped after %.2f s, before the budget of %.2f s", hooks, dt, budget);
	expect_within(&sw, SPIN_MARGIN, hooks);
	assert_non_null(strstr(diag_text(&d), "time budget of 0.5 s"));
	/* The state stays usable, with a fresh budget. */
	char *v = lua_str(L, "1 + 1");
	assert_string_equal(v, "2");
	free(v);
	lb_free(L);
	diag_free(&d);
}

static void expect_stopped(const char *hooks, double budget)
{
	expect_stopped_after(NULL, hooks, budget);
}

static void test_budget_endless_loop(void **state)
{
	expect_stopped("function setup() while true do end end", 0.5);
}

static void test_budget_loop_in_pcall(void **state)
{
	/* The loop, its error handler and the loop around the pcall all try
	 * to carry on. */
	expect_stopped("function setup()\n"
	               "  while true do\n"
	               "    pcall(function() while true do end end)\n"
	               "    xpcall(function() while true do end end, function() while true do end end)\n"
	               "  end\n"
	               "end\n",
	               0.5);
	expect_stopped("function setup()\n"
	               "  local co = coroutine.wrap(function() while true do end end)\n"
	               "  while true do pcall(co) end\n"
	               "end\n",
	               0.5);
}

static void test_budget_shell(void **state)
{
	struct diag d;
	diag_init(&d);
	struct lb *L = lb_new("b.yaml", 0.5, &d);
	assert_int_equal(
	    lb_run_string(L, "b.lua",
	                  "function setup() local st, out = bench.sh('sleep 5; echo late') end\n"
	                  "function finish() st, out, err = bench.sh('echo hi; echo oops >&2; exit 3') end\n",
	                  &d),
	    0);
	/* the hook's child sleeps 5 s: the call ends at the budget, without it */
	struct stopwatch sw;
	stopwatch_start(&sw);
	assert_int_equal(stopwatch_mark_in(&sw, 0.5), 0);
	assert_int_equal(lb_setup(L, "b", &d), -ETIME);
	stopwatch_stop(&sw);
	expect_within(&sw, 1.5, "bench.sh('sleep 5; echo late')");
	assert_int_equal(lb_finish(L, "/tmp", &d), 0);
	char *v = lua_str(L, "st .. ':' .. out .. ':' .. err");
	assert_string_equal(v, "3:hi\n:oops\n");
	free(v);
	lb_free(L);
	diag_free(&d);
}

/* A caught stop still stops the call: pcall around a coroutine gets the
 * error back in the main thread, and the call must not return normally. */
static void test_budget_coroutine_caught(void **state)
{
	expect_stopped("function setup()\n"
	               "  pcall(coroutine.wrap(function() while true do end end))\n"
	               "  done = true\n"
	               "end\n",
	               0.5);
	struct diag d;
	diag_init(&d);
	struct lb *L = lb_new("b.yaml", 0.5, &d);
	struct node *e = node_new_scalar("pcall(coroutine.wrap(function() while true do end end)) and 1 or 2",
	                                 NULL),
	            *out = NULL;
	assert_int_equal(lb_eval(L, e, NULL, &out, &d), -ETIME);
	assert_null(out);
	assert_non_null(strstr(diag_text(&d), "time budget of 0.5 s"));
	node_free(e);
	lb_free(L);
	diag_free(&d);
}

/* The count hook never fires inside a C function: the pattern functions
 * check the budget themselves. Each of these backtracks for hours with
 * Lua's own string library. */
static void test_budget_pattern(void **state)
{
	expect_stopped("function setup()\n"
	               "  return ('a'):rep(40):find('.-.-.-.-.-.-.-.-.-.-b')\n"
	               "end\n",
	               0.5);
	expect_stopped("function setup()\n"
	               "  while true do pcall(string.match, string.rep('a', 30), "
	               "'(.-)(.-)(.-)(.-)(.-)(.-)(.-)(.-)(.-)b') end\n"
	               "end\n",
	               0.5);
	expect_stopped("function setup() return (('a'):rep(40)):gsub('a*a*a*a*a*a*a*a*a*a*a*b', 'x') end",
	               0.5);
	expect_stopped("function setup() for w in "
	               "(('a'):rep(40)):gmatch('(a-)(a-)(a-)(a-)(a-)(a-)(a-)(a-)b') do end end",
	               0.5);
	/* Other C functions run to their end, but the budget is checked
	 * before each call: a loop of long calls (about 8 ms each, 16 MiB) stops. */
	expect_stopped("function setup() local s = ('x'):rep(1 << 24) while true do s:upper() end end", 0.5);
	/* A plain search compares 10^12 bytes. */
	expect_stopped("function setup() return ('a'):rep(1e7):find(('a'):rep(1e5) .. 'b', 1, true) end",
	               0.5);

	/* The error names the hook's line; for an expression, the expression. */
	struct diag d;
	diag_init(&d);
	struct lb *L = lb_new("b.yaml", 0.5, &d);
	assert_int_equal(lb_run_string(L, "b.lua",
	                               "function setup()\n"
	                               "  local s = ('a'):rep(40)\n"
	                               "  return s:find('.-.-.-.-.-.-.-.-.-.-b')\n"
	                               "end\n"
	                               "kept = 7\n",
	                               &d),
	                 0);
	struct stopwatch sw;
	stopwatch_start(&sw);
	assert_int_equal(stopwatch_mark_in(&sw, 0.5), 0);
	assert_int_equal(lb_setup(L, "b", &d), -ETIME);
	stopwatch_stop(&sw);
	expect_within(&sw, SPIN_MARGIN, "setup: s:find('.-.-.-.-.-.-.-.-.-.-b')");
	const struct diag_entry *e = first_error(&d);
	assert_non_null(e);
	assert_string_equal(e->pos.file, "b.lua");
	assert_int_equal(e->pos.line, 3);
	assert_non_null(strstr(e->msg, "setup: stopped after the Lua time budget of 0.5 s"));
	diag_free(&d);
	diag_init(&d);
	struct src_pos at = {diag_intern("s.yaml"), 9, 11};
	struct node *x = node_new_scalar("('a'):rep(40):find('.-.-.-.-.-.-.-.-.-.-b') and 1 or 2", &at),
	            *out = NULL;
	stopwatch_start(&sw);
	assert_int_equal(stopwatch_mark_in(&sw, 0.5), 0);
	assert_int_equal(lb_eval(L, x, NULL, &out, &d), -ETIME);
	stopwatch_stop(&sw);
	expect_within(&sw, SPIN_MARGIN, "!lua ('a'):rep(40):find('.-.-.-.-.-.-.-.-.-.-b')");
	e = first_error(&d);
	assert_non_null(e);
	assert_string_equal(e->pos.file, "s.yaml");
	assert_int_equal(e->pos.line, 9);
	assert_non_null(strstr(e->msg, "!lua: stopped after the Lua time budget of 0.5 s"));
	node_free(x);
	/* The state goes on, globals kept. */
	char *v = lua_str(L, "kept .. (('x'):rep(3):find('x+$'))");
	assert_string_equal(v, "71");
	free(v);
	lb_free(L);
	diag_free(&d);
}

/* Library functions whose loop count the caller picks, with no data behind
 * it (issue 29): Lua 5.4's run for hours in one C call, where the count
 * hook never fires. The sandbox's check the budget (lb_safelib.h). */
static void test_budget_library(void **state)
{
	(void)state;
	expect_stopped("function setup() table.move({}, 1, 2^40, 1, {}) end", 0.5);
	expect_stopped("function setup() table.move({}, 2, 2^40, 1) end", 0.5); /* backwards */
	expect_stopped("local big = setmetatable({}, {__len = function() return 2^40 end})\n"
	               "function setup() table.insert(big, 1, 'x') end",
	               0.5);
	expect_stopped("local big = setmetatable({}, {__len = function() return 2^40 end})\n"
	               "function setup() table.remove(big, 1) end",
	               0.5);
	/* sort compares through a function call, where the hook looks at the
	 * clock: Lua's own sorts these 4 M numbers in one call of seconds. */
	expect_stopped_after("big = {} for i = 1, 1 << 22 do big[i] = math.random() end",
	                     "function setup() table.sort(big) end", 0.5);

	/* load compiles 100 MiB of code (seconds with Lua's parser) a piece at a
	 * time; the stop is load's error, and the next instruction raises it
	 * again, so that a caller that ignores it stops all the same. */
	expect_stopped_after("code = ('a=1 '):rep(25 << 20)",
	                     "function setup() local f, err = load(code) return 1 end", 0.5);

	/* Nothing repeated any number of times is "" at once (Lua's own string.rep
	 * copies 0 bytes 2^62 times). */
	struct diag d;
	diag_init(&d);
	struct lb *L = lb_new("b.yaml", 0.5, &d);
	const char *expr = "#string.rep('', 2^62) + #(''):rep(2^40, '') + #('ab'):rep(0)";
	watch(expr);
	char *v = lua_str(L, expr);
	watch(NULL);
	assert_string_equal(v, "0");
	free(v);
	lb_free(L);
	diag_free(&d);
}

/* The replaced functions give what Lua's own give: results and error
 * messages of table.move, insert, remove, concat, sort, string.rep and
 * setmetatable, compared with a plain Lua state's. */
static void test_safelib_same_as_lua(void **state)
{
	(void)state;
	static const char *const exprs[] = {
	    "table.concat(table.move({1, 2, 3, 4, 5}, 2, 5, 1), ',')",
	    "table.concat(table.move({1, 2, 3, 4, 5}, 1, 4, 2), ',')",
	    "table.concat(table.move({1, 2, 3}, 1, 3, 3, {9, 9}), ',')",
	    "table.concat(table.move({1, 2, 3}, 3, 1, 1), ',')",
	    "table.move({}, 1, math.maxinteger, 2)",
	    "table.move({}, -1, math.maxinteger, 1)",
	    "table.move(1, 1, 2, 3)",
	    "table.move({}, 1, 2, 3, 4)",
	    "table.move({}, 'a', 2, 3)",
	    "(function() local t = {1, 2, 3} table.insert(t, 2, 'x') return table.concat(t, ',') end)()",
	    "(function() local t = {1, 2, 3} table.insert(t, 'x') return table.concat(t, ',') end)()",
	    "(function() local t = {1, 2, 3} table.insert(t, 4, 'x') return table.concat(t, ',') end)()",
	    "(function() local t = {1, 2, 3} table.insert(t, 1, 'x') return table.concat(t, ',') end)()",
	    "table.insert({1, 2}, 5, 'x')",
	    "table.insert({1, 2}, 0, 'x')",
	    "table.insert({}, 1, 2, 3)",
	    "table.insert({})",
	    "table.insert(nil, 1)",
	    "(function() local t = {1, 2, 3} local r = table.remove(t, 1) return r .. ':' .. "
	    "table.concat(t, ',') end)()",
	    "(function() local t = {1, 2, 3} local r = table.remove(t) return r .. ':' .. "
	    "table.concat(t, ',') end)()",
	    "(function() local t = {1, 2, 3} return tostring(table.remove(t, 4)) .. #t end)()",
	    "(function() local t = {} return tostring(table.remove(t)) .. tostring(table.remove(t, 0)) "
	    "end)()",
	    "table.remove({1, 2, 3}, 5)",
	    "table.remove({1, 2, 3}, -1)",
	    "table.concat({1, 2.5, 'x'}, ', ')",
	    "table.concat({1, 2, 3, 4}, '-', 2, 3)",
	    "table.concat({1, 2, 3}, '-', 3, 2)",
	    "table.concat({1, 2, 3}, '', 3, 3)",
	    "table.concat({1, {}, 3})",
	    "table.concat({1, 2}, '', 1, 5)",
	    "table.concat(setmetatable({}, {__len = function() return 3 end, __index = function(_, i) "
	    "return i * 2 end}), ',')",
	    "table.concat({}, 1, 2, 3, 4)",
	    "table.concat(1)",
	    "(function() local t = {5, 2, 8, 1, 9, 3} table.sort(t) return table.concat(t, ',') end)()",
	    "(function() local t = {'b', 'a', 'c'} table.sort(t, function(a, b) return a > b end) return "
	    "table.concat(t, ',') end)()",
	    "(function() local t = {3, 'a', 1} table.sort(t) return table.concat(t, ',') end)()",
	    "(function() local t = {} for i = 1, 100 do t[i] = (i * 37) % 101 end table.sort(t) return "
	    "table.concat(t, ',') end)()",
	    "(function() local t = {} for i = 1, 50 do t[i] = i end table.sort(t, function() return true "
	    "end) "
	    "end)()",
	    "table.sort({3, 1, 2}, 5)",
	    "table.sort({}, 5)",
	    "table.sort({1}, 5)",
	    "table.sort(5)",
	    "string.rep('ab', 3, ',')",
	    "string.rep('ab', 3)",
	    "string.rep('x', 0)",
	    "string.rep('x', -1, 'y')",
	    "string.rep('', 3, '-')",
	    "string.rep('abc', 1, 'x')",
	    "string.rep('abc', 300000, 'de')",
	    "string.rep('x', 3000000)",
	    "string.rep(('y'):rep(1500000), 2, 'z')",
	    "string.rep('x', 2^31)",
	    "string.rep('x', 1.5)",
	    "string.rep({}, 2)",
	    "(function() local t = setmetatable({}, nil) return getmetatable(t) == nil end)()",
	    "(function() local t = setmetatable({}, {__index = {a = 1}}) return t.a end)()",
	    "setmetatable(setmetatable({}, {__metatable = 'no'}), {})",
	    "setmetatable(1, {})",
	    "setmetatable({}, 1)",
	    "setmetatable({})",
	};
	struct diag d;
	diag_init(&d);
	struct lb *L = lb_new("b.yaml", 10, &d);
	lua_State *P = luaL_newstate();
	luaL_openlibs(P);
	for (size_t i = 0; i < sizeof(exprs) / sizeof(exprs[0]); i++) {
		char wrapped[2048];
		snprintf(wrapped, sizeof(wrapped),
		         "(function() local ok, r = pcall(function() return %s end) return tostring(ok) .. "
		         "'|' .. tostring(r) end)()",
		         exprs[i]);
		char *got = lua_str(L, wrapped);
		char chunk[2100];
		snprintf(chunk, sizeof(chunk), "return %s", wrapped);
		/* named like the sandbox's expressions: messages carry the name */
		if (luaL_loadbuffer(P, chunk, strlen(chunk), "=expression") != LUA_OK ||
		    lua_pcall(P, 0, 1, 0) != LUA_OK)
			fail_msg("plain Lua: %s: %s", exprs[i], lua_tostring(P, -1));
		const char *want = lua_tostring(P, -1);
		/* Errors are compared without Lua's "chunk:line: " prefix, which the
		 * bridge strips anyway (it names the scenario's line): sort's "invalid
		 * order function" has none in the sandbox, where Lua's sort is called
		 * from C. */
		const char *g = strchr(got, '|'), *w = strchr(want, '|');
		assert_non_null(g);
		assert_non_null(w);
		const char *grest = g + 1, *wrest = w + 1;
		if (strncmp(grest, "expression:1: ", 14) == 0)
			grest += 14;
		if (strncmp(wrest, "expression:1: ", 14) == 0)
			wrest += 14;
		if (g - got != w - want || strncmp(got, want, (size_t)(g - got)) || strcmp(grest, wrest))
			fail_msg("%s:\n  sandbox: %.200s\n  Lua:     %.200s", exprs[i], got, want);
		lua_settop(P, 0);
		free(got);
	}
	lua_close(P);
	lb_free(L);
	diag_free(&d);
}

/* Finalizers run with hooks off (no budget, no stop flag), also inside
 * lua_close: setmetatable refuses __gc, with a clear error at the line, and
 * neither the state's calls nor lb_free can be made to hang by one. The
 * metatable of the cell table is out of reach (a __gc added to it would
 * make every later cell finalizable). */
static void test_no_finalizers(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct lb *L = lb_new("g.yaml", 0.5, &d);
	const char *src = "local spin = function() while true do end end\n"
	                  "kept = 1\n"
	                  "t = setmetatable({}, {__gc = spin})\n";
	watch(src);
	assert_int_equal(lb_run_string(L, "g.lua", src, &d), -EINVAL);
	const struct diag_entry *e = first_error(&d);
	assert_non_null(e);
	assert_int_equal(e->pos.line, 3);
	if (!strstr(e->msg, "setmetatable: a metatable with __gc is not allowed"))
		fail_msg("unexpected error: %s", e->msg);
	diag_free(&d);
	diag_init(&d);
	/* A __gc that is there only as a placeholder is refused too (Lua marks
	 * the object when the metatable has the field, whatever its value);
	 * one added later is never called. */
	struct node *x = node_new_scalar("(function() local mt = {__gc = true} return setmetatable({}, mt) "
	                                 "end)()",
	                                 NULL),
	            *out = NULL;
	assert_int_not_equal(lb_eval(L, x, NULL, &out, &d), 0);
	assert_non_null(strstr(diag_text(&d), "__gc is not allowed"));
	node_free(x);
	diag_free(&d);
	diag_init(&d);
	assert_int_equal(lb_run_string(L, "h.lua",
	                               "local mt = {} local t = setmetatable({}, mt)\n"
	                               "mt.__gc = function() while true do end end\n"
	                               "t = nil collectgarbage() collectgarbage()\n"
	                               "function before_cell(cell)\n"
	                               "  getmetatable(cell).__gc = function() while true do end end\n"
	                               "end\n",
	                               &d),
	                 0);
	struct cell c = {.index = 1, .params = params("x=1", NULL)};
	strcpy(c.id, "abcdef012345");
	bool skip = false;
	for (int i = 0; i < 2; i++) {
		diag_free(&d);
		diag_init(&d);
		assert_int_equal(lb_before_cell(L, &c, &skip, NULL, &d), -EINVAL);
		assert_non_null(strstr(diag_text(&d), "attempt to index a string value"));
	}
	node_free(c.params);
	/* and lua_close runs no finalizer of theirs */
	lb_free(L);
	watch(NULL);
	diag_free(&d);
}

/* The pattern functions give what Lua's own give: random patterns and
 * subjects through find, match, gmatch and gsub, compared with a plain Lua
 * state's string library, results and error messages alike. */
static const char pattern_script[] =
    "local function ser(...)\n"
    "  local t, o = table.pack(...), {}\n"
    "  for i = 1, t.n do o[#o + 1] = type(t[i]) .. ':' .. tostring(t[i]) end\n"
    "  return table.concat(o, ',')\n"
    "end\n"
    "local toks = {'a', 'b', 'x', '.', '%a', '%d', '%A', '%%', '%.', '[ab]', '[^a]', '[a-c]', '[%a-]',\n"
    "  '[]]', '[^]a]', '(', ')', '()', '*', '+', '-', '?', '^', '$', '%b()', '%bab', '%f[a]', '%f[%W]',\n"
    "  '%1', '%2', '%0', '%', '[', '%b', '%f', '%z', '%s*', 'a-', 'b*', '.-', '(a*)', '(.)%1'}\n"
    "local chars = 'ab()x%-.[]^$ 1'\n"
    "local out = {}\n"
    "math.randomseed(12)\n"
    "local function gm(s, p, init)\n"
    "  local r = {}\n"
    "  local ok, err = pcall(function()\n"
    "    for a, b in s:gmatch(p, init) do r[#r + 1] = ser(a, b) end\n"
    "  end)\n"
    "  if not ok then error(err:gsub('^.-:%d+: ', ''), 0) end\n"
    "  return table.concat(r, ';')\n"
    "end\n"
    "local function fn(a, b) if a == '' then return false end return '<' .. tostring(a) .. tostring(b) .. "
    "'>' end\n"
    "for i = 1, 30000 do\n"
    "  local p = {}\n"
    "  for j = 1, math.random(1, 6) do p[#p + 1] = toks[math.random(#toks)] end\n"
    "  p = table.concat(p)\n"
    "  local s = {}\n"
    "  for j = 1, math.random(0, 12) do local k = math.random(#chars); s[#s + 1] = chars:sub(k, k) end\n"
    "  s = table.concat(s)\n"
    "  local init = math.random(-4, 15)\n"
    "  out[#out + 1] = table.concat({p, s, init, ser(pcall(string.find, s, p, init)),\n"
    "    ser(pcall(string.find, s, p, init, true)), ser(pcall(string.match, s, p, init)),\n"
    "    ser(pcall(gm, s, p, init)), ser(pcall(string.gsub, s, p, '<%0|%1>')),\n"
    "    ser(pcall(string.gsub, s, p, fn, 2)), ser(pcall(string.gsub, s, p, {a = 'A', [3] = 1})),\n"
    "    ser(pcall(string.gsub, s, p, '%2'))}, ' | ')\n"
    "end\n"
    "for _, c in ipairs({{'hello world', 'o', 5}, {'hello', 'l+', -3}, {'x', '', 3}, {'x', '', 2},\n"
    "    {'abc', 'b', 'x'}, {'THE (quick) fox', '%f[%a]%a+', 1}, {'key = value', '(%w+)%s*=%s*(%w+)', 1},\n"
    "    {'a.b', '.', 1, true}, {'f(a(b)c)d', '%b()', 1}, {string.rep('a', 300), string.rep('a?', 150), 1}}) "
    "do\n"
    "  out[#out + 1] = ser(pcall(string.find, table.unpack(c))) .. ser(pcall(string.gsub, c[1], c[2], "
    "'%%%0'))\n"
    "    .. ser(pcall(string.gsub, c[1], c[2], 1, 1)) .. ser(pcall(string.gsub, c[1], c[2], true))\n"
    "end\n"
    "return table.concat(out, '\\n')\n";

static void test_pattern_like_lua(void **state)
{
	lua_State *R = luaL_newstate();
	luaL_openlibs(R);
	if (luaL_dostring(R, pattern_script))
		fail_msg("reference: %s", lua_tostring(R, -1));
	const char *want = lua_tostring(R, -1);

	struct diag d;
	diag_init(&d);
	struct lb *L = lb_new("p.yaml", 30, &d);
	char *src = malloc(sizeof(pattern_script) + 64);
	snprintf(src, sizeof(pattern_script) + 64, "RESULT = (function()\n%s\nend)()", pattern_script);
	if (lb_run_string(L, "p.lua", src, &d))
		fail_msg("%s", diag_text(&d));
	char *got = lua_str(L, "RESULT");
	/* Report the first line that differs. */
	const char *a = want, *b = got;
	int line = 1;
	while (*a && *a == *b) {
		line += *a == '\n';
		a++, b++;
	}
	if (*a || *b) {
		while (a > want && a[-1] != '\n')
			a--, b--;
		fail_msg("line %d differs:\n lua:  %.*s\n ours: %.*s", line, (int)strcspn(a, "\n"), a,
		         (int)strcspn(b, "\n"), b);
	}
	assert_true(strlen(got) > 100000);
	free(got);
	free(src);
	lb_free(L);
	diag_free(&d);
	lua_close(R);
}

/* The runner's stop flag, set by a signal (here by another thread), ends a
 * running call at once: in a pattern function, in Lua code, in bench.sh;
 * while it stays set, calls fail at once; cleared, the state goes on. */
static volatile sig_atomic_t stop_flag;

/* Sets the flag after 0.3 s and marks that as the deadline of the
 * stopwatch arg (read after the join). */
static void *set_stop_later(void *arg)
{
	usleep(300 * 1000);
	stopwatch_mark(arg);
	stop_flag = 1;
	return NULL;
}

static void expect_interrupted(struct lb *L, const char *hook_src, double margin)
{
	struct diag d;
	diag_init(&d);
	stop_flag = 0;
	assert_int_equal(lb_run_string(L, "s.lua", hook_src, &d), 0);
	pthread_t t;
	struct stopwatch sw;
	stopwatch_start(&sw);
	assert_int_equal(pthread_create(&t, NULL, set_stop_later, &sw), 0);
	watch(hook_src);
	int rc = lb_setup(L, "s", &d);
	stopwatch_stop(&sw);
	watch(NULL);
	pthread_join(t, NULL);
	if (rc != -EINTR)
		fail_msg("hook `%s`: not stopped (rc %d): %s", hook_src, rc, diag_text(&d));
	/* within margin of the time it was given after the flag was set */
	expect_within(&sw, margin, hook_src);
	assert_non_null(strstr(diag_text(&d), "setup: stopped: benchgrid is stopping"));
	diag_free(&d);
}

static void test_stop_flag(void **state)
{
	struct diag d;
	diag_init(&d);
	struct lb *L = lb_new("s.yaml", 60, &d);
	lb_set_stop(L, &stop_flag);
	assert_int_equal(lb_run_string(L, "g.lua", "kept = 'k'", &d), 0);
	expect_interrupted(L, "function setup() return ('a'):rep(40):find('.-.-.-.-.-.-.-.-.-.-b') end",
	                   SPIN_MARGIN);
	expect_interrupted(L, "function setup() while true do pcall(string.rep, 'x', 10) end end",
	                   SPIN_MARGIN);
	/* inside one C call of the library (issue 29) */
	expect_interrupted(L, "function setup() table.move({}, 1, 2^40, 1, {}) end", SPIN_MARGIN);
	expect_interrupted(L, "function setup() while true do pcall(bench.sh, 'sleep 30') end end", 1.2);
	/* Still set: a call fails at once, without running. */
	struct node *x = node_new_scalar("kept", NULL), *out = NULL;
	assert_int_equal(lb_eval(L, x, NULL, &out, &d), -EINTR);
	assert_int_equal(lb_finish(L, "/tmp", &d), 0); /* no finish hook: nothing runs */
	assert_int_equal(lb_setup(L, "s", &d), -EINTR);
	/* Cleared: the state and its globals are intact. */
	stop_flag = 0;
	assert_int_equal(lb_eval(L, x, NULL, &out, &d), 0);
	assert_string_equal(out->text, "k");
	node_free(out);
	node_free(x);
	lb_free(L);
	diag_free(&d);
}

/* check and plan never run a process or write a file: bench.sh and
 * run:write fail outside the hook calls of `run`, naming the call and the
 * position; inside them they work. */
static void test_no_effects_at_check(void **state)
{
	char dir[] = "/tmp/test_lb_fxXXXXXX";
	assert_non_null(mkdtemp(dir));
	char mark[300], yaml[1024];
	snprintf(mark, sizeof(mark), "%s/mark", dir);
	snprintf(yaml, sizeof(yaml),
	         "name: t\n"
	         "hooks: |\n"
	         "  function sh() return (bench.sh('echo > %s')) end\n"
	         "  function wr() saved:write('w.txt', 'x') end\n"
	         "  function setup() sh() end\n"
	         "  function finish(run) saved = run end\n"
	         "  top = %s\n",
	         mark, "1");
	struct diag d;
	diag_init(&d);
	struct node *root;
	struct lb *L = load_yaml(yaml, 0, &root, &d);
	assert_int_equal(d.nerrors, 0);
	/* a !lua value */
	struct node *e = node_new_scalar("sh()", &(struct src_pos){"s.yaml", 9, 7}), *out = NULL;
	assert_int_equal(lb_eval(L, e, NULL, &out, &d), -EINVAL);
	const struct diag_entry *er = first_error(&d);
	assert_non_null(strstr(er->msg, "bench.sh is not allowed here"));
	assert_int_equal(er->pos.line, 3); /* in sh(), with a note at the expression */
	assert_non_null(strstr(diag_text(&d), "9:7"));
	assert_int_equal(access(mark, F_OK), -1);
	node_free(e);
	/* a filter */
	diag_free(&d);
	diag_init(&d);
	bool keep;
	e = node_new_scalar("sh() == 0", &(struct src_pos){"s.yaml", 10, 3});
	assert_int_equal(lb_filter(L, e, NULL, &keep, &d), -EINVAL);
	assert_non_null(strstr(diag_text(&d), "bench.sh is not allowed here"));
	assert_int_equal(access(mark, F_OK), -1);
	node_free(e);
	/* the hooks' own top level */
	diag_free(&d);
	diag_init(&d);
	assert_int_equal(lb_run_string(L, "top.lua", "bench.sh('echo > mark')", &d), -EINVAL);
	assert_non_null(strstr(diag_text(&d), "top.lua:1:1: error: lua: bench.sh is not allowed here"));
	/* a hook call of `run` may */
	diag_free(&d);
	diag_init(&d);
	assert_int_equal(lb_setup(L, "t", &d), 0);
	assert_int_equal(access(mark, F_OK), 0);
	/* run:write, kept past finish and called from an expression */
	assert_int_equal(lb_finish(L, dir, &d), 0);
	e = node_new_scalar("wr()", NULL);
	assert_int_equal(lb_eval(L, e, NULL, &out, &d), -EINVAL);
	assert_non_null(strstr(diag_text(&d), "run:write is not allowed here"));
	node_free(e);
	char w[300];
	snprintf(w, sizeof(w), "%s/w.txt", dir);
	assert_int_equal(access(w, F_OK), -1);
	unlink(mark);
	rmdir(dir);
	lb_free(L);
	node_free(root);
	diag_free(&d);
}

/* A table that contains itself or is nested too deep, from `!lua` or
 * before_step, is an error, never a crash. */
static void test_to_node_limits(void **state)
{
	struct diag d;
	diag_init(&d);
	struct lb *L = lb_new("t.yaml", 0, &d);
	assert_int_equal(
	    lb_run_string(L, "h.lua",
	                  "function deep(n) local r = {} local t = r\n"
	                  "  for i = 1, n do t.a = {} t = t.a end return r end\n"
	                  "function cyc() local t = {1, 2} t[3] = {t} return t end\n"
	                  "function wide() local t = {} for i = 1, 30 do t = {t, t} end return t end\n"
	                  "function before_step(step, cell) return {opts = mode()} end\n",
	                  &d),
	    0);
	static const struct {
		const char *expr, *msg;
	} cases[] = {
	    {"deep(45)", NULL},
	    {"deep(100000)", "nested deeper than 100 levels"},
	    {"cyc()", "contains itself (a cycle)"},
	    {"wide()", "more than 100000 values"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		diag_free(&d);
		diag_init(&d);
		struct node *e = node_new_scalar(cases[i].expr, NULL), *out = NULL;
		assert_int_equal(lb_eval(L, e, NULL, &out, &d), -EINVAL);
		const char *want = cases[i].msg ? cases[i].msg : "gave a table";
		if (!strstr(diag_text(&d), want))
			fail_msg("%s: %s", cases[i].expr, diag_text(&d));
		node_free(e);
		/* The same from before_step. */
		char src[128];
		snprintf(src, sizeof(src), "function mode() return %s end", cases[i].expr);
		assert_int_equal(lb_run_string(L, "m.lua", src, &d), 0);
		struct node *over = NULL;
		int rc = lb_before_step(L, NULL, "s", NULL, &over, &d);
		if (cases[i].msg) {
			assert_int_equal(rc, -EINVAL);
			assert_null(over);
		} else {
			assert_int_equal(rc, 0);
			node_free(over);
		}
	}
	lb_free(L);
	diag_free(&d);
}

/* --- sandbox --- */

static int dump_writer(lua_State *s, const void *p, size_t sz, void *ud)
{
	return fwrite(p, 1, sz, ud) == sz ? 0 : 1;
}

static void test_sandbox(void **state)
{
	struct diag d;
	diag_init(&d);
	char dir[] = "/tmp/test_lb_sbXXXXXX";
	assert_non_null(mkdtemp(dir));
	chmod(dir, 0755); /* a module or hooks_file must be readable by everyone */
	char scen[256], mod[256], bin[256];
	snprintf(scen, sizeof(scen), "%s/s.yaml", dir);
	snprintf(mod, sizeof(mod), "%s/mylib.lua", dir);
	snprintf(bin, sizeof(bin), "%s/binmod.lua", dir);
	FILE *f = fopen(mod, "w");
	fputs("return {twice = function(x) return 2 * x end}\n", f);
	fclose(f);
	/* A real bytecode file, made by a plain Lua state. */
	lua_State *P = luaL_newstate();
	assert_int_equal(luaL_loadstring(P, "return {}"), 0);
	f = fopen(bin, "wb");
	lua_dump(P, dump_writer, f, 0);
	fclose(f);
	lua_close(P);
	struct lb *L = lb_new(scen, 0, &d);

	struct {
		const char *expr, *want;
	} cases[] = {
	    {"type(dofile)", "undefined name 'dofile'"},
	    {"type(loadfile)", "undefined name 'loadfile'"},
	    {"type(io)", "undefined name 'io'"},
	    {"type(debug)", "undefined name 'debug'"},
	    {"type(package)", "undefined name 'package'"},
	    {"(function() return dofile end)()", "undefined name 'dofile'"},
	    {"select(2, load(string.char(27) .. 'LuaT\\0'))", NULL},
	    {"select(2, load('return 1', 'x', 'b'))", "binary chunks are not allowed"},
	    {"require('binmod')", "binary chunk"},
	    {"require('nosuchmod')", "module 'nosuchmod' not found"},
	    {"require('../etc/passwd')", "bad module name"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		diag_free(&d);
		diag_init(&d);
		struct node *e = node_new_scalar(cases[i].expr, NULL), *out = NULL;
		int rc = lb_eval(L, e, NULL, &out, &d);
		if (cases[i].want) {
			assert_int_not_equal(rc, 0);
			if (!strstr(diag_text(&d), cases[i].want))
				fail_msg("%s: expected '%s' in %s", cases[i].expr, cases[i].want,
				         diag_text(&d));
		} else {
			assert_int_equal(rc, 0);
			if (!strstr(out->text, "binary chunk"))
				fail_msg("%s gave %s", cases[i].expr, out->text);
		}
		node_free(out);
		node_free(e);
	}
	char *v = lua_str(L, "type(os.execute) .. type(string.dump) .. type(os.time)");
	assert_string_equal(v, "nilnilfunction");
	free(v);
	v = lua_str(L,
	            "require('mylib').twice(21) + stats.mean({1, 2, 3}) + require('units').parse_size('4k')");
	assert_string_equal(v, "4140");
	free(v);
	v = lua_str(L, "load('return 40 + 2')()");
	assert_string_equal(v, "42");
	free(v);
	lb_free(L);
	unlink(mod);
	unlink(bin);
	rmdir(dir);
	diag_free(&d);
}

/* --- the shipped library --- */

static void test_library(void **state)
{
	struct diag d;
	diag_init(&d);
	struct lb *L = lb_new("l.yaml", 0, &d);
	static const char *const cases[][2] = {
	    {"stats.mean({1, 2, 3, 4})", "2.5"},
	    {"stats.median({5, 1, 3})", "3"},
	    {"stats.median({4, 1, 3, 2})", "2.5"},
	    {"stats.stddev({2, 4, 4, 4, 5, 5, 7, 9})", "2.138089935299395"},
	    {"stats.percentile({1, 2, 3, 4, 5}, 90)", "4.6"},
	    {"stats.percentile({10}, 99)", "10"},
	    {"tostring(stats.mean({}))", "nil"},
	    {"units.parse_size('4KiB') + units.parse_size('1m') + units.parse_size('2 GB')", "2148536320"},
	    {"units.parse_duration('250ms') + units.parse_duration('2min')", "120.25"},
	    {"select(2, units.parse_size('4 parsecs'))",
	     "unknown size unit 'parsecs' (use k, M, G, T or KiB, MiB, GiB, TiB)"},
	    /* the engine's rules: the suffixes units.c accepts */
	    {"units.parse_size('1P') == 2^50 and units.parse_size('1.5k')", "1536"},
	    {"units.parse_duration('1d') + units.parse_duration('500ns') * 1e9", "86900"},
	    {"units.parse_size(4096) .. ' ' .. select(2, units.parse_size(1.5))",
	     "4096 '1.5' is not a whole number of bytes"},
	    {"select(2, units.parse_size('-1k'))", "negative value '-1k'"},
	    {"units.format_size(1536) .. ', ' .. units.format_size(4 * 2^30)", "1.5 KiB, 4 GiB"},
	    {"units.format_duration(0.25) .. ', ' .. units.format_duration(90)", "250 ms, 90 s"},
	    {"units.format_rate(389.3e6)", "389.3 MB/s"},
	    {"select(2, pcall(stats.mean, {1, 'x'}))", "stats.mean: item 2 is a string, not a number"},
	    {"select(2, pcall(stats.percentile, {1}, 101))",
	     "stats.percentile: p must be a number from 0 to 100"},
	    {"stats.sum({1, 2, 3.5}) .. ' ' .. stats.min({3, 1, 2}) .. ' ' .. stats.max({3, 1, 2})",
	     "6.5 1 3"},
	    {"json.decode('{\"a\": [1, 2.5, \"x\\\\u00e9\", true, null]}').a[3]", "x\xc3\xa9"},
	    {"json.decode('[1, 2, null, 4]')[3] == json.null", "true"},
	    {"tostring(json.null) .. #json.decode('[1, null, null]')", "null3"},
	    {"math.type(json.decode('[7]')[1]) .. math.type(json.decode('[7.0]')[1])", "integerfloat"},
	    {"json.decode('[99999999999999999999]')[1]", "1e+20"},
	    {"select(2, json.decode('xx [1, 2] yy', 4))", "10"},
	    {"json.decode('\"a\\\\u0000b\"', 1):len()", "3"},
	    {"select(2, pcall(json.decode, '{\"a\": 1,\\n \"b\" 2}'))",
	     "json: line 2, col 6: ':' expected near '2'"},
	    {"select(2, pcall(json.decode, 'ab\\ncd [1,', 7))",
	     "json: line 2, col 6: ']' expected near end of file"},
	    {"select(2, pcall(json.decode, '[1]', 9)):match('%(.*%)')", "(start is out of range)"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *v = lua_str(L, cases[i][0]);
		if (strcmp(v, cases[i][1]))
			fail_msg("%s = %s, expected %s", cases[i][0], v, cases[i][1]);
		free(v);
	}
	lb_free(L);
	diag_free(&d);
}

/* --- parsers on captured output --- */

static char *read_capture(const char *name, size_t *len)
{
	const char *src = getenv("BENCHGRID_SRC");
	char path[1024];
	snprintf(path, sizeof(path), "%s/tests/lua/captures/%s", src ? src : ".", name);
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	char *buf = malloc(1 << 20);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	buf[*len] = 0;
	fclose(f);
	return buf;
}

struct want {
	const char *name;
	double value;
	const char *unit;
};

static void check_parser(struct lb *L, const char *parser, const char *capture, const struct want *w,
                         size_t n)
{
	struct diag d;
	diag_init(&d);
	size_t len;
	char *text = read_capture(capture, &len);
	struct step_result r;
	result_init(&r, "s", "exec");
	int rc = lb_parse_output(L, parser, NULL, text, len, &r, &d);
	if (rc)
		fail_msg("%s on %s: %s", parser, capture, diag_text(&d));
	for (size_t i = 0; i < n; i++) {
		const struct metric *m = result_get(&r, w[i].name);
		if (!m)
			fail_msg("%s on %s: no metric %s", parser, capture, w[i].name);
		double tol = fabs(w[i].value) * 1e-6 + 1e-9;
		if (fabs(m->value - w[i].value) > tol)
			fail_msg("%s on %s: %s = %.9g, expected %.9g", parser, capture, w[i].name, m->value,
			         w[i].value);
		if (w[i].unit && strcmp(m->unit, w[i].unit))
			fail_msg("%s: %s unit %s, expected %s", capture, w[i].name, m->unit, w[i].unit);
	}
	result_free(&r);
	free(text);
	diag_free(&d);
}

#define CHECK(L, parser, capture, ...)                                                                       \
	do {                                                                                                 \
		const struct want w_[] = {__VA_ARGS__};                                                      \
		check_parser(L, parser, capture, w_, sizeof(w_) / sizeof(w_[0]));                            \
	} while (0)

static void test_parsers(void **state)
{
	struct diag d;
	diag_init(&d);
	struct lb *L = lb_new("p.yaml", 0, &d);

	/* dd: 67108864 bytes (67 MB, 64 MiB) copied, 0.143664 s, 467 MB/s */
	CHECK(L, "dd", "dd_64k_fdatasync.txt", {"bytes", 67108864, "bytes"}, {"seconds", 0.143664, "s"},
	      {"mb_s", 67108864 / 0.143664 / 1e6, "MB/s"}, {"mib_s", 67108864 / 0.143664 / 1048576, "MiB/s"});
	CHECK(L, "dd", "dd_one_byte.txt", {"bytes", 1, NULL}, {"seconds", 0.00016353, NULL},
	      {"mb_s", 1 / 0.00016353 / 1e6, NULL});
	CHECK(L, "dd", "dd_null_gb.txt", {"bytes", 2147483648.0, NULL},
	      {"mb_s", 2147483648.0 / 0.0542679 / 1e6, NULL});
	CHECK(L, "dd", "dd_small_kb.txt", {"bytes", 10240, NULL}, {"seconds", 0.000461064, NULL});

	/* pgbench 15.18 */
	CHECK(L, "pgbench", "pgbench_tpcb_c4_T3.txt", {"tps", 708.794990, "tps"}, {"transactions", 2067, ""},
	      {"failed", 0, ""}, {"lat_mean_ms", 5.643, "ms"}, {"conn_ms", 102.884, "ms"}, {"clients", 4, ""},
	      {"threads", 2, ""}, {"scale", 2, ""}, {"duration_s", 3, "s"});
	CHECK(L, "pgbench", "pgbench_select_progress.txt", {"tps", 20568.413747, NULL},
	      {"transactions", 60396, NULL}, {"lat_mean_ms", 0.184, NULL}, {"lat_stddev_ms", 0.482, NULL},
	      {"conn_ms", 75.060, NULL});
	CHECK(L, "pgbench", "pgbench_select_t200_r.txt", {"tps", 3607.406005, NULL},
	      {"transactions", 400, NULL}, {"stmt1_ms", 0.001, "ms"}, {"stmt2_ms", 0.500, "ms"});
	CHECK(L, "pgbench", "pgbench_init_s2.txt", {"init_s", 0.81, "s"}, {"init_drop_tables_s", 0.00, "s"},
	      {"init_client_side_generate_s", 0.43, "s"}, {"init_vacuum_s", 0.13, "s"},
	      {"init_primary_keys_s", 0.20, "s"});
	{
		/* progress lines become a series */
		size_t len;
		char *text = read_capture("pgbench_select_progress.txt", &len);
		struct step_result r;
		result_init(&r, "s", "exec");
		assert_int_equal(lb_parse_output(L, "pgbench", NULL, text, len, &r, &d), 0);
		const struct series *s = result_series(&r, "tps");
		assert_non_null(s);
		assert_int_equal(s->n, 2);
		assert_true(s->t[1] == 2.0 && s->v[1] == 20687.4);
		s = result_series(&r, "lat_mean_ms");
		assert_true(s && s->v[0] == 0.289);
		assert_string_equal(result_info_get(&r, "stmt1") ? "x" : "none", "none");
		result_free(&r);
		free(text);
	}

	/* fio 3.33 JSON (numbers read from the files with python's json) */
	CHECK(L, "fio", "fio_randread_json.txt", {"iops", 38707.146427, "IOPS"},
	      {"read_iops", 38707.146427, NULL}, {"mb_s", 158.544471, "MB/s"}, {"bytes", 317247488, "bytes"},
	      {"lat_mean_us", 205.841243064, "us"}, {"lat_min_us", 17.614, NULL},
	      {"lat_max_us", 15839.440, NULL}, {"lat_p50_us", 140.288, NULL}, {"lat_p99_us", 741.376, "us"},
	      {"seconds", 2.001, "s"});
	CHECK(L, "fio", "fio_randrw_2jobs_json.txt", {"read_iops", 11920.239282, NULL},
	      {"write_iops", 5229.312064, NULL}, {"iops", 11920.239282 + 5229.312064, NULL},
	      {"read_mb_s", 195.301200, NULL}, {"write_mb_s", 85.677048, NULL},
	      {"mb_s", (195301200.0 + 85677048.0) / 1e6, NULL}, {"read_lat_p99_us", 1957.888, NULL},
	      {"write_lat_p50_us", 6.816, NULL},
	      {"lat_mean_us", (136704.666778 * 11956 + 13522.802669 * 5245) / (11956 + 5245) / 1e3, NULL});

	/* hdparm 9.65 on a loop device; "MB" there is MiB */
	CHECK(L, "hdparm", "hdparm_t_loop.txt", {"mib_s", 366.21, "MiB/s"},
	      {"mb_s", 366.21 * 1.048576, "MB/s"}, {"mib", 256, "MiB"}, {"seconds", 0.70, "s"});
	CHECK(L, "hdparm", "hdparm_tT_loop.txt", {"mib_s", 617.28, NULL}, {"cached_mib_s", 18528.98, NULL});
	CHECK(L, "hdparm", "hdparm_publication_003.txt", {"mib_s", 473.59, NULL});

	/* bench.sh, as published in experiment 003 */
	CHECK(L, "bench.sh", "benchsh_publication_003.txt", {"mb_s", 389.3, "MB/s"}, {"mb_s_run1", 391, NULL},
	      {"mb_s_run2", 388, NULL}, {"mb_s_run3", 389, NULL}, {"runs", 3, NULL});

	{
		/* The newer bench.sh wording, GB/s converted to MB/s. */
		static const char t[] = " I/O Speed(1st run) : 1.2 GB/s\n I/O Speed(2nd run) : 998 MB/s\n"
		                        " I/O Speed(average) : 1099.0 MB/s\n";
		struct step_result r;
		result_init(&r, "s", "exec");
		assert_int_equal(lb_parse_output(L, "bench.sh", NULL, t, sizeof(t) - 1, &r, &d), 0);
		assert_true(result_get(&r, "mb_s_run1")->value == 1200);
		assert_true(result_get(&r, "mb_s")->value == 1099);
		assert_true(result_get(&r, "runs")->value == 2);
		result_free(&r);
	}

	/* sysbench 1.0.20 (numbers as sysbench printed them in the captures) */
	CHECK(L, "sysbench", "sysbench_cpu.txt", {"events_s", 513.90, "1/s"}, {"total_time_s", 2.0161, "s"},
	      {"events", 1037, ""}, {"threads", 1, ""}, {"lat_min_ms", 0.23, "ms"},
	      {"lat_mean_ms", 1.90, "ms"}, {"lat_max_ms", 40.50, "ms"}, {"lat_p95_ms", 20.37, "ms"},
	      {"lat_sum_ms", 1966.52, "ms"});
	CHECK(L, "sysbench", "sysbench_cpu_p99_progress.txt", {"events_s", 697.27, NULL},
	      {"threads", 2, NULL}, {"lat_p99_ms", 48.34, "ms"});
	CHECK(L, "sysbench", "sysbench_memory.txt", {"ops_s", 770200.72, "1/s"}, {"operations", 1547904, ""},
	      {"mib_s", 752.15, "MiB/s"}, {"mib", 1511.62, "MiB"}, {"lat_max_ms", 40.06, NULL});
	CHECK(L, "sysbench", "sysbench_fileio_rndrw.txt", {"reads_s", 1633.24, "IOPS"},
	      {"writes_s", 1088.83, "IOPS"}, {"iops", 1633.24 + 1088.83, "IOPS"}, {"fsyncs_s", 109.86, "1/s"},
	      {"read_mib_s", 25.52, "MiB/s"}, {"write_mib_s", 17.01, "MiB/s"}, {"mib_s", 25.52 + 17.01, NULL},
	      {"events", 5822, NULL}, {"lat_p95_ms", 0.02, NULL}, {"lat_max_ms", 110.01, NULL});
	CHECK(L, "sysbench", "sysbench_oltp_rw_progress.txt", {"tps", 73.86, "tps"},
	      {"transactions", 229, ""}, {"qps", 1477.23, "qps"}, {"queries", 4580, ""}, {"reads", 3206, ""},
	      {"writes", 916, ""}, {"other", 458, ""}, {"errors", 0, ""}, {"errors_s", 0, "1/s"},
	      {"reconnects", 0, ""}, {"total_time_s", 3.0995, NULL}, {"lat_mean_ms", 26.58, NULL},
	      {"lat_p95_ms", 80.03, NULL}, {"threads", 2, NULL});
	CHECK(L, "sysbench", "sysbench_oltp_ro.txt", {"tps", 80.53, NULL}, {"qps", 1288.50, NULL},
	      {"reads", 2352, NULL}, {"writes", 0, NULL}, {"lat_p95_ms", 89.16, NULL});
	{
		/* interval lines become series; the headline is tps, or the first rate */
		size_t len;
		char *text = read_capture("sysbench_oltp_rw_progress.txt", &len);
		struct step_result r;
		result_init(&r, "s", "exec");
		assert_int_equal(lb_parse_output(L, "sysbench", NULL, text, len, &r, &d), 0);
		const struct series *s = result_series(&r, "tps");
		assert_true(s && s->n == 3 && s->t[1] == 2.0 && s->v[1] == 99.90);
		s = result_series(&r, "lat_p95_ms");
		assert_true(s && s->n == 3 && s->v[2] == 104.84);
		s = result_series(&r, "qps");
		assert_true(s && s->v[0] == 1427.47);
		assert_string_equal(r.m[0].name, "tps");
		result_free(&r);
		free(text);
		text = read_capture("sysbench_cpu_p99_progress.txt", &len);
		result_init(&r, "s", "exec");
		assert_int_equal(lb_parse_output(L, "sysbench", NULL, text, len, &r, &d), 0);
		s = result_series(&r, "events_s");
		assert_true(s && s->n == 1 && s->v[0] == 690.00);
		s = result_series(&r, "lat_p99_ms");
		assert_true(s && s->v[0] == 49.21);
		assert_string_equal(r.m[0].name, "events_s");
		result_free(&r);
		free(text);
	}

	/* Output a parser does not recognise is an error, not zeros. */
	static const char *const all[] = {"dd", "pgbench", "fio", "hdparm", "bench.sh", "sysbench"};
	for (size_t i = 0; i < 6; i++) {
		struct step_result r;
		result_init(&r, "s", "exec");
		struct src_pos at = {"p.yaml", 12, 14};
		diag_free(&d);
		diag_init(&d);
		assert_int_equal(lb_parse_output(L, all[i], &at, "hello\n", 6, &r, &d), -EINVAL);
		const struct diag_entry *e = first_error(&d);
		assert_non_null(e);
		assert_int_equal(e->pos.line, 12);
		assert_int_equal(r.nm, 0);
		result_free(&r);
	}
	/* Unknown parser */
	struct step_result r;
	result_init(&r, "s", "exec");
	assert_int_equal(lb_parse_output(L, "nosuch", NULL, "x", 1, &r, &d), -ENOENT);
	result_free(&r);
	lb_free(L);
	diag_free(&d);
}

/* --- hooks_file, bench.*, limits --- */

struct logged {
	char text[512];
};

static void log_cb(void *ud, const char *level, const char *msg)
{
	struct logged *l = ud;
	size_t n = strlen(l->text);
	snprintf(l->text + n, sizeof(l->text) - n, "[%s] %s\n", level, msg);
}

static void test_hooks_file_and_bench(void **state)
{
	struct diag d;
	diag_init(&d);
	char dir[] = "/tmp/test_lb_hfXXXXXX";
	assert_non_null(mkdtemp(dir));
	chmod(dir, 0755); /* a module or hooks_file must be readable by everyone */
	char scen[256], hf[256];
	snprintf(scen, sizeof(scen), "%s/s.yaml", dir);
	snprintf(hf, sizeof(hf), "%s/hooks.lua", dir);
	FILE *f = fopen(hf, "w");
	fputs("-- hooks kept in a file\n"
	      "function setup(ctx)\n"
	      "  bench.log('info', 'setup of', ctx.scenario, 42)\n"
	      "  print('printed', true)\n"
	      "  home = bench.env.PATH ~= nil\n"
	      "end\n"
	      "function after_cell(cell, results)\n"
	      "  bench.log('loud', 'x')\n"
	      "end\n",
	      f);
	fclose(f);
	struct lb *L = lb_new(scen, 0, &d);
	struct logged lg = {""};
	lb_set_log(L, log_cb, &lg);
	struct src_pos at = {scen, 4, 13};
	assert_int_equal(lb_load_hooks(L, NULL, "hooks.lua", &at, &d), 0);
	assert_int_equal(lb_setup(L, "hf", &d), 0);
	assert_string_equal(lg.text, "[info] setup of hf 42\n[info] printed\ttrue\n");
	char *v = lua_str(L, "home");
	assert_string_equal(v, "true");
	free(v);
	/* An error inside the file names the file and its line. */
	struct cell c = {.params = NULL};
	assert_int_equal(lb_after_cell(L, &c, NULL, 0, &d), -EINVAL);
	const struct diag_entry *e = first_error(&d);
	assert_string_equal(e->pos.file, hf);
	assert_int_equal(e->pos.line, 8);
	assert_non_null(strstr(e->msg, "bench.log: level must be"));
	lb_free(L);
	diag_free(&d);

	/* A missing hooks file is an error at the option. */
	diag_init(&d);
	L = lb_new(scen, 0, &d);
	assert_true(lb_load_hooks(L, NULL, "nope.lua", &at, &d) < 0);
	e = first_error(&d);
	assert_int_equal(e->pos.line, 4);
	assert_non_null(strstr(e->msg, "nope.lua"));
	/* Memory is limited: a huge string fails cleanly. */
	struct node *x = node_new_scalar("#string.rep('x', 1 << 30)", NULL), *out = NULL;
	assert_int_not_equal(lb_eval(L, x, NULL, &out, &d), 0);
	if (!strstr(diag_text(&d), "out of memory"))
		fail_msg("%s", diag_text(&d));
	node_free(x);
	lb_free(L);
	unlink(hf);
	rmdir(dir);
	diag_free(&d);
}

static void test_parse_with_hook(void **state)
{
	struct diag d;
	diag_init(&d);
	struct lb *L = lb_new("h.yaml", 0, &d);
	assert_int_equal(lb_run_string(L, "h.lua",
	                               "function my_parser(text, result)\n"
	                               "  result:metric('lines', select(2, text:gsub('\\n', '')), '')\n"
	                               "  return {answer = 42, speed = {7.5, 'MB/s'}}\n"
	                               "end\n",
	                               &d),
	                 0);
	struct step_result r;
	result_init(&r, "s", "exec");
	assert_int_equal(lb_parse_output(L, "my_parser", NULL, "a\nb\nc\n", 6, &r, &d), 0);
	assert_true(result_get(&r, "lines")->value == 3);
	assert_true(result_get(&r, "answer")->value == 42);
	assert_string_equal(result_get(&r, "speed")->unit, "MB/s");
	result_free(&r);
	lb_free(L);
	diag_free(&d);
}

int main(int argc, char **argv)
{
	if (argc > 1) /* test_lb NAME: only the tests NAME (a pattern) matches */
		cmocka_set_test_filter(argv[1]);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_hooks_in_order),
	    cmocka_unit_test(test_filter_drops_cells),
	    cmocka_unit_test(test_lua_values_typed),
	    cmocka_unit_test(test_error_line_in_yaml),
	    cmocka_unit_test(test_budget_endless_loop),
	    cmocka_unit_test(test_budget_loop_in_pcall),
	    cmocka_unit_test(test_budget_shell),
	    cmocka_unit_test(test_budget_coroutine_caught),
	    cmocka_unit_test(test_budget_pattern),
	    cmocka_unit_test(test_budget_library),
	    cmocka_unit_test(test_safelib_same_as_lua),
	    cmocka_unit_test(test_no_finalizers),
	    cmocka_unit_test(test_pattern_like_lua),
	    cmocka_unit_test(test_stop_flag),
	    cmocka_unit_test(test_no_effects_at_check),
	    cmocka_unit_test(test_to_node_limits),
	    cmocka_unit_test(test_sandbox),
	    cmocka_unit_test(test_library),
	    cmocka_unit_test(test_parsers),
	    cmocka_unit_test(test_parse_with_hook),
	    cmocka_unit_test(test_hooks_file_and_bench),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
