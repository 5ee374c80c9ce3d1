/* pgb_script_meta: pgbench's meta commands (\set, \sleep, \gset, \aset,
 * \if/\elif/\else/\endif, \shell, \setshell, \startpipeline, \endpipeline)
 * and the checks pgbench makes of a whole script's blocks. Error texts
 * follow pgbench 15's where it has one. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pgb_script_meta.h"
#include "pgb_script_util.h"

#define PGBS_MAX_WORDS 256

/* The words of a meta command after its name, split at blanks (pgbench
 * reads them the same way: no quoting). */
struct pgbs_words {
	int n;
	const char *w[PGBS_MAX_WORDS];
	size_t len[PGBS_MAX_WORDS];
};

static int pgbs_split(const char *s, struct pgbs_words *w)
{
	w->n = 0;
	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			return 0;
		if (w->n == PGBS_MAX_WORDS)
			return -1;
		w->w[w->n] = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		w->len[w->n] = s - w->w[w->n];
		w->n++;
	}
}

static bool pgbs_valid_name(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && !((unsigned char)s[i] & 0x80))
			return false;
	return true;
}

/* What a meta command is being parsed from. */
struct pgbs_mctx {
	struct pgb_prog *p;
	struct pgb_script *sc;
	const char *txt; /* the command, continuations joined */
	int line, col0;
	const struct src_pos *base;
	bool is_file;
	struct diag *d;
	const char *name; /* the command's name, for messages */
};

static struct src_pos pgbs_at(const struct pgbs_mctx *m, const char *where)
{
	return pgbs_pos(m->base, m->is_file, m->line, m->col0 + (int)(where - m->txt) + 1);
}

/* The number of words must be within [lo, hi]. */
static int pgbs_nwords(const struct pgbs_mctx *m, const struct pgbs_words *w, int lo, int hi,
                       const char *missing)
{
	struct src_pos pos;

	if (w->n < lo) {
		pos = pgbs_at(m, m->txt);
		diag_error(m->d, &pos, "pgbench script: %s in command \"%s\"", missing, m->name);
		return -EINVAL;
	}
	if (w->n > hi) {
		pos = pgbs_at(m, w->w[hi]);
		diag_error(m->d, &pos, "pgbench script: %s in command \"%s\"",
		           hi ? "too many arguments" : "unexpected argument", m->name);
		return -EINVAL;
	}
	return 0;
}

/* \sleep n [unit] | \sleep :var [unit]: a number may carry its unit
 * ("10ms") and a sign, as pgbench splits it; units in any case. */
static int pgbs_sleep(const struct pgbs_mctx *m, const struct pgbs_words *w, struct pgb_cmd *c)
{
	if (pgbs_nwords(m, w, 1, 2, "missing argument"))
		return -EINVAL;
	const char *a = w->w[0], *unit = w->n == 2 ? w->w[1] : NULL;
	size_t alen = w->len[0], ulen = w->n == 2 ? w->len[1] : 0;
	struct src_pos xp = pgbs_at(m, a);

	if (a[0] != ':') {
		size_t sign = a[0] == '+' || a[0] == '-', nd = strspn(a + sign, "0123456789");

		if (!nd || (sign + nd < alen && w->n == 2)) {
			diag_error(m->d, &xp, "pgbench script: invalid sleep time, must be an integer (%.*s)",
			           (int)alen, a);
			return -EINVAL;
		}
		if (sign + nd < alen) {
			unit = a + sign + nd;
			ulen = alen - sign - nd;
			alen = sign + nd;
		}
		if (a[0] == '+')
			a++, alen--;
	} else if (!pgbs_valid_name(a + 1, alen - 1)) {
		diag_error(m->d, &xp, "pgbench script: \\sleep takes an integer or a :variable");
		return -EINVAL;
	}
	c->unit_us = 1000000;
	if (unit) {
		static const struct {
			const char *u;
			int64_t us;
		} units[] = {{"s", 1000000}, {"ms", 1000}, {"us", 1}};
		size_t k = 0;

		while (k < 3 && (strlen(units[k].u) != ulen || strncasecmp(units[k].u, unit, ulen)))
			k++;
		if (k == 3) {
			struct src_pos pos = pgbs_at(m, unit);

			diag_error(m->d, &pos,
			           "pgbench script: \\sleep unit must be us, ms or s (not '%.*s')", (int)ulen,
			           unit);
			return -EINVAL;
		}
		c->unit_us = units[k].us;
	}
	char arg[256];

	if (alen >= sizeof(arg)) {
		diag_error(m->d, &xp, "pgbench script: \\sleep argument too long (%zu characters)", alen);
		return -EINVAL;
	}
	snprintf(arg, sizeof(arg), "%.*s", (int)alen, a);
	return (c->expr = pgb_expr_parse(arg, &xp, pgbs_var_new, m->p, m->d)) ? 0 : -EINVAL;
}

