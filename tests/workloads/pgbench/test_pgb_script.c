/* Tests of the pgbench script parser and expression evaluator (no server):
 * builtins parse, :var becomes $n (not in "::" casts, not for unknown
 * names), arithmetic follows pgbench (integer division, overflow and
 * division-by-zero errors), and syntax errors carry positions. */
#include <setjmp.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "pgb_eval.h"
#include "pgb_script.h"

static const struct src_pos test_pos = {"test.sql", 1, 1};

/* Parse one script; returns 0 or -EINVAL; d receives errors. */
static int parse(struct pgb_prog *p, const char *text, struct diag *d)
{
	pgb_prog_init(p);
	diag_init(d);
	int rc = pgb_prog_add(p, "t", text, 1, &test_pos, true, d);

	if (!rc)
		rc = pgb_prog_finish(p, d);
	return rc;
}

/* Evaluate "\set x EXPR" and return its value (script must parse). */
static int eval(const char *expr, struct pgb_val *out, char *err)
{
	struct pgb_prog p;
	struct diag d;
	char text[256];
	struct pgb_rng rng;

	snprintf(text, sizeof(text), "\\set x %s\n", expr);
	assert_int_equal(parse(&p, text, &d), 0);
	struct pgb_val vars[16] = {{.type = PGB_V_INT, .i = 10}, {.type = PGB_V_INT, .i = 3}};

	pgb_rng_seed(&rng, 1);
	struct pgb_eval_ctx ec = {.vars = vars, .rng = &rng};
	int rc = pgb_eval(p.scripts[0].cmd[0].expr, &ec, out, err, 128);

	pgb_prog_free(&p);
	diag_free(&d);
	return rc;
}

static int64_t ival(const char *expr)
{
	struct pgb_val v;
	char err[128] = "";

	assert_int_equal(eval(expr, &v, err), 0);
	assert_int_equal(v.type, PGB_V_INT);
	return v.i;
}

static void test_builtins(void **state)
{
	(void)state;
	const char *names[] = {"tpcb-like", "simple-update", "select-only"};
	int ncmd[] = {11, 9, 2};

	for (int i = 0; i < 3; i++) {
		struct pgb_prog p;
		struct diag d;

		assert_int_equal(parse(&p, pgb_builtin(names[i]), &d), 0);
		assert_int_equal(p.scripts[0].ncmd, ncmd[i]);
		pgb_prog_free(&p);
		diag_free(&d);
	}
	assert_null(pgb_builtin("tpcc"));

	struct pgb_prog p;
	struct diag d;

	assert_int_equal(parse(&p, pgb_builtin("tpcb-like"), &d), 0);
	const struct pgb_cmd *ins = &p.scripts[0].cmd[9];

	assert_int_equal(ins->kind, PGB_CMD_SQL);
	assert_string_equal(
	    ins->sql, "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, "
	              "CURRENT_TIMESTAMP)");
	assert_int_equal(ins->nparams, 4);
	assert_string_equal(p.var[ins->param_var[0]], "tid");
	assert_string_equal(p.var[ins->param_var[3]], "delta");
	assert_string_equal(ins->frag[0],
	                    "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (");
	assert_string_equal(ins->frag[1], ", ");
	assert_string_equal(ins->frag[4], ", CURRENT_TIMESTAMP)");
	assert_int_equal(p.scripts[0].cmd[4].line, 5);
	pgb_prog_free(&p);
	diag_free(&d);
}

