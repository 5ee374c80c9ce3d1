/* json_parse: strict recursive-descent JSON parser (see json_parse.h). */
#include "json_parse.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JV_MAX_DEPTH 256

struct jp {
	const char *s, *end, *p;
	const char *name;
	int line;
	const char *line_start;
	struct diag *d;
	bool failed;
};

static void jp_error(struct jp *j, const char *msg)
{
	if (j->failed)
		return;
	struct src_pos pos = {diag_intern(j->name), j->line, (int)(j->p - j->line_start) + 1};
	j->failed = true;
	diag_error(j->d, &pos, "invalid JSON: %s", msg);
}

static void skip_ws(struct jp *j)
{
	while (j->p < j->end) {
		char c = *j->p;
		if (c == '\n') {
			j->line++;
			j->line_start = j->p + 1;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			break;
		}
		j->p++;
	}
}

static struct jv *jv_new(struct jp *j, enum jv_kind k)
{
	struct jv *v = calloc(1, sizeof(*v));
	if (!v) {
		jp_error(j, "out of memory");
		return NULL;
	}
	v->kind = k;
	v->line = j->line;
	v->col = (int)(j->p - j->line_start) + 1;
	return v;
}

void jv_free(struct jv *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		jv_free(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	free(v);
}

/* Growable byte buffer for strings. */
struct buf {
	char *p;
	size_t n, cap;
};

static bool buf_put(struct buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 32;
		while (cap < b->n + n + 1)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p)
			return false;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
	return true;
}

static int hex4(const char *p)
{
	int v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

static size_t utf8_encode(uint32_t cp, char *o)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	} else if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	} else if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Parse a string literal at j->p (at the opening quote); returns malloc'd text. */
static char *parse_string(struct jp *j)
{
	struct buf b = {0};
	j->p++; /* opening quote */
	if (!buf_put(&b, "", 0))
		goto oom;
	while (j->p < j->end) {
		unsigned char c = (unsigned char)*j->p;
		if (c == '"') {
			j->p++;
			return b.p;
		}
		if (c < 0x20) {
			jp_error(j, "control character in string (escape it)");
			goto fail;
		}
		if (c != '\\') {
			const char *start = j->p;
			while (j->p < j->end && *j->p != '"' && *j->p != '\\' && (unsigned char)*j->p >= 0x20)
				j->p++;
			if (!buf_put(&b, start, (size_t)(j->p - start)))
				goto oom;
			continue;
		}
		if (j->end - j->p < 2) {
			jp_error(j, "unterminated string");
			goto fail;
		}
		char e = j->p[1], out;
		j->p += 2;
		switch (e) {
		case '"': out = '"'; break;
		case '\\': out = '\\'; break;
		case '/': out = '/'; break;
		case 'b': out = '\b'; break;
		case 'f': out = '\f'; break;
		case 'n': out = '\n'; break;
		case 'r': out = '\r'; break;
		case 't': out = '\t'; break;
		case 'u': {
			int cp;
			if (j->end - j->p < 4 || (cp = hex4(j->p)) < 0) {
				jp_error(j, "bad \\u escape (need 4 hex digits)");
				goto fail;
			}
			j->p += 4;
			uint32_t u = (uint32_t)cp;
			if (u >= 0xd800 && u < 0xdc00) {
				int lo;
				if (j->end - j->p < 6 || j->p[0] != '\\' || j->p[1] != 'u' ||
				    (lo = hex4(j->p + 2)) < 0xdc00 || lo > 0xdfff) {
					jp_error(j, "lone high surrogate in \\u escape");
					goto fail;
				}
				j->p += 6;
				u = 0x10000 + ((u - 0xd800) << 10) + ((uint32_t)lo - 0xdc00);
			} else if (u >= 0xdc00 && u < 0xe000) {
				jp_error(j, "lone low surrogate in \\u escape");
				goto fail;
			} else if (u == 0) {
				jp_error(j, "\\u0000 is not supported");
				goto fail;
			}
			char tmp[4];
			if (!buf_put(&b, tmp, utf8_encode(u, tmp)))
				goto oom;
			continue;
		}
		default:
			j->p -= 2; /* point at the backslash */
			jp_error(j, "unknown escape in string");
			goto fail;
		}
		if (!buf_put(&b, &out, 1))
			goto oom;
	}
	jp_error(j, "unterminated string");
	goto fail;
oom:
	jp_error(j, "out of memory");
fail:
	free(b.p);
	return NULL;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static struct jv *parse_number(struct jp *j)
{
	const char *start = j->p, *p = j->p;
	if (p < j->end && *p == '-')
		p++;
	if (p >= j->end || !is_digit(*p)) {
		j->p = p;
		jp_error(j, "expected a digit");
		return NULL;
	}
	if (*p == '0') {
		p++;
		if (p < j->end && is_digit(*p)) {
			j->p = p;
			jp_error(j, "leading zeros are not allowed");
			return NULL;
		}
	} else {
		while (p < j->end && is_digit(*p))
			p++;
	}
	if (p < j->end && *p == '.') {
		p++;
		if (p >= j->end || !is_digit(*p)) {
			j->p = p;
			jp_error(j, "expected a digit after '.'");
			return NULL;
		}
		while (p < j->end && is_digit(*p))
			p++;
	}
	if (p < j->end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < j->end && (*p == '+' || *p == '-'))
			p++;
		if (p >= j->end || !is_digit(*p)) {
			j->p = p;
			jp_error(j, "expected a digit in the exponent");
			return NULL;
		}
		while (p < j->end && is_digit(*p))
			p++;
	}
	struct jv *v = jv_new(j, JV_NUM);
	if (!v)
		return NULL;
	v->str = strndup(start, (size_t)(p - start));
	if (!v->str) {
		free(v);
		jp_error(j, "out of memory");
		return NULL;
	}
	v->num = strtod(v->str, NULL);
	j->p = p;
	return v;
}

