/* pgb_script: pgbench scripts: the builtins, the script parser (commands,
 * meta commands) and SQL compiled for each protocol (see pgb_script.h). */
#include "pgb_script.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char pgbs_tpcb[] =
    "\\set aid random(1, 100000 * :scale)\n"
    "\\set bid random(1, 1 * :scale)\n"
    "\\set tid random(1, 10 * :scale)\n"
    "\\set delta random(-5000, 5000)\n"
    "BEGIN;\n"
    "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
    "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
    "UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;\n"
    "UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;\n"
    "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, "
    ":delta, CURRENT_TIMESTAMP);\n"
    "END;\n";
static const char pgbs_simple_update[] =
    "\\set aid random(1, 100000 * :scale)\n"
    "\\set bid random(1, 1 * :scale)\n"
    "\\set tid random(1, 10 * :scale)\n"
    "\\set delta random(-5000, 5000)\n"
    "BEGIN;\n"
    "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
    "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
    "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, "
    "CURRENT_TIMESTAMP);\n"
    "END;\n";
static const char pgbs_select_only[] = "\\set aid random(1, 100000 * :scale)\n"
                                       "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n";

const char *pgb_builtin(const char *name)
{
	if (!strcmp(name, "tpcb-like"))
		return pgbs_tpcb;
	if (!strcmp(name, "simple-update"))
		return pgbs_simple_update;
	if (!strcmp(name, "select-only"))
		return pgbs_select_only;
	return NULL;
}

/* ---- variables ---- */

static int pgbs_var_slot(struct pgb_prog *p, const char *name, size_t len, bool create)
{
	for (int i = 0; i < p->nvar; i++)
		if (strlen(p->var[i]) == len && !memcmp(p->var[i], name, len))
			return i;
	if (!create)
		return -1;
	char **nv = realloc(p->var, (p->nvar + 1) * sizeof(*nv));

	if (!nv)
		return -1;
	p->var = nv;
	p->var[p->nvar] = strndup(name, len);
	return p->var[p->nvar] ? p->nvar++ : -1;
}

/* pgb_var_slot_fn for the expression parser: a :name in an expression
 * defines the variable (its value may be set by a later \set). */
static int pgbs_var_new(void *prog, const char *name, size_t len)
{
	return pgbs_var_slot(prog, name, len, true);
}

void pgb_prog_init(struct pgb_prog *p)
{
	memset(p, 0, sizeof(*p));
	pgbs_var_slot(p, "scale", 5, true);
	pgbs_var_slot(p, "client_id", 9, true);
}

void pgb_prog_free(struct pgb_prog *p)
{
	for (int s = 0; s < p->nscripts; s++) {
		struct pgb_script *sc = &p->scripts[s];

		for (int c = 0; c < sc->ncmd; c++) {
			struct pgb_cmd *cmd = &sc->cmd[c];

			free(cmd->text);
			free(cmd->sql);
			free(cmd->param_var);
			if (cmd->frag)
				for (int k = 0; k <= cmd->nparams; k++)
					free(cmd->frag[k]);
			free(cmd->frag);
			free(cmd->fraglen);
			pgb_expr_free(cmd->expr);
		}
		free(sc->cmd);
		free(sc->name);
	}
	free(p->scripts);
	for (int i = 0; i < p->nvar; i++)
		free(p->var[i]);
	free(p->var);
	memset(p, 0, sizeof(*p));
}

/* ---- script parser ---- */

static int pgbs_push(struct pgb_script *sc, const struct pgb_cmd *c)
{
	struct pgb_cmd *nc = realloc(sc->cmd, (sc->ncmd + 1) * sizeof(*nc));

	if (!nc)
		return -ENOMEM;
	sc->cmd = nc;
	sc->cmd[sc->ncmd++] = *c;
	return 0;
}

/* One line of text from [s, e), whitespace runs folded to one space. */
static char *pgbs_oneline(const char *s, const char *e)
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

static struct src_pos pgbs_pos(const struct src_pos *base, bool is_file, int line, int col)
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

