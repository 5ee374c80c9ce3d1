/* pgb_expr: the expression parser of pgbench scripts (see pgb_expr.h). */
#include "pgb_expr.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *name;
	enum pgb_expr_func f;
	int min, max; /* argument count; max -1 = any */
} pgbs_funcs[] = {
    {"random", F_RANDOM, 2, 2},
    {"random_uniform", F_RANDOM, 2, 2},
    {"random_gaussian", F_GAUSS, 3, 3},
    {"random_exponential", F_EXP, 3, 3},
    {"random_zipfian", F_ZIPF, 3, 3},
    {"abs", F_ABS, 1, 1},
    {"int", F_INT, 1, 1},
    {"double", F_DOUBLE, 1, 1},
    {"sqrt", F_SQRT, 1, 1},
    {"ln", F_LN, 1, 1},
    {"exp", F_EXPF, 1, 1},
    {"pow", F_POW, 2, 2},
    {"power", F_POW, 2, 2},
    {"mod", F_MOD, 2, 2},
    {"pi", F_PI, 0, 0},
    {"greatest", F_GREATEST, 1, -1},
    {"least", F_LEAST, 1, -1},
};

void pgb_expr_free(struct pgb_expr *e)
{
	if (!e)
		return;
	for (int i = 0; i < e->nargs; i++)
		pgb_expr_free(e->arg[i]);
	free(e->arg);
	free(e->name);
	free(e);
}

struct pgbs_parser {
	pgb_var_slot_fn slot;
	void *slot_ctx;
	const char *s;      /* the expression text */
	const char *p;      /* cursor */
	struct src_pos pos; /* position of s[0] */
	struct diag *d;
	bool failed;
};

static void pgbs_err(struct pgbs_parser *ps, const char *at, const char *msg)
{
	if (ps->failed)
		return;
	struct src_pos pos = ps->pos;

	pos.col += (int)(at - ps->s);
	diag_error(ps->d, &pos, "pgbench script: %s", msg);
	ps->failed = true;
}

static void pgbs_ws(struct pgbs_parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r' || *ps->p == '\n')
		ps->p++;
}

static struct pgb_expr *pgbs_node(enum pgb_expr_op op, int nargs)
{
	struct pgb_expr *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->op = op;
	if (nargs) {
		e->arg = calloc(nargs, sizeof(*e->arg));
		if (!e->arg) {
			free(e);
			return NULL;
		}
	}
	e->nargs = nargs;
	return e;
}

/* A one-argument node over a (NEG, NOT); frees a when out of memory. */
static struct pgb_expr *pgbs_wrap1(enum pgb_expr_op op, struct pgb_expr *a)
{
	struct pgb_expr *e = pgbs_node(op, 1);

	if (!e) {
		pgb_expr_free(a);
		return NULL;
	}
	e->arg[0] = a;
	return e;
}

static bool pgbs_word(struct pgbs_parser *ps, const char *w)
{
	size_t n = strlen(w);

	pgbs_ws(ps);
	if (strncasecmp(ps->p, w, n) == 0 && !isalnum((unsigned char)ps->p[n]) && ps->p[n] != '_') {
		ps->p += n;
		return true;
	}
	return false;
}

static struct pgb_expr *pgbs_or(struct pgbs_parser *ps);

static struct pgb_expr *pgbs_binary(enum pgb_expr_op op, struct pgb_expr *a, struct pgb_expr *b)
{
	struct pgb_expr *e;

	if (!a || !b || !(e = pgbs_node(op, 2))) {
		pgb_expr_free(a);
		pgb_expr_free(b);
		return NULL;
	}
	e->arg[0] = a;
	e->arg[1] = b;
	return e;
}

/* ( expr ) */
static struct pgb_expr *pgbs_paren(struct pgbs_parser *ps)
{
	ps->p++;
	struct pgb_expr *e = pgbs_or(ps);

	if (!e)
		return NULL; /* ps->p may be at the end: never step past it */
	pgbs_ws(ps);
	if (*ps->p != ')') {
		pgbs_err(ps, ps->p, "expected ')'");
		pgb_expr_free(e);
		return NULL;
	}
	ps->p++;
	return e;
}

/* :name */
static struct pgb_expr *pgbs_variable(struct pgbs_parser *ps)
{
	const char *at = ps->p, *n = at + 1;
	size_t len = 0;
	struct pgb_expr *e;