static void test_sql_vars(void **state)
{
	(void)state;
	struct pgb_prog p;
	struct diag d;

	assert_int_equal(parse(&p,
	                       "-- comment\n\\set n 5\nSELECT :n::int, ':nope', 'a;b'\n  FROM t WHERE x = "
	                       ":n; SELECT :client_id;\n"
	                       "SELECT 1",
	                       &d),
	                 0);
	assert_int_equal(p.scripts[0].ncmd, 4);
	const struct pgb_cmd *c = &p.scripts[0].cmd[1];

	assert_string_equal(c->text, "SELECT :n::int, ':nope', 'a;b' FROM t WHERE x = :n");
	assert_string_equal(c->sql, "SELECT $1::int, ':nope', 'a;b' FROM t WHERE x = $2");
	assert_int_equal(c->line, 3);
	assert_string_equal(p.scripts[0].cmd[2].sql, "SELECT $1");
	assert_int_equal(p.scripts[0].cmd[2].param_var[0], PGB_VAR_CLIENT_ID);
	assert_int_equal(p.scripts[0].cmd[3].line, 5);
	pgb_prog_free(&p);
	diag_free(&d);

	/* a comment inside a statement does not hide its next lines, and
	 * quoted text keeps its spaces and dashes */
	assert_int_equal(parse(&p, "SELECT 1 -- one\n  + 1;\nSELECT 'a  b--c',   \"x  y\" -- z\n;\n", &d), 0);
	assert_int_equal(p.scripts[0].ncmd, 2);
	assert_string_equal(p.scripts[0].cmd[0].sql, "SELECT 1 + 1");
	assert_string_equal(p.scripts[0].cmd[1].sql, "SELECT 'a  b--c', \"x  y\"");
	pgb_prog_free(&p);
	diag_free(&d);
}

static void test_arith(void **state)
{
	(void)state;
	assert_int_equal(ival("1 + 2 * 3"), 7);
	assert_int_equal(ival("(1 + 2) * 3"), 9);
	assert_int_equal(ival("-7 / 2"), -3);
	assert_int_equal(ival("7 % 3"), 1);
	assert_int_equal(ival("100000 * :scale"), 1000000);
	assert_int_equal(ival(":client_id - 5"), -2);
	assert_int_equal(ival("case when 2 < 3 and not 1 = 2 then 1 else 0 end"), 1);
	assert_int_equal(ival("least(5, 3, 9) + greatest(1, 8)"), 11);
	assert_int_equal(ival("abs(-4) + mod(-7, 3) + int(2.9)"), 6);
	assert_int_equal(ival("random(5, 5)"), 5);
	assert_int_equal(ival("9223372036854775807"), INT64_MAX);
	assert_int_equal(ival("-9223372036854775807 - 1"), INT64_MIN);

	struct pgb_val v;
	char err[128];

	assert_int_equal(eval("1 / 2.0", &v, err), 0);
	assert_int_equal(v.type, PGB_V_DOUBLE);
	assert_true(v.d == 0.5);
	assert_int_equal(eval("sqrt(16) + pi() * 0", &v, err), 0);
	assert_true(v.d == 4.0);

	assert_int_equal(eval("9223372036854775807 + 1", &v, err), -1);
	assert_string_equal(err, "bigint add out of range");
	assert_int_equal(eval("1 / (2 - 2)", &v, err), -1);
	assert_string_equal(err, "division by zero");
	assert_int_equal(eval("random(5, 4)", &v, err), -1);
	assert_non_null(strstr(err, "empty range"));
	assert_int_equal(eval("random_gaussian(1, 10, 1.5)", &v, err), -1);
	assert_non_null(strstr(err, "gaussian parameter"));
	assert_int_equal(eval("random_zipfian(1, 10, 1.0)", &v, err), -1);
	assert_non_null(strstr(err, "zipfian parameter"));
	assert_int_equal(eval("random_exponential(1, 10, 0)", &v, err), -1);
	assert_int_equal(eval(":undefined_var + 1", &v, err), -1);
	assert_string_equal(err, "undefined variable \"undefined_var\"");
}

