/* rep_html_md: see rep_html_md.h. */
#include "rep_html_md.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "rep_html_page.h"
#include "utf8.h"

struct span {
	const char *s;
	size_t n;
};

enum { MAX_LIST_DEPTH = 8 };

struct conv {
	FILE *f;          /* the page's main part, in memory */
	FILE *toc;        /* the list of sections, in memory */
	FILE *title;      /* the page's <title>, in memory */
	long toc_at;      /* where in f the list of sections goes (-1: not yet) */
	char slug[96];    /* of the last heading: the tables' ids */
	int ntab;         /* tables under that heading so far */
	struct span *ids; /* heading ids given (their slugs), to keep them unique */
	size_t nids, capids;
	bool para;                        /* a <p> is open */
	int list;                         /* <ul> levels open */
	bool li_open[MAX_LIST_DEPTH + 1]; /* an <li> is open at that level */
	int nchart;
	const char *const *svgs; /* the charts, by the index of their svg mark */
	size_t nsvg;
};

/* A mark "\x01KIND:TEXT\x02" at s (rep_md_doc.h): its length, 0 if none. */
static size_t mark_at(const char *s, size_t n, struct span *kind, struct span *text)
{
	if (n == 0 || s[0] != '\x01')
		return 0;
	const char *end = memchr(s, '\x02', n);
	if (!end)
		return 0;
	const char *colon = memchr(s + 1, ':', (size_t)(end - s - 1));
	kind->s = s + 1;
	kind->n = (size_t)((colon ? colon : end) - kind->s);
	text->s = colon ? colon + 1 : end;
	text->n = (size_t)(end - text->s);
	return (size_t)(end - s) + 1;
}

static bool span_is(struct span sp, const char *word)
{
	return sp.n == strlen(word) && memcmp(sp.s, word, sp.n) == 0;
}

/* Text as HTML: & < > " ' as entities, control characters and marks
 * dropped, invalid UTF-8 as U+FFFD. */
static void esc(FILE *f, const char *s, size_t n)
{
	struct span k, t;
	for (size_t i = 0, len; i < n; i += len) {
		if ((len = mark_at(s + i, n - i, &k, &t)) > 0)
			continue;
		len = utf8_char_len(s + i, n - i, 0);
		if (len == 0) {
			fputs(UTF8_REPLACEMENT, f);
			len = 1;
		} else if (len > 1) {
			fwrite(s + i, 1, len, f);
		} else {
			switch (s[i]) {
			case '&': fputs("&amp;", f); break;
			case '<': fputs("&lt;", f); break;
			case '>': fputs("&gt;", f); break;
			case '"': fputs("&quot;", f); break;
			case '\'': fputs("&#39;", f); break;
			default:
				if ((unsigned char)s[i] >= 0x20 && s[i] != 0x7f)
					fputc(s[i], f);
				else if (s[i] == '\t')
					fputc(' ', f);
			}
		}
	}
}

/* An internal link [text](#anchor) at s: its length, 0 if none. */
static size_t link_at(const char *s, size_t n, struct span *text, struct span *href)
{
	if (n < 5 || s[0] != '[')
		return 0;
	const char *close = memchr(s, ']', n);
	if (!close || (size_t)(close - s) + 3 > n || close[1] != '(' || close[2] != '#')
		return 0;
	const char *paren = memchr(close + 2, ')', n - (size_t)(close + 2 - s));
	if (!paren)
		return 0;
	*text = (struct span){s + 1, (size_t)(close - s - 1)};
	*href = (struct span){close + 2, (size_t)(paren - close - 2)};
	return (size_t)(paren - s) + 1;
}

/* Markdown's inline syntax as report.md writes it: `code`, **strong**,
 * *emphasis*, \-escapes, &amp; &lt; &gt;, [text](#anchor). */
