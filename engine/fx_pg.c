/* fx_pg: the `postgres:` section: parse and validate it, decide how much of
 * the previous cell's server can be reused, and apply the cell's settings.
 *
 * The decision, in order (see fx_pg.h):
 *   external           -> connect, compare settings, nothing changed
 *   cluster shape differs (binaries, user, data parent, wal_dir, tablespaces,
 *   initdb_options) or data dir gone -> stop, initdb, start     "initdb"
 *   server died        -> kill orphans, start (crash recovery)  "restart"
 *   a changed setting (or port) is a postmaster setting ->       "restart"
 *   other settings changed -> pg_reload_conf()                   "reload"
 *   nothing changed                                              "reused"
 * New settings are validated against the running server through
 * pg_file_settings before anything is applied, so a bad value on a reload
 * keeps the old configuration and names the setting.
 *
 * Process handling (fork/exec as the server user, stop, orphans) lives in
 * fx_pg_proc.c. */
#include "fx_pg.h"
#include "fx_pg_int.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <libpq-fe.h>

#include "pgb_init.h"
#include "state.h"

static const char *const fxpg_keys[] = {"bin_dir",     "run_as", "settings", "wal_dir",
                                        "tablespaces", "init",   "fresh",    "initdb_options",
                                        "external",    "port",   NULL};
static const char *const fxpg_init_keys[] = {"scale",        "fillfactor",       "unlogged",
                                             "tablespace",   "partitions",       "server_side",
                                             "foreign_keys", "partition_method", NULL};
/* Settings the fixture itself owns. */
static const char *const fxpg_reserved[] = {
    "port", "unix_socket_directories", "data_directory", "config_file", "hba_file", "ident_file", NULL};

void fxpg_cfg_free(struct fxpg_cfg *c)
{
	for (size_t i = 0; i < c->nset; i++) {
		free(c->set[i].name);
		free(c->set[i].value);
	}
	free(c->set);
	for (size_t i = 0; i < c->nts; i++) {
		free(c->ts[i].name);
		free(c->ts[i].where);
		free(c->ts[i].path);
	}
	free(c->ts);
	for (size_t i = 0; i < c->ninitdb; i++)
		free(c->initdb_opts[i]);
	free(c->initdb_opts);
	free(c->bin_dir);
	free(c->run_as);
	free(c->wal_dir);
	free(c->wal_path);
	free(c->external);
	free(c->init.tablespace);
	memset(c, 0, sizeof(*c));
}

static int fxpg_str(const struct node *n, const char *what, char **out, struct diag *d)
{
	const char *s;
	if (node_as_string(n, what, &s, d))
		return -EINVAL;
	free(*out);
	*out = strdup(s);
	return 0;
}

static bool fxpg_guc_name_ok(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
			return false;
	return true;
}

