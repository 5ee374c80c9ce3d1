/* pgb_script_util: variable slots, positions and command texts for the
 * script parser (see pgb_script_util.h). */
#include "pgb_script_util.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int pgbs_var_slot(struct pgb_prog *p, const char *name, size_t len, bool create)
{
	for (int i = 0; i < p->nvar; i++)
		if (strlen(p->var[i]) == len && !memcmp(p->var[i], name, len))
			return i;
	if (!create)
		return -1;
	char **nv = realloc(p->var, (p->nvar + 1) * sizeof(*nv));
	char **dv = nv ? realloc(p->defval, (p->nvar + 1) * sizeof(*dv)) : NULL;

	if (nv)
		p->var = nv;
	if (!dv)
		return -1;
	p->defval = dv;
	p->defval[p->nvar] = NULL;
	p->var[p->nvar] = strndup(name, len);
	return p->var[p->nvar] ? p->nvar++ : -1;
}

/* pgb_var_slot_fn for the expression parser: a :name in an expression
 * defines the variable (its value may be set by a later \set). */
int pgbs_var_new(void *prog, const char *name, size_t len)
{
	return pgbs_var_slot(prog, name, len, true);
}

void pgbs_cmd_free(struct pgb_cmd *cmd)
{
	free(cmd->text);
	free(cmd->sql);
	free(cmd->param_var);
	if (cmd->frag)
		for (int k = 0; k <= cmd->nparams; k++)
			free(cmd->frag[k]);
	free(cmd->frag);
	free(cmd->fraglen);
	pgb_expr_free(cmd->expr);
	free(cmd->prefix);
	for (int k = 0; k < cmd->nargs && cmd->arg; k++)
		free(cmd->arg[k]);
	free(cmd->arg);
	free(cmd->arg_var);
}

int pgbs_push(struct pgb_script *sc, const struct pgb_cmd *c)
{
	struct pgb_cmd *nc = realloc(sc->cmd, (sc->ncmd + 1) * sizeof(*nc));

	if (!nc)
		return -ENOMEM;
	sc->cmd = nc;
	sc->cmd[sc->ncmd++] = *c;
	return 0;
}

/* One line of text from [s, e), whitespace runs folded to one space. */
char *pgbs_oneline(const char *s, const char *e)
{
	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	char *out = malloc(e - s + 1), *o = out;

	if (!out)
		return NULL;
	for (; s < e; s++) {
		if (isspace((unsigned char)*s)) {
			if (o > out && o[-1] != ' ')
				*o++ = ' ';
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
	return out;
}

/* An SQL command's text from [s, e), as the server gets it on one line:
 * "--" comments outside quotes dropped (on one line they would hide the
 * rest of the statement), whitespace runs outside quotes folded to one
 * space, quoted text kept as written. */
char *pgbs_sql_text(const char *s, const char *e)
{
	char *out = malloc(e - s + 1), *o = out;
	char quote = 0;

	if (!out)
		return NULL;
	for (; s < e; s++) {
		if (quote) {
			quote = *s == quote ? 0 : quote;
			*o++ = *s;
		} else if (s[0] == '-' && s + 1 < e && s[1] == '-') {
			while (s + 1 < e && s[1] != '\n')
				s++;
			if (o > out && o[-1] != ' ')
				*o++ = ' ';
		} else if (isspace((unsigned char)*s)) {
			if (o > out && o[-1] != ' ')
				*o++ = ' ';
		} else {
			quote = *s == '\'' || *s == '"' ? *s : 0;
			*o++ = *s;
		}
	}
	while (o > out && o[-1] == ' ')
		o--;
	*o = '\0';
	return out;
}

struct src_pos pgbs_pos(const struct src_pos *base, bool is_file, int line, int col)
{
	struct src_pos p = *base;

	if (is_file) {
		p.line = line;
		p.col = col;
	} else if (p.line > 0) {
		/* inline YAML: a block scalar starts on the line after the key,
		 * and base->col is where the script's lines start */
		p.line += line;
		p.col = (base->col > 0 ? base->col : 1) + col - 1;
	}
	return p;
}
