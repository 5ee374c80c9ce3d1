/* diag: collected diagnostics with source carets (see diag.h). */
#include "diag.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "term_escape.h"

void diag_init(struct diag *d)
{
	memset(d, 0, sizeof(*d));
}

void diag_free(struct diag *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].msg);
	free(d->v);
	memset(d, 0, sizeof(*d));
}

void diag_vadd(struct diag *d, enum diag_level lvl, const struct src_pos *pos, const char *fmt, va_list ap)
{
	if (GROW(d->v, d->cap, d->n + 1, 8) < 0)
		return;
	char *msg = NULL;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	struct diag_entry *e = &d->v[d->n++];
	e->level = lvl;
	if (pos)
		e->pos = *pos;
	else
		memset(&e->pos, 0, sizeof(e->pos));
	e->msg = msg ? msg : strdup("(out of memory)");
	if (lvl == DIAG_ERROR)
		d->nerrors++;
}

void diag_add(struct diag *d, enum diag_level lvl, const struct src_pos *pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vadd(d, lvl, pos, fmt, ap);
	va_end(ap);
}

bool diag_error_at(const struct diag *d, const struct src_pos *p)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].level == DIAG_ERROR && d->v[i].pos.line == p->line && d->v[i].pos.col == p->col &&
		    d->v[i].pos.file == p->file)
			return true;
	return false;
}

void diag_move(struct diag *dst, struct diag *src)
{
	for (size_t i = 0; i < src->n; i++) {
		struct diag_entry *e = &src->v[i];
		diag_add(dst, e->level, e->pos.line ? &e->pos : (e->pos.file ? &e->pos : NULL), "%s", e->msg);
	}
	diag_free(src);
}

/* ---- interned file names and cached source texts ---- */

struct source {
	const char *file; /* interned */
	char *text;       /* NULL when the file could not be read */
	size_t len;
	bool loaded;
};

static char **interned;
static size_t ninterned;
static struct source *sources;
static size_t nsources;

const char *diag_intern(const char *file)
{
	if (!file)
		return NULL;
	for (size_t i = 0; i < ninterned; i++)
		if (strcmp(interned[i], file) == 0)
			return interned[i];
	char **v = realloc(interned, (ninterned + 1) * sizeof(*v));
	if (!v)
		return file;
	interned = v;
	interned[ninterned] = strdup(file);
	return interned[ninterned++];
}

/* Included files: a name of their own per inclusion, and where from. */
struct included {
	char *file;
	struct src_pos from;
};
static struct included *includes;
static size_t nincludes;

const char *diag_intern_included(const char *file, const struct src_pos *from)
{
	struct included *v = realloc(includes, (nincludes + 1) * sizeof(*v));
	if (!v)
		return diag_intern(file);
	includes = v;
	char *copy = strdup(file);
	if (!copy)
		return diag_intern(file);
	includes[nincludes] = (struct included){copy, *from};
	return includes[nincludes++].file;
}

const struct src_pos *diag_included_from(const char *file)
{
	for (size_t i = nincludes; file && i-- > 0;)
		if (includes[i].file == file)
			return &includes[i].from;
	return NULL;
}

static struct source *source_slot(const char *file)
{
	for (size_t i = 0; i < nsources; i++)
		if (strcmp(sources[i].file, file) == 0)
			return &sources[i];
	struct source *v = realloc(sources, (nsources + 1) * sizeof(*v));
	if (!v)
		return NULL;
	sources = v;
	struct source *s = &sources[nsources++];
	memset(s, 0, sizeof(*s));
	s->file = diag_intern(file);
	return s;
}

void diag_register_source(const char *file, const char *text, size_t len)
{
	struct source *s = source_slot(file);
	if (!s)
		return;
	free(s->text);
	s->text = malloc(len + 1);
	if (s->text) {
		memcpy(s->text, text, len);
		s->text[len] = 0;
		s->len = len;
	}
	s->loaded = true;
}

/* Only registered texts are quoted: the scenario loader registers each
 * scenario it reads. A file named in a position but never registered (a
 * hooks_file, a pgbench script, a file some option points at) is not read
 * here: `hooks_file: /etc/shadow` must not print the file's first line. */
static const struct source *source_get(const char *file)
{
	for (size_t i = 0; i < nsources; i++)
		if (strcmp(sources[i].file, file) == 0)
			return sources[i].text ? &sources[i] : NULL;
	return NULL;
}

/* Copy line `line` (1-based) of the source into buf; false if absent. */
static bool source_line(const char *file, int line, char *buf, size_t len)
{
	const struct source *s = source_get(file);
	if (!s || line < 1)
		return false;
	const char *p = s->text, *end = s->text + s->len;
	for (int l = 1; l < line && p < end; l++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return false;
		p = nl + 1;
	}
	if (p >= end && line > 1)
		return false;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
	if (n && p[n - 1] == '\r')
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(buf, p, n);
	buf[n] = 0;
	return true;
}

bool diag_source_line(const char *file, int line, char *buf, size_t len)
{
	return file && len && source_line(file, line, buf, len);
}

static const char *level_name(enum diag_level l)
{
	switch (l) {
	case DIAG_ERROR: return "error";
	case DIAG_WARNING: return "warning";
	default: return "note";
	}
}

const char *src_pos_prefix(const struct src_pos *p, char *buf, size_t len)
{
	if (p && p->line && p->file)
		snprintf(buf, len, "%s:%d:%d: ", p->file, p->line, p->col);
	else if (len)
		buf[0] = 0;
	return buf;
}

void diag_format_one(const struct diag_entry *e, char *buf, size_t len)
{
	if (e->pos.file && e->pos.line > 0)
		snprintf(buf, len, "%s:%d:%d: %s: %s", e->pos.file, e->pos.line, e->pos.col,
		         level_name(e->level), e->msg);
	else if (e->pos.file)
		snprintf(buf, len, "%s: %s: %s", e->pos.file, level_name(e->level), e->msg);
	else
		snprintf(buf, len, "benchgrid: %s: %s", level_name(e->level), e->msg);
}

/* A message or a source line quotes a scenario's text, a file's or a
 * command's: control characters are shown escaped, not sent to the
 * terminal (term_escape.h); lines and tabs are kept. */
static void diag_put_text(FILE *out, const char *s)
{
	term_fput(out, s, TERM_KEEP_LINES);
}

void diag_print(const struct diag *d, FILE *out)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct diag_entry *e = &d->v[i];
		char head[4096];
		diag_format_one(e, head, sizeof(head));
		diag_put_text(out, head);
		fputc('\n', out);
		char line[1024];
		if (e->pos.file && e->pos.line > 0 &&
		    source_line(e->pos.file, e->pos.line, line, sizeof(line))) {
			fputs("  ", out);
			diag_put_text(out, line);
			fputs("\n  ", out);
			/* Keep tabs in the caret line so it lines up under the column. */
			for (int c = 1; c < e->pos.col && line[c - 1]; c++)
				fputc(line[c - 1] == '\t' ? '\t' : ' ', out);
			fputs("^\n", out);
		}
		/* Each level of include: the chain ends at the file given. */
		const struct src_pos *from = diag_included_from(e->pos.file);
		for (int level = 0; from && level < 64; level++) {
			fprintf(out, "  included from %s:%d:%d\n", from->file, from->line, from->col);
			from = diag_included_from(from->file);
		}
	}
}