/* A tablespace name benchgrid creates: a plain lower-case identifier. */
static bool fxpg_ts_name_ok(const char *s)
{
	if (strncmp(s, "pg_", 3) == 0 || !(islower((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_')
			return false;
	return strlen(s) < 64;
}

/* A setting's value as text: a scalar as written, or a list joined by ", "
 * (shared_preload_libraries: [a, b]). */
static int fxpg_setting_text(const struct node *v, const char *what, char **out, struct diag *d)
{
	if (v->kind == NODE_SCALAR || v->kind == NODE_NULL) {
		*out = strdup(v->kind == NODE_SCALAR ? v->text : "");
	} else if (v->kind == NODE_SEQ) {
		size_t len = 1;
		for (size_t i = 0; i < v->n; i++) {
			if (v->items[i]->kind != NODE_SCALAR) {
				diag_error(d, &v->items[i]->pos, "%s: list items must be plain values", what);
				return -EINVAL;
			}
			len += strlen(v->items[i]->text) + 2;
		}
		*out = calloc(1, len);
		for (size_t i = 0; i < v->n; i++) {
			if (i)
				strcat(*out, ", ");
			strcat(*out, v->items[i]->text);
		}
	} else {
		diag_error(d, &v->pos, "%s: expected a value (text, number, on/off) or a list, found a map",
		           what);
		return -EINVAL;
	}
	for (const char *p = *out; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\t') {
			diag_error(d, &v->pos, "%s: the value contains a control character (newline?)", what);
			free(*out);
			*out = NULL;
			return -EINVAL;
		}
	return 0;
}

static int fxpg_parse_settings(const struct node *m, struct fxpg_cfg *c, struct diag *d)
{
	if (m->kind == NODE_NULL)
		return 0;
	if (m->kind != NODE_MAP) {
		diag_error(d, &m->pos, "postgres.settings: expected a map of setting: value");
		return -EINVAL;
	}
	int rc = 0;
	c->set = calloc(m->n ? m->n : 1, sizeof(*c->set));
	for (size_t i = 0; i < m->n; i++) {
		const char *name = m->keys[i];
		char what[160];
		snprintf(what, sizeof(what), "postgres.settings.%s", name);
		if (!fxpg_guc_name_ok(name)) {
			diag_error(d, &m->kpos[i], "%s: not a PostgreSQL setting name", what);
			rc = -EINVAL;
			continue;
		}
		bool reserved = false;
		for (int k = 0; fxpg_reserved[k]; k++)
			if (strcasecmp(name, fxpg_reserved[k]) == 0)
				reserved = true;
		if (reserved) {
			diag_error(d, &m->kpos[i], "%s: set by benchgrid for the managed server%s", what,
			           strcasecmp(name, "port") == 0 ? "; use postgres.port" : "");
			rc = -EINVAL;
			continue;
		}
		for (size_t j = 0; j < c->nset; j++)
			if (strcasecmp(c->set[j].name, name) == 0) {
				diag_error(d, &m->kpos[i], "%s: given twice (names are case-insensitive)",
				           what);
				rc = -EINVAL;
			}
		char *val = NULL;
		if (fxpg_setting_text(m->items[i], what, &val, d)) {
			rc = -EINVAL;
			continue;
		}
		struct fxpg_setting *s = &c->set[c->nset++];
		s->name = strdup(name);
		for (char *p = s->name; *p; p++)
			*p = tolower((unsigned char)*p);
		s->value = val;
		s->pos = m->items[i]->pos;
		s->kpos = m->kpos[i];
	}
	return rc;
}

static int fxpg_parse_init(const struct node *m, struct fxpg_cfg *c, struct diag *d)
{
	struct fxpg_init *in = &c->init;
	if (m->kind == NODE_NULL)
		return 0;
	if (node_check_keys(m, "postgres.init", fxpg_init_keys, d))
		return -EINVAL;
	int rc = 0;
	int64_t v;
	const struct node *n;
	in->on = true;
	in->scale = 1;
	in->pos = m->pos;
	if ((n = node_get(m, "scale")))
		rc |= node_as_int(n, "postgres.init.scale", 1, 1000000, &v, d) ?: (in->scale = (int)v, 0);
	if ((n = node_get(m, "fillfactor")))
		rc |= node_as_int(n, "postgres.init.fillfactor", 10, 100, &v, d)
		          ?: (in->fillfactor = (int)v, 0);
	if ((n = node_get(m, "partitions")))
		rc |= node_as_int(n, "postgres.init.partitions", 0, 1000000, &v, d)
		          ?: (in->partitions = (int)v, 0);
	if ((n = node_get(m, "unlogged")))
		rc |= node_as_bool(n, "postgres.init.unlogged", &in->unlogged, d);
	if ((n = node_get(m, "server_side")))
		rc |= node_as_bool(n, "postgres.init.server_side", &in->server_side, d);
	if ((n = node_get(m, "foreign_keys")))
		rc |= node_as_bool(n, "postgres.init.foreign_keys", &in->foreign_keys, d);
	if ((n = node_get(m, "partition_method"))) {
		static const char *const methods[] = {"range", "hash", NULL};
		int e;
		rc |= node_as_enum(n, "postgres.init.partition_method", methods, &e, d)
		          ?: (in->partition_hash = e, 0);
	}
	if ((n = node_get(m, "tablespace"))) {
		rc |= fxpg_str(n, "postgres.init.tablespace", &in->tablespace, d);
		in->ts_pos = n->pos;
	}
	return rc ? -EINVAL : 0;
}

int fxpg_cfg_parse(const struct node *sec, struct fxpg_cfg *c, struct diag *d)
{
	memset(c, 0, sizeof(*c));
	if (sec)
		c->pos = sec->pos;
	if (!sec || sec->kind == NODE_NULL)
		return 0;
	if (node_check_keys(sec, "postgres", fxpg_keys, d))
		return -EINVAL;
	int rc = 0;
	const struct node *n;
	int64_t v;
	if ((n = node_get(sec, "bin_dir"))) {
		rc |= fxpg_str(n, "postgres.bin_dir", &c->bin_dir, d);
		c->bin_pos = n->pos;
		if (c->bin_dir && c->bin_dir[0] != '/') {
			diag_error(d, &n->pos, "postgres.bin_dir: expected an absolute path, found '%s'",
			           c->bin_dir);
			rc = -EINVAL;
		}
	}
	if ((n = node_get(sec, "run_as"))) {
		rc |= fxpg_str(n, "postgres.run_as", &c->run_as, d);
		c->run_as_pos = n->pos;
	}
	if ((n = node_get(sec, "settings")))
		rc |= fxpg_parse_settings(n, c, d);
	if ((n = node_get(sec, "wal_dir"))) {
		rc |= fxpg_str(n, "postgres.wal_dir", &c->wal_dir, d);
		c->wal_pos = n->pos;
	}
	if ((n = node_get(sec, "tablespaces")) && n->kind != NODE_NULL) {
		if (n->kind != NODE_MAP) {
			diag_error(d, &n->pos,
			           "postgres.tablespaces: expected a map of name: target or path");
			rc = -EINVAL;
		} else {
			c->ts = calloc(n->n ? n->n : 1, sizeof(*c->ts));
			for (size_t i = 0; i < n->n; i++) {
				char what[160];
				snprintf(what, sizeof(what), "postgres.tablespaces.%s", n->keys[i]);
				if (!fxpg_ts_name_ok(n->keys[i])) {
					diag_error(
					    d, &n->kpos[i],
					    "%s: a tablespace name is a lower-case identifier not starting "
					    "with pg_",
					    what);
					rc = -EINVAL;
					continue;
				}
				char *where = NULL;
				if (fxpg_str(n->items[i], what, &where, d)) {
					rc = -EINVAL;
					continue;
				}
				struct fxpg_ts *t = &c->ts[c->nts++];
				t->name = strdup(n->keys[i]);
				t->where = where;
				t->pos = n->items[i]->pos;
			}
		}
	}
	if ((n = node_get(sec, "init")))
		rc |= fxpg_parse_init(n, c, d);
	if ((n = node_get(sec, "fresh")))
		rc |= node_as_bool(n, "postgres.fresh", &c->fresh, d);
	if ((n = node_get(sec, "initdb_options")) && n->kind != NODE_NULL) {
		const struct node *const *items = (const struct node *const *)n->items;
		size_t cnt = n->n;
		if (n->kind == NODE_SCALAR) {
			items = &n;
			cnt = 1;
		} else if (n->kind != NODE_SEQ) {
			diag_error(d, &n->pos, "postgres.initdb_options: expected a list of options");
			rc = -EINVAL;
			cnt = 0;
		}
		c->initdb_opts = calloc(cnt ? cnt : 1, sizeof(char *));
		for (size_t i = 0; i < cnt; i++) {
			const char *s;
			if (node_as_string(items[i], "postgres.initdb_options", &s, d)) {
				rc = -EINVAL;
				continue;
			}
			if (strcmp(s, "-D") == 0 || strncmp(s, "--pgdata", 8) == 0 ||
			    strncmp(s, "-X", 2) == 0 || strncmp(s, "--waldir", 8) == 0) {
				diag_error(d, &items[i]->pos,
				           "postgres.initdb_options: '%s' is set by benchgrid (use wal_dir "
				           "for the WAL)",
				           s);
				rc = -EINVAL;
				continue;
			}
			c->initdb_opts[c->ninitdb++] = strdup(s);
		}
	}
	if ((n = node_get(sec, "external"))) {
		rc |= fxpg_str(n, "postgres.external", &c->external, d);
		c->ext_pos = n->pos;
		char *err = NULL;
		PQconninfoOption *o = c->external ? PQconninfoParse(c->external, &err) : NULL;
		if (c->external && !o) {
			diag_error(d, &n->pos, "postgres.external: not a libpq connection string: %s",
			           err ? err : "out of memory");
			rc = -EINVAL;
		}
		PQconninfoFree(o);
		PQfreemem(err);
	}
	if ((n = node_get(sec, "port"))) {
		rc |= node_as_int(n, "postgres.port", 1, 65535, &v, d) ?: (c->port = (int)v, 0);
	}
	if (c->external) {
		static const char *const managed_only[] = {
		    "bin_dir", "run_as", "wal_dir", "tablespaces", "initdb_options", "port", NULL};
		for (int k = 0; managed_only[k]; k++)
			if (node_get(sec, managed_only[k])) {
				diag_error(
				    d, node_key_pos(sec, managed_only[k]),
				    "postgres.%s: not allowed with external (the server is not managed)",
				    managed_only[k]);
				rc = -EINVAL;
			}
	}
	if (c->init.tablespace && !c->external && strcmp(c->init.tablespace, "pg_default") != 0) {
		bool found = false;
		for (size_t i = 0; i < c->nts; i++)
			found |= strcmp(c->ts[i].name, c->init.tablespace) == 0;
		if (!found) {
			diag_error(d, &c->init.ts_pos,
			           "postgres.init.tablespace: '%s' is not one of postgres.tablespaces",
			           c->init.tablespace);
			rc = -EINVAL;
		}
	}
	return rc ? -EINVAL : 0;
}

int fx_pg_check(const struct node *section, struct diag *d)
{
	struct fxpg_cfg c;
	int rc = fxpg_cfg_parse(section, &c, d);
	fxpg_cfg_free(&c);
	return rc;
}

/* ---- small helpers ---------------------------------------------------- */

double fxpg_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void fxpg_sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

char *fxpg_printf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

static bool fxpg_streq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void fxpg_notice_ignore(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

/* Connect; on failure an error at pos naming what failed. */
static PGconn *fxpg_connect(const char *conninfo, const struct src_pos *pos, struct diag *d)
{
	PGconn *c = PQconnectdb(conninfo);
	if (PQstatus(c) != CONNECTION_OK) {
		char *m = strdup(PQerrorMessage(c));
		size_t l = strlen(m);
		while (l && m[l - 1] == '\n')
			m[--l] = 0;
		diag_error(d, pos, "postgres: cannot connect (%s): %s", conninfo, m);
		free(m);
		PQfinish(c);
		return NULL;
	}
	PQsetNoticeProcessor(c, fxpg_notice_ignore, NULL);
	return c;
}

/* Run a query with up to two text parameters; returns the result (caller
 * clears) or NULL with the server's message in d. */
static PGresult *fxpg_query(PGconn *c, const struct src_pos *pos, struct diag *d, const char *sql,
                            const char *p1, const char *p2)
{
	const char *params[2] = {p1, p2};
	int np = p2 ? 2 : p1 ? 1 : 0;
	PGresult *r = PQexecParams(c, sql, np, NULL, params, NULL, NULL, 0);
	ExecStatusType st = PQresultStatus(r);
	if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
		char *m = strdup(PQresultErrorMessage(r));
		size_t l = strlen(m);
		while (l && m[l - 1] == '\n')
			m[--l] = 0;
		diag_error(d, pos, "postgres: %s: %s", sql, m);
		free(m);
		PQclear(r);
		return NULL;
	}
	return r;
}

/* ---- comparing a wanted setting with the server's value --------------- */

/* Multiplier of a unit to bytes (memory) or milliseconds (time); class 1 =
 * memory, 2 = time, 0 = unknown. */
static double fxpg_unit(const char *u, int *cls)
{
	static const struct {
		const char *u;
		int cls;
		double mul;
	} t[] = {{"B", 1, 1},
	         {"kB", 1, 1024},
	         {"MB", 1, 1048576},
	         {"GB", 1, 1073741824.0},
	         {"TB", 1, 1099511627776.0},
	         {"us", 2, 0.001},
	         {"ms", 2, 1},
	         {"s", 2, 1000},
	         {"min", 2, 60000},
	         {"h", 2, 3600000},
	         {"d", 2, 86400000}};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(u, t[i].u) == 0) {
			*cls = t[i].cls;
			return t[i].mul;
		}
	*cls = 0;
	return 0;
}

static int fxpg_parse_bool(const char *s)
{
	static const char *const yes[] = {"on", "true", "yes", "1", "t", "y"}, *const no[] = {"off", "false",
	                                                                                      "no",  "0",
	                                                                                      "f",   "n"};
	for (int i = 0; i < 6; i++) {
		if (strcasecmp(s, yes[i]) == 0)
			return 1;
		if (strcasecmp(s, no[i]) == 0)
			return 0;
	}
	return -1;
}

/* 1 = same, 0 = different, -1 = cannot tell. `setting` and `unit` are
 * pg_settings.setting and .unit. */
int fxpg_setting_matches(const char *want, const char *vartype, const char *unit, const char *setting)
{
	char w[256];
	snprintf(w, sizeof(w), "%s", want);
	char *p = w;
	while (isspace((unsigned char)*p))
		p++;
	size_t l = strlen(p);
	while (l && isspace((unsigned char)p[l - 1]))
		p[--l] = 0;
	if (strcmp(vartype, "bool") == 0) {
		int a = fxpg_parse_bool(p), b = fxpg_parse_bool(setting);
		return a < 0 || b < 0 ? -1 : a == b;
	}
	if (strcmp(vartype, "integer") == 0 || strcmp(vartype, "real") == 0) {
		char *end;
		double wv = strtod(p, &end), sv = strtod(setting, NULL);
		while (isspace((unsigned char)*end))
			end++;
		/* pg unit such as "8kB": a count times a base unit */
		double base = 1, umul = 1;
		int ucls = 0;
		if (unit && *unit) {
			char *ue;
			double cnt = strtod(unit, &ue);
			if (ue == unit)
				cnt = 1;
			umul = fxpg_unit(ue, &ucls);
			if (!ucls)
				return -1;
			base = cnt * umul;
		}
		double a = sv * base, b;
		if (*end) {
			int cls;
			double m = fxpg_unit(end, &cls);
			if (!cls || cls != ucls)
				return -1;
			b = wv * m;
		} else {
			b = wv * base;
		}
		/* PostgreSQL rounds to its unit: within one unit is the same value */
		double tol = ucls ? base : 1e-9 * fmax(fabs(a), fabs(b));
		if (!ucls && strcmp(vartype, "integer") != 0)
			tol = 1e-6 * fmax(fabs(a), fabs(b));
		return fabs(a - b) <= tol;
	}
	if (*p == '\'' && l >= 2 && p[l - 1] == '\'') {
		p[l - 1] = 0;
		p++;
	}
	return strcasecmp(p, setting) == 0;
}

/* ---- configuration file ---------------------------------------------- */

/* Append value as a PostgreSQL configuration string: always single-quoted,
 * quote doubled, backslash escaped (the file parser reads \ escapes). */
static void fxpg_conf_quote(FILE *f, const char *v)
{
	fputc('\'', f);
	for (; *v; v++) {
		if (*v == '\'')
			fputs("''", f);
		else if (*v == '\\')
			fputs("\\\\", f);
		else
			fputc(*v, f);
	}
	fputc('\'', f);
}

#define FXPG_CONF_FIXED 5 /* lines before the first user setting */

/* Write <datadir>/benchgrid.conf for cfg c; setting i is on line
 * FXPG_CONF_FIXED + 1 + i (used to map the server's complaints back). */
static int fxpg_write_conf(struct fx_pg *pg, const struct fxpg_cfg *c, struct diag *d)
{
	char *path = fxpg_printf("%s/benchgrid.conf", pg->datadir);
	char *tmp = fxpg_printf("%s/benchgrid.conf.tmp", pg->datadir);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		int e = errno;
		diag_error(d, &c->pos, "postgres: cannot write %s: %s", tmp, strerror(e));
		free(path);
		free(tmp);
		return -e;
	}
	fprintf(f, "# Written by benchgrid for each cell; changes are lost.\n");
	fprintf(f, "listen_addresses = ''\n");
	fprintf(f, "unix_socket_directories = ");
	fxpg_conf_quote(f, pg->sockdir);
	fprintf(f, "\nport = %d\n", pg->port);
	fprintf(f, "# scenario settings\n");
	for (size_t i = 0; i < c->nset; i++) {
		fprintf(f, "%s = ", c->set[i].name);
		fxpg_conf_quote(f, c->set[i].value);
		fputc('\n', f);
	}
	int rc = 0;
	if (fflush(f) || fsync(fileno(f)))
		rc = -errno;
	if (pg->switch_user && fchown(fileno(f), pg->uid, pg->gid))
		rc = -errno;
	if (fclose(f) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc)
		diag_error(d, &c->pos, "postgres: cannot write %s: %s", path, strerror(-rc));
	free(path);
	free(tmp);
	return rc;
}

/* The setting a server complaint "benchgrid.conf" line N refers to. */
static const struct fxpg_setting *fxpg_setting_at_line(const struct fxpg_cfg *c, int line)
{
	int i = line - FXPG_CONF_FIXED - 1;
	return i >= 0 && (size_t)i < c->nset ? &c->set[i] : NULL;
}

/* Point at the setting the log names ("... benchgrid.conf" line N, or
 * parameter "name"), else the section. */
const struct src_pos *fxpg_blame(const struct fxpg_cfg *c, const char *log)
{
	const char *p = log ? strstr(log, "benchgrid.conf\" line ") : NULL;
	if (p) {
		const struct fxpg_setting *s =
		    fxpg_setting_at_line(c, atoi(p + strlen("benchgrid.conf\" line ")));
		if (s)
			return &s->pos;
	}
	for (size_t i = 0; log && i < c->nset; i++) {
		char q[200];
		snprintf(q, sizeof(q), "parameter \"%s\"", c->set[i].name);
		if (strstr(log, q))
			return &c->set[i].pos;
	}
	return &c->pos;
}

/* ---- read-back -------------------------------------------------------- */

/* Record SHOW of every setting and the build facts; compare with what was
 * asked. Mismatches are errors for external servers (except free-text
 * settings, which PostgreSQL may normalise) and warnings otherwise. */
static int fxpg_read_back(struct fx_pg *pg, PGconn *conn, const struct fxpg_cfg *c, struct step_result *facts,
                          struct diag *d)
{
	static const char *const facts_names[] = {"server_version", "block_size", "wal_block_size"};
	for (size_t i = 0; i < 3; i++) {
		PGresult *r =
		    fxpg_query(conn, &c->pos, d, "SELECT current_setting($1)", facts_names[i], NULL);
		if (!r)
			return -EIO;
		char key[64];
		snprintf(key, sizeof(key), "pg.%s", facts_names[i]);
		result_info(facts, key, "%s", PQgetvalue(r, 0, 0));
		PQclear(r);
	}
	int rc = 0;
	for (size_t i = 0; i < c->nset; i++) {
		const struct fxpg_setting *s = &c->set[i];
		PGresult *r = fxpg_query(conn, &s->pos, d,
		                         "SELECT current_setting($1, true), s.vartype, s.unit, s.setting "
		                         "FROM (SELECT 1) x LEFT JOIN pg_settings s ON s.name = $1",
		                         s->name, NULL);
		if (!r)
			return -EIO;
		if (PQgetisnull(r, 0, 0)) {
			diag_error(d, &s->kpos, "postgres.settings.%s: the server has no such setting",
			           s->name);
			rc = -EINVAL;
			PQclear(r);
			continue;
		}
		const char *shown = PQgetvalue(r, 0, 0);
		char key[200];
		snprintf(key, sizeof(key), "pg.setting.%s", s->name);
		result_info(facts, key, "%s", shown);
		if (!PQgetisnull(r, 0, 1)) {
			const char *vt = PQgetvalue(r, 0, 1);
			int m = fxpg_setting_matches(s->value, vt, PQgetvalue(r, 0, 2), PQgetvalue(r, 0, 3));
			if (m == 0 && pg->external && strcmp(vt, "string") != 0) {
				diag_error(d, &s->pos,
				           "postgres.settings.%s: the external server has %s, the scenario "
				           "wants '%s' "
				           "(external servers are not changed)",
				           s->name, shown, s->value);
				rc = -EINVAL;
			} else if (m == 0) {
				result_info(facts, "warning",
				            "postgres setting %s: asked for '%s', server shows '%s'", s->name,
				            s->value, shown);
			}
		}
		PQclear(r);
	}
	return rc;
}

/* ---- reuse decision --------------------------------------------------- */

/* Does cluster shape (what initdb fixed) differ? Sets *why. */
static bool fxpg_needs_initdb(const struct fx_pg *pg, const struct fxpg_cfg *c, const char *bin_dir,
                              const char *data_parent, const char **why)
{
	const struct fxpg_cfg *o = &pg->cfg;
	if (pg->external || c->external) {
		*why = "external";
		return !pg->external || !c->external || strcmp(o->external, c->external) != 0;
	}
	*why = "bin_dir";
	if (strcmp(pg->bin_dir, bin_dir) != 0)
		return true;
	*why = "run_as";
	if (!fxpg_streq(o->run_as, c->run_as))
		return true;
	*why = "data directory";
	if (strcmp(pg->data_parent, data_parent) != 0)
		return true;
	char *pv = fxpg_printf("%s/PG_VERSION", pg->datadir);
	bool gone = access(pv, F_OK) != 0;
	free(pv);
	if (gone)
		return true;
	*why = "wal_dir";
	if (!fxpg_streq(o->wal_path, c->wal_path))
		return true;
	*why = "tablespaces";
	if (o->nts != c->nts)
		return true;
	for (size_t i = 0; i < c->nts; i++)
		if (strcmp(o->ts[i].name, c->ts[i].name) != 0 || strcmp(o->ts[i].path, c->ts[i].path) != 0)
			return true;
	*why = "initdb_options";
	if (o->ninitdb != c->ninitdb)
		return true;
	for (size_t i = 0; i < c->ninitdb; i++)
		if (strcmp(o->initdb_opts[i], c->initdb_opts[i]) != 0)
			return true;
	return false;
}

static const char *fxpg_find_setting(const struct fxpg_cfg *c, const char *name)
{
	for (size_t i = 0; i < c->nset; i++)
		if (strcmp(c->set[i].name, name) == 0)
			return c->set[i].value;
	return NULL;
}

/* Settings whose value differs between the applied and the new cfg, with
 * whether one of them needs a restart (asked from pg_settings.context).
 * Returns 0 none, 1 reload, 2 restart, <0 error. */
static int fxpg_settings_change(PGconn *conn, const struct fxpg_cfg *o, const struct fxpg_cfg *c,
                                struct step_result *facts, struct diag *d)
{
	int need = 0;
	char list[1024] = "";
	for (int pass = 0; pass < 2; pass++) {
		const struct fxpg_cfg *a = pass ? o : c, *b = pass ? c : o;
		for (size_t i = 0; i < a->nset; i++) {
			const char *other = fxpg_find_setting(b, a->set[i].name);
			if (pass && other)
				continue; /* seen in the first pass */
			if (other && strcmp(other, a->set[i].value) == 0)
				continue;
			PGresult *r =
			    fxpg_query(conn, &c->pos, d, "SELECT context FROM pg_settings WHERE name = $1",
			               a->set[i].name, NULL);
			if (!r)
				return -EIO;
			bool pm = PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), "postmaster") == 0;
			PQclear(r);
			size_t l = strlen(list);
			snprintf(list + l, sizeof(list) - l, "%s%s%s", l ? ", " : "", a->set[i].name,
			         pm ? " (restart)" : "");
			if (pm)
				need = 2;
			else if (!need)
				need = 1;
		}
	}
	if (list[0])
		result_info(facts, "pg.changed", "%s", list);
	return need;
}