static bool push(struct jp *j, struct jv *c, struct jv *item, char *key)
{
	if ((c->n & (c->n - 1)) == 0) { /* grow at powers of two */
		size_t cap = c->n ? c->n * 2 : 4;
		struct jv **items = realloc(c->items, cap * sizeof(*items));
		if (!items)
			goto oom;
		c->items = items;
		if (c->kind == JV_OBJ) {
			char **keys = realloc(c->keys, cap * sizeof(*keys));
			if (!keys)
				goto oom;
			c->keys = keys;
		}
	}
	c->items[c->n] = item;
	if (c->kind == JV_OBJ)
		c->keys[c->n] = key;
	c->n++;
	return true;
oom:
	jp_error(j, "out of memory");
	return false;
}

static bool literal(struct jp *j, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(j->end - j->p) >= n && memcmp(j->p, word, n) == 0) {
		j->p += n;
		return true;
	}
	return false;
}

static struct jv *parse_value(struct jp *j, int depth)
{
	struct jv *v;

	skip_ws(j);
	if (j->p >= j->end) {
		jp_error(j, "unexpected end of input");
		return NULL;
	}
	if (depth > JV_MAX_DEPTH) {
		jp_error(j, "nesting too deep");
		return NULL;
	}
	char c = *j->p;
	switch (c) {
	case '{':
	case '[': {
		bool obj = c == '{';
		char close = obj ? '}' : ']';
		v = jv_new(j, obj ? JV_OBJ : JV_ARR);
		if (!v)
			return NULL;
		j->p++;
		skip_ws(j);
		if (j->p < j->end && *j->p == close) {
			j->p++;
			return v;
		}
		for (;;) {
			char *key = NULL;
			skip_ws(j);
			if (obj) {
				if (j->p >= j->end || *j->p != '"') {
					jp_error(j, "expected a string key");
					goto fail;
				}
				const char *kstart = j->p;
				int kline = j->line;
				const char *kls = j->line_start;
				key = parse_string(j);
				if (!key)
					goto fail;
				for (size_t i = 0; i < v->n; i++)
					if (strcmp(v->keys[i], key) == 0) {
						j->p = kstart;
						j->line = kline;
						j->line_start = kls;
						jp_error(j, "duplicate key in object");
						free(key);
						goto fail;
					}
				skip_ws(j);
				if (j->p >= j->end || *j->p != ':') {
					free(key);
					jp_error(j, "expected ':' after key");
					goto fail;
				}
				j->p++;
			}
			struct jv *item = parse_value(j, depth + 1);
			if (!item) {
				free(key);
				goto fail;
			}
			if (!push(j, v, item, key)) {
				jv_free(item);
				free(key);
				goto fail;
			}
			skip_ws(j);
			if (j->p < j->end && *j->p == ',') {
				j->p++;
				continue;
			}
			if (j->p < j->end && *j->p == close) {
				j->p++;
				return v;
			}
			jp_error(j, obj ? "expected ',' or '}'" : "expected ',' or ']'");
			goto fail;
		}
	fail:
		jv_free(v);
		return NULL;
	}
	case '"':
		v = jv_new(j, JV_STR);
		if (!v)
			return NULL;
		v->str = parse_string(j);
		if (!v->str) {
			free(v);
			return NULL;
		}
		return v;
	case 't':
	case 'f':
	case 'n':
		v = jv_new(j, c == 'n' ? JV_NULL : JV_BOOL);
		if (!v)
			return NULL;
		if (literal(j, "true"))
			v->b = true;
		else if (literal(j, "false"))
			v->b = false;
		else if (!literal(j, "null")) {
			free(v);
			jp_error(j, "unexpected word (expected true, false or null)");
			return NULL;
		}
		return v;
	default:
		if (c == '-' || is_digit(c))
			return parse_number(j);
		jp_error(j, "unexpected character");
		return NULL;
	}
}

