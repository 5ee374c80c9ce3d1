/* fio_ini: fio's job-file format (see fio_ini.h). */
#include "fio_ini.h"
#include "fio_mem.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safe_file.h"

#define FIO_INCLUDE_DEPTH 16

/* The files being read, outermost first (real paths), to refuse a loop. */
struct chain {
	char *real[FIO_INCLUDE_DEPTH + 1];
	int n;
};

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	return s;
}

/* ${VAR} from the environment; an unset or empty name gives "". */
static char *expand_env(const char *v)
{
	size_t cap = strlen(v) + 1, n = 0;
	char *out = fio_xrealloc(NULL, cap);
	for (const char *p = v; *p;) {
		const char *add = p;
		size_t alen = 1;
		const char *close = p[0] == '$' && p[1] == '{' ? strchr(p + 2, '}') : NULL;
		if (close) {
			char name[256];
			size_t nl = (size_t)(close - p - 2);
			if (nl >= sizeof(name))
				nl = sizeof(name) - 1;
			memcpy(name, p + 2, nl);
			name[nl] = 0;
			add = nl ? getenv(name) : NULL;
			add = add ? add : "";
			alen = strlen(add);
			p = close + 1;
		} else {
			p++;
		}
		if (n + alen + 1 > cap) {
			cap = (n + alen + 1) * 2;
			out = fio_xrealloc(out, cap);
		}
		memcpy(out + n, add, alen);
		n += alen;
	}
	out[n] = 0;
	return out;
}