/* Check the configuration on disk through pg_file_settings before applying
 * it. Settings needing a restart show "could not be applied" there; those
 * are checked by the restart itself. */
static int fxpg_validate_conf(PGconn *conn, const struct fxpg_cfg *c, struct diag *d)
{
	PGresult *r = fxpg_query(conn, &c->pos, d,
	                         "SELECT f.sourcefile, f.sourceline, f.name, f.error, s.context "
	                         "FROM pg_file_settings f LEFT JOIN pg_settings s ON s.name = f.name "
	                         "WHERE f.error IS NOT NULL",
	                         NULL, NULL);
	if (!r)
		return -EIO;
	int rc = 0;
	for (int i = 0; i < PQntuples(r); i++) {
		const char *file = PQgetvalue(r, i, 0), *err = PQgetvalue(r, i, 3);
		bool pm = !PQgetisnull(r, i, 4) && strcmp(PQgetvalue(r, i, 4), "postmaster") == 0;
		if (pm && strstr(err, "could not be applied"))
			continue;
		const struct fxpg_setting *s = NULL;
		size_t fl = strlen(file);
		if (fl >= 14 && strcmp(file + fl - 14, "benchgrid.conf") == 0)
			s = fxpg_setting_at_line(c, atoi(PQgetvalue(r, i, 1)));
		if (s) {
			/* pg_file_settings only says "could not be applied"; a trial
			 * set_config() gives PostgreSQL's reason where allowed */
			char *why = NULL;
			PQclear(PQexec(conn, "BEGIN"));
			PGresult *t = PQexecParams(conn, "SELECT set_config($1, $2, true)", 2, NULL,
			                           (const char *const[]){s->name, s->value}, NULL, NULL, 0);
			if (PQresultStatus(t) != PGRES_TUPLES_OK &&
			    !strstr(PQresultErrorMessage(t), "cannot be changed") &&
			    !strstr(PQresultErrorMessage(t), "permission denied")) {
				const char *m = PQresultErrorMessage(t);
				if (strncmp(m, "ERROR:  ", 8) == 0)
					m += 8;
				why = strndup(m, strcspn(m, "\n"));
			}
			PQclear(t);
			PQclear(PQexec(conn, "ROLLBACK"));
			diag_error(d, &s->pos, "postgres.settings.%s: PostgreSQL does not accept '%s': %s",
			           s->name, s->value, why ? why : err);
			free(why);
		} else {
			diag_error(d, &c->pos, "postgres: configuration error in %s line %s: %s", file,
			           PQgetvalue(r, i, 1), err);
		}
		rc = -EINVAL;
	}
	PQclear(r);
	return rc;
}

