/* pgb_eval: evaluation of pgbench expressions (see pgb_eval.h), after
 * pgbench 15's evaluateExpr: the same coercions, errors and order of
 * evaluation (all arguments left to right, then the operator). */
#include "pgb_eval.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "pgb_hash.h"
#include "pgb_permute.h"
#include "pgb_ycsb_rand.h"

/* pgbench evaluates at most this many arguments of a function */
#define PGBS_MAX_FARGS 16

#define PGBS_FAIL(...)                                                                                       \
	do {                                                                                                 \
		snprintf(err, errlen, __VA_ARGS__);                                                          \
		return -1;                                                                                   \
	} while (0)

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

static inline void pgbs_setbool(struct pgb_val *o, bool v)
{
	o->type = PGB_V_BOOL;
	o->b = v;
}

static inline void pgbs_setnull(struct pgb_val *o)
{
	o->type = PGB_V_NULL;
	o->i = 0;
}

static const char *pgbs_tname(const struct pgb_val *v)
{
	switch (v->type) {
	case PGB_V_NULL: return "null";
	case PGB_V_BOOL: return "boolean";
	case PGB_V_INT: return "int";
	case PGB_V_DOUBLE: return "double";
	default: return "none";
	}
}

static int pgbs_int(const struct pgb_val *v, int64_t *out, char *err, size_t errlen)
{
	if (v->type == PGB_V_INT) {
		*out = v->i;
		return 0;
	}
	if (v->type != PGB_V_DOUBLE)
		PGBS_FAIL("cannot coerce %s to int", pgbs_tname(v));
	double r = rint(v->d);

	if (isnan(r) || !(r >= -9223372036854775808.0 && r < 9223372036854775808.0))
		PGBS_FAIL("double to int overflow for %f", r);
	*out = (int64_t)r;
	return 0;
}

static int pgbs_dbl(const struct pgb_val *v, double *out, char *err, size_t errlen)
{
	if (v->type == PGB_V_DOUBLE)
		*out = v->d;
	else if (v->type == PGB_V_INT)
		*out = (double)v->i;
	else
		PGBS_FAIL("cannot coerce %s to double", pgbs_tname(v));
	return 0;
}

static int pgbs_bool(const struct pgb_val *v, bool *out, char *err, size_t errlen)
{
	if (v->type != PGB_V_BOOL)
		PGBS_FAIL("cannot coerce %s to boolean", pgbs_tname(v));
	*out = v->b;
	return 0;
}

bool pgb_val_truth(const struct pgb_val *v)
{
	switch (v->type) {
	case PGB_V_BOOL: return v->b;
	case PGB_V_INT: return v->i != 0;
	case PGB_V_DOUBLE: return v->d != 0.0;
	default: return false;
	}
}

static int pgbs_eval(const struct pgb_expr *e, const struct pgb_eval_ctx *c, struct pgb_val *o, char *err,
                     size_t errlen);

/* An operand: integer constants and variables without a call. */
static inline int pgbs_operand(const struct pgb_expr *e, const struct pgb_eval_ctx *c, struct pgb_val *o,
                               char *err, size_t errlen)
{
	if (e->op == E_INT) {
		pgbs_setint(o, e->i);
		return 0;
	}
	if (e->op == E_VAR && c->vars[e->var].type == PGB_V_INT) {
		pgbs_setint(o, c->vars[e->var].i);
		return 0;
	}
	return pgbs_eval(e, c, o, err, errlen);
}

/* The integer case of + - * / % and comparisons (the common one: kept
 * inline in pgbs_eval). */
