/* pgb_expr: the expressions of pgbench's \set and \sleep: values, the
 * tree, and its parser (evaluation is pgb_eval.c).
 *
 * Expressions are parsed by recursive descent into a small tree; precedence
 * from low to high: OR, AND, NOT, comparisons, + -, * / %, unary -.
 * Variables are resolved to slots while parsing (the caller owns the table
 * of names), so evaluation never looks a name up. */
#ifndef BENCHGRID_PGB_EXPR_H
#define BENCHGRID_PGB_EXPR_H

#include <stddef.h>
#include <stdint.h>
#include "diag.h"

enum pgb_vtype { PGB_V_UNSET, PGB_V_INT, PGB_V_DOUBLE };

struct pgb_val {
	enum pgb_vtype type;
	union {
		int64_t i;
		double d;
	};
};

enum pgb_expr_op {
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

enum pgb_expr_func {
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

struct pgb_expr {
	enum pgb_expr_op op;
	enum pgb_expr_func func;
	int64_t i;
	double d;
	int var;
	char *name; /* E_VAR: the variable's name, for errors */
	int nargs;
	struct pgb_expr **arg; /* operands (1 or 2) or function arguments */
};

/* The slot of variable name[0..len) in the caller's table, created when
 * new; < 0 when out of memory. */
typedef int (*pgb_var_slot_fn)(void *ctx, const char *name, size_t len);

/* Parse a whole expression text (pos: where s[0] is); NULL after an error
 * in d. */
struct pgb_expr *pgb_expr_parse(const char *s, const struct src_pos *pos, pgb_var_slot_fn slot,
                                void *slot_ctx, struct diag *d);
void pgb_expr_free(struct pgb_expr *e);

#endif