/* pg_reload_conf() and wait until this session saw the new configuration. */
static int fxpg_reload(PGconn *conn, const struct fxpg_cfg *c, struct diag *d)
{
	PGresult *r = fxpg_query(conn, &c->pos, d, "SELECT pg_conf_load_time()::text", NULL, NULL);
	if (!r)
		return -EIO;
	char *t0 = strdup(PQgetvalue(r, 0, 0));
	PQclear(r);
	r = fxpg_query(conn, &c->pos, d, "SELECT pg_reload_conf()", NULL, NULL);
	int rc = r ? -ETIMEDOUT : -EIO;
	PQclear(r);
	for (int i = 0; r && i < 1000; i++) {
		r = fxpg_query(conn, &c->pos, d, "SELECT pg_conf_load_time() > $1::timestamptz", t0, NULL);
		if (!r) {
			rc = -EIO;
			break;
		}
		bool done = strcmp(PQgetvalue(r, 0, 0), "t") == 0;
		PQclear(r);
		if (done) {
			rc = 0;
			break;
		}
		fxpg_sleep_ms(10);
	}
	if (rc == -ETIMEDOUT)
		diag_error(d, &c->pos, "postgres: the server did not reload its configuration within 10 s");
	free(t0);
	return rc;
}

/* Create the scenario's tablespaces (right after initdb). */
static int fxpg_create_tablespaces(PGconn *conn, const struct fxpg_cfg *c, struct diag *d)
{
	for (size_t i = 0; i < c->nts; i++) {
		char *id = PQescapeIdentifier(conn, c->ts[i].name, strlen(c->ts[i].name));
		char *lit = PQescapeLiteral(conn, c->ts[i].path, strlen(c->ts[i].path));
		char *sql = fxpg_printf("CREATE TABLESPACE %s LOCATION %s", id, lit);
		PGresult *r = fxpg_query(conn, &c->ts[i].pos, d, sql, NULL, NULL);
		PQclear(r);
		free(sql);
		PQfreemem(id);
		PQfreemem(lit);
		if (!r)
			return -EIO;
	}
	return 0;
}

