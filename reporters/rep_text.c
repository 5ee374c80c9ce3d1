/* rep_text: text from a scenario as report.md and results.csv write it
 * (see rep_text.h). */
#include "rep_text.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

/* A plain decimal number: [+-] digits [. digits] [e [+-] digits], nothing
 * else (no spaces, no hex, no inf/nan). Such a field cannot be a formula,
 * and "-3.5" must reach a spreadsheet as the number it is. */
static bool csv_plain_number(const char *s)
{
	size_t i = 0, digits = 0;
	if (s[i] == '+' || s[i] == '-')
		i++;
	for (; s[i] >= '0' && s[i] <= '9'; i++)
		digits++;
	if (s[i] == '.')
		for (i++; s[i] >= '0' && s[i] <= '9'; i++)
			digits++;
	if (digits == 0)
		return false;
	if (s[i] == 'e' || s[i] == 'E') {
		i++;
		if (s[i] == '+' || s[i] == '-')
			i++;
		if (s[i] < '0' || s[i] > '9')
			return false;
		while (s[i] >= '0' && s[i] <= '9')
			i++;
	}
	return s[i] == '\0';
}

/* A spreadsheet reads a field that starts with = + - @ TAB or CR as a
 * formula (=HYPERLINK(...), -2+cmd|...); OWASP's remedy is a leading '.
 * Plain numbers are left alone. */
static bool csv_formula_like(const char *s)
{
	return s[0] && strchr("=+-@\t\r", s[0]) && !csv_plain_number(s);
}

void rep_csv_field(FILE *f, const char *s)
{
	if (!s)
		return;
	size_t n;
	char *clean = utf8_clean(s, strlen(s), UTF8_NO_CONTROLS, &n);
	if (!clean) {
		fputs(UTF8_REPLACEMENT, f); /* out of memory: still a valid field */
		return;
	}
	bool quote = n > 0 && (clean[0] == ' ' || clean[n - 1] == ' ');
	for (size_t i = 0; i < n && !quote; i++)
		quote = clean[i] == ',' || clean[i] == '"' || clean[i] == '\n' || clean[i] == '\r';
	const char *guard = csv_formula_like(clean) ? "'" : "";
	if (!quote) {
		fputs(guard, f);
		fputs(clean, f);
		free(clean);
		return;
	}
	fputc('"', f);
	fputs(guard, f);
	for (size_t i = 0; i < n; i++) {
		if (clean[i] == '"')
			fputc('"', f);
		fputc(clean[i], f);
	}
	fputc('"', f);
	free(clean);
}

static bool md_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

void rep_md_text(FILE *f, const char *s)
{
	const char *start = s;
	/* the text so far ends in a letter or digit, or in a run of unescaped
	 * _ after one: a _ here cannot open emphasis (CommonMark's flanking
	 * rules), and without an opener no closer matters */
	bool after_word = false;
	for (; s && *s; s++) {
		char c = *s;
		const char *rep = NULL;
		char esc[3] = {'\\', c, '\0'};
		bool word = md_alnum(c);
		switch (c) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '\n':
		case '\r':
		case '\t': rep = " "; break;
		case '_':
			word = after_word; /* kept, it continues the word */
			if (!after_word)
				rep = esc;
			break;
		default:
			if (strchr("\\`*[]|~#!", c))
				rep = esc;
		}
		after_word = word;
		if (!rep)
			continue;
		utf8_fput(f, start, (size_t)(s - start), UTF8_NO_CONTROLS | UTF8_NO_CR);
		fputs(rep, f);
		start = s + 1;
	}
	if (s)
		utf8_fput(f, start, (size_t)(s - start), UTF8_NO_CONTROLS | UTF8_NO_CR);
}

void rep_md_cell(FILE *f, const char *s)
{
	rep_md_text(f, s);
}

void rep_md_code(FILE *f, const char *s)
{
	if (!s)
		return;
	/* A code span shows its text as is, but ` ends it and | ends a table
	 * cell even inside one; such text is written as escaped plain text. */
	for (const char *p = s; *p; p++)
		if (strchr("`|\\\r\n<>&", *p) || (unsigned char)*p < 0x20 || *p == 0x7f) {
			rep_md_text(f, s);
			return;
		}
	fputc('`', f);
	utf8_fput(f, s, strlen(s), UTF8_NO_CONTROLS | UTF8_NO_CR);
	fputc('`', f);
}
