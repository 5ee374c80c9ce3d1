/* pgb_script: pgbench scripts: the builtins, the script parser (commands,
 * meta commands) and SQL compiled for each protocol (see pgb_script.h). */
#include "pgb_script.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pgb_script_meta.h"
#include "pgb_script_util.h"

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

void pgb_prog_init(struct pgb_prog *p)
{
	memset(p, 0, sizeof(*p));
	pgbs_var_slot(p, "scale", 5, true);
	pgbs_var_slot(p, "client_id", 9, true);
	pgbs_var_slot(p, "random_seed", 11, true);
	pgbs_var_slot(p, "default_seed", 12, true);
}

int pgb_prog_var(const struct pgb_prog *p, const char *name)
{
	for (int i = 0; i < p->nvar; i++)
		if (!strcmp(p->var[i], name))
			return i;
	return -1;
}

void pgb_prog_free(struct pgb_prog *p)
{
	for (int s = 0; s < p->nscripts; s++) {
		struct pgb_script *sc = &p->scripts[s];

		for (int c = 0; c < sc->ncmd; c++)
			pgbs_cmd_free(&sc->cmd[c]);
		free(sc->cmd);
		free(sc->name);
	}
	free(p->scripts);
	for (int i = 0; i < p->nvar; i++) {
		free(p->var[i]);
		free(p->defval[i]);
	}
	free(p->var);
	free(p->defval);
	memset(p, 0, sizeof(*p));
}

/* ---- script parser ---- */

/* "\\;" (one command, several statements) is sent as ";". */
static void pgbs_unescape_semicolons(char *t)
{
	char quote = 0, *o = t;

	for (; *t; t++) {
		if (quote) {
			quote = *t == quote ? 0 : quote;
		} else if (*t == '\'' || *t == '"') {
			quote = *t;
		} else if (t[0] == '\\' && t[1] == ';') {
			continue;
		}
		*o++ = *t;
	}
	*o = '\0';
}

/* Where the scanner is in a script's text. */
struct pgbs_scan {
	const char *s, *bol; /* next character; beginning of its line */
	int line;
};

/* A meta command from l (its backslash) to the end of its line and of any
 * continuation lines. */
static int pgbs_scan_meta(struct pgb_prog *p, struct pgb_script *sc, struct pgbs_scan *st, const char *l,
                          const struct src_pos *pos, bool pos_is_file, struct diag *d)
{
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
	int rc = pgbs_meta(p, sc, l, e, st->line, (int)(l - st->bol), pos, pos_is_file, d);

	st->line += lines;
	st->s = st->bol = *e ? e + 1 : e;
	return rc;
}

/* An SQL command from l: up to a semicolon outside quotes or a meta
 * command (\gset ends it; "\;" does not), across lines. */
static int pgbs_scan_sql(struct pgb_script *sc, struct pgbs_scan *st, const char *l,
                         const struct src_pos *pos, bool pos_is_file)
{
	struct pgb_cmd c = {.kind = PGB_CMD_SQL, .line = st->line, .var = -1};
	const char *q = l;
	char quote = 0;

	c.pos = pgbs_pos(pos, pos_is_file, st->line, (int)(l - st->bol) + 1);
	for (; *q; q++) {
		if (*q == '\n') {
			st->line++;
			st->bol = q + 1;
		}
		if (quote) {
			if (*q == quote)
				quote = 0;
		} else if (*q == '\'' || *q == '"') {
			quote = *q;
		} else if (q[0] == '-' && q[1] == '-') {
			while (q[1] && q[1] != '\n')
				q++;
		} else if (q[0] == '\\' && q[1] == ';') {
			q++;
		} else if (*q == ';' || (q[0] == '\\' && isalpha((unsigned char)q[1]))) {
			break;
		}
	}
	if (!(c.text = pgbs_sql_text(l, q)))
		return -ENOMEM;
	pgbs_unescape_semicolons(c.text);
	c.rollback = !strcasecmp(c.text, "rollback") || !strcasecmp(c.text, "abort");
	if (*c.text && pgbs_push(sc, &c)) {
		free(c.text);
		return -ENOMEM;
	}
	if (!*c.text)
		free(c.text);
	if (*q == '\\') { /* the meta command is scanned next */
		st->s = q;
		return 0;
	}
	st->s = *q ? q + 1 : q;
	/* rest of the line after ';' (blanks, or a \gset) */
	while (*st->s == ' ' || *st->s == '\t' || *st->s == '\r')
		st->s++;
	if (*st->s == '\n') {
		st->s = st->bol = st->s + 1;
		st->line++;
	}
	return 0;
}