static bool fxpg_init_same(const struct fxpg_init *a, const struct fxpg_init *b)
{
	return a->on == b->on && a->scale == b->scale && a->fillfactor == b->fillfactor &&
	       a->unlogged == b->unlogged && a->partitions == b->partitions &&
	       a->foreign_keys == b->foreign_keys && a->partition_hash == b->partition_hash &&
	       fxpg_streq(a->tablespace, b->tablespace);
}

static int fxpg_load_data(struct fx_pg *pg, const struct fxpg_cfg *c, struct step_result *facts,
                          struct diag *d)
{
	struct pgb_init_opts o = {
	    .scale = c->init.scale,
	    .fillfactor = c->init.fillfactor,
	    .unlogged = c->init.unlogged,
	    .tablespace = c->init.tablespace,
	    .partitions = c->init.partitions,
	    .server_side = c->init.server_side,
	    .foreign_keys = c->init.foreign_keys,
	    .partition_hash = c->init.partition_hash,
	};
	pg->loaded = false;
	free(pg->loaded_init.tablespace);
	pg->loaded_init.tablespace = NULL;
	size_t before = d->nerrors;
	int rc = pgb_init_run(pg->conninfo, &o, facts, d);
	if (rc) {
		if (d->nerrors == before)
			diag_error(d, &c->init.pos, "postgres.init: loading pgbench data failed: %s",
			           facts->error ? facts->error : strerror(-rc));
		return rc;
	}
	pg->loaded = true;
	pg->loaded_init = c->init;
	pg->loaded_init.tablespace = c->init.tablespace ? strdup(c->init.tablespace) : NULL;
	return 0;
}