/* \gset / \aset: marks the SQL command before it. */
static int pgbs_gset(const struct pgbs_mctx *m, const struct pgbs_words *w, enum pgb_gset kind)
{
	struct pgb_script *sc = m->sc;
	struct pgb_cmd *prev = sc->ncmd ? &sc->cmd[sc->ncmd - 1] : NULL;
	struct src_pos pos = pgbs_at(m, m->txt);

	if (pgbs_nwords(m, w, 0, 1, ""))
		return -EINVAL;
	if (!prev || prev->kind != PGB_CMD_SQL || prev->gset != PGB_GSET_NONE) {
		if (prev && prev->text)
			diag_error(m->d, &pos, "pgbench script: \\%s must follow an SQL command (%s)",
			           m->name, prev->text);
		else
			diag_error(m->d, &pos, "pgbench script: \\%s must follow an SQL command", m->name);
		return -EINVAL;
	}
	if (w->n && !pgbs_valid_name(w->w[0], w->len[0])) {
		pos = pgbs_at(m, w->w[0]);
		diag_error(m->d, &pos, "pgbench script: invalid variable prefix '%.*s' in command \"%s\"",
		           (int)w->len[0], w->w[0], m->name);
		return -EINVAL;
	}
	prev->prefix = w->n ? strndup(w->w[0], w->len[0]) : strdup("");
	if (!prev->prefix)
		return -ENOMEM;
	prev->gset = kind;
	return 0;
}

/* \shell / \setshell: the words, ":name" ones resolved to slots. */
static int pgbs_shell(const struct pgbs_mctx *m, const struct pgbs_words *w, struct pgb_cmd *c)
{
	int first = 0;

	if (c->kind == PGB_CMD_SETSHELL) {
		if (pgbs_nwords(m, w, 2, PGBS_MAX_WORDS, "missing argument"))
			return -EINVAL;
		if (!pgbs_valid_name(w->w[0], w->len[0])) {
			struct src_pos pos = pgbs_at(m, w->w[0]);

			diag_error(m->d, &pos, "pgbench script: invalid variable name '%.*s'", (int)w->len[0],
			           w->w[0]);
			return -EINVAL;
		}
		if ((c->var = pgbs_var_slot(m->p, w->w[0], w->len[0], true)) < 0)
			return -ENOMEM;
		first = 1;
	} else if (pgbs_nwords(m, w, 1, PGBS_MAX_WORDS, "missing command")) {
		return -EINVAL;
	}
	c->nargs = w->n - first;
	c->arg = calloc(c->nargs, sizeof(char *));
	c->arg_var = calloc(c->nargs, sizeof(int));
	if (!c->arg || !c->arg_var)
		return -ENOMEM;
	for (int k = 0; k < c->nargs; k++) {
		const char *a = w->w[first + k];
		size_t l = w->len[first + k];

		c->arg_var[k] = -1;
		if (a[0] == ':' && l > 1 && a[1] != ':') {
			if ((c->arg_var[k] = pgbs_var_slot(m->p, a + 1, l - 1, true)) < 0)
				return -ENOMEM;
			continue;
		}
		/* "::x" is the word ":x" */
		if (a[0] == ':' && l > 1)
			a++, l--;
		if (!(c->arg[k] = strndup(a, l)))
			return -ENOMEM;
	}
	return 0;
}

/* \if / \elif: the rest of the line is the condition. */
static int pgbs_cond(const struct pgbs_mctx *m, const char *rest, struct pgb_cmd *c)
{
	struct src_pos xp = pgbs_at(m, rest);

	c->next = c->end = -1;
	return (c->expr = pgb_expr_parse(rest, &xp, pgbs_var_new, m->p, m->d)) ? 0 : -EINVAL;
}