static inline int pgbs_arith_int(enum pgb_expr_op op, int64_t x, int64_t y, struct pgb_val *o, char *err,
                                 size_t errlen)
{
	int64_t res;

	switch (op) {
	case E_ADD:
		if (__builtin_add_overflow(x, y, &res))
			PGBS_FAIL("bigint add out of range");
		pgbs_setint(o, res);
		return 0;
	case E_SUB:
		if (__builtin_sub_overflow(x, y, &res))
			PGBS_FAIL("bigint sub out of range");
		pgbs_setint(o, res);
		return 0;
	case E_MUL:
		if (__builtin_mul_overflow(x, y, &res))
			PGBS_FAIL("bigint mul out of range");
		pgbs_setint(o, res);
		return 0;
	case E_EQ: pgbs_setbool(o, x == y); return 0;
	case E_NE: pgbs_setbool(o, x != y); return 0;
	case E_LE: pgbs_setbool(o, x <= y); return 0;
	case E_LT: pgbs_setbool(o, x < y); return 0;
	default: break;
	}
	if (y == 0)
		PGBS_FAIL("division by zero");
	if (y == -1) {
		if (op == E_MOD) {
			pgbs_setint(o, 0);
			return 0;
		}
		if (x == INT64_MIN)
			PGBS_FAIL("bigint div out of range");
		pgbs_setint(o, -x);
		return 0;
	}
	pgbs_setint(o, op == E_DIV ? x / y : x % y);
	return 0;
}

/* + - * / % and comparisons: doubles when either operand is one (but %),
 * else integers with overflow errors. */
static int pgbs_arith(enum pgb_expr_op op, const struct pgb_val *l, const struct pgb_val *r,
                      struct pgb_val *o, char *err, size_t errlen)
{
	if ((l->type == PGB_V_DOUBLE || r->type == PGB_V_DOUBLE) && op != E_MOD) {
		double x, y;

		if (pgbs_dbl(l, &x, err, errlen) || pgbs_dbl(r, &y, err, errlen))
			return -1;
		switch (op) {
		case E_ADD: pgbs_setdbl(o, x + y); return 0;
		case E_SUB: pgbs_setdbl(o, x - y); return 0;
		case E_MUL: pgbs_setdbl(o, x * y); return 0;
		case E_DIV: pgbs_setdbl(o, x / y); return 0;
		case E_EQ: pgbs_setbool(o, x == y); return 0;
		case E_NE: pgbs_setbool(o, x != y); return 0;
		case E_LE: pgbs_setbool(o, x <= y); return 0;
		default: pgbs_setbool(o, x < y); return 0;
		}
	}
	int64_t x, y;

	if (pgbs_int(l, &x, err, errlen) || pgbs_int(r, &y, err, errlen))
		return -1;
	return pgbs_arith_int(op, x, y, o, err, errlen);
}

/* & | # << >> on integers; shift counts modulo 64, as the x86 instruction
 * pgbench compiles to does. */
static int pgbs_bits(enum pgb_expr_op op, const struct pgb_val *l, const struct pgb_val *r, struct pgb_val *o,
                     char *err, size_t errlen)
{
	int64_t x, y;

	if (pgbs_int(l, &x, err, errlen) || pgbs_int(r, &y, err, errlen))
		return -1;
	switch (op) {
	case E_BITAND: pgbs_setint(o, x & y); break;
	case E_BITOR: pgbs_setint(o, x | y); break;
	case E_BITXOR: pgbs_setint(o, x ^ y); break;
	case E_LSHIFT: pgbs_setint(o, (int64_t)((uint64_t)x << (y & 63))); break;
	default: pgbs_setint(o, x >> (y & 63)); break;
	}
	return 0;
}

/* AND, OR: a null left operand gives null; otherwise booleans only, and
 * the right operand is evaluated only when needed. */
static int pgbs_logic(const struct pgb_expr *e, const struct pgb_eval_ctx *c, struct pgb_val *o, char *err,
                      size_t errlen)
{
	struct pgb_val a;
	bool t;

	if (pgbs_eval(e->arg[0], c, &a, err, errlen))
		return -1;
	if (a.type == PGB_V_NULL) {
		pgbs_setnull(o);
		return 0;
	}
	if (pgbs_bool(&a, &t, err, errlen))
		return -1;
	if (e->op == E_AND ? !t : t) {
		pgbs_setbool(o, t);
		return 0;
	}
	if (pgbs_eval(e->arg[1], c, &a, err, errlen))
		return -1;
	if (a.type == PGB_V_NULL) {
		pgbs_setnull(o);
		return 0;
	}
	if (pgbs_bool(&a, &t, err, errlen))
		return -1;
	pgbs_setbool(o, t);
	return 0;
}