/* ---- prepare ---------------------------------------------------------- */

/* Resolve wal_dir and tablespace locations to directories benchgrid owns:
 * <path>/benchgrid-pg_wal and <path>/benchgrid-ts-<name>. */
static int fxpg_resolve_paths(struct fxpg_cfg *c, fx_pg_resolve_fn resolve, void *ud, struct diag *d)
{
	int rc = 0;
	if (c->wal_dir) {
		const char *w = c->wal_dir[0] == '/' ? c->wal_dir : resolve ? resolve(ud, c->wal_dir) : NULL;
		if (!w) {
			diag_error(d, &c->wal_pos,
			           "postgres.wal_dir: '%s' is neither an absolute path nor a target name",
			           c->wal_dir);
			rc = -EINVAL;
		} else {
			c->wal_path = fxpg_printf("%s/benchgrid-pg_wal", w);
		}
	}
	for (size_t i = 0; i < c->nts; i++) {
		const char *w = c->ts[i].where[0] == '/' ? c->ts[i].where
		                : resolve                ? resolve(ud, c->ts[i].where)
		                                         : NULL;
		if (!w) {
			diag_error(
			    d, &c->ts[i].pos,
			    "postgres.tablespaces.%s: '%s' is neither an absolute path nor a target name",
			    c->ts[i].name, c->ts[i].where);
			rc = -EINVAL;
			continue;
		}
		c->ts[i].path = fxpg_printf("%s/benchgrid-ts-%s", w, c->ts[i].name);
	}
	return rc;
}