/* \set name expr */
static int pgbs_set(const struct pgbs_mctx *m, const char *n, struct pgb_cmd *c)
{
	struct src_pos pos = pgbs_at(m, m->txt);

	while (*n == ' ' || *n == '\t')
		n++;
	size_t nl = 0;

	while (isalnum((unsigned char)n[nl]) || n[nl] == '_')
		nl++;
	if (!nl) {
		diag_error(m->d, &pos, "pgbench script: \\set needs a variable name and an expression");
		return -EINVAL;
	}
	c->var = pgbs_var_slot(m->p, n, nl, true);
	struct src_pos xp = pgbs_at(m, n + nl);

	if (c->var < 0)
		return -ENOMEM;
	return (c->expr = pgb_expr_parse(n + nl, &xp, pgbs_var_new, m->p, m->d)) ? 0 : -EINVAL;
}

static const struct {
	const char *name;
	enum pgb_cmd_kind kind;
} pgbs_plain[] = {{"else", PGB_CMD_ELSE},
                  {"endif", PGB_CMD_ENDIF},
                  {"startpipeline", PGB_CMD_STARTPIPE},
                  {"endpipeline", PGB_CMD_ENDPIPE}};

/* Parse the command after its name; 1 when it adds no command (\gset). */
static int pgbs_meta_body(struct pgbs_mctx *m, const char *rest, struct pgb_cmd *c)
{
	struct pgbs_words *w = malloc(sizeof(*w));
	const char *nm = m->name;
	int rc = -EINVAL;

	if (!w)
		return -ENOMEM;
	if (pgbs_split(rest, w)) {
		struct src_pos pos = pgbs_at(m, m->txt);

		diag_error(m->d, &pos, "pgbench script: too many arguments in command \"%s\"", nm);
		goto out;
	}
	for (size_t k = 0; k < sizeof(pgbs_plain) / sizeof(pgbs_plain[0]); k++)
		if (!strcasecmp(nm, pgbs_plain[k].name)) {
			c->kind = pgbs_plain[k].kind;
			c->next = c->end = -1;
			rc = pgbs_nwords(m, w, 0, 0, "");
			goto out;
		}
	if (!strcasecmp(nm, "set")) {
		c->kind = PGB_CMD_SET;
		rc = pgbs_set(m, rest, c);
	} else if (!strcasecmp(nm, "sleep")) {
		c->kind = PGB_CMD_SLEEP;
		rc = pgbs_sleep(m, w, c);
	} else if (!strcasecmp(nm, "gset") || !strcasecmp(nm, "aset")) {
		rc = pgbs_gset(m, w, tolower((unsigned char)nm[0]) == 'g' ? PGB_GSET_ONE : PGB_GSET_ALL);
		rc = rc ? rc : 1;
	} else if (!strcasecmp(nm, "if") || !strcasecmp(nm, "elif")) {
		c->kind = tolower((unsigned char)nm[0]) == 'i' ? PGB_CMD_IF : PGB_CMD_ELIF;
		rc = pgbs_cond(m, rest, c);
	} else if (!strcasecmp(nm, "shell") || !strcasecmp(nm, "setshell")) {
		c->kind = tolower((unsigned char)nm[1]) == 'h' ? PGB_CMD_SHELL : PGB_CMD_SETSHELL;
		rc = pgbs_shell(m, w, c);
	} else {
		struct src_pos pos = pgbs_at(m, m->txt);

		diag_error(m->d, &pos,
		           "pgbench script: unknown meta command '\\%.40s' (pgbench 15's are \\set, \\sleep, "
		           "\\gset, \\aset, \\if, \\elif, \\else, \\endif, \\shell, \\setshell, "
		           "\\startpipeline, \\endpipeline)",
		           nm);
	}
out:
	free(w);
	return rc;
}

int pgbs_meta(struct pgb_prog *p, struct pgb_script *sc, const char *s, const char *e, int line, int col0,
              const struct src_pos *base, bool is_file, struct diag *d)
{
	char *txt = strndup(s, e - s);
	struct pgb_cmd c = {.line = line, .var = -1};
	char name[48];
	int rc;

	if (!txt)
		return -ENOMEM;
	/* join continuation lines */
	for (char *q = txt; *q; q++)
		if (*q == '\\' && q != txt && (q[1] == '\n' || (q[1] == '\r' && q[2] == '\n')))
			*q = ' ';
	size_t wl = 0;

	while (isalnum((unsigned char)txt[1 + wl]) || txt[1 + wl] == '_')
		wl++;
	snprintf(name, sizeof(name), "%.*s", (int)(wl < 40 ? wl : 40), txt + 1);
	struct pgbs_mctx m = {p, sc, txt, line, col0, base, is_file, d, name};

	c.pos = pgbs_pos(base, is_file, line, col0 + 1);
	rc = pgbs_meta_body(&m, txt + 1 + wl, &c);
	if (rc == 0) {
		if (!(c.text = pgbs_oneline(txt, txt + strlen(txt))) || pgbs_push(sc, &c))
			rc = -ENOMEM;
		else
			c = (struct pgb_cmd){0};
	}
	pgbs_cmd_free(&c);
	free(txt);
	return rc == 1 ? 0 : rc;
}