static void test_format(void **state)
{
	(void)state;
	char buf[32];
	struct pgb_val v = {.type = PGB_V_INT, .i = INT64_MIN};

	assert_int_equal(pgb_val_format(&v, buf, sizeof(buf)), 20);
	assert_string_equal(buf, "-9223372036854775808");
	v.i = 0;
	pgb_val_format(&v, buf, sizeof(buf));
	assert_string_equal(buf, "0");
	v.type = PGB_V_DOUBLE;
	v.d = 0.25;
	pgb_val_format(&v, buf, sizeof(buf));
	assert_string_equal(buf, "0.25");
}

static void expect_error(const char *text, int line, int col, const char *msg)
{
	struct pgb_prog p;
	struct diag d;
	char buf[512];

	assert_int_not_equal(parse(&p, text, &d), 0);
	assert_true(d.nerrors >= 1);
	diag_format_one(&d.v[0], buf, sizeof(buf));
	if (!strstr(buf, msg) || d.v[0].pos.line != line || d.v[0].pos.col != col)
		fail_msg("for %s: got \"%s\" at %d:%d, want \"%s\" at %d:%d", text, buf, d.v[0].pos.line,
		         d.v[0].pos.col, msg, line, col);
	pgb_prog_free(&p);
	diag_free(&d);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("SELECT 1;\n\\set x random(1, 10\n", 2, 20, "expected ',' or ')'");
	expect_error("\\set x foo(1)\n", 1, 8, "unknown function 'foo'");
	expect_error("\\set x 1 +\n", 1, 11, "expression expected");
	expect_error("\\set x random(1)\n", 1, 8, "takes 2 arguments");
	expect_error("\\sett x 1\n", 1, 1, "unknown meta command '\\sett'");
	expect_error("\\sleep 1 min\n", 1, 10, "unit must be us, ms or s");
	expect_error("\\set\n", 1, 1, "needs a variable name");
	expect_error("-- only a comment\n", 1, 1, "no commands");
	/* a continuation line joins a meta command */
	struct pgb_prog p;
	struct diag d;

	assert_int_equal(parse(&p, "\\set x 1 + \\\n 2\nSELECT :x;\n", &d), 0);
	assert_int_equal(p.scripts[0].ncmd, 2);
	assert_int_equal(p.scripts[0].cmd[1].line, 3);
	pgb_prog_free(&p);
	diag_free(&d);
}

/* pgbench 15's parse-time rejections, at the offending command. */
static void test_meta_errors(void **state)
{
	(void)state;
	expect_error("SELECT 1;\n\\syncpipeline\n", 2, 1, "unknown meta command '\\syncpipeline'");
	expect_error("\\if 1\nSELECT 1;\n", 1, 1, "\\if without matching \\endif");
	expect_error("SELECT 1;\n\\endif\n", 2, 1, "\\endif without matching \\if");
	expect_error("\\else\n", 1, 1, "\\else without matching \\if");
	expect_error("\\if 1\n\\else\n\\elif 1\n\\endif\n", 3, 1, "\\elif after \\else");
	expect_error("\\if 1\n\\else\n\\else\n\\endif\n", 3, 1, "\\else after \\else");
	expect_error("\\if 1\n\\if 2\n\\endif\nSELECT 1;\n", 1, 1, "\\if without matching \\endif");
	expect_error("\\if\n\\endif\n", 1, 4, "expression expected");
	expect_error("\\if 1\n\\else 1\n\\endif\n", 2, 7, "unexpected argument in command \"else\"");
	expect_error("\\gset\nSELECT 1;\n", 1, 1, "\\gset must follow an SQL command");
	expect_error("\\set a 1\n\\aset\n", 2, 1, "\\aset must follow an SQL command (\\set a 1)");
	expect_error("SELECT 1 AS a \\gset\n\\gset\n", 2, 1, "must follow an SQL command");
	expect_error("SELECT 1 AS a;\n\\gset p q\n", 2, 9, "too many arguments in command \"gset\"");
	expect_error("\\shell\n", 1, 1, "missing command in command \"shell\"");
	expect_error("\\setshell a\n", 1, 1, "missing argument in command \"setshell\"");
	expect_error("\\sleep\n", 1, 1, "missing argument in command \"sleep\"");
	expect_error("\\sleep 1 ms x\n", 1, 13, "too many arguments in command \"sleep\"");
	expect_error("\\sleep 10ms s\n", 1, 8, "invalid sleep time, must be an integer (10ms)");
	expect_error("\\sleep 1.5 ms\n", 1, 8, "invalid sleep time, must be an integer (1.5)");
	expect_error("\\sleep 1.5\n", 1, 9, "unit must be us, ms or s (not '.5')");
	expect_error("\\sleep x\n", 1, 8, "invalid sleep time");
	expect_error("\\startpipeline x\n", 1, 16, "unexpected argument");
	expect_error("\\startpipeline\nSELECT 1;\n", 1, 1, "\\startpipeline without \\endpipeline");
	expect_error("SELECT 1;\n\\endpipeline\n", 2, 1, "\\endpipeline without \\startpipeline");
	expect_error("\\startpipeline\n\\startpipeline\nSELECT 1;\n\\endpipeline\n", 2, 1,
	             "already in pipeline mode");
	expect_error("\\startpipeline\nSELECT 1 AS a \\gset\n\\endpipeline\n", 2, 1,
	             "cannot be used in pipeline mode");
}

