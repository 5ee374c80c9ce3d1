/* lb_parse: tool output into metrics, by a shipped parser (lua/parsers/)
 * or a function defined in the hooks. */
#ifndef BENCHGRID_LB_PARSE_H
#define BENCHGRID_LB_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "result.h"

struct lb;

/* Parse tool output into metrics of res. parser is a shipped parser name
 * ("dd", "pgbench", "fio", "hdparm", "bench.sh") or the name of a function
 * defined in the hooks, called as fn(text, result). at (may be NULL) is the
 * position of the `parse:` option for errors. */
int lb_parse_output(struct lb *L, const char *parser, const struct src_pos *at, const char *out, size_t len,
                    struct step_result *res, struct diag *d);
/* Is parser a shipped parser name? */
bool lb_is_shipped_parser(const char *parser);
/* NULL-terminated list of shipped parser names (for help and errors). */
const char *const *lb_shipped_parsers(void);

#endif