static void inline_md(FILE *f, const char *s, size_t n)
{
	bool em = false, strong = false;
	struct span a, b;
	for (size_t i = 0; i < n;) {
		size_t len;
		char c = s[i];
		if ((len = mark_at(s + i, n - i, &a, &b)) > 0) {
			i += len;
		} else if (c == '\\' && i + 1 < n && strchr("\\`*_[]<>|~#!-+=.()&", s[i + 1])) {
			esc(f, s + i + 1, 1);
			i += 2;
		} else if (c == '`' && memchr(s + i + 1, '`', n - i - 1)) {
			const char *end = memchr(s + i + 1, '`', n - i - 1);
			fputs("<code>", f);
			esc(f, s + i + 1, (size_t)(end - s - i - 1));
			fputs("</code>", f);
			i = (size_t)(end - s) + 1;
		} else if (c == '*' && i + 1 < n && s[i + 1] == '*') {
			fputs(strong ? "</strong>" : "<strong>", f);
			strong = !strong;
			i += 2;
		} else if (c == '*') {
			fputs(em ? "</em>" : "<em>", f);
			em = !em;
			i++;
		} else if (c == '&' && n - i >= 5 && memcmp(s + i, "&amp;", 5) == 0) {
			fputs("&amp;", f);
			i += 5;
		} else if (c == '&' && n - i >= 4 &&
		           (memcmp(s + i, "&lt;", 4) == 0 || memcmp(s + i, "&gt;", 4) == 0)) {
			fwrite(s + i, 1, 4, f); /* rep_md_text's < and > */
			i += 4;
		} else if ((len = link_at(s + i, n - i, &a, &b)) > 0) {
			fputs("<a href=\"#", f);
			esc(f, b.s + 1, b.n - 1);
			fputs("\">", f);
			inline_md(f, a.s, a.n);
			fputs("</a>", f);
			i += len;
		} else { /* one character, whole when it is valid UTF-8 */
			len = utf8_char_len(s + i, n - i, 0);
			esc(f, s + i, len ? len : 1);
			i += len ? len : 1;
		}
	}
	if (em)
		fputs("</em>", f);
	if (strong)
		fputs("</strong>", f);
}

/* The text of Markdown written by rep_md_text, for the page's <title>
 * (no tags there): its \-escapes and entities read back, HTML-escaped. */
static void plain_md(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		if (s[i] == '\\' && i + 1 < n && strchr("\\`*_[]<>|~#!-+=.()&", s[i + 1])) {
			esc(f, s + i + 1, 1);
			i += 2;
		} else if (s[i] == '&' && n - i >= 5 && memcmp(s + i, "&amp;", 5) == 0) {
			esc(f, "&", 1);
			i += 5;
		} else if (s[i] == '&' && n - i >= 4 &&
		           (memcmp(s + i, "&lt;", 4) == 0 || memcmp(s + i, "&gt;", 4) == 0)) {
			esc(f, s[i + 1] == 'l' ? "<" : ">", 1);
			i += 4;
		} else { /* up to the next \ or &, whole characters */
			size_t k = i + 1;
			while (k < n && s[k] != '\\' && s[k] != '&')
				k++;
			esc(f, s + i, k - i);
			i = k;
		}
	}
}

static void close_blocks(struct conv *c)
{
	if (c->para)
		fputs("</p>\n", c->f);
	c->para = false;
	for (; c->list > 0; c->list--)
		fputs(c->li_open[c->list] ? "</li></ul>\n" : "</ul>\n", c->f);
}

/* The slug of a heading: letters and digits, '-' between words. */
static void slugify(const char *s, size_t n, char *out, size_t len)
{
	size_t k = 0;
	bool dash = false;
	for (size_t i = 0; i < n && k + 2 < len; i++) {
		char ch = s[i];
		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
			if (dash && k)
				out[k++] = '-';
			out[k++] = ch;
			dash = false;
		} else if (ch >= 'A' && ch <= 'Z') {
			if (dash && k)
				out[k++] = '-';
			out[k++] = (char)(ch - 'A' + 'a');
			dash = false;
		} else if (ch != '\x01' && ch != '\x02') {
			dash = true;
		}
	}
	out[k] = '\0';
	if (k == 0)
		snprintf(out, len, "section");
}

/* c->slug made unique among the headings so far. */
static void unique_slug(struct conv *c)
{
	size_t base = strlen(c->slug);
	for (int k = 2;; k++) {
		bool used = false;
		for (size_t i = 0; i < c->nids && !used; i++)
			used =
			    c->ids[i].n == strlen(c->slug) && memcmp(c->ids[i].s, c->slug, c->ids[i].n) == 0;
		if (!used)
			break;
		snprintf(c->slug + base, sizeof(c->slug) - base, "-%d", k);
	}
	if (GROW(c->ids, c->capids, c->nids + 1, 16) < 0)
		return;
	char *copy = strdup(c->slug);
	if (copy)
		c->ids[c->nids++] = (struct span){copy, strlen(copy)};
}

