/* pgb_script: parser and evaluator of pgbench scripts (see pgb_script.h).
 *
 * Expressions are parsed by recursive descent into a small tree; precedence
 * from low to high: OR, AND, NOT, comparisons, + -, * / %, unary -. */
#include "pgb_script.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum pgbs_op {
	E_INT,
	E_DBL,
	E_VAR,
	E_NEG,
	E_NOT,
	E_ADD,
	E_SUB,
	E_MUL,
	E_DIV,
	E_MOD,
	E_LT,
	E_LE,
	E_GT,
	E_GE,
	E_EQ,
	E_NE,
	E_AND,
	E_OR,
	E_FUNC,
};

enum pgbs_func {
	F_RANDOM,
	F_GAUSS,
	F_EXP,
	F_ZIPF,
	F_ABS,
	F_INT,
	F_DOUBLE,
	F_SQRT,
	F_LN,
	F_EXPF,
	F_POW,
	F_MOD,
	F_PI,
	F_GREATEST,
	F_LEAST,
};

static const struct {
	const char *name;
	enum pgbs_func f;
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

struct pgb_expr {
	enum pgbs_op op;
	enum pgbs_func func;
	int64_t i;
	double d;
	int var;
	char *name; /* E_VAR: the variable's name, for errors */
	int nargs;
	struct pgb_expr **arg; /* operands (1 or 2) or function arguments */
};

static const char pgbs_tpcb[] =
    "\\set aid random(1, 100000 * :scale)\n"
    "\\set bid random(1, 1 * :scale)\n"
    "\\set tid random(1, 10 * :scale)\n"
    "\\set delta random(-5000, 5000)\n"
    "BEGIN;\n"
    "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
    "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
    "UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;\n"
    "UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;\n"
    "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, "
    ":delta, CURRENT_TIMESTAMP);\n"
    "END;\n";
static const char pgbs_simple_update[] =
    "\\set aid random(1, 100000 * :scale)\n"
    "\\set bid random(1, 1 * :scale)\n"
    "\\set tid random(1, 10 * :scale)\n"
    "\\set delta random(-5000, 5000)\n"
    "BEGIN;\n"
    "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
    "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
    "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, "
    "CURRENT_TIMESTAMP);\n"
    "END;\n";
static const char pgbs_select_only[] = "\\set aid random(1, 100000 * :scale)\n"
                                       "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n";

const char *pgb_builtin(const char *name)
{
	if (!strcmp(name, "tpcb-like"))
		return pgbs_tpcb;
	if (!strcmp(name, "simple-update"))
		return pgbs_simple_update;
	if (!strcmp(name, "select-only"))
		return pgbs_select_only;
	return NULL;
}

/* ---- variables ---- */

static int pgbs_var_slot(struct pgb_prog *p, const char *name, size_t len, bool create)
{
	for (int i = 0; i < p->nvar; i++)
		if (strlen(p->var[i]) == len && !memcmp(p->var[i], name, len))
			return i;
	if (!create)
		return -1;
	char **nv = realloc(p->var, (p->nvar + 1) * sizeof(*nv));

	if (!nv)
		return -1;
	p->var = nv;
	p->var[p->nvar] = strndup(name, len);
	return p->var[p->nvar] ? p->nvar++ : -1;
}

void pgb_prog_init(struct pgb_prog *p)
{
	memset(p, 0, sizeof(*p));
	pgbs_var_slot(p, "scale", 5, true);
	pgbs_var_slot(p, "client_id", 9, true);
}

static void pgbs_expr_free(struct pgb_expr *e)
{
	if (!e)
		return;
	for (int i = 0; i < e->nargs; i++)
		pgbs_expr_free(e->arg[i]);
	free(e->arg);
	free(e->name);
	free(e);
}

void pgb_prog_free(struct pgb_prog *p)
{
	for (int s = 0; s < p->nscripts; s++) {
		struct pgb_script *sc = &p->scripts[s];

		for (int c = 0; c < sc->ncmd; c++) {
			struct pgb_cmd *cmd = &sc->cmd[c];

			free(cmd->text);
			free(cmd->sql);
			free(cmd->param_var);
			if (cmd->frag)
				for (int k = 0; k <= cmd->nparams; k++)
					free(cmd->frag[k]);
			free(cmd->frag);
			free(cmd->fraglen);
			pgbs_expr_free(cmd->expr);
		}
		free(sc->cmd);
		free(sc->name);
	}
	free(p->scripts);
	for (int i = 0; i < p->nvar; i++)
		free(p->var[i]);
	free(p->var);
	memset(p, 0, sizeof(*p));
}

/* ---- expression parser ---- */

struct pgbs_parser {
	struct pgb_prog *prog;
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

static struct pgb_expr *pgbs_node(enum pgbs_op op, int nargs)
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
static struct pgb_expr *pgbs_wrap1(enum pgbs_op op, struct pgb_expr *a)
{
	struct pgb_expr *e = pgbs_node(op, 1);

	if (!e) {
		pgbs_expr_free(a);
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

static struct pgb_expr *pgbs_binary(enum pgbs_op op, struct pgb_expr *a, struct pgb_expr *b)
{
	struct pgb_expr *e;

	if (!a || !b || !(e = pgbs_node(op, 2))) {
		pgbs_expr_free(a);
		pgbs_expr_free(b);
		return NULL;
	}
	e->arg[0] = a;
	e->arg[1] = b;
	return e;
}

static struct pgb_expr *pgbs_primary(struct pgbs_parser *ps)
{
	pgbs_ws(ps);
	const char *at = ps->p;
	struct pgb_expr *e;

	if (*at == '(') {
		ps->p++;
		e = pgbs_or(ps);
		pgbs_ws(ps);
		if (e && *ps->p != ')') {
			pgbs_err(ps, ps->p, "expected ')'");
			pgbs_expr_free(e);
			return NULL;
		}
		ps->p++;
		return e;
	}
	if (*at == ':') {
		const char *n = at + 1;
		size_t len = 0;

		while (isalnum((unsigned char)n[len]) || n[len] == '_')
			len++;
		if (!len) {
			pgbs_err(ps, at, "expected a variable name after ':'");
			return NULL;
		}
		int slot = pgbs_var_slot(ps->prog, n, len, true);

		if (slot < 0 || !(e = pgbs_node(E_VAR, 0)))
			return NULL;
		e->var = slot;
		e->name = strndup(n, len);
		ps->p = n + len;
		return e;
	}
	if (isdigit((unsigned char)*at) || (*at == '.' && isdigit((unsigned char)at[1]))) {
		const char *q = at;

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
	if (isalpha((unsigned char)*at) || *at == '_') {
		size_t len = 0;

		while (isalnum((unsigned char)at[len]) || at[len] == '_')
			len++;
		size_t fi;

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
		int n = 0;

		pgbs_ws(ps);
		if (*ps->p == ')') {
			ps->p++;
		} else {
			for (;;) {
				if (n == 64) {
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
		}
		if (!ps->failed &&
		    (n < pgbs_funcs[fi].min || (pgbs_funcs[fi].max >= 0 && n > pgbs_funcs[fi].max))) {
			char msg[160];

			snprintf(msg, sizeof(msg), "function %s takes %d%s argument%s, got %d",
			         pgbs_funcs[fi].name, pgbs_funcs[fi].min,
			         pgbs_funcs[fi].max < 0 ? " or more" : "",
			         pgbs_funcs[fi].min == 1 && pgbs_funcs[fi].max == 1 ? "" : "s", n);
			pgbs_err(ps, at, msg);
		}
		if (ps->failed || !(e = pgbs_node(E_FUNC, n))) {
			for (int i = 0; i < n; i++)
				pgbs_expr_free(args[i]);
			return NULL;
		}
		e->func = pgbs_funcs[fi].f;
		if (n)
			memcpy(e->arg, args, n * sizeof(*args));
		return e;
	}
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
		enum pgbs_op op;

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

/* Parse a whole expression text; NULL after an error in d. */
static struct pgb_expr *pgbs_parse_expr(struct pgb_prog *p, const char *s, const struct src_pos *pos,
                                        struct diag *d)
{
	struct pgbs_parser ps = {.prog = p, .s = s, .p = s, .pos = *pos, .d = d};
	struct pgb_expr *e = pgbs_or(&ps);

	if (e) {
		pgbs_ws(&ps);
		if (*ps.p) {
			pgbs_err(&ps, ps.p, "unexpected text after the expression");
			pgbs_expr_free(e);
			return NULL;
		}
	} else if (!ps.failed) {
		pgbs_err(&ps, ps.p, "out of memory");
	}
	return e;
}

/* ---- evaluation ---- */

#define PGBS_FAIL(...)                                                                                       \
	do {                                                                                                 \
		snprintf(err, errlen, __VA_ARGS__);                                                          \
		return -1;                                                                                   \
	} while (0)

static double pgbs_dbl(const struct pgb_val *v)
{
	return v->type == PGB_V_DOUBLE ? v->d : (double)v->i;
}

static int pgbs_int(const struct pgb_val *v, int64_t *out, char *err, size_t errlen)
{
	if (v->type == PGB_V_INT) {
		*out = v->i;
		return 0;
	}
	double r = rint(v->d);

	if (isnan(r) || r < -9223372036854775808.0 || r >= 9223372036854775808.0)
		PGBS_FAIL("double %g out of bigint range", v->d);
	*out = (int64_t)r;
	return 0;
}

static int pgbs_cmpv(const struct pgb_val *a, const struct pgb_val *b)
{
	if (a->type == PGB_V_INT && b->type == PGB_V_INT)
		return (a->i > b->i) - (a->i < b->i);
	double x = pgbs_dbl(a), y = pgbs_dbl(b);

	return (x > y) - (x < y);
}

static inline void pgbs_setint(struct pgb_val *o, int64_t v)
{
	o->type = PGB_V_INT;
	o->i = v;
}

static inline void pgbs_setdbl(struct pgb_val *o, double v)
{
	o->type = PGB_V_DOUBLE;
	o->d = v;
}

static int pgbs_func(const struct pgb_expr *e, const struct pgb_val *a, struct pgb_rng *rng,
                     struct pgb_val *o, char *err, size_t errlen)
{
	int64_t lb, ub, x, y;

	switch (e->func) {
	case F_RANDOM:
	case F_GAUSS:
	case F_EXP:
	case F_ZIPF: {
		if (pgbs_int(&a[0], &lb, err, errlen) || pgbs_int(&a[1], &ub, err, errlen))
			return -1;
		if (ub < lb)
			PGBS_FAIL("empty range given to random: [%" PRId64 ", %" PRId64 "]", lb, ub);
		double p = e->func == F_RANDOM ? 0 : pgbs_dbl(&a[2]);

		switch (e->func) {
		case F_RANDOM: pgbs_setint(o, pgb_rand_uniform(rng, lb, ub)); break;
		case F_GAUSS:
			if (!(p >= PGB_GAUSSIAN_MIN))
				PGBS_FAIL("gaussian parameter must be at least %.1f (not %g)",
				          PGB_GAUSSIAN_MIN, p);
			pgbs_setint(o, pgb_rand_gaussian(rng, lb, ub, p));
			break;
		case F_EXP:
			if (!(p > 0.0))
				PGBS_FAIL("exponential parameter must be greater than zero (not %g)", p);
			pgbs_setint(o, pgb_rand_exponential(rng, lb, ub, p));
			break;
		default:
			if (!(p >= PGB_ZIPF_MIN && p <= PGB_ZIPF_MAX))
				PGBS_FAIL("zipfian parameter must be in range [%.3f, %.0f] (not %g)",
				          PGB_ZIPF_MIN, PGB_ZIPF_MAX, p);
			pgbs_setint(o, pgb_rand_zipfian(rng, lb, ub, p));
			break;
		}
		if ((uint64_t)ub - (uint64_t)lb == UINT64_MAX && e->func != F_RANDOM)
			PGBS_FAIL("random range is too large");
		return 0;
	}
	case F_ABS:
		if (a[0].type == PGB_V_DOUBLE) {
			pgbs_setdbl(o, fabs(a[0].d));
		} else {
			if (a[0].i == INT64_MIN)
				PGBS_FAIL("bigint out of range");
			pgbs_setint(o, a[0].i < 0 ? -a[0].i : a[0].i);
		}
		return 0;
	case F_INT:
		if (a[0].type == PGB_V_DOUBLE) {
			double t = trunc(a[0].d);

			if (isnan(t) || t < -9223372036854775808.0 || t >= 9223372036854775808.0)
				PGBS_FAIL("double %g out of bigint range", a[0].d);
			pgbs_setint(o, (int64_t)t);
		} else {
			*o = a[0];
		}
		return 0;
	case F_DOUBLE: pgbs_setdbl(o, pgbs_dbl(&a[0])); return 0;
	case F_SQRT: pgbs_setdbl(o, sqrt(pgbs_dbl(&a[0]))); return 0;
	case F_LN: pgbs_setdbl(o, log(pgbs_dbl(&a[0]))); return 0;
	case F_EXPF: pgbs_setdbl(o, exp(pgbs_dbl(&a[0]))); return 0;
	case F_POW: pgbs_setdbl(o, pow(pgbs_dbl(&a[0]), pgbs_dbl(&a[1]))); return 0;
	case F_PI: pgbs_setdbl(o, M_PI); return 0;
	case F_MOD:
		if (pgbs_int(&a[0], &x, err, errlen) || pgbs_int(&a[1], &y, err, errlen))
			return -1;
		if (y == 0)
			PGBS_FAIL("division by zero");
		pgbs_setint(o, y == -1 ? 0 : x % y);
		return 0;
	case F_GREATEST:
	case F_LEAST: {
		*o = a[0];
		for (int i = 1; i < e->nargs; i++) {
			int c = pgbs_cmpv(&a[i], o);

			if (e->func == F_GREATEST ? c > 0 : c < 0)
				*o = a[i];
		}
		/* a mix of types gives a double, as in pgbench */
		for (int i = 0; i < e->nargs; i++)
			if (a[i].type == PGB_V_DOUBLE && o->type == PGB_V_INT)
				pgbs_setdbl(o, (double)o->i);
		return 0;
	}
	}
	PGBS_FAIL("unknown function");
}

int pgb_eval(const struct pgb_expr *e, const struct pgb_val *vars, struct pgb_rng *rng, struct pgb_val *o,
             char *err, size_t errlen)
{
	struct pgb_val a[2], fa[64];
	int64_t r;

	switch (e->op) {
	case E_INT: pgbs_setint(o, e->i); return 0;
	case E_DBL: pgbs_setdbl(o, e->d); return 0;
	case E_VAR:
		if (vars[e->var].type == PGB_V_UNSET)
			PGBS_FAIL("undefined variable :%s", e->name ? e->name : "?");
		*o = vars[e->var];
		return 0;
	case E_FUNC:
		for (int i = 0; i < e->nargs; i++) {
			int rc = pgb_eval(e->arg[i], vars, rng, &fa[i], err, errlen);

			if (rc)
				return rc;
		}
		return pgbs_func(e, fa, rng, o, err, errlen);
	case E_NEG:
	case E_NOT: {
		int rc = pgb_eval(e->arg[0], vars, rng, &a[0], err, errlen);

		if (rc)
			return rc;
		if (e->op == E_NOT) {
			pgbs_setint(o, pgbs_dbl(&a[0]) == 0.0);
		} else if (a[0].type == PGB_V_DOUBLE) {
			pgbs_setdbl(o, -a[0].d);
		} else {
			if (a[0].i == INT64_MIN)
				PGBS_FAIL("bigint out of range");
			pgbs_setint(o, -a[0].i);
		}
		return 0;
	}
	case E_AND:
	case E_OR: {
		int rc = pgb_eval(e->arg[0], vars, rng, &a[0], err, errlen);

		if (rc)
			return rc;
		bool t = pgbs_dbl(&a[0]) != 0.0;

		/* short-circuit, so a random() on the right is not drawn */
		if (e->op == E_AND ? !t : t) {
			pgbs_setint(o, t);
			return 0;
		}
		if ((rc = pgb_eval(e->arg[1], vars, rng, &a[1], err, errlen)))
			return rc;
		pgbs_setint(o, pgbs_dbl(&a[1]) != 0.0);
		return 0;
	}
	default: break;
	}
	for (int i = 0; i < 2; i++) {
		int rc = pgb_eval(e->arg[i], vars, rng, &a[i], err, errlen);

		if (rc)
			return rc;
	}
	bool ints = a[0].type == PGB_V_INT && a[1].type == PGB_V_INT;

	switch (e->op) {
	case E_LT: pgbs_setint(o, pgbs_cmpv(&a[0], &a[1]) < 0); return 0;
	case E_LE: pgbs_setint(o, pgbs_cmpv(&a[0], &a[1]) <= 0); return 0;
	case E_GT: pgbs_setint(o, pgbs_cmpv(&a[0], &a[1]) > 0); return 0;
	case E_GE: pgbs_setint(o, pgbs_cmpv(&a[0], &a[1]) >= 0); return 0;
	case E_EQ: pgbs_setint(o, pgbs_cmpv(&a[0], &a[1]) == 0); return 0;
	case E_NE: pgbs_setint(o, pgbs_cmpv(&a[0], &a[1]) != 0); return 0;
	case E_ADD:
		if (!ints) {
			pgbs_setdbl(o, pgbs_dbl(&a[0]) + pgbs_dbl(&a[1]));
		} else {
			if (__builtin_add_overflow(a[0].i, a[1].i, &r))
				PGBS_FAIL("bigint out of range");
			pgbs_setint(o, r);
		}
		return 0;
	case E_SUB:
		if (!ints) {
			pgbs_setdbl(o, pgbs_dbl(&a[0]) - pgbs_dbl(&a[1]));
		} else {
			if (__builtin_sub_overflow(a[0].i, a[1].i, &r))
				PGBS_FAIL("bigint out of range");
			pgbs_setint(o, r);
		}
		return 0;
	case E_MUL:
		if (!ints) {
			pgbs_setdbl(o, pgbs_dbl(&a[0]) * pgbs_dbl(&a[1]));
		} else {
			if (__builtin_mul_overflow(a[0].i, a[1].i, &r))
				PGBS_FAIL("bigint out of range");
			pgbs_setint(o, r);
		}
		return 0;
	case E_DIV:
	case E_MOD:
		if (!ints) {
			if (e->op == E_MOD)
				PGBS_FAIL("%% needs integer operands");
			double y = pgbs_dbl(&a[1]);

			if (y == 0.0)
				PGBS_FAIL("division by zero");
			pgbs_setdbl(o, pgbs_dbl(&a[0]) / y);
			return 0;
		}
		if (a[1].i == 0)
			PGBS_FAIL("division by zero");
		if (a[1].i == -1) {
			if (e->op == E_MOD) {
				pgbs_setint(o, 0);
				return 0;
			}
			if (a[0].i == INT64_MIN)
				PGBS_FAIL("bigint out of range");
			pgbs_setint(o, -a[0].i);
			return 0;
		}
		pgbs_setint(o, e->op == E_DIV ? a[0].i / a[1].i : a[0].i % a[1].i);
		return 0;
	default: PGBS_FAIL("bad expression");
	}
}

size_t pgb_val_format(const struct pgb_val *v, char *buf, size_t len)
{
	if (v->type == PGB_V_INT) {
		/* hand-rolled: this runs for every parameter of every statement */
		char tmp[24];
		size_t n = 0;
		uint64_t u = v->i < 0 ? -(uint64_t)v->i : (uint64_t)v->i;

		do {
			tmp[n++] = (char)('0' + u % 10);
			u /= 10;
		} while (u);
		size_t k = 0;

		if (v->i < 0 && k + 1 < len)
			buf[k++] = '-';
		while (n && k + 1 < len)
			buf[k++] = tmp[--n];
		buf[k] = '\0';
		return k;
	}
	int n = snprintf(buf, len, "%.17g", v->type == PGB_V_DOUBLE ? v->d : 0.0);

	return n < 0 ? 0 : (size_t)n >= len ? len - 1 : (size_t)n;
}

/* ---- script parser ---- */

static int pgbs_push(struct pgb_script *sc, const struct pgb_cmd *c)
{
	struct pgb_cmd *nc = realloc(sc->cmd, (sc->ncmd + 1) * sizeof(*nc));

	if (!nc)
		return -ENOMEM;
	sc->cmd = nc;
	sc->cmd[sc->ncmd++] = *c;
	return 0;
}

/* One line of text from [s, e), whitespace runs folded to one space. */
static char *pgbs_oneline(const char *s, const char *e)
{
	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	char *out = malloc(e - s + 1), *o = out;

	if (!out)
		return NULL;
	for (; s < e; s++) {
		if (isspace((unsigned char)*s)) {
			if (o > out && o[-1] != ' ')
				*o++ = ' ';
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
	return out;
}

static struct src_pos pgbs_pos(const struct src_pos *base, bool is_file, int line, int col)
{
	struct src_pos p = *base;

	if (is_file) {
		p.line = line;
		p.col = col;
	} else if (p.line > 0) {
		/* inline YAML: a block scalar starts on the line after the key,
		 * and base->col is where the script's lines start */
		p.line += line;
		p.col = (base->col > 0 ? base->col : 1) + col - 1;
	}
	return p;
}

static int pgbs_meta(struct pgb_prog *p, struct pgb_script *sc, const char *s, const char *e, int line,
                     int col0, const struct src_pos *base, bool is_file, struct diag *d)
{
	char *txt = strndup(s, e - s);
	struct pgb_cmd c = {.line = line};
	int rc = -EINVAL;

	if (!txt)
		return -ENOMEM;
	/* join continuation lines */
	for (char *q = txt; *q; q++)
		if (*q == '\\' && q != txt && (q[1] == '\n' || (q[1] == '\r' && q[2] == '\n')))
			*q = ' ';
	const char *q = txt + 1;
	size_t wl = 0;

	while (isalpha((unsigned char)q[wl]))
		wl++;
	struct src_pos pos = pgbs_pos(base, is_file, line, col0 + 1);

	if (wl == 3 && !strncmp(q, "set", 3)) {
		const char *n = q + 3;

		while (*n == ' ' || *n == '\t')
			n++;
		size_t nl = 0;

		while (isalnum((unsigned char)n[nl]) || n[nl] == '_')
			nl++;
		if (!nl) {
			diag_error(d, &pos, "pgbench script: \\set needs a variable name and an expression");
			goto out;
		}
		c.kind = PGB_CMD_SET;
		c.var = pgbs_var_slot(p, n, nl, true);
		const char *x = n + nl;
		struct src_pos xp = pgbs_pos(base, is_file, line, col0 + (int)(x - txt) + 1);

		if (c.var < 0 || !(c.expr = pgbs_parse_expr(p, x, &xp, d)))
			goto out;
	} else if (wl == 5 && !strncmp(q, "sleep", 5)) {
		const char *a = q + 5;
		char unit[8] = "";
		char arg[128];

		c.kind = PGB_CMD_SLEEP;
		if (sscanf(a, " %127s %7s", arg, unit) < 1) {
			diag_error(d, &pos, "pgbench script: \\sleep needs a duration");
			goto out;
		}
		if (!*unit || !strcmp(unit, "s"))
			c.unit_us = 1000000;
		else if (!strcmp(unit, "ms"))
			c.unit_us = 1000;
		else if (!strcmp(unit, "us"))
			c.unit_us = 1;
		else {
			diag_error(d, &pos, "pgbench script: \\sleep unit must be us, ms or s (not '%s')",
			           unit);
			goto out;
		}
		struct src_pos xp = pgbs_pos(base, is_file, line, col0 + (int)(strstr(txt, arg) - txt) + 1);

		if (arg[0] != ':' && !isdigit((unsigned char)arg[0])) {
			diag_error(d, &xp, "pgbench script: \\sleep takes an integer or a :variable");
			goto out;
		}
		if (!(c.expr = pgbs_parse_expr(p, arg, &xp, d)))
			goto out;
	} else {
		diag_error(d, &pos,
		           "pgbench script: unknown meta command '\\%.*s' (supported: \\set, \\sleep)",
		           (int)(wl > 40 ? 40 : wl), q);
		goto out;
	}
	if (!(c.text = pgbs_oneline(txt, txt + strlen(txt))) || pgbs_push(sc, &c)) {
		rc = -ENOMEM;
		goto out;
	}
	free(txt);
	return 0;
out:
	pgbs_expr_free(c.expr);
	free(c.text);
	free(txt);
	return rc;
}

int pgb_prog_add(struct pgb_prog *p, const char *name, const char *text, int weight,
                 const struct src_pos *pos, bool pos_is_file, struct diag *d)
{
	struct pgb_script sc = {.weight = weight, .pos = *pos};
	const char *s = text, *bol = text; /* bol: beginning of the current line */
	int line = 1, nerr = 0;
	const char *sql = NULL; /* start of the pending SQL command */
	int sql_line = 0;

	if (!(sc.name = strdup(name)))
		return -ENOMEM;
	while (*s) {
		/* at the start of a line */
		const char *l = s;

		while (*l == ' ' || *l == '\t')
			l++;
		if (!sql && (*l == '\n' || (*l == '\r' && l[1] == '\n') || (l[0] == '-' && l[1] == '-'))) {
			while (*l && *l != '\n')
				l++;
			s = bol = *l ? l + 1 : l;
			line++;
			continue;
		}
		if (!sql && *l == '\\') {
			const char *e = l;
			int lines = 1;

			for (;;) {
				while (*e && *e != '\n')
					e++;
				const char *t = e;

				while (t > l && (t[-1] == '\r' || t[-1] == ' ' || t[-1] == '\t'))
					t--;
				if (*e && t > l && t[-1] == '\\') {
					e++;
					lines++;
					continue;
				}
				break;
			}
			int rc = pgbs_meta(p, &sc, l, e, line, (int)(l - bol), pos, pos_is_file, d);

			if (rc == -ENOMEM)
				goto nomem;
			nerr += rc != 0;
			line += lines;
			s = bol = *e ? e + 1 : e;
			continue;
		}
		/* SQL: scan to a semicolon outside quotes, across lines */
		if (!sql) {
			sql = l;
			sql_line = line;
		}
		const char *q = s;
		char quote = 0;

		for (; *q; q++) {
			if (*q == '\n') {
				line++;
				bol = q + 1;
			}
			if (quote) {
				if (*q == quote)
					quote = 0;
				continue;
			}
			if (*q == '\'' || *q == '"') {
				quote = *q;
			} else if (q[0] == '-' && q[1] == '-') {
				while (q[1] && q[1] != '\n')
					q++;
			} else if (*q == ';') {
				break;
			}
		}
		struct pgb_cmd c = {.kind = PGB_CMD_SQL, .line = sql_line};

		if (!(c.text = pgbs_oneline(sql, q)))
			goto nomem;
		if (*c.text && pgbs_push(&sc, &c)) {
			free(c.text);
			goto nomem;
		}
		if (!*c.text)
			free(c.text);
		sql = NULL;
		s = *q ? q + 1 : q;
		/* rest of the line after ';' (only blanks expected) */
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (*s == '\n') {
			s = bol = s + 1;
			line++;
		}
	}
	if (!nerr && sc.ncmd == 0) {
		diag_error(d, pos, "pgbench script %s: no commands", name);
		nerr++;
	}
	struct pgb_script *ns = realloc(p->scripts, (p->nscripts + 1) * sizeof(*ns));

	if (!ns)
		goto nomem;
	p->scripts = ns;
	p->scripts[p->nscripts++] = sc;
	p->total_weight += weight;
	return nerr ? -EINVAL : 0;
nomem:
	/* hand the partial script to the program so pgb_prog_free releases it */
	diag_error(d, pos, "pgbench script %s: out of memory", name);
	ns = realloc(p->scripts, (p->nscripts + 1) * sizeof(*ns));
	if (ns) {
		p->scripts = ns;
		p->scripts[p->nscripts++] = sc;
	}
	return -ENOMEM;
}

/* Split a SQL command at its :var references (known variables only). */
static int pgbs_compile_sql(struct pgb_prog *p, struct pgb_script *sc, struct pgb_cmd *c, struct diag *d)
{
	const char *t = c->text;
	size_t len = strlen(t);
	/* worst case every ":x" (2 chars) becomes "$256" (4 chars) */
	char *sql = malloc(len * 2 + 16), *o = sql;
	int vars[PGB_MAX_PARAMS];
	const char *starts[PGB_MAX_PARAMS + 1], *ends[PGB_MAX_PARAMS];
	int n = 0;

	if (!sql)
		return -ENOMEM;
	starts[0] = t;
	for (const char *q = t; *q;) {
		if (*q != ':') {
			*o++ = *q++;
			continue;
		}
		if (q[1] == ':') {
			while (*q == ':')
				*o++ = *q++;
			continue;
		}
		size_t nl = 0;

		while (isalnum((unsigned char)q[1 + nl]) || q[1 + nl] == '_')
			nl++;
		int slot = nl ? pgbs_var_slot(p, q + 1, nl, false) : -1;

		if (slot < 0) {
			*o++ = *q++;
			continue;
		}
		if (n == PGB_MAX_PARAMS) {
			diag_error(d, &sc->pos, "pgbench script %s: more than %d variables in one statement",
			           sc->name, PGB_MAX_PARAMS);
			free(sql);
			return -EINVAL;
		}
		ends[n] = q;
		vars[n++] = slot;
		o += sprintf(o, "$%d", n);
		q += 1 + nl;
		starts[n] = q;
	}
	*o = '\0';
	c->sql = sql;
	c->nparams = n;
	c->param_var = malloc((n + 1) * sizeof(int));
	c->frag = calloc(n + 1, sizeof(char *));
	c->fraglen = calloc(n + 1, sizeof(size_t));
	if (!c->param_var || !c->frag || !c->fraglen)
		return -ENOMEM;
	memcpy(c->param_var, vars, n * sizeof(int));
	for (int k = 0; k <= n; k++) {
		const char *e = k < n ? ends[k] : t + len;

		c->fraglen[k] = e - starts[k];
		if (!(c->frag[k] = strndup(starts[k], c->fraglen[k])))
			return -ENOMEM;
	}
	return 0;
}

int pgb_prog_finish(struct pgb_prog *p, struct diag *d)
{
	int rc = 0;

	if (p->nscripts > 0 && p->total_weight <= 0) {
		diag_error(d, &p->scripts[0].pos,
		           "pgbench: the total weight of the scripts must be positive");
		rc = -EINVAL;
	}
	for (int s = 0; s < p->nscripts; s++)
		for (int c = 0; c < p->scripts[s].ncmd; c++)
			if (p->scripts[s].cmd[c].kind == PGB_CMD_SQL && !p->scripts[s].cmd[c].sql) {
				int r = pgbs_compile_sql(p, &p->scripts[s], &p->scripts[s].cmd[c], d);

				if (r)
					rc = r;
			}
	p->finished = true;
	return rc;
}