/* ---- blocks ---- */

static void pgbs_block_error(struct diag *d, const struct pgb_cmd *c, const char *msg)
{
	diag_error(d, &c->pos, "pgbench script: %s", msg);
}

/* Pipelines as a straight sequence: \startpipeline and \endpipeline pair up,
 * no \gset or \aset between them (their results are not there yet). */
static int pgbs_pipelines(struct pgb_script *sc, struct diag *d)
{
	int open = -1, nerr = 0;

	for (int i = 0; i < sc->ncmd; i++) {
		const struct pgb_cmd *c = &sc->cmd[i];

		if (c->kind == PGB_CMD_STARTPIPE) {
			if (open >= 0) {
				pgbs_block_error(
				    d, c, "\\startpipeline inside a pipeline (already in pipeline mode)");
				nerr++;
			}
			open = i;
		} else if (c->kind == PGB_CMD_ENDPIPE) {
			if (open < 0) {
				pgbs_block_error(
				    d, c, "\\endpipeline without \\startpipeline (not in pipeline mode)");
				nerr++;
			}
			open = -1;
		} else if (open >= 0 && c->kind == PGB_CMD_SQL && c->gset != PGB_GSET_NONE) {
			pgbs_block_error(d, c, "\\gset and \\aset cannot be used in pipeline mode");
			nerr++;
		}
	}
	if (open >= 0) {
		pgbs_block_error(d, &sc->cmd[open], "\\startpipeline without \\endpipeline");
		nerr++;
	}
	return nerr;
}

int pgbs_blocks(struct pgb_script *sc, struct diag *d)
{
	/* per open \if: its index and its last branch so far */
	int *ifs = malloc((sc->ncmd + 1) * 2 * sizeof(int)), *open = ifs + sc->ncmd + 1;
	int depth = 0, nerr = 0;

	if (!ifs)
		return 1;
	for (int i = 0; i < sc->ncmd; i++) {
		struct pgb_cmd *c = &sc->cmd[i];
		struct pgb_cmd *last = depth ? &sc->cmd[open[depth - 1]] : NULL;

		if (c->kind == PGB_CMD_IF) {
			ifs[depth] = i;
			open[depth++] = i;
		} else if (c->kind == PGB_CMD_ELIF || c->kind == PGB_CMD_ELSE) {
			const char *what = c->kind == PGB_CMD_ELIF ? "\\elif" : "\\else";
			char msg[64];

			if (!last || last->kind == PGB_CMD_ELSE) {
				snprintf(msg, sizeof(msg),
				         last ? "%s after \\else" : "%s without matching \\if", what);
				pgbs_block_error(d, c, msg);
				nerr++;
				continue;
			}
			last->next = i;
			open[depth - 1] = i;
		} else if (c->kind == PGB_CMD_ENDIF) {
			if (!last) {
				pgbs_block_error(d, c, "\\endif without matching \\if");
				nerr++;
				continue;
			}
			last->next = i;
			depth--;
		}
	}
	for (int k = 0; k < depth; k++) {
		pgbs_block_error(d, &sc->cmd[ifs[k]], "\\if without matching \\endif");
		nerr++;
	}
	free(ifs);
	if (!nerr) {
		/* link each branch to its block's \endif: follow next from each \if */
		for (int i = 0; i < sc->ncmd; i++)
			if (sc->cmd[i].kind == PGB_CMD_IF) {
				int e = i;

				while (sc->cmd[e].kind != PGB_CMD_ENDIF)
					e = sc->cmd[e].next;
				for (int b = i; b != e; b = sc->cmd[b].next)
					sc->cmd[b].end = e;
				sc->cmd[e].end = e;
			}
	}
	return nerr + pgbs_pipelines(sc, d);
}
