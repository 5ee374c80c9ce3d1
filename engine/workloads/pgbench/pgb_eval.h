/* pgb_eval: evaluation of pgbench expressions (pgb_expr.h) against a
 * client's variables, and values formatted as SQL text. Runs for every
 * \set of every transaction: no allocation, no name look-up. */
#ifndef BENCHGRID_PGB_EVAL_H
#define BENCHGRID_PGB_EVAL_H

#include <stddef.h>
#include "pgb_expr.h"
#include "pgb_rand.h"

/* Evaluate e with the client's variables and generator. 0 on success;
 * -1 with a message in err on a run-time error (overflow, bad range). */
int pgb_eval(const struct pgb_expr *e, const struct pgb_val *vars, struct pgb_rng *rng, struct pgb_val *out,
             char *err, size_t errlen);

/* Format a value as SQL text (integers exactly, doubles round-trip). Returns
 * the length written (< len). */
size_t pgb_val_format(const struct pgb_val *v, char *buf, size_t len);

#endif