static void heading(struct conv *c, int level, const char *s, size_t n)
{
	close_blocks(c);
	if (level == 1) {
		if (ftell(c->title) == 0)
			plain_md(c->title, s, n);
		fputs("<h1>", c->f);
		inline_md(c->f, s, n);
		fputs("</h1>\n", c->f);
		return;
	}
	slugify(s, n, c->slug, sizeof(c->slug) - 8);
	unique_slug(c);
	c->ntab = 0;
	if (level == 2 && c->toc_at < 0)
		c->toc_at = ftell(c->f);
	if (level == 2) {
		fprintf(c->toc, "<li><a href=\"#s-%s\">", c->slug);
		inline_md(c->toc, s, n);
		fputs("</a></li>\n", c->toc);
	}
	fprintf(c->f, "<h%d id=\"s-%s\">", level > 4 ? 4 : level, c->slug);
	inline_md(c->f, s, n);
	fprintf(c->f, "</h%d>\n", level > 4 ? 4 : level);
}

/* The cells of a table line "| a | b \| c |": spans between unescaped |. */
static size_t split_row(const char *s, size_t n, struct span *cells, size_t max)
{
	size_t k = 0, start = 1;
	for (size_t i = 1; i < n && k < max; i++) {
		if (s[i] == '\\' && i + 1 < n) {
			i++;
			continue;
		}
		if (s[i] != '|')
			continue;
		struct span sp = {s + start, i - start};
		while (sp.n && sp.s[0] == ' ')
			sp.s++, sp.n--;
		while (sp.n && sp.s[sp.n - 1] == ' ')
			sp.n--;
		cells[k++] = sp;
		start = i + 1;
	}
	return k;
}

/* One cell: its marks become data-v and a link to its cell (rep_md_doc.h). */
static void table_cell(FILE *f, const char *tag, struct span cell)
{
	struct span k, t, value = {0}, link = {0};
	for (size_t i = 0, len; i < cell.n; i++)
		if ((len = mark_at(cell.s + i, cell.n - i, &k, &t)) > 0) {
			if (span_is(k, "v"))
				value = t;
			else if (span_is(k, "a"))
				link = t;
			i += len - 1;
		}
	fprintf(f, "<%s", tag);
	if (value.n) {
		fputs(" data-v=\"", f);
		esc(f, value.s, value.n);
		fputc('"', f);
	}
	fputc('>', f);
	if (link.n) {
		fputs("<a href=\"#cell-", f);
		esc(f, link.s, link.n);
		fputs("\">", f);
	}
	inline_md(f, cell.s, cell.n);
	fprintf(f, "%s</%s>", link.n ? "</a>" : "", tag);
}

/* The row's anchor: the id mark in its first cell. */
static void row_open(FILE *f, struct span first)
{
	struct span k, t;
	size_t len = mark_at(first.s, first.n, &k, &t);
	if (len && span_is(k, "id")) {
		fputs("<tr id=\"cell-", f);
		esc(f, t.s, t.n);
		fputs("\">", f);
	} else {
		fputs("<tr>", f);
	}
}

static bool is_separator(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr("|-: ", s[i]))
			return false;
	return n > 1;
}

/* The table of the lines at s (each starting with '|'); returns the length
 * consumed. */
