/* fio_yaml: the mapped scenario as YAML text. A scalar is written plain only
 * when YAML reads it back as the same text and benchgrid does not
 * interpolate it; anything else is double-quoted with escapes ('${' is
 * written '$${', which benchgrid reads as a literal '${'). */
#include "fio_yaml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fio_opts.h"

static bool plain_ok(const char *s)
{
	bool negative = s[0] == '-' && s[1] >= '0' && s[1] <= '9';
	if (!*s ||
	    (!negative && !strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./", *s)))
		return false;
	for (const char *c = s; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./%:+- ", *c))
			return false;
	size_t n = strlen(s);
	return !strstr(s, ": ") && s[n - 1] != ':' && s[n - 1] != ' ';
}

/* Text a string key must keep: quoted when it reads as a number, a bool or
 * null, too. */
static bool looks_typed(const char *s)
{
	static const char *const words[] = {"y",    "n",     "yes",  "no", "on", "off",
	                                    "true", "false", "null", "~",  NULL};
	for (int i = 0; words[i]; i++)
		if (!strcasecmp(s, words[i]))
			return true;
	char *end;
	(void)strtod(s, &end);
	return end != s && !*end;
}

static void put_quoted(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(out, "\\%c", *c);
		else if (*c == '$' && c[1] == '{')
			fputs("$$", out);
		else if (*c < 0x20 || *c == 0x7f)
			fprintf(out, "\\x%02x", *c);
		else
			fputc(*c, out);
	}
	fputc('"', out);
}

static void put_scalar(FILE *out, const char *s, bool string)
{
	if (plain_ok(s) && !(string && looks_typed(s)))
		fputs(s, out);
	else
		put_quoted(out, s);
}

/* A comment line: one line, whatever the note holds. */
static void put_comment(FILE *out, const char *indent, const char *s)
{
	fprintf(out, "%s# ", indent);
	for (const char *c = s; *c; c++)
		fputc(*c == '\n' || *c == '\r' ? ' ' : *c, out);
	fputc('\n', out);
}

static bool string_key(const char *key)
{
	return !strcmp(key, "file") || !strcmp(key, "cpus_allowed") || !strcmp(key, "name") ||
	       !strcmp(key, "path");
}

static void put_kv(FILE *out, const char *indent, const struct fio_kv *kv)
{
	fprintf(out, "%s%s:", indent, kv->key);
	if (kv->val) {
		fputc(' ', out);
		put_scalar(out, kv->val, string_key(kv->key));
		fputc('\n', out);
		return;
	}
	fputc('\n', out);
	char sub[64];
	snprintf(sub, sizeof(sub), "%s  ", indent);
	for (size_t i = 0; i < kv->nsub; i++)
		put_kv(out, sub, &kv->sub[i]);
}

static void put_step(FILE *out, const struct fio_step *st)
{
	fputs("  - name: ", out);
	put_scalar(out, st->name, true);
	fputc('\n', out);
	for (size_t i = 0; i < st->notes.n; i++)
		put_comment(out, "    ", st->notes.s[i]);
	fputs("    io:", out);
	if (!st->io.n) {
		fputs(" {}\n", out);
		return;
	}
	fputc('\n', out);
	for (int k = 0; fio_io_key_order[k]; k++) {
		const struct fio_kv *kv = fio_kv_get(&st->io, fio_io_key_order[k]);
		if (kv)
			put_kv(out, "      ", kv);
	}
}

int fio_yaml_write(const struct fio_scenario *sc, FILE *out)
{
	put_comment(out, "", "Imported by `benchgrid import-fio` from the fio job file:");
	put_comment(out, "", sc->source);
	for (size_t i = 0; i < sc->notes.n; i++)
		put_comment(out, "", sc->notes.s[i]);
	fputs("benchgrid: 1\nname: ", out);
	put_scalar(out, sc->name, true);
	fputs("\ndescription: ", out);
	char desc[4200];
	snprintf(desc, sizeof(desc), "imported from the fio job file %s", sc->source);
	put_quoted(out, desc);
	fprintf(out, "\ntarget:\n  kind: %s\n", sc->target_kind);
	if (sc->target_path) {
		fputs("  path: ", out);
		put_scalar(out, sc->target_path, true);
		fputc('\n', out);
	}
	if (sc->destroy) {
		put_comment(out, "  ", "the jobs write the device: run with --yes");
		fputs("  destroy: true\n", out);
	}
	fputs("steps:\n", out);
	for (size_t i = 0; i < sc->n; i++)
		put_step(out, &sc->step[i]);
	return ferror(out) ? -1 : 0;
}