static int pgbs_meta(struct pgb_prog *p, struct pgb_script *sc, const char *s, const char *e, int line,
                     int col0, const struct src_pos *base, bool is_file, struct diag *d)
{
	char *txt = strndup(s, e - s);
	struct pgb_cmd c = {.line = line};
	int rc = -EINVAL;

	if (!txt)
		return -ENOMEM;
	/* join continuation lines */
	for (char *q = txt; *q; q++)
		if (*q == '\\' && q != txt && (q[1] == '\n' || (q[1] == '\r' && q[2] == '\n')))
			*q = ' ';
	const char *q = txt + 1;
	size_t wl = 0;

	while (isalpha((unsigned char)q[wl]))
		wl++;
	struct src_pos pos = pgbs_pos(base, is_file, line, col0 + 1);

	if (wl == 3 && !strncmp(q, "set", 3)) {
		const char *n = q + 3;

		while (*n == ' ' || *n == '\t')
			n++;
		size_t nl = 0;

		while (isalnum((unsigned char)n[nl]) || n[nl] == '_')
			nl++;
		if (!nl) {
			diag_error(d, &pos, "pgbench script: \\set needs a variable name and an expression");
			goto out;
		}
		c.kind = PGB_CMD_SET;
		c.var = pgbs_var_slot(p, n, nl, true);
		const char *x = n + nl;
		struct src_pos xp = pgbs_pos(base, is_file, line, col0 + (int)(x - txt) + 1);

		if (c.var < 0 || !(c.expr = pgb_expr_parse(x, &xp, pgbs_var_new, p, d)))
			goto out;
	} else if (wl == 5 && !strncmp(q, "sleep", 5)) {
		const char *a = q + 5;
		char unit[8] = "";
		char arg[128];

		c.kind = PGB_CMD_SLEEP;
		if (sscanf(a, " %127s %7s", arg, unit) < 1) {
			diag_error(d, &pos, "pgbench script: \\sleep needs a duration");
			goto out;
		}
		if (!*unit || !strcmp(unit, "s"))
			c.unit_us = 1000000;
		else if (!strcmp(unit, "ms"))
			c.unit_us = 1000;
		else if (!strcmp(unit, "us"))
			c.unit_us = 1;
		else {
			diag_error(d, &pos, "pgbench script: \\sleep unit must be us, ms or s (not '%s')",
			           unit);
			goto out;
		}
		struct src_pos xp = pgbs_pos(base, is_file, line, col0 + (int)(strstr(txt, arg) - txt) + 1);

		if (arg[0] != ':' && !isdigit((unsigned char)arg[0])) {
			diag_error(d, &xp, "pgbench script: \\sleep takes an integer or a :variable");
			goto out;
		}
		if (!(c.expr = pgb_expr_parse(arg, &xp, pgbs_var_new, p, d)))
			goto out;
	} else {
		diag_error(d, &pos,
		           "pgbench script: unknown meta command '\\%.*s' (supported: \\set, \\sleep)",
		           (int)(wl > 40 ? 40 : wl), q);
		goto out;
	}
	if (!(c.text = pgbs_oneline(txt, txt + strlen(txt))) || pgbs_push(sc, &c)) {
		rc = -ENOMEM;
		goto out;
	}
	free(txt);
	return 0;
out:
	pgb_expr_free(c.expr);
	free(c.text);
	free(txt);
	return rc;
}

int pgb_prog_add(struct pgb_prog *p, const char *name, const char *text, int weight,
                 const struct src_pos *pos, bool pos_is_file, struct diag *d)
{
	struct pgb_script sc = {.weight = weight, .pos = *pos};
	const char *s = text, *bol = text; /* bol: beginning of the current line */
	int line = 1, nerr = 0;
	const char *sql = NULL; /* start of the pending SQL command */
	int sql_line = 0;

	if (!(sc.name = strdup(name)))
		return -ENOMEM;
	while (*s) {
		/* at the start of a line */
		const char *l = s;

		while (*l == ' ' || *l == '\t')
			l++;
		if (!sql && (*l == '\n' || (*l == '\r' && l[1] == '\n') || (l[0] == '-' && l[1] == '-'))) {
			while (*l && *l != '\n')
				l++;
			s = bol = *l ? l + 1 : l;
			line++;
			continue;
		}
		if (!sql && *l == '\\') {
			const char *e = l;
			int lines = 1;

			for (;;) {
				while (*e && *e != '\n')
					e++;
				const char *t = e;

				while (t > l && (t[-1] == '\r' || t[-1] == ' ' || t[-1] == '\t'))
					t--;
				if (*e && t > l && t[-1] == '\\') {
					e++;
					lines++;
					continue;
				}
				break;
			}
			int rc = pgbs_meta(p, &sc, l, e, line, (int)(l - bol), pos, pos_is_file, d);

			if (rc == -ENOMEM)
				goto nomem;
			nerr += rc != 0;
			line += lines;
			s = bol = *e ? e + 1 : e;
			continue;
		}
		/* SQL: scan to a semicolon outside quotes, across lines */
		if (!sql) {
			sql = l;
			sql_line = line;
		}
		const char *q = s;
		char quote = 0;

		for (; *q; q++) {
			if (*q == '\n') {
				line++;
				bol = q + 1;
			}
			if (quote) {
				if (*q == quote)
					quote = 0;
				continue;
			}
			if (*q == '\'' || *q == '"') {
				quote = *q;
			} else if (q[0] == '-' && q[1] == '-') {
				while (q[1] && q[1] != '\n')
					q++;
			} else if (*q == ';') {
				break;
			}
		}
		struct pgb_cmd c = {.kind = PGB_CMD_SQL, .line = sql_line};

		if (!(c.text = pgbs_oneline(sql, q)))
			goto nomem;
		if (*c.text && pgbs_push(&sc, &c)) {
			free(c.text);
			goto nomem;
		}
		if (!*c.text)
			free(c.text);
		sql = NULL;
		s = *q ? q + 1 : q;
		/* rest of the line after ';' (only blanks expected) */
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (*s == '\n') {
			s = bol = s + 1;
			line++;
		}
	}
	if (!nerr && sc.ncmd == 0) {
		diag_error(d, pos, "pgbench script %s: no commands", name);
		nerr++;
	}
	struct pgb_script *ns = realloc(p->scripts, (p->nscripts + 1) * sizeof(*ns));

	if (!ns)
		goto nomem;
	p->scripts = ns;
	p->scripts[p->nscripts++] = sc;
	p->total_weight += weight;
	return nerr ? -EINVAL : 0;
nomem:
	/* hand the partial script to the program so pgb_prog_free releases it */
	diag_error(d, pos, "pgbench script %s: out of memory", name);
	ns = realloc(p->scripts, (p->nscripts + 1) * sizeof(*ns));
	if (ns) {
		p->scripts = ns;
		p->scripts[p->nscripts++] = sc;
	}
	return -ENOMEM;
}

