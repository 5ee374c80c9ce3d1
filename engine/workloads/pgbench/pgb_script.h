/* pgb_script: pgbench 15's script language.
 *
 * A script is a list of commands, one per SQL statement or meta command:
 *   SQL;              ends at a semicolon outside quotes (may span lines);
 *                     :name is replaced by the variable's value (simple
 *                     protocol) or becomes a $n parameter (extended,
 *                     prepared); "::" (casts) and names never \set are left
 *                     alone, as pgbench does.
 *   \set name expr    pgbench 15's expressions (pgb_expr.h, pgb_eval.h).
 *   \sleep n [us|ms|s]  n is an integer or :var; default unit seconds.
 *   SQL \gset [prefix] / \aset [prefix]   end an SQL command (or follow one
 *                     ended by ';'): its result's columns become variables.
 *                     "\;" inside SQL separates statements of one command.
 *   \if expr, \elif expr, \else, \endif   conditional blocks (nested); the
 *                     parser links each to the next branch and to its \endif.
 *   \shell cmd args, \setshell var cmd args   a command through /bin/sh, as
 *                     pgbench's system()/popen(); :var arguments replaced.
 *   \startpipeline, \endpipeline   libpq pipeline mode.
 * Lines starting with "--" are comments; a trailing backslash continues a
 * meta command. Variables scale, client_id, random_seed and default_seed are
 * always defined; pgb_prog_define gives others initial text (define:).
 * Parsing checks what pgbench 15 checks (pgb_script_meta.c), and pipelines
 * (pgb_prog_check_protocol).
 *
 * The variables of all scripts of one run share one table of slots (struct
 * pgb_prog), resolved at parse time, so evaluation never looks names up.
 * Parse errors go to a diag with the script's position. Expressions are
 * pgb_expr.h's, evaluated by pgb_eval.h. */
#ifndef BENCHGRID_PGB_SCRIPT_H
#define BENCHGRID_PGB_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "diag.h"
#include "pgb_cmd.h"
#include "pgb_expr.h"

void pgb_prog_init(struct pgb_prog *p);
void pgb_prog_free(struct pgb_prog *p);

/* Parse one script from `text` and add it with `weight` (>= 0). `pos` is
 * where the text came from: a script file (pos_is_file; line 1 = first
 * line) or an inline YAML scalar (script line k is on line pos.line + k, its
 * first character in column pos.col). 0 or -EINVAL with errors in d. */
int pgb_prog_add(struct pgb_prog *p, const char *name, const char *text, int weight,
                 const struct src_pos *pos, bool pos_is_file, struct diag *d);

/* pgbench -D name=value: the variable's initial text in every client
 * (before the scripts are added or finished). 0, -EINVAL or -ENOMEM. */
int pgb_prog_define(struct pgb_prog *p, const char *name, const char *value);

/* After the last add: resolve :var references in SQL. 0 or -EINVAL. */
int pgb_prog_finish(struct pgb_prog *p, struct diag *d);

/* Pipelines need the extended or prepared protocol (as pgbench 15, which
 * aborts its clients at run time; benchgrid rejects the script when it is
 * checked). 0 or -EINVAL with errors in d. */
int pgb_prog_check_protocol(const struct pgb_prog *p, bool simple, struct diag *d);

/* The slot of variable `name`, or -1 (run-time look-ups by \gset). */
int pgb_prog_var(const struct pgb_prog *p, const char *name);

/* Text of a builtin script ("tpcb-like", "simple-update", "select-only"),
 * or NULL. */
const char *pgb_builtin(const char *name);

#endif