	while (isalnum((unsigned char)n[len]) || n[len] == '_')
		len++;
	if (!len) {
		pgbs_err(ps, at, "expected a variable name after ':'");
		return NULL;
	}
	int slot = ps->slot(ps->slot_ctx, n, len);

	if (slot < 0 || !(e = pgbs_node(E_VAR, 0)))
		return NULL;
	e->var = slot;
	e->name = strndup(n, len);
	ps->p = n + len;
	return e;
}

/* An integer or a double constant. */
static struct pgb_expr *pgbs_number(struct pgbs_parser *ps)
{
	const char *at = ps->p, *q = at;
	struct pgb_expr *e;

	while (isdigit((unsigned char)*q))
		q++;
	bool dbl = *q == '.' || *q == 'e' || *q == 'E';
	char *end;

	errno = 0;
	if (dbl) {
		double v = strtod(at, &end);

		if (!(e = pgbs_node(E_DBL, 0)))
			return NULL;
		e->d = v;
	} else {
		long long v = strtoll(at, &end, 10);

		if (errno == ERANGE) {
			pgbs_err(ps, at, "integer constant out of range");
			return NULL;
		}
		if (!(e = pgbs_node(E_INT, 0)))
			return NULL;
		e->i = v;
	}
	ps->p = end;
	return e;
}

/* The arguments of a call, after its '('; returns how many were parsed, with
 * ps->failed set on a syntax error. */
static int pgbs_args(struct pgbs_parser *ps, struct pgb_expr **args, int max)
{
	int n = 0;

	pgbs_ws(ps);
	if (*ps->p == ')') {
		ps->p++;
		return 0;
	}
	for (;;) {
		if (n == max) {
			pgbs_err(ps, ps->p, "too many function arguments");
			break;
		}
		if (!(args[n] = pgbs_or(ps)))
			break;
		n++;
		pgbs_ws(ps);
		if (*ps->p == ',') {
			ps->p++;
			continue;
		}
		if (*ps->p == ')') {
			ps->p++;
			break;
		}
		pgbs_err(ps, ps->p, "expected ',' or ')'");
		break;
	}
	return n;
}

/* name(args...) */
static struct pgb_expr *pgbs_call(struct pgbs_parser *ps)
{
	const char *at = ps->p;
	size_t len = 0, fi;
	struct pgb_expr *e;

	while (isalnum((unsigned char)at[len]) || at[len] == '_')
		len++;
	for (fi = 0; fi < sizeof(pgbs_funcs) / sizeof(pgbs_funcs[0]); fi++)
		if (strlen(pgbs_funcs[fi].name) == len && !strncasecmp(pgbs_funcs[fi].name, at, len))
			break;
	if (fi == sizeof(pgbs_funcs) / sizeof(pgbs_funcs[0])) {
		char msg[160];

		snprintf(msg, sizeof(msg), "unknown function '%.*s'", (int)(len > 60 ? 60 : len), at);
		pgbs_err(ps, at, msg);
		return NULL;
	}
	ps->p = at + len;
	pgbs_ws(ps);
	if (*ps->p != '(') {
		pgbs_err(ps, ps->p, "expected '(' after the function name");
		return NULL;
	}
	ps->p++;
	struct pgb_expr *args[64];
	int n = pgbs_args(ps, args, 64);

	if (!ps->failed && (n < pgbs_funcs[fi].min || (pgbs_funcs[fi].max >= 0 && n > pgbs_funcs[fi].max))) {
		char msg[160];

		snprintf(msg, sizeof(msg), "function %s takes %d%s argument%s, got %d", pgbs_funcs[fi].name,
		         pgbs_funcs[fi].min, pgbs_funcs[fi].max < 0 ? " or more" : "",
		         pgbs_funcs[fi].min == 1 && pgbs_funcs[fi].max == 1 ? "" : "s", n);
		pgbs_err(ps, at, msg);
	}
	if (ps->failed || !(e = pgbs_node(E_FUNC, n))) {
		for (int i = 0; i < n; i++)
			pgb_expr_free(args[i]);
		return NULL;
	}
	e->func = pgbs_funcs[fi].f;
	if (n)
		memcpy(e->arg, args, n * sizeof(*args));
	return e;
}

static struct pgb_expr *pgbs_primary(struct pgbs_parser *ps)
{
	pgbs_ws(ps);
	const char *at = ps->p;