int pgb_prog_add(struct pgb_prog *p, const char *name, const char *text, int weight,
                 const struct src_pos *pos, bool pos_is_file, struct diag *d)
{
	struct pgb_script sc = {.weight = weight, .pos = *pos};
	struct pgbs_scan st = {.s = text, .bol = text, .line = 1};
	int nerr = 0, rc;

	if (!(sc.name = strdup(name)))
		return -ENOMEM;
	while (*st.s) {
		const char *l = st.s;

		while (*l == ' ' || *l == '\t')
			l++;
		if (*l == '\n' || (*l == '\r' && l[1] == '\n') || (l[0] == '-' && l[1] == '-')) {
			while (*l && *l != '\n')
				l++;
			st.s = st.bol = *l ? l + 1 : l;
			st.line++;
			continue;
		}
		if (*l == '\\')
			rc = pgbs_scan_meta(p, &sc, &st, l, pos, pos_is_file, d);
		else
			rc = pgbs_scan_sql(&sc, &st, l, pos, pos_is_file);
		if (rc == -ENOMEM)
			goto nomem;
		nerr += rc != 0;
	}
	if (!nerr)
		nerr += pgbs_blocks(&sc, d);
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

int pgb_prog_define(struct pgb_prog *p, const char *name, const char *value)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_' && !((unsigned char)name[i] & 0x80))
			return -EINVAL;
	int slot = n ? pgbs_var_slot(p, name, n, true) : -1;

	if (slot < 0)
		return n ? -ENOMEM : -EINVAL;
	free(p->defval[slot]);
	return (p->defval[slot] = strdup(value)) ? 0 : -ENOMEM;
}

/* With \gset or \aset, names known only at run time (the columns) may be
 * read by SQL: every :name outside quotes in SQL becomes a variable. */
static int pgbs_gset_names(struct pgb_prog *p)
{
	for (int s = 0; s < p->nscripts; s++)
		for (int c = 0; c < p->scripts[s].ncmd; c++) {
			const char *t = p->scripts[s].cmd[c].text;
			char quote = 0;

			if (p->scripts[s].cmd[c].kind != PGB_CMD_SQL)
				continue;
			for (; *t; t++) {
				if (quote) {
					quote = *t == quote ? 0 : quote;
				} else if (*t == '\'' || *t == '"') {
					quote = *t;
				} else if (t[0] == ':' && t[1] == ':') {
					while (t[1] == ':')
						t++;
				} else if (t[0] == ':' && (isalpha((unsigned char)t[1]) || t[1] == '_')) {
					size_t nl = 1;

					while (isalnum((unsigned char)t[1 + nl]) || t[1 + nl] == '_')
						nl++;
					if (pgbs_var_slot(p, t + 1, nl, true) < 0)
						return -ENOMEM;
					t += nl;
				}
			}
		}
	return 0;
}

static bool pgbs_has_gset(const struct pgb_prog *p)
{
	for (int s = 0; s < p->nscripts; s++)
		for (int c = 0; c < p->scripts[s].ncmd; c++)
			if (p->scripts[s].cmd[c].gset != PGB_GSET_NONE)
				return true;
	return false;
}

int pgb_prog_finish(struct pgb_prog *p, struct diag *d)
{
	int rc = 0;

	if (pgbs_has_gset(p) && pgbs_gset_names(p))
		return -ENOMEM;
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

int pgb_prog_check_protocol(const struct pgb_prog *p, bool simple, struct diag *d)
{
	int rc = 0;

	for (int s = 0; s < p->nscripts && simple; s++)
		for (int c = 0; c < p->scripts[s].ncmd; c++)
			if (p->scripts[s].cmd[c].kind == PGB_CMD_STARTPIPE) {
				diag_error(d, &p->scripts[s].cmd[c].pos,
				           "pgbench script: cannot use pipeline mode with the simple query "
				           "protocol (set protocol: extended or prepared)");
				rc = -EINVAL;
			}
	return rc;
}
