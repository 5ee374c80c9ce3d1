/* pgb_script_util: small pieces the script parser's files share: variable
 * slots, positions, one-line command texts, the command list. */
#ifndef BENCHGRID_PGB_SCRIPT_UTIL_H
#define BENCHGRID_PGB_SCRIPT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include "diag.h"
#include "pgb_cmd.h"

/* The slot of name[0..len), created when `create`; -1 when unknown or out
 * of memory. */
int pgbs_var_slot(struct pgb_prog *p, const char *name, size_t len, bool create);
/* pgb_var_slot_fn for the expression parser (creates the slot). */
int pgbs_var_new(void *prog, const char *name, size_t len);
/* [s, e) on one line, whitespace runs folded to one space (malloc'd). */
char *pgbs_oneline(const char *s, const char *e);
/* An SQL command's text: comments dropped, whitespace outside quotes folded. */
char *pgbs_sql_text(const char *s, const char *e);
/* Script line and column (1-based) to a position in the scenario. */
struct src_pos pgbs_pos(const struct src_pos *base, bool is_file, int line, int col);
/* Append a command (copied) to the script. */
int pgbs_push(struct pgb_script *sc, const struct pgb_cmd *c);
/* Free what a command owns. */
void pgbs_cmd_free(struct pgb_cmd *c);

#endif