static int pgbs_case(const struct pgb_expr *e, const struct pgb_eval_ctx *c, struct pgb_val *o, char *err,
                     size_t errlen)
{
	int i;

	for (i = 0; i + 1 < e->nargs; i += 2) {
		struct pgb_val cond;

		if (pgbs_eval(e->arg[i], c, &cond, err, errlen))
			return -1;
		if (pgb_val_truth(&cond))
			return pgbs_eval(e->arg[i + 1], c, o, err, errlen);
	}
	return pgbs_eval(e->arg[i], c, o, err, errlen);
}

static void pgbs_debug(const struct pgb_eval_ctx *c, const struct pgb_val *v)
{
	char line[128];
	int n = snprintf(line, sizeof(line), "debug(script=%d,command=%d): ", c->script, c->command + 1);

	if (n < 0 || (size_t)n >= sizeof(line))
		n = 0;
	char *p = line + n;
	size_t left = sizeof(line) - (size_t)n;

	switch (v->type) {
	case PGB_V_NULL: snprintf(p, left, "null\n"); break;
	case PGB_V_BOOL: snprintf(p, left, "boolean %s\n", v->b ? "true" : "false"); break;
	case PGB_V_INT: snprintf(p, left, "int %" PRId64 "\n", v->i); break;
	default: {
		char num[64];

		pgb_val_format_double(v->d, num, sizeof(num));
		snprintf(p, left, "double %s\n", num);
		break;
	}
	}
	if (c->debug)
		c->debug(c->debug_arg, line);
	else
		fputs(line, stderr);
}

/* random(lb, ub) and the three distributions' parameter checks. */
static int pgbs_random(const struct pgb_expr *e, const struct pgb_val *a, struct pgb_rng *rng,
                       struct pgb_val *o, char *err, size_t errlen)
{
	int64_t lb, ub, delta;
	double p;

	if (pgbs_int(&a[0], &lb, err, errlen) || pgbs_int(&a[1], &ub, err, errlen))
		return -1;
	if (lb > ub)
		PGBS_FAIL("empty range given to random");
	if (__builtin_sub_overflow(ub, lb, &delta) || __builtin_add_overflow(delta, 1, &delta))
		PGBS_FAIL("random range is too large");
	if (e->func == F_RANDOM) {
		pgbs_setint(o, pgb_rand_uniform(rng, lb, ub));
		return 0;
	}
	if (e->func == F_YCSB_ZIPF || e->func == F_YCSB_LATEST) {
		pgbs_setint(o, e->func == F_YCSB_ZIPF ? pgb_ycsb_scrambled(rng, lb, ub)
		                                      : pgb_ycsb_latest(rng, lb, ub));
		return 0;
	}
	if (pgbs_dbl(&a[2], &p, err, errlen))
		return -1;
	switch (e->func) {
	case F_GAUSS:
		if (p < PGB_GAUSSIAN_MIN)
			PGBS_FAIL("gaussian parameter must be at least %f (not %f)", PGB_GAUSSIAN_MIN, p);
		pgbs_setint(o, pgb_rand_gaussian(rng, lb, ub, p));
		return 0;
	case F_ZIPF:
		if (p < PGB_ZIPF_MIN || p > PGB_ZIPF_MAX)
			PGBS_FAIL("zipfian parameter must be in range [%.3f, %.0f] (not %f)", PGB_ZIPF_MIN,
			          PGB_ZIPF_MAX, p);
		pgbs_setint(o, pgb_rand_zipfian(rng, lb, ub, p));
		return 0;
	default:
		if (p <= 0.0)
			PGBS_FAIL("exponential parameter must be greater than zero (not %f)", p);
		pgbs_setint(o, pgb_rand_exponential(rng, lb, ub, p));
		return 0;
	}
}

/* hash_murmur2, hash_fnv1a, permute (seed last). */
static int pgbs_hash(const struct pgb_expr *e, const struct pgb_val *a, struct pgb_val *o, char *err,
                     size_t errlen)
{
	int64_t v[3];
	int n = e->func == F_PERMUTE ? 3 : 2;

	for (int i = 0; i < n; i++)
		if (pgbs_int(&a[i], &v[i], err, errlen))
			return -1;
	if (e->func == F_PERMUTE && v[1] <= 0)
		PGBS_FAIL("permute size parameter must be greater than zero");
	if (e->func == F_PERMUTE)
		pgbs_setint(o, pgb_permute(v[0], v[1], v[2]));
	else
		pgbs_setint(o, e->func == F_HASH_FNV1A ? pgb_hash_fnv1a(v[0], v[1])
		                                       : pgb_hash_murmur2(v[0], v[1]));
	return 0;
}

