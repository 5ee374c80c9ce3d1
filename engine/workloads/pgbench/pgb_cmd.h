/* pgb_cmd: the parsed form of pgbench scripts (commands, scripts, the
 * program and its variable slots), shared by the parser (pgb_script*.c)
 * and the clients; see pgb_script.h for the language. Types only. */
#ifndef BENCHGRID_PGB_CMD_H
#define BENCHGRID_PGB_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "diag.h"
#include "pgb_expr.h"

#define PGB_MAX_PARAMS       256
#define PGB_VAR_SCALE        0
#define PGB_VAR_CLIENT_ID    1
#define PGB_VAR_RANDOM_SEED  2
#define PGB_VAR_DEFAULT_SEED 3

enum pgb_cmd_kind {
	PGB_CMD_SQL,
	PGB_CMD_SET,
	PGB_CMD_SLEEP,
	PGB_CMD_IF,
	PGB_CMD_ELIF,
	PGB_CMD_ELSE,
	PGB_CMD_ENDIF,
	PGB_CMD_SHELL,
	PGB_CMD_SETSHELL,
	PGB_CMD_STARTPIPE,
	PGB_CMD_ENDPIPE,
};

/* What an SQL command keeps of its result: nothing, \gset (one row of the
 * last statement) or \aset (every statement's last row). */
enum pgb_gset { PGB_GSET_NONE, PGB_GSET_ONE, PGB_GSET_ALL };

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
	enum pgb_gset gset;
	bool rollback; /* the command is ROLLBACK (counted per script) */
	char *prefix;  /* \gset/\aset: prefix of the variables' names */
	/* SET, SETSHELL: var = expr; SLEEP: expr * unit_us microseconds;
	 * IF, ELIF: expr is the condition */
	int var;
	struct pgb_expr *expr;
	int64_t unit_us;
	/* IF, ELIF, ELSE: index of the next \elif/\else/\endif of the block;
	 * IF, ELIF, ELSE, ENDIF: index of the block's \endif */
	int next, end;
	/* SHELL, SETSHELL: the words of the command; arg_var[k] >= 0 is the
	 * variable slot of a ":name" word, else the word is arg[k] */
	int nargs;
	char **arg;
	int *arg_var;
	struct src_pos pos; /* where the command starts (check-time errors) */
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
	char **var;    /* slot names; slot 0 is scale, 1 is client_id */
	char **defval; /* per slot: the text given by define: (pgbench -D), or NULL */
	int nvar;
	bool finished;
};

#endif