/* Split a SQL command at its :var references (known variables only). */
static int pgbs_compile_sql(struct pgb_prog *p, struct pgb_script *sc, struct pgb_cmd *c, struct diag *d)
{
	const char *t = c->text;
	size_t len = strlen(t);
	/* worst case every ":x" (2 chars) becomes "$256" (4 chars) */
	char *sql = malloc(len * 2 + 16), *o = sql;
	int vars[PGB_MAX_PARAMS];
	const char *starts[PGB_MAX_PARAMS + 1], *ends[PGB_MAX_PARAMS];
	int n = 0;

	if (!sql)
		return -ENOMEM;
	starts[0] = t;
	for (const char *q = t; *q;) {
		if (*q != ':') {
			*o++ = *q++;
			continue;
		}
		if (q[1] == ':') {
			while (*q == ':')
				*o++ = *q++;
			continue;
		}
		size_t nl = 0;

		while (isalnum((unsigned char)q[1 + nl]) || q[1 + nl] == '_')
			nl++;
		int slot = nl ? pgbs_var_slot(p, q + 1, nl, false) : -1;

		if (slot < 0) {
			*o++ = *q++;
			continue;
		}
		if (n == PGB_MAX_PARAMS) {
			diag_error(d, &sc->pos, "pgbench script %s: more than %d variables in one statement",
			           sc->name, PGB_MAX_PARAMS);
			free(sql);
			return -EINVAL;
		}
		ends[n] = q;
		vars[n++] = slot;
		o += sprintf(o, "$%d", n);
		q += 1 + nl;
		starts[n] = q;
	}
	*o = '\0';
	c->sql = sql;
	c->nparams = n;
	c->param_var = malloc((n + 1) * sizeof(int));
	c->frag = calloc(n + 1, sizeof(char *));
	c->fraglen = calloc(n + 1, sizeof(size_t));
	if (!c->param_var || !c->frag || !c->fraglen)
		return -ENOMEM;
	memcpy(c->param_var, vars, n * sizeof(int));
	for (int k = 0; k <= n; k++) {
		const char *e = k < n ? ends[k] : t + len;

		c->fraglen[k] = e - starts[k];
		if (!(c->frag[k] = strndup(starts[k], c->fraglen[k])))
			return -ENOMEM;
	}
	return 0;
}

int pgb_prog_finish(struct pgb_prog *p, struct diag *d)
{
	int rc = 0;

	if (p->nscripts > 0 && p->total_weight <= 0) {
		diag_error(d, &p->scripts[0].pos,
		           "pgbench: the total weight of the scripts must be positive");
		rc = -EINVAL;
	}
	for (int s = 0; s < p->nscripts; s++)
		for (int c = 0; c < p->scripts[s].ncmd; c++)
			if (p->scripts[s].cmd[c].kind == PGB_CMD_SQL && !p->scripts[s].cmd[c].sql) {
				int r = pgbs_compile_sql(p, &p->scripts[s], &p->scripts[s].cmd[c], d);

				if (r)
					rc = r;
			}
	p->finished = true;
	return rc;
}
