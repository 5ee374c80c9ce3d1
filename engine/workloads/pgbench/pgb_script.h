/* pgb_script: pgbench's script language (the common subset).
 *
 * A script is a list of commands, one per SQL statement or meta command:
 *   SQL;              ends at a semicolon outside quotes (may span lines);
 *                     :name is replaced by the variable's value (simple
 *                     protocol) or becomes a $n parameter (extended,
 *                     prepared); "::" (casts) and names never \set are left
 *                     alone, as pgbench does.
 *   \set name expr    integer/double arithmetic: + - * / % (integer division
 *                     truncates, overflow and division by zero are errors),
 *                     comparisons = <> != < <= > >= (giving 1 or 0), AND, OR,
 *                     NOT, parentheses, unary minus, :var, and the functions
 *                     random, random_uniform, random_gaussian,
 *                     random_exponential, random_zipfian, abs, int, double,
 *                     sqrt, ln, exp, pow/power, mod, pi, greatest, least.
 *   \sleep n [us|ms|s]  n is an integer or :var; default unit seconds.
 * Lines starting with "--" are comments; a trailing backslash continues a
 * meta command. Variables scale and client_id are always defined.
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
#include "pgb_expr.h"

#define PGB_MAX_PARAMS    256
#define PGB_VAR_SCALE     0
#define PGB_VAR_CLIENT_ID 1

enum pgb_cmd_kind { PGB_CMD_SQL, PGB_CMD_SET, PGB_CMD_SLEEP };

struct pgb_cmd {
	enum pgb_cmd_kind kind;
	int line;   /* 1-based line of the command in its script */
	char *text; /* the command as written, on one line (for reports) */
	/* SQL */
	char *sql; /* :var replaced by $1..$n (extended, prepared) */
	int nparams;
	int *param_var; /* variable slot of each $k */
	char **frag;    /* simple protocol: the nparams+1 pieces between variables */
	size_t *fraglen;
	/* SET: var = expr; SLEEP: expr * unit_us microseconds */
	int var;
	struct pgb_expr *expr;
	int64_t unit_us;
};

struct pgb_script {
	char *name;
	int weight;
	struct pgb_cmd *cmd;
	int ncmd;
	struct src_pos pos; /* where the script was given (for errors) */
};

struct pgb_prog {
	struct pgb_script *scripts;
	int nscripts;
	int64_t total_weight;
	char **var; /* slot names; slot 0 is scale, 1 is client_id */
	int nvar;
	bool finished;
};

void pgb_prog_init(struct pgb_prog *p);
void pgb_prog_free(struct pgb_prog *p);

/* Parse one script from `text` and add it with `weight` (>= 0). `pos` is
 * where the text came from: a script file (pos_is_file; line 1 = first
 * line) or an inline YAML scalar (script line k is on line pos.line + k, its
 * first character in column pos.col). 0 or -EINVAL with errors in d. */
int pgb_prog_add(struct pgb_prog *p, const char *name, const char *text, int weight,
                 const struct src_pos *pos, bool pos_is_file, struct diag *d);

/* After the last add: resolve :var references in SQL. 0 or -EINVAL. */
int pgb_prog_finish(struct pgb_prog *p, struct diag *d);

/* Text of a builtin script ("tpcb-like", "simple-update", "select-only"),
 * or NULL. */
const char *pgb_builtin(const char *name);

#endif
