/* pgb_meta: \if blocks, \gset/\aset, \shell/\setshell and text values of a
 * client (see pgb_meta.h). */
#include "pgb_meta.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pgb_eval.h"
#include "pgb_pipeline.h"
#include "pgb_run_cfg.h"
#include "spawn.h"

/* "client 3: script s.sql command 4 (\gset ...)": what the errors name. */
static void pgbm_fail(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd,
                      const char *msg)
{
	pgbc_fail(c->th->sh, "client %d: script %s line %d command %d (%s): %s", c->id, sc->name, cmd->line,
	          (int)(cmd - sc->cmd) + 1, cmd->text, msg);
}

/* ---- \if ---- */

/* \if at c->cmd: run the first branch whose condition holds, else the
 * \else branch, else go past the \endif. */
static int pgbm_if(struct pgbc_client *c, const struct pgb_script *sc)
{
	struct pgb_eval_ctx ec = pgbc_eval_ctx(c);
	char err[256];

	for (int i = c->cmd;; i = sc->cmd[i].next) {
		const struct pgb_cmd *b = &sc->cmd[i];
		struct pgb_val v;

		if (b->kind == PGB_CMD_ELSE || b->kind == PGB_CMD_ENDIF) {
			c->cmd = i + 1;
			return 0;
		}
		if (pgb_eval(b->expr, &ec, &v, err, sizeof(err))) {
			pgbm_fail(c, sc, b, err);
			return -1;
		}
		ec.command = b->next;
		if (pgb_val_truth(&v)) {
			c->cmd = i + 1;
			return 0;
		}
	}
}

/* ---- \gset, \aset ---- */

static bool pgbm_name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && !((unsigned char)*s & 0x80))
			return false;
	return true;
}

/* Store the last row of r into prefix+column variables. Variables no
 * command reads have no slot and are dropped. */
static int pgbm_store_row(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd,
                          const PGresult *r)
{
	const struct pgb_prog *p = c->th->sh->cfg->prog;
	int row = PQntuples(r) - 1;
	char name[256], err[300];

	for (int f = 0; f < PQnfields(r); f++) {
		if (snprintf(name, sizeof(name), "%s%s", cmd->prefix, PQfname(r, f)) >= (int)sizeof(name)) {
			pgbm_fail(c, sc, cmd,
			          "variable name too long (a prefix and a column name over 255 "
			          "characters)");
			return -1;
		}
		if (!pgbm_name_ok(name)) {
			snprintf(err, sizeof(err), "invalid variable name: \"%s\"", name);
			pgbm_fail(c, sc, cmd, err);
			return -1;
		}
		int slot = pgb_prog_var(p, name);

		if (slot < 0)
			continue;
		if (pgb_val_set_text(&c->vars[slot], PQgetvalue(r, row, f), PQgetlength(r, row, f))) {
			pgbm_fail(c, sc, cmd, "out of memory");
			return -1;
		}
	}
	return 0;
}

PGresult *pgbm_result(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd,
                      PGresult *r)
{
	if (cmd->gset == PGB_GSET_ALL) {
		/* every statement's last row; none when it returned no row */
		if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0)
			pgbm_store_row(c, sc, cmd, r);
		return r;
	}
	PQclear(c->gset_res);
	c->gset_res = r;
	return NULL;
}

int pgbm_gset_end(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd)
{
	PGresult *r = c->gset_res;
	int rc = 0;

	if (cmd->gset != PGB_GSET_ONE)
		return 0;
	c->gset_res = NULL;
	int n = r && PQresultStatus(r) == PGRES_TUPLES_OK ? PQntuples(r) : 0;

	if (n != 1) {
		char msg[64];

		snprintf(msg, sizeof(msg), "\\gset expected one row, got %d", n);
		pgbm_fail(c, sc, cmd, msg);
		rc = -1;
	} else {
		rc = pgbm_store_row(c, sc, cmd, r);
	}
	PQclear(r);
	return rc;
}

/* ---- \shell, \setshell ---- */

/* The command line: the words, :name ones replaced by their values. */
static int pgbm_shell_line(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd,
                           char *buf, size_t len)
{
	size_t o = 0;

	for (int k = 0; k < cmd->nargs; k++) {
		char val[64];
		const char *w = cmd->arg[k];
		size_t wl;

		if (cmd->arg_var[k] >= 0) {
			const struct pgb_val *v = &c->vars[cmd->arg_var[k]];

			if (v->type == PGB_V_UNSET) {
				char msg[300];

				snprintf(msg, sizeof(msg), "undefined variable \"%s\"",
				         c->th->sh->cfg->prog->var[cmd->arg_var[k]]);
				pgbm_fail(c, sc, cmd, msg);
				return -1;
			}
			w = pgb_val_str(v, val, sizeof(val), &wl);
		}
		int n = snprintf(buf + o, len - o, "%s%s", k ? " " : "", w);

		if (n < 0 || (size_t)n >= len - o) {
			pgbm_fail(c, sc, cmd, "shell command too long");
			return -1;
		}
		o += n;
	}
	return 0;
}

