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
	/* strings, not char literals, for quotes and braces: scripts/check-layering
	 * measures functions by their braces and skips string literals only */
	fputs("\"", out);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (strchr("\"\\", *c))
			fprintf(out, "\\%c", *c);
		else if (!strncmp((const char *)c, "${", 2))
			fputs("$$", out);
		else if (*c < 0x20 || *c == 0x7f)
			fprintf(out, "\\x%02x", *c);
		else
			fputc(*c, out);
	}
	fputs("\"", out);
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

/* One io step as an item of a step list indented by `ind` (2 or 6). */
static void put_step(FILE *out, const struct fio_step *st, int ind)
{
	char in1[16], in2[16];
	snprintf(in1, sizeof(in1), "%*s", ind + 2, "");
	snprintf(in2, sizeof(in2), "%*s", ind + 4, "");
	fprintf(out, "%*s- name: ", ind, "");
	put_scalar(out, st->name, true);
	fputc('\n', out);
	for (size_t i = 0; i < st->notes.n; i++)
		put_comment(out, in1, st->notes.s[i]);
	fprintf(out, "%sio:", in1);
	if (!st->io.n) {
		fputs(" {}\n", out);
		return;
	}
	fputc('\n', out);
	for (int k = 0; fio_io_key_order[k]; k++) {
		const struct fio_kv *kv = fio_kv_get(&st->io, fio_io_key_order[k]);
		if (kv)
			put_kv(out, in2, kv);
	}
}

/* The steps fio runs together: a parallel group (docs/scenario.md). */
static void put_group(FILE *out, const struct fio_step *st)
{
	fputs("  - name: ", out);
	put_scalar(out, st->group, true);
	fputc('\n', out);
	for (size_t i = 0; i < st->group_notes.n; i++)
		put_comment(out, "    ", st->group_notes.s[i]);
	fputs("    parallel:\n      until: all\n", out);
	if (st->group_reporting)
		fputs("      group_reporting: true\n", out);
	fputs("      steps:\n", out);
	for (size_t i = 0; i < st->group_len; i++)
		put_step(out, &st[i], 8);
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
	for (size_t i = 0; i < sc->n; i++) {
		if (sc->step[i].group_len > 1) {
			put_group(out, &sc->step[i]);
			i += sc->step[i].group_len - 1;
		} else {
			put_step(out, &sc->step[i], 2);
		}
	}
	return ferror(out) ? -1 : 0;
}