static struct pgb_cmd *cmd_of(struct pgb_prog *p, int k)
{
	assert_true(k < p->scripts[0].ncmd);
	return &p->scripts[0].cmd[k];
}

/* \gset/\aset mark their SQL command; "\;" stays one command; \if blocks
 * are linked; \shell words and variables; pipelines need a protocol. */
static void test_meta_parse(void **state)
{
	struct pgb_prog p;
	struct diag d;

	(void)state;
	assert_int_equal(parse(&p,
	                       "SELECT 1 AS a \\; SELECT 2 AS b \\gset p_\n"
	                       "SELECT 3 AS c;\n\\aset\n"
	                       "INSERT INTO t VALUES (:p_b, :c, ':nope', '\\;');\n",
	                       &d),
	                 0);
	assert_int_equal(p.scripts[0].ncmd, 3);
	assert_string_equal(cmd_of(&p, 0)->text, "SELECT 1 AS a ; SELECT 2 AS b");
	assert_int_equal(cmd_of(&p, 0)->gset, PGB_GSET_ONE);
	assert_string_equal(cmd_of(&p, 0)->prefix, "p_");
	assert_int_equal(cmd_of(&p, 1)->gset, PGB_GSET_ALL);
	assert_string_equal(cmd_of(&p, 1)->prefix, "");
	/* columns stored by \gset are variables SQL can read; not in quotes */
	assert_int_equal(cmd_of(&p, 2)->nparams, 2);
	assert_string_equal(cmd_of(&p, 2)->sql, "INSERT INTO t VALUES ($1, $2, ':nope', '\\;')");
	assert_true(pgb_prog_var(&p, "p_b") >= 0);
	assert_true(pgb_prog_var(&p, "nope") < 0);
	pgb_prog_free(&p);
	diag_free(&d);

	assert_int_equal(parse(&p,
	                       "\\if :x = 1\nSELECT 1;\n\\elif :x = 2\n\\if 0\n\\endif\n"
	                       "\\else\nSELECT 3;\n\\endif\nSELECT 4;\n",
	                       &d),
	                 0);
	/* 0 if, 1 sql, 2 elif, 3 if, 4 endif, 5 else, 6 sql, 7 endif, 8 sql */
	assert_int_equal(cmd_of(&p, 0)->kind, PGB_CMD_IF);
	assert_int_equal(cmd_of(&p, 0)->next, 2);
	assert_int_equal(cmd_of(&p, 2)->next, 5);
	assert_int_equal(cmd_of(&p, 5)->next, 7);
	assert_int_equal(cmd_of(&p, 0)->end, 7);
	assert_int_equal(cmd_of(&p, 2)->end, 7);
	assert_int_equal(cmd_of(&p, 5)->end, 7);
	assert_int_equal(cmd_of(&p, 3)->next, 4);
	assert_int_equal(cmd_of(&p, 3)->end, 4);
	pgb_prog_free(&p);
	diag_free(&d);

	assert_int_equal(parse(&p, "\\set n 7\n\\setshell out echo :n ::n x\n\\shell true\n", &d), 0);
	struct pgb_cmd *sh = cmd_of(&p, 1);

	assert_int_equal(sh->kind, PGB_CMD_SETSHELL);
	assert_int_equal(sh->var, pgb_prog_var(&p, "out"));
	assert_int_equal(sh->nargs, 4);
	assert_string_equal(sh->arg[0], "echo");
	assert_int_equal(sh->arg_var[1], pgb_prog_var(&p, "n"));
	assert_string_equal(sh->arg[2], ":n");
	assert_int_equal(cmd_of(&p, 2)->nargs, 1);
	pgb_prog_free(&p);
	diag_free(&d);

	assert_int_equal(parse(&p, "\\startpipeline\nSELECT 1;\nSELECT 2;\n\\endpipeline\n", &d), 0);
	assert_int_equal(pgb_prog_check_protocol(&p, false, &d), 0);
	assert_int_not_equal(pgb_prog_check_protocol(&p, true, &d), 0);
	assert_non_null(strstr(d.v[0].msg, "simple query protocol"));
	assert_int_equal(d.v[0].pos.line, 1);
	pgb_prog_free(&p);
	diag_free(&d);
}