	if (*at == '(')
		return pgbs_paren(ps);
	if (*at == ':')
		return pgbs_variable(ps);
	if (isdigit((unsigned char)*at) || (*at == '.' && isdigit((unsigned char)at[1])))
		return pgbs_number(ps);
	if (isalpha((unsigned char)*at) || *at == '_')
		return pgbs_call(ps);
	pgbs_err(ps, at, *at ? "syntax error in expression" : "expression expected");
	return NULL;
}

static struct pgb_expr *pgbs_unary(struct pgbs_parser *ps)
{
	pgbs_ws(ps);
	if (*ps->p == '-' || *ps->p == '+') {
		bool neg = *ps->p == '-';

		ps->p++;
		struct pgb_expr *a = pgbs_unary(ps);

		if (!a || !neg)
			return a;
		if (a->op == E_INT && a->i != INT64_MIN) {
			a->i = -a->i;
			return a;
		}
		return pgbs_wrap1(E_NEG, a);
	}
	return pgbs_primary(ps);
}

static struct pgb_expr *pgbs_mul(struct pgbs_parser *ps)
{
	struct pgb_expr *a = pgbs_unary(ps);

	while (a) {
		pgbs_ws(ps);
		char c = *ps->p;

		if (c != '*' && c != '/' && c != '%')
			break;
		ps->p++;
		a = pgbs_binary(c == '*' ? E_MUL : c == '/' ? E_DIV : E_MOD, a, pgbs_unary(ps));
	}
	return a;
}

static struct pgb_expr *pgbs_add(struct pgbs_parser *ps)
{
	struct pgb_expr *a = pgbs_mul(ps);

	while (a) {
		pgbs_ws(ps);
		char c = *ps->p;

		if (c != '+' && c != '-')
			break;
		ps->p++;
		a = pgbs_binary(c == '+' ? E_ADD : E_SUB, a, pgbs_mul(ps));
	}
	return a;
}

static struct pgb_expr *pgbs_cmp(struct pgbs_parser *ps)
{
	struct pgb_expr *a = pgbs_add(ps);

	while (a) {
		pgbs_ws(ps);
		const char *p = ps->p;
		enum pgb_expr_op op;

		if (!strncmp(p, "<=", 2))
			op = E_LE, ps->p += 2;
		else if (!strncmp(p, ">=", 2))
			op = E_GE, ps->p += 2;
		else if (!strncmp(p, "<>", 2) || !strncmp(p, "!=", 2))
			op = E_NE, ps->p += 2;
		else if (*p == '<')
			op = E_LT, ps->p++;
		else if (*p == '>')
			op = E_GT, ps->p++;
		else if (*p == '=')
			op = E_EQ, ps->p++;
		else
			break;
		a = pgbs_binary(op, a, pgbs_add(ps));
	}
	return a;
}

static struct pgb_expr *pgbs_not(struct pgbs_parser *ps)
{
	if (pgbs_word(ps, "not")) {
		struct pgb_expr *a = pgbs_not(ps);

		if (!a)
			return NULL;
		return pgbs_wrap1(E_NOT, a);
	}
	return pgbs_cmp(ps);
}

static struct pgb_expr *pgbs_and(struct pgbs_parser *ps)
{
	struct pgb_expr *a = pgbs_not(ps);

	while (a && pgbs_word(ps, "and"))
		a = pgbs_binary(E_AND, a, pgbs_not(ps));
	return a;
}

static struct pgb_expr *pgbs_or(struct pgbs_parser *ps)
{
	struct pgb_expr *a = pgbs_and(ps);

	while (a && pgbs_word(ps, "or"))
		a = pgbs_binary(E_OR, a, pgbs_and(ps));
	return a;
}

struct pgb_expr *pgb_expr_parse(const char *s, const struct src_pos *pos, pgb_var_slot_fn slot,
                                void *slot_ctx, struct diag *d)
{
	struct pgbs_parser ps = {.slot = slot, .slot_ctx = slot_ctx, .s = s, .p = s, .pos = *pos, .d = d};
	struct pgb_expr *e = pgbs_or(&ps);

	if (e) {
		pgbs_ws(&ps);
		if (*ps.p) {
			pgbs_err(&ps, ps.p, "unexpected text after the expression");
			pgb_expr_free(e);
			return NULL;
		}
	} else if (!ps.failed) {
		pgbs_err(&ps, ps.p, "out of memory");
	}
	return e;
}