/* greatest, least: doubles when any argument is one, else integers. */
static int pgbs_extremum(const struct pgb_expr *e, const struct pgb_val *a, struct pgb_val *o, char *err,
                         size_t errlen)
{
	bool dbl = false, least = e->func == F_LEAST;

	for (int i = 0; i < e->nargs; i++)
		dbl |= a[i].type == PGB_V_DOUBLE;
	if (dbl) {
		double m, x;

		if (pgbs_dbl(&a[0], &m, err, errlen))
			return -1;
		for (int i = 1; i < e->nargs; i++) {
			if (pgbs_dbl(&a[i], &x, err, errlen))
				return -1;
			m = least ? (m < x ? m : x) : (m > x ? m : x);
		}
		pgbs_setdbl(o, m);
		return 0;
	}
	int64_t m, x;

	if (pgbs_int(&a[0], &m, err, errlen))
		return -1;
	for (int i = 1; i < e->nargs; i++) {
		if (pgbs_int(&a[i], &x, err, errlen))
			return -1;
		m = least ? (m < x ? m : x) : (m > x ? m : x);
	}
	pgbs_setint(o, m);
	return 0;
}

/* One-argument numeric functions. */
static int pgbs_func1(enum pgb_expr_func f, const struct pgb_val *a, struct pgb_val *o, char *err,
                      size_t errlen)
{
	double x;
	int64_t i;

	switch (f) {
	case F_ABS:
		if (a->type == PGB_V_INT) {
			/* wraps at INT64_MIN, as pgbench's does */
			pgbs_setint(o, a->i < 0 ? (int64_t)(0 - (uint64_t)a->i) : a->i);
			return 0;
		}
		if (pgbs_dbl(a, &x, err, errlen))
			return -1;
		pgbs_setdbl(o, x < 0.0 ? -x : x);
		return 0;
	case F_INT:
		if (pgbs_int(a, &i, err, errlen))
			return -1;
		pgbs_setint(o, i);
		return 0;
	default: break;
	}
	if (pgbs_dbl(a, &x, err, errlen))
		return -1;
	pgbs_setdbl(o, f == F_SQRT ? sqrt(x) : f == F_LN ? log(x) : f == F_EXPF ? exp(x) : x);
	return 0;
}

/* ycsb_hash(v), ycsb_insert_next(base), ycsb_insert_last(base) */
static int pgbs_ycsb1(enum pgb_expr_func f, const struct pgb_val *a, struct pgb_val *o, char *err,
                      size_t errlen)
{
	int64_t v;
	if (pgbs_int(a, &v, err, errlen))
		return -1;
	pgbs_setint(o, f == F_YCSB_HASH       ? pgb_ycsb_fnv64(v)
	               : f == F_YCSB_INS_NEXT ? pgb_ycsb_insert_next(v)
	                                      : pgb_ycsb_insert_last(v));
	return 0;
}

static int pgbs_func(const struct pgb_expr *e, const struct pgb_eval_ctx *c, struct pgb_val *o, char *err,
                     size_t errlen)
{
	struct pgb_val a[PGBS_MAX_FARGS];
	bool has_null = false;
	double x, y;
	int n = e->nargs < PGBS_MAX_FARGS ? e->nargs : PGBS_MAX_FARGS;

	for (int i = 0; i < n; i++) {
		if (pgbs_operand(e->arg[i], c, &a[i], err, errlen))
			return -1;
		has_null |= a[i].type == PGB_V_NULL;
	}
	if (e->nargs > PGBS_MAX_FARGS)
		PGBS_FAIL("too many function arguments, maximum is %d", PGBS_MAX_FARGS);
	if (e->func == F_DEBUG) {
		pgbs_debug(c, &a[0]);
		*o = a[0];
		return 0;
	}
	if (has_null) {
		pgbs_setnull(o);
		return 0;
	}
	switch (e->func) {
	case F_RANDOM:
	case F_GAUSS:
	case F_EXP:
	case F_ZIPF:
	case F_YCSB_ZIPF:
	case F_YCSB_LATEST: return pgbs_random(e, a, c->rng, o, err, errlen);
	case F_YCSB_HASH:
	case F_YCSB_INS_NEXT:
	case F_YCSB_INS_LAST: return pgbs_ycsb1(e->func, &a[0], o, err, errlen);
	case F_HASH_MURMUR2:
	case F_HASH_FNV1A:
	case F_PERMUTE: return pgbs_hash(e, a, o, err, errlen);
	case F_GREATEST:
	case F_LEAST: return pgbs_extremum(e, a, o, err, errlen);
	case F_PI: pgbs_setdbl(o, M_PI); return 0;
	case F_POW:
		if (pgbs_dbl(&a[0], &x, err, errlen) || pgbs_dbl(&a[1], &y, err, errlen))
			return -1;
		pgbs_setdbl(o, pow(x, y));
		return 0;
	default: return pgbs_func1(e->func, &a[0], o, err, errlen);
	}
}

