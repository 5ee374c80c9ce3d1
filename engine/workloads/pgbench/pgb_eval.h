/* pgb_eval: evaluation of pgbench 15 expressions (pgb_expr.h) against a
 * client's variables, with pgbench's types and errors: int and double
 * arithmetic (int overflow is an error, a double operand makes a double),
 * booleans from comparisons, AND/OR/NOT on booleans only, null propagating
 * through every operator and function but IS, debug and the lazy AND, OR
 * and CASE. Runs for every \set of every transaction: no allocation, no
 * name look-up. */
#ifndef BENCHGRID_PGB_EVAL_H
#define BENCHGRID_PGB_EVAL_H

#include <stdbool.h>
#include <stddef.h>
#include "pgb_expr.h"
#include "pgb_rand.h"

/* What an evaluation needs besides the expression. */
struct pgb_eval_ctx {
	struct pgb_val *vars; /* the client's variables, by slot */
	struct pgb_rng *rng;  /* the client's generator for random*() */
	int script;           /* index of the running script (debug lines) */
	int command;          /* 0-based index of the command in its script;
	                       * debug() prints command + 1, as pgbench */
	int64_t default_seed; /* hash()/permute() seed when :default_seed is
	                       * not set */
	/* Where debug() writes its line ("debug(script=S,command=C): int 17\n",
	 * with its newline); NULL: stderr. */
	void (*debug)(void *arg, const char *line);
	void *debug_arg;
};

/* Evaluate e. 0 on success, the result in *out (never TEXT; out->buf is
 * not touched); -1 with pgbench's message in err on a run-time error
 * (overflow, division by zero, bad argument, undefined variable). */
int pgb_eval(const struct pgb_expr *e, const struct pgb_eval_ctx *ctx, struct pgb_val *out, char *err,
             size_t errlen);

/* pgbench's truth of an expression's value (CASE, \if): null is false,
 * a boolean is itself, a number is true when not zero. */
bool pgb_val_truth(const struct pgb_val *v);

#endif
