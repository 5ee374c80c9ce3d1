/* pgb_eval: evaluation of pgbench expressions (see pgb_eval.h). */
#include "pgb_eval.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

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

/* - and NOT of an evaluated operand. */
static int pgbs_unop(enum pgb_expr_op op, const struct pgb_val *a, struct pgb_val *o, char *err,
                     size_t errlen)
{
	if (op == E_NOT) {
		pgbs_setint(o, pgbs_dbl(a) == 0.0);
	} else if (a->type == PGB_V_DOUBLE) {
		pgbs_setdbl(o, -a->d);
	} else {
		if (a->i == INT64_MIN)
			PGBS_FAIL("bigint out of range");
		pgbs_setint(o, -a->i);
	}
	return 0;
}

/* AND, OR: short-circuit, so a random() on the right is not drawn. */
static int pgbs_logic(const struct pgb_expr *e, const struct pgb_val *vars, struct pgb_rng *rng,
                      struct pgb_val *o, char *err, size_t errlen)
{
	struct pgb_val a;
	int rc = pgb_eval(e->arg[0], vars, rng, &a, err, errlen);

	if (rc)
		return rc;
	bool t = pgbs_dbl(&a) != 0.0;

	if (e->op == E_AND ? !t : t) {
		pgbs_setint(o, t);
		return 0;
	}
	if ((rc = pgb_eval(e->arg[1], vars, rng, &a, err, errlen)))
		return rc;
	pgbs_setint(o, pgbs_dbl(&a) != 0.0);
	return 0;
}

/* / and % (integers: truncating; doubles: / only). */
static int pgbs_div(enum pgb_expr_op op, const struct pgb_val *a, struct pgb_val *o, char *err, size_t errlen)
{
	if (a[0].type != PGB_V_INT || a[1].type != PGB_V_INT) {
		if (op == E_MOD)
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
		if (op == E_MOD) {
			pgbs_setint(o, 0);
			return 0;
		}
		if (a[0].i == INT64_MIN)
			PGBS_FAIL("bigint out of range");
		pgbs_setint(o, -a[0].i);
		return 0;
	}
	pgbs_setint(o, op == E_DIV ? a[0].i / a[1].i : a[0].i % a[1].i);
	return 0;
}

/* A comparison or arithmetic operator over two evaluated operands. */
static int pgbs_binop(enum pgb_expr_op op, const struct pgb_val *a, struct pgb_val *o, char *err,
                      size_t errlen)
{
	bool ints = a[0].type == PGB_V_INT && a[1].type == PGB_V_INT;
	int64_t r;
	bool ovf;

	switch (op) {
	case E_LT: pgbs_setint(o, pgbs_cmpv(&a[0], &a[1]) < 0); return 0;
	case E_LE: pgbs_setint(o, pgbs_cmpv(&a[0], &a[1]) <= 0); return 0;
	case E_GT: pgbs_setint(o, pgbs_cmpv(&a[0], &a[1]) > 0); return 0;
	case E_GE: pgbs_setint(o, pgbs_cmpv(&a[0], &a[1]) >= 0); return 0;
	case E_EQ: pgbs_setint(o, pgbs_cmpv(&a[0], &a[1]) == 0); return 0;
	case E_NE: pgbs_setint(o, pgbs_cmpv(&a[0], &a[1]) != 0); return 0;
	case E_ADD:
	case E_SUB:
	case E_MUL:
		if (!ints) {
			double x = pgbs_dbl(&a[0]), y = pgbs_dbl(&a[1]);

			pgbs_setdbl(o, op == E_ADD ? x + y : op == E_SUB ? x - y : x * y);
			return 0;
		}
		ovf = op == E_ADD   ? __builtin_add_overflow(a[0].i, a[1].i, &r)
		      : op == E_SUB ? __builtin_sub_overflow(a[0].i, a[1].i, &r)
		                    : __builtin_mul_overflow(a[0].i, a[1].i, &r);
		if (ovf)
			PGBS_FAIL("bigint out of range");
		pgbs_setint(o, r);
		return 0;
	case E_DIV:
	case E_MOD: return pgbs_div(op, a, o, err, errlen);
	default: PGBS_FAIL("bad expression");
	}
}

int pgb_eval(const struct pgb_expr *e, const struct pgb_val *vars, struct pgb_rng *rng, struct pgb_val *o,
             char *err, size_t errlen)
{
	struct pgb_val a[2], fa[64];
	int rc;

	switch (e->op) {
	case E_INT: pgbs_setint(o, e->i); return 0;
	case E_DBL: pgbs_setdbl(o, e->d); return 0;
	case E_VAR:
		if (vars[e->var].type == PGB_V_UNSET)
			PGBS_FAIL("undefined variable :%s", e->name ? e->name : "?");
		*o = vars[e->var];
		return 0;
	case E_FUNC:
		for (int i = 0; i < e->nargs; i++)
			if ((rc = pgb_eval(e->arg[i], vars, rng, &fa[i], err, errlen)))
				return rc;
		return pgbs_func(e, fa, rng, o, err, errlen);
	case E_NEG:
	case E_NOT:
		if ((rc = pgb_eval(e->arg[0], vars, rng, &a[0], err, errlen)))
			return rc;
		return pgbs_unop(e->op, &a[0], o, err, errlen);
	case E_AND:
	case E_OR: return pgbs_logic(e, vars, rng, o, err, errlen);
	default: break;
	}
	for (int i = 0; i < 2; i++)
		if ((rc = pgb_eval(e->arg[i], vars, rng, &a[i], err, errlen)))
			return rc;
	return pgbs_binop(e->op, a, o, err, errlen);
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