static int pgbs_var(const struct pgb_expr *e, const struct pgb_eval_ctx *c, struct pgb_val *o, char *err,
                    size_t errlen)
{
	const struct pgb_val *v = &c->vars[e->var];

	switch (v->type) {
	case PGB_V_INT: pgbs_setint(o, v->i); return 0;
	case PGB_V_UNSET:
		if (e->b) { /* the implicit seed of hash() and permute() */
			pgbs_setint(o, c->default_seed);
			return 0;
		}
		PGBS_FAIL("undefined variable \"%s\"", e->name ? e->name : "?");
	case PGB_V_TEXT: return pgb_val_from_text(v, e->name ? e->name : "?", o, err, errlen);
	default:
		o->type = v->type;
		o->i = v->i; /* the whole union */
		return 0;
	}
}

static int pgbs_eval(const struct pgb_expr *e, const struct pgb_eval_ctx *c, struct pgb_val *o, char *err,
                     size_t errlen)
{
	struct pgb_val a[2];

	switch (e->op) {
	case E_INT: pgbs_setint(o, e->i); return 0;
	case E_DBL: pgbs_setdbl(o, e->d); return 0;
	case E_BOOL: pgbs_setbool(o, e->b); return 0;
	case E_NULL: pgbs_setnull(o); return 0;
	case E_VAR: return pgbs_var(e, c, o, err, errlen);
	case E_FUNC: return pgbs_func(e, c, o, err, errlen);
	case E_AND:
	case E_OR: return pgbs_logic(e, c, o, err, errlen);
	case E_CASE: return pgbs_case(e, c, o, err, errlen);
	case E_NEG:
	case E_NOT:
		if (pgbs_eval(e->arg[0], c, &a[1], err, errlen))
			return -1;
		if (a[1].type == PGB_V_NULL) {
			pgbs_setnull(o);
			return 0;
		}
		if (e->op == E_NEG) {
			pgbs_setint(&a[0], 0);
			return pgbs_arith(E_SUB, &a[0], &a[1], o, err, errlen);
		}
		if (pgbs_bool(&a[1], &a[0].b, err, errlen))
			return -1;
		pgbs_setbool(o, !a[0].b);
		return 0;
	default: break;
	}
	if (pgbs_operand(e->arg[0], c, &a[0], err, errlen) || pgbs_operand(e->arg[1], c, &a[1], err, errlen))
		return -1;
	if (a[0].type == PGB_V_INT && a[1].type == PGB_V_INT && e->op >= E_ADD && e->op <= E_NE)
		return pgbs_arith_int(e->op, a[0].i, a[1].i, o, err, errlen);
	if (e->op == E_IS) {
		pgbs_setbool(o, a[0].type == a[1].type && (a[0].type == PGB_V_NULL || a[0].b == a[1].b));
		return 0;
	}
	if (a[0].type == PGB_V_NULL || a[1].type == PGB_V_NULL) {
		pgbs_setnull(o);
		return 0;
	}
	if (e->op >= E_BITAND && e->op <= E_RSHIFT)
		return pgbs_bits(e->op, &a[0], &a[1], o, err, errlen);
	return pgbs_arith(e->op, &a[0], &a[1], o, err, errlen);
}

int pgb_eval(const struct pgb_expr *e, const struct pgb_eval_ctx *ctx, struct pgb_val *out, char *err,
             size_t errlen)
{
	return pgbs_eval(e, ctx, out, err, errlen);
}