static size_t table(struct conv *c, const char *s, size_t n)
{
	enum { MAXCOLS = 4096 };
	struct span *cells = malloc(MAXCOLS * sizeof(*cells));
	size_t pos = 0;
	close_blocks(c);
	c->ntab++;
	fprintf(c->f, "<div class=\"tw\"><table class=\"sortable\" id=\"t-%s", c->slug[0] ? c->slug : "top");
	if (c->ntab > 1)
		fprintf(c->f, "-%d", c->ntab);
	fputs("\">\n", c->f);
	bool body = false;
	for (size_t nline = 0; pos < n && s[pos] == '|'; nline++) {
		const char *eol = memchr(s + pos, '\n', n - pos);
		size_t len = eol ? (size_t)(eol - s - pos) : n - pos;
		const char *line = s + pos;
		pos += len + (eol ? 1 : 0);
		if (nline == 1 && is_separator(line, len))
			continue;
		size_t nc = cells ? split_row(line, len, cells, MAXCOLS) : 0;
		if (nline == 0) {
			fputs("<thead><tr>", c->f);
		} else {
			if (!body)
				fputs("<tbody>\n", c->f);
			body = true;
			row_open(c->f, nc ? cells[0] : (struct span){"", 0});
		}
		for (size_t k = 0; k < nc; k++)
			table_cell(c->f, nline == 0 ? "th" : "td", cells[k]);
		fputs(nline == 0 ? "</tr></thead>\n" : "</tr>\n", c->f);
	}
	fputs(body ? "</tbody></table></div>\n" : "</table></div>\n", c->f);
	free(cells);
	return pos;
}

/* The number of backticks at s, up to n. */
static size_t ticks_at(const char *s, size_t n)
{
	size_t k = 0;
	while (k < n && s[k] == '`')
		k++;
	return k;
}

/* A fenced block (``` or longer, at any indent) at s; returns the length
 * consumed. As in CommonMark, only a line of at least as many backticks
 * (and spaces after them) closes it, so a shorter run in the text stays text. */
static size_t fence(struct conv *c, const char *s, size_t n, size_t indent)
{
	size_t pos = 0;
	size_t open = ticks_at(s + indent, n - indent);
	close_blocks(c);
	fputs("<pre><code>", c->f);
	const char *eol = memchr(s, '\n', n);
	pos = eol ? (size_t)(eol - s) + 1 : n;
	bool first = true;
	while (pos < n) {
		eol = memchr(s + pos, '\n', n - pos);
		size_t len = eol ? (size_t)(eol - s - pos) : n - pos;
		const char *line = s + pos;
		pos += len + (eol ? 1 : 0);
		size_t skip = 0;
		while (skip < indent && skip < len && line[skip] == ' ')
			skip++;
		size_t k = ticks_at(line + skip, len - skip), rest = skip + k;
		while (rest < len && line[rest] == ' ')
			rest++;
		if (k >= open && rest == len)
			break;
		if (!first)
			fputc('\n', c->f);
		first = false;
		esc(c->f, line + skip, len - skip);
	}
	fputs("</code></pre>\n", c->f);
	return pos;
}

/* The chart of an svg:N mark: the N-th SVG the reporter drew, in a figure.
 * Only the mark is in the text, so no text of a run can become markup: a
 * forged mark can at most show one of the run's own charts again. */
static void svg_figure(struct conv *c, struct span text)
{
	char num[24];
	snprintf(num, sizeof(num), "%.*s", (int)(text.n < 20 ? text.n : 20), text.s);
	char *end;
	unsigned long k = strtoul(num, &end, 10);
	if (end == num || *end || k >= c->nsvg)
		return;
	close_blocks(c);
	fprintf(c->f, "<figure class=\"chart\" id=\"chart-%d\">\n", ++c->nchart);
	fputs(c->svgs[k], c->f);
	fputs("</figure>\n", c->f);
}

/* A line that is one mark (a fold or small multiples); false if not. */
static bool mark_line(struct conv *c, struct span kind, struct span text)
{
	if (span_is(kind, "svg")) {
		svg_figure(c, text);
	} else if (span_is(kind, "details")) {
		close_blocks(c);
		fputs("<details><summary>", c->f);
		esc(c->f, text.s, text.n);
		fputs("</summary>\n", c->f);
	} else if (span_is(kind, "/details")) {
		close_blocks(c);
		fputs("</details>\n", c->f);
	} else if (span_is(kind, "multiples")) {
		close_blocks(c);
		fputs("<figure class=\"multiples\"><figcaption>", c->f);
		esc(c->f, text.s, text.n);
		fputs("</figcaption>\n<div class=\"grid\">\n", c->f);
	} else if (span_is(kind, "/multiples")) {
		close_blocks(c);
		fputs("</div></figure>\n", c->f);
	} else {
		return false;
	}
	return true;
}