/* What pgbench accepts: meta-command names and units in any case, a unit
 * attached to the number, a sign. */
static void test_meta_accepts(void **state)
{
	static const struct {
		const char *text;
		int64_t unit_us;
	} ok[] = {{"\\sleep 10MS\n", 1000},
	          {"\\SLEEP -1\n", 1000000},
	          {"\\sleep +3 Us\n", 1},
	          {"\\Set x 1\n\\sleep :x ms\n", 1000}};
	struct pgb_prog p;
	struct diag d;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (parse(&p, ok[i].text, &d))
			fail_msg("rejected: %s: %s", ok[i].text, d.nerrors ? d.v[0].msg : "");
		struct pgb_cmd *c = cmd_of(&p, p.scripts[0].ncmd - 1);

		assert_int_equal(c->kind, PGB_CMD_SLEEP);
		assert_int_equal(c->unit_us, ok[i].unit_us);
		pgb_prog_free(&p);
		diag_free(&d);
	}
}

/* define: gives text values; names must be variable names. */
static void test_define(void **state)
{
	struct pgb_prog p;
	struct diag d;

	(void)state;
	pgb_prog_init(&p);
	diag_init(&d);
	assert_int_equal(pgb_prog_define(&p, "x", "41"), 0);
	assert_int_equal(pgb_prog_define(&p, "bad-name", "1"), -EINVAL);
	assert_int_equal(pgb_prog_add(&p, "t", "SELECT :x, :scale, :default_seed;\n", 1, &test_pos, true, &d),
	                 0);
	assert_int_equal(pgb_prog_finish(&p, &d), 0);
	assert_int_equal(p.scripts[0].cmd[0].nparams, 3);
	assert_string_equal(p.defval[pgb_prog_var(&p, "x")], "41");
	assert_int_equal(pgb_prog_var(&p, "random_seed"), PGB_VAR_RANDOM_SEED);
	pgb_prog_free(&p);
	diag_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_builtins),     cmocka_unit_test(test_sql_vars),
	    cmocka_unit_test(test_arith),        cmocka_unit_test(test_format),
	    cmocka_unit_test(test_errors),       cmocka_unit_test(test_meta_errors),
	    cmocka_unit_test(test_meta_parse),   cmocka_unit_test(test_define),
	    cmocka_unit_test(test_meta_accepts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
