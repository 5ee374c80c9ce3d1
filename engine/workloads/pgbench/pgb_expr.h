/* pgb_expr: the expressions of pgbench 15's \set (and \if, \sleep): values,
 * the tree, and its parser (evaluation is pgb_eval.c).
 *
 * Grammar (pgbench 15's exprparse.y), precedence from low to high:
 *   OR; AND; NOT (right); IS [NOT] NULL|TRUE|FALSE, ISNULL, NOTNULL;
 *   = <> != < <= > >= (non-associative); & | # << >> ~ (left, one level);
 *   + -; * / %; unary + -.
 * Primaries: integer and double constants, true, false, null, :variable,
 * function(args...), CASE WHEN c THEN v [WHEN ...] [ELSE e] END, ( expr ).
 * Keywords and function names are case-insensitive.
 * Variables are resolved to slots while parsing (the caller owns the table
 * of names), so evaluation never looks a name up. */
#ifndef BENCHGRID_PGB_EXPR_H
#define BENCHGRID_PGB_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "diag.h"
#include "pgb_val.h"

enum pgb_expr_op {
	E_INT,
	E_DBL,
	E_BOOL,
	E_NULL,
	E_VAR,
	E_NEG, /* 0 - x, as pgbench computes unary minus */
	E_NOT,
	E_ADD,
	E_SUB,
	E_MUL,
	E_DIV,
	E_MOD,
	E_LT, /* a > b is parsed as b < a (pgbench evaluates b first) */
	E_LE,
	E_EQ,
	E_NE,
	E_BITAND,
	E_BITOR,
	E_BITXOR, /* ~x is parsed as -1 # x */
	E_LSHIFT,
	E_RSHIFT,
	E_IS, /* arg[0] IS arg[1] (a null or boolean constant) */
	E_AND,
	E_OR,
	E_CASE, /* args: cond1, val1, ..., condN, valN, else (null if absent) */
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
	F_PI,
	F_GREATEST,
	F_LEAST,
	F_DEBUG,
	F_HASH_MURMUR2,
	F_HASH_FNV1A,
	F_PERMUTE,
	/* YCSB's generators (pgb_ycsb_rand.h), not pgbench's */
	F_YCSB_ZIPF,
	F_YCSB_LATEST,
	F_YCSB_HASH,
	F_YCSB_INS_NEXT,
	F_YCSB_INS_LAST,
};

struct pgb_expr {
	enum pgb_expr_op op;
	enum pgb_expr_func func;
	int64_t i;
	double d;
	bool b;
	int var;
	char *name; /* E_VAR: the variable's name, for errors */
	int nargs;
	struct pgb_expr **arg; /* operands or function arguments */
};

/* The slot of variable name[0..len) in the caller's table, created when
 * new; < 0 when out of memory. */
typedef int (*pgb_var_slot_fn)(void *ctx, const char *name, size_t len);

/* Parse a whole expression text (pos: where s[0] is); NULL after an error
 * in d. hash() and permute() without a seed read :default_seed. */
struct pgb_expr *pgb_expr_parse(const char *s, const struct src_pos *pos, pgb_var_slot_fn slot,
                                void *slot_ctx, struct diag *d);
void pgb_expr_free(struct pgb_expr *e);

#endif