/* The log stays where the server was first started; later cells get a
 * link to it and the offset where their part begins. */
static void fxpg_link_log(const struct fx_pg *pg, const char *cell_dir, off_t from, struct step_result *facts)
{
	result_info(facts, "pg.log_from", "%lld", (long long)from);
	if (!cell_dir)
		return;
	char *link = fxpg_printf("%s/postgres.log", cell_dir);
	if (strcmp(link, pg->logfile) != 0 && symlink(pg->logfile, link) != 0 && errno != EEXIST)
		result_info(facts, "warning", "postgres: cannot link %s: %s", link, strerror(errno));
	free(link);
}

static void fxpg_cfg_take(struct fxpg_cfg *dst, struct fxpg_cfg *src)
{
	fxpg_cfg_free(dst);
	*dst = *src;
	memset(src, 0, sizeof(*src));
}

/* External server: connect, record, compare. */
static int fxpg_prepare_external(struct fx_pg **pgp, struct fxpg_cfg *c, struct step_result *facts,
                                 struct diag *d)
{
	struct fx_pg *pg = *pgp;
	if (!pg) {
		pg = fxpg_new();
		pg->external = true;
		pg->conninfo = strdup(c->external);
		*pgp = pg;
	}
	PGconn *conn = fxpg_connect(pg->conninfo, &c->ext_pos, d);
	if (!conn)
		return -ECONNREFUSED;
	result_info(facts, "pg.reuse", "external");
	int rc = fxpg_read_back(pg, conn, c, facts, d);
	PQfinish(conn);
	if (rc)
		return rc;
	bool load = c->init.on && (c->fresh || !pg->loaded || !fxpg_init_same(&pg->loaded_init, &c->init));
	if (load && (rc = fxpg_load_data(pg, c, facts, d)))
		return rc;
	result_info(facts, "pg.data", "%s", load ? "loaded" : c->init.on ? "reused" : "none");
	fxpg_cfg_take(&pg->cfg, c);
	return 0;
}

int fx_pg_prepare(struct fx_pg **pgp, const struct node *section, const char *data_parent_dir,
                  const char *cell_dir, fx_pg_resolve_fn resolve_target, void *ud, struct step_result *facts,
                  struct diag *d)
{
	struct fxpg_cfg c;
	PGconn *conn = NULL;
	int rc = fxpg_cfg_parse(section, &c, d);
	if (!rc)
		rc = fxpg_resolve_paths(&c, resolve_target, ud, d);
	if (rc)
		goto out;
	if (*pgp && (*pgp)->external != !!c.external) {
		fx_pg_stop(*pgp);
		*pgp = NULL;
	}
	if (c.external) {
		if (*pgp && strcmp((*pgp)->conninfo, c.external) != 0) {
			fx_pg_stop(*pgp);
			*pgp = NULL;
		}
		rc = fxpg_prepare_external(pgp, &c, facts, d);
		goto out;
	}
	if (!data_parent_dir) {
		diag_error(d, &c.pos, "postgres: no target directory for the data directory");
		rc = -EINVAL;
		goto out;
	}