static void add_opt(struct fio_sec *s, const char *key, const char *val, const struct src_pos *pos)
{
	FIO_XGROW(s->opt, s->cap, s->n + 1, 16);
	struct fio_opt *o = &s->opt[s->n++];
	o->key = fio_xstrdup(key);
	for (char *c = o->key; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	o->val = val ? expand_env(val) : NULL;
	o->pos = *pos;
}

static struct fio_sec *add_sec(struct fio_ini *ini, const char *name, const struct src_pos *pos)
{
	FIO_XGROW(ini->sec, ini->cap, ini->n + 1, 8);
	struct fio_sec *s = &ini->sec[ini->n++];
	memset(s, 0, sizeof(*s));
	s->name = fio_xstrdup(name);
	s->global = !strcmp(name, "global");
	s->pos = *pos;
	return s;
}

/* A comment after a value starts at ';' or '#' (fio strips them too). */
static void strip_comment(char *s)
{
	for (char *c = s; *c; c++)
		if (*c == ';' || *c == '#') {
			*c = 0;
			return;
		}
}

static int read_text(const char *path, const char *text, struct fio_ini *ini, struct chain *ch,
                     struct diag *d);

static int read_file_at(const char *path, struct fio_ini *ini, struct chain *ch, const struct src_pos *from,
                        struct diag *d)
{
	/* safe_file's rules; the job file given on the command line is the
	 * user's (a link to it is followed, it may be private), an included
	 * one must be readable by everyone: its lines may be shown */
	char err[4096 + 512];
	size_t len = 0;
	struct stat st;
	bool top = ch->n == 0;
	int fd =
	    safe_file_open(path, top ? SAFE_FILE_FOLLOW | SAFE_FILE_PRIVATE_OK : 0, &st, err, sizeof(err));
	if (fd < 0) {
		diag_error(d, from, "%s", err);
		return -1;
	}
	char *real = realpath(path, NULL);
	for (int i = 0; real && i < ch->n; i++)
		if (!strcmp(ch->real[i], real)) {
			diag_error(d, from, "an include loop: %s is already being read", path);
			free(real);
			close(fd);
			return -1;
		}
	char *text = safe_file_read_fd(fd, path, SAFE_FILE_TEXT_MAX, &len, err, sizeof(err));
	if (!text) {
		diag_error(d, from, "%s", err);
		free(real);
		return -1;
	}
	if (memchr(text, 0, len)) {
		diag_error(d, from, "%s holds a NUL byte: not a job file", path);
		free(text);
		free(real);
		return -1;
	}
	ch->real[ch->n++] = real ? real : fio_xstrdup(path);
	int rc = read_text(path, text, ini, ch, d);
	free(ch->real[--ch->n]);
	free(text);
	return rc;
}

/* include FILE: relative to the directory of the including file. */
static int do_include(const char *path, const char *arg, struct fio_ini *ini, struct chain *ch,
                      const struct src_pos *pos, struct diag *d)
{
	if (!*arg) {
		diag_error(d, pos, "include needs a file name");
		return -1;
	}
	if (ch->n > FIO_INCLUDE_DEPTH) {
		diag_error(d, pos, "include %s: more than %d nested includes (a loop?)", arg,
		           FIO_INCLUDE_DEPTH);
		return -1;
	}
	char full[4096];
	const char *slash = strrchr(path, '/');
	if (arg[0] != '/' && slash)
		snprintf(full, sizeof(full), "%.*s/%s", (int)(slash - path), path, arg);
	else
		snprintf(full, sizeof(full), "%s", arg);
	size_t before = ini->n;
	int rc = read_file_at(full, ini, ch, pos, d);
	if (ini->n != before) {
		diag_error(d, pos, "include %s: an included file may not contain [sections]", arg);
		return -1;
	}
	return rc;
}

static int read_line(const char *path, char *line, struct fio_ini *ini, struct chain *ch,
                     const struct src_pos *pos, struct diag *d)
{
	char *s = trim(line);
	if (!*s || *s == ';' || *s == '#')
		return 0;
	if (*s == '[') {
		char *close = strchr(s, ']');
		if (!close || close == s + 1) {
			diag_error(d, pos, "bad section header '%s'", s);
			return -1;
		}
		*close = 0;
		if (ch->n > 1) {
			diag_error(d, pos, "an included file may not contain [sections]");
			return -1;
		}
		add_sec(ini, trim(s + 1), pos);
		return 0;
	}
	strip_comment(s);
	s = trim(s);
	if (!strncmp(s, "include", 7) && (isspace((unsigned char)s[7]))) {
		if (!ini->n) {
			diag_error(d, pos, "include before any [section]");
			return -1;
		}
		return do_include(path, trim(s + 8), ini, ch, pos, d);
	}
	if (!ini->n) {
		diag_error(d, pos, "option '%s' before any [section]", s);
		return -1;
	}
	char *eq = strchr(s, '=');
	if (eq)
		*eq = 0;
	char *key = trim(s);
	if (!*key) {
		diag_error(d, pos, "an option without a name");
		return -1;
	}
	add_opt(&ini->sec[ini->n - 1], key, eq ? trim(eq + 1) : NULL, pos);
	return 0;
}

static int read_text(const char *path, const char *text, struct fio_ini *ini, struct chain *ch,
                     struct diag *d)
{
	const char *file = diag_intern(path);
	int rc = 0, lineno = 0;
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = fio_xrealloc(NULL, n + 1);
		memcpy(line, p, n);
		line[n] = 0;
		struct src_pos pos = {file, ++lineno, 1};
		if (read_line(path, line, ini, ch, &pos, d))
			rc = -1;
		free(line);
		p += n + (nl ? 1 : 0);
	}
	return rc;
}

int fio_ini_read_text(const char *path, const char *text, struct fio_ini *ini, struct diag *d)
{
	memset(ini, 0, sizeof(*ini));
	struct chain ch = {{fio_xstrdup(path)}, 1};
	int rc = read_text(path, text, ini, &ch, d);
	free(ch.real[0]);
	return rc;
}

int fio_ini_read(const char *path, struct fio_ini *ini, struct diag *d)
{
	memset(ini, 0, sizeof(*ini));
	struct chain ch = {{NULL}, 0};
	return read_file_at(path, ini, &ch, NULL, d);
}

void fio_ini_free(struct fio_ini *ini)
{
	for (size_t i = 0; i < ini->n; i++) {
		struct fio_sec *s = &ini->sec[i];
		for (size_t j = 0; j < s->n; j++) {
			free(s->opt[j].key);
			free(s->opt[j].val);
		}
		free(s->opt);
		free(s->name);
	}
	free(ini->sec);
	memset(ini, 0, sizeof(*ini));
}