static void list_item(struct conv *c, size_t indent, const char *s, size_t n)
{
	int depth = (int)(indent / 2) + 1;
	if (depth > MAX_LIST_DEPTH)
		depth = MAX_LIST_DEPTH;
	if (c->para)
		fputs("</p>\n", c->f);
	c->para = false;
	for (; c->list > depth; c->list--)
		fputs(c->li_open[c->list] ? "</li></ul>\n" : "</ul>\n", c->f);
	if (c->list == depth && c->li_open[depth])
		fputs("</li>\n", c->f);
	for (; c->list < depth; c->list++) /* a nested list inside the open item */
		c->li_open[c->list + 1] = false, fputs("<ul>\n", c->f);
	fputs("<li>", c->f);
	c->li_open[depth] = true;
	inline_md(c->f, s, n);
}

static void text_line(struct conv *c, const char *s, size_t n)
{
	if (c->list > 0) { /* a list item's next line, in the item */
		fputs("<br>\n", c->f);
		inline_md(c->f, s, n);
		return;
	}
	fputs(c->para ? "<br>\n" : "<p>", c->f);
	c->para = true;
	inline_md(c->f, s, n);
}

/* The blocks of text s. */
static void convert(struct conv *c, const char *s, size_t n)
{
	size_t pos = 0;
	while (pos < n) {
		const char *line = s + pos;
		const char *eol = memchr(line, '\n', n - pos);
		size_t len = eol ? (size_t)(eol - line) : n - pos, indent = 0, hashes = 0;
		struct span kind, text;
		while (indent < len && line[indent] == ' ')
			indent++;
		while (hashes < len && line[hashes] == '#')
			hashes++;
		if (line[0] == '|') {
			pos += table(c, line, n - pos);
			continue;
		}
		if (len - indent >= 3 && memcmp(line + indent, "```", 3) == 0) {
			pos += fence(c, line, n - pos, indent);
			continue;
		}
		pos += len + (eol ? 1 : 0);
		if (mark_at(line, len, &kind, &text) == len && len && mark_line(c, kind, text))
			continue;
		if (hashes > 0 && hashes < len && line[hashes] == ' ')
			heading(c, (int)hashes, line + hashes + 1, len - hashes - 1);
		else if (len - indent >= 2 && line[indent] == '-' && line[indent + 1] == ' ')
			list_item(c, indent, line + indent + 2, len - indent - 2);
		else if (indent == len)
			close_blocks(c);
		else
			text_line(c, line + indent, len - indent);
	}
	close_blocks(c);
}

void rep_html_md_write(FILE *out, const char *head, size_t hlen, const char *body, size_t blen,
                       const char *const *svgs, size_t nsvg)
{
	char *main_buf = NULL, *toc_buf = NULL, *title_buf = NULL;
	size_t main_len = 0, toc_len = 0, title_len = 0;
	struct conv c = {.toc_at = -1, .svgs = svgs, .nsvg = nsvg};
	c.f = open_memstream(&main_buf, &main_len);
	c.toc = open_memstream(&toc_buf, &toc_len);
	c.title = open_memstream(&title_buf, &title_len);
	if (c.f && c.toc && c.title) {
		convert(&c, head, hlen);
		convert(&c, body, blen);
	}
	long at = c.toc_at;
	if (c.f)
		fclose(c.f);
	if (c.toc)
		fclose(c.toc);
	if (c.title)
		fclose(c.title);
	rep_html_page_start(out, title_len ? title_buf : "benchgrid run");
	size_t split = at >= 0 && (size_t)at <= main_len ? (size_t)at : 0;
	if (main_buf)
		fwrite(main_buf, 1, split, out);
	if (toc_len) {
		fputs("<nav class=\"toc\"><strong>Sections</strong>\n<ul>\n", out);
		fwrite(toc_buf, 1, toc_len, out);
		fputs("</ul></nav>\n", out);
	}
	if (main_buf)
		fwrite(main_buf + split, 1, main_len - split, out);
	rep_html_page_end(out);
	for (size_t i = 0; i < c.nids; i++)
		free((char *)c.ids[i].s);
	free(c.ids);
	free(main_buf);
	free(toc_buf);
	free(title_buf);
}