struct jv *jv_parse(const char *text, size_t len, const char *name, struct diag *d)
{
	struct jp j = {.s = text,
	               .end = text + len,
	               .p = text,
	               .name = name ? name : "<json>",
	               .line = 1,
	               .line_start = text,
	               .d = d};
	struct jv *v = parse_value(&j, 0);
	if (!v)
		return NULL;
	skip_ws(&j);
	if (j.p < j.end) {
		jp_error(&j, "unexpected text after the value");
		jv_free(v);
		return NULL;
	}
	return v;
}

struct jv *jv_parse_file(const char *path, struct diag *d)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		diag_error(d, NULL, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct buf b = {0};
	char chunk[65536];
	size_t got;
	bool ok = buf_put(&b, "", 0);
	while (ok && (got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		ok = buf_put(&b, chunk, got);
	if (ok && ferror(f)) {
		diag_error(d, NULL, "%s: read error: %s", path, strerror(errno));
		ok = false;
	} else if (!ok) {
		diag_error(d, NULL, "%s: out of memory", path);
	}
	fclose(f);
	struct jv *v = ok ? jv_parse(b.p, b.n, path, d) : NULL;
	free(b.p);
	return v;
}

const struct jv *jv_get(const struct jv *v, const char *key)
{
	if (!v || v->kind != JV_OBJ)
		return NULL;
	for (size_t i = 0; i < v->n; i++)
		if (strcmp(v->keys[i], key) == 0)
			return v->items[i];
	return NULL;
}

const char *jv_get_str(const struct jv *v, const char *key, const char *def)
{
	const struct jv *m = jv_get(v, key);
	return m && m->kind == JV_STR ? m->str : def;
}

double jv_get_num(const struct jv *v, const char *key, double def)
{
	const struct jv *m = jv_get(v, key);
	if (m && m->kind == JV_NULL)
		return NAN;
	return m && m->kind == JV_NUM ? m->num : def;
}

bool jv_get_bool(const struct jv *v, const char *key, bool def)
{
	const struct jv *m = jv_get(v, key);
	return m && m->kind == JV_BOOL ? m->b : def;
}

const char *jv_kind_name(enum jv_kind k)
{
	static const char *const names[] = {"null", "boolean", "number", "string", "array", "object"};
	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}