	char bin_dir[PATH_MAX];
	if ((rc = fxpg_find_bin_dir(*pgp, &c, bin_dir, sizeof(bin_dir), d)))
		goto out;

	struct fx_pg *pg = *pgp;
	const char *why = NULL;
	if (pg && fxpg_needs_initdb(pg, &c, bin_dir, data_parent_dir, &why)) {
		result_info(facts, "pg.initdb_because", "%s changed", why);
		fx_pg_stop(pg);
		pg = *pgp = NULL;
	}

	bool fresh_cluster = !pg;
	struct stat lst;
	off_t log_from = pg && stat(pg->logfile, &lst) == 0 ? lst.st_size : 0;
	const char *decision = "reused";
	if (fresh_cluster) {
		pg = fxpg_new();
		if ((rc = fxpg_setup(pg, &c, bin_dir, data_parent_dir, cell_dir, facts, d))) {
			fx_pg_stop(pg);
			goto out;
		}
		*pgp = pg;
		if ((rc = fxpg_write_conf(pg, &c, d)))
			goto fail_new;
		if ((rc = fxpg_start(pg, &c, facts, d)))
			goto fail_new;
		if (!(conn = fxpg_connect(pg->conninfo, &c.pos, d))) {
			rc = -ECONNREFUSED;
			goto fail_new;
		}
		if ((rc = fxpg_create_tablespaces(conn, &c, d)))
			goto fail_new;
		decision = "initdb";
	} else {
		bool alive = fx_pg_alive(pg);
		int port = c.port ? c.port : pg->port;
		if (!alive) {
			/* died (crash, kill): restart into crash recovery */
			result_info(facts, "warning", "postgres: the server had stopped; restarting it");
			fxpg_kill_orphans(pg);
			fxpg_set_port(pg, port);
			pg->conf_unknown = true;
			if ((rc = fxpg_write_conf(pg, &c, d)) || (rc = fxpg_start(pg, &c, facts, d)))
				goto out;
			if (c.init.unlogged)
				pg->loaded = false; /* unlogged tables are emptied by crash recovery */
			decision = "restart";
		} else {
			if (!(conn = fxpg_connect(pg->conninfo, &c.pos, d))) {
				rc = -ECONNREFUSED;
				goto out;
			}
			int need = fxpg_settings_change(conn, &pg->cfg, &c, facts, d);
			if (need < 0) {
				rc = need;
				goto out;
			}
			/* an earlier cell failed half-way: its configuration may be in force */
			if (port != pg->port || pg->conf_unknown)
				need = 2;
			if (need) {
				int oldport = pg->port;
				bool was_unknown = pg->conf_unknown;
				fxpg_set_port(pg, port);
				pg->conf_unknown = true;
				if ((rc = fxpg_write_conf(pg, &c, d)))
					goto out;
				if ((rc = fxpg_validate_conf(conn, &c, d))) {
					/* keep the old configuration in force */
					fxpg_set_port(pg, oldport);
					if (fxpg_write_conf(pg, &pg->cfg, d) == 0)
						pg->conf_unknown = was_unknown;
					goto out;
				}
			}
			if (need == 2) {
				PQfinish(conn);
				conn = NULL;
				double t = fxpg_now();
				if ((rc = fxpg_stop_server(pg, d)))
					goto out;
				if ((rc = fxpg_start(pg, &c, facts, d)))
					goto out;
				result_metric(facts, "pg_restart_s", fxpg_now() - t, "s");
				decision = "restart";
			} else if (need == 1) {
				if ((rc = fxpg_reload(conn, &c, d)))
					goto out;
				decision = "reload";
			}
		}
		if (!conn && !(conn = fxpg_connect(pg->conninfo, &c.pos, d))) {
			rc = -ECONNREFUSED;
			goto out;
		}
	}
	result_info(facts, "pg.reuse", "%s", decision);
	result_info(facts, "pg.version", "%s", pg->version);
	result_info(facts, "pg.bin_dir", "%s", pg->bin_dir);
	result_info(facts, "pg.datadir", "%s", pg->datadir);
	result_info(facts, "pg.log", "%s", pg->logfile);
	fxpg_link_log(pg, cell_dir, log_from, facts);
	result_info(facts, "pg.conninfo", "%s", pg->conninfo);
	if ((rc = fxpg_read_back(pg, conn, &c, facts, d)))
		goto out;

	bool load = c.init.on &&
	            (c.fresh || fresh_cluster || !pg->loaded || !fxpg_init_same(&pg->loaded_init, &c.init));
	if (load && (rc = fxpg_load_data(pg, &c, facts, d)))
		goto out;
	result_info(facts, "pg.data", "%s", load ? "loaded" : c.init.on ? "reused" : "none");
	fxpg_cfg_take(&pg->cfg, &c);
	pg->conf_unknown = false;
	goto out;

fail_new:
	/* a cluster that never worked: remove it all */
	PQfinish(conn);
	conn = NULL;
	fx_pg_stop(pg);
	*pgp = NULL;
out:
	PQfinish(conn);
	if (rc && facts && !facts->failed && d->nerrors) {
		char buf[4096];
		diag_format_one(&d->v[d->n - 1], buf, sizeof(buf));
		result_fail(facts, "%s", buf);
	}
	fxpg_cfg_free(&c);
	return rc;
}

const char *fx_pg_conninfo(const struct fx_pg *pg)
{
	return pg ? pg->conninfo : NULL;
}

const char *fx_pg_logfile(const struct fx_pg *pg)
{
	return pg && !pg->external ? pg->logfile : NULL;
}