/* \setshell's output: an integer on the first line, blanks around it. */
static int pgbm_setshell_value(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd,
                               const char *out)
{
	size_t n = strcspn(out, "\n");
	char *end, msg[160];

	errno = 0;
	long long i = strtoll(out, &end, 10);

	while (end < out + n && isspace((unsigned char)*end))
		end++;
	if (!n || errno || end != out + n || end == out) {
		snprintf(msg, sizeof(msg), "shell command must return an integer (not \"%.*s\")",
		         (int)(n > 64 ? 64 : n), out);
		pgbm_fail(c, sc, cmd, msg);
		return -1;
	}
	struct pgb_val v = {.type = PGB_V_INT, .i = i};

	return pgb_val_set(&c->vars[cmd->var], &v) ? -1 : 0;
}

/* Through /bin/sh, as pgbench's system() and popen(): the thread waits for
 * it (as pgbench's does), at most what is left of the step's timeout. */
static int pgbm_shell(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd)
{
	const struct pgb_run_cfg *cfg = c->th->sh->cfg;
	char line[8192], msg[600];

	if (pgbm_shell_line(c, sc, cmd, line, sizeof(line)))
		return -1;
	const char *argv[] = {"/bin/sh", "-c", line, NULL};
	double left = cfg->timeout - (double)(pgbc_now() - c->th->start) / 1e9;
	struct spawn_run r = {
	    .c = {.argv = argv,
	          .out_fd = -1,
	          .err_fd = -1,
	          .as_user = cfg->shell_as_user,
	          .uid = cfg->shell_uid,
	          .gid = cfg->shell_gid,
	          .groups = cfg->shell_groups,
	          .ngroups = cfg->shell_ngroups},
	    .timeout = cfg->timeout > 0 ? (left > 0.001 ? left : 0.001) : 0,
	    .stop = cfg->stop,
	    .max_capture = 65536,
	};
	int rc = spawn_run(&r);

	if (rc < 0 || r.why.exec_errno || r.status != 0) {
		size_t el = r.err ? strcspn(r.err, "\n") : 0;

		if (rc < 0 || r.why.exec_errno)
			snprintf(msg, sizeof(msg), "cannot start /bin/sh: %s",
			         strerror(rc < 0 ? -rc : r.why.exec_errno));
		else if (r.why.setid_errno)
			snprintf(msg, sizeof(msg), "cannot start /bin/sh as the user of run_as: %s",
			         strerror(r.why.setid_errno));
		else if (r.timed_out)
			snprintf(msg, sizeof(msg), "shell command killed at the step's timeout (%g s)",
			         cfg->timeout);
		else
			snprintf(msg, sizeof(msg), "shell command failed (exit status %d)%s%.*s", r.status,
			         el ? ": " : "", (int)(el > 300 ? 300 : el), el ? r.err : "");
		if (!r.stopped)
			pgbm_fail(c, sc, cmd, msg);
		spawn_run_free(&r);
		return -1;
	}
	/* pgbench lets \shell print to its own output: here, the step's
	 * stderr file (the debug() lines' sink) */
	if (cmd->kind == PGB_CMD_SHELL && cfg->debug) {
		if (r.nout)
			cfg->debug(cfg->debug_arg, r.out);
		if (r.nerr)
			cfg->debug(cfg->debug_arg, r.err);
	}
	rc = cmd->kind == PGB_CMD_SETSHELL ? pgbm_setshell_value(c, sc, cmd, r.out ? r.out : "") : 0;
	spawn_run_free(&r);
	return rc;
}

int pgbm_exec(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd)
{
	switch (cmd->kind) {
	case PGB_CMD_IF: return pgbm_if(c, sc);
	case PGB_CMD_ELIF:
	case PGB_CMD_ELSE:
		/* the branch before it ran: leave the block */
		c->cmd = cmd->end + 1;
		return 0;
	case PGB_CMD_ENDIF: c->cmd++; return 0;
	case PGB_CMD_SHELL:
	case PGB_CMD_SETSHELL:
		if (pgbm_shell(c, sc, cmd))
			return -1;
		c->cmd++;
		return 0;
	case PGB_CMD_STARTPIPE:
		if (pgbp_start(c, sc, cmd))
			return -1;
		c->cmd++;
		return 0;
	case PGB_CMD_ENDPIPE: return pgbp_end(c, sc, cmd);
	default: pgbc_fail(c->th->sh, "client %d: unexpected command %s", c->id, cmd->text); return -1;
	}
}

const struct pgbc_meta_ops pgbm_ops = {
    .exec = pgbm_exec,
    .result = pgbm_result,
    .gset_end = pgbm_gset_end,
    .pipe_input = pgbp_input,
};
