/* spec_load: YAML text -> node tree with positions, via libyaml's event API.
 *
 * Problems libyaml does not name well are checked first, with positions:
 * bytes that are not UTF-8, tabs in indentation, an empty file. Duplicate
 * keys are found while building maps. Anchors and aliases are supported by
 * cloning the anchored node, within limits (spec_load.h): the nesting depth,
 * and the bytes all aliases may copy, so that a "billion laughs" file is
 * refused at the alias that goes over instead of filling the memory. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "spec_load.h"

/* Find the first byte sequence that is not valid UTF-8; returns its offset
 * or -1. Overlong forms and surrogates are rejected too. */
static long utf8_invalid_at(const unsigned char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		unsigned char c = s[i];
		size_t len;
		uint32_t cp;
		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xE0) == 0xC0) {
			len = 2;
			cp = c & 0x1F;
		} else if ((c & 0xF0) == 0xE0) {
			len = 3;
			cp = c & 0x0F;
		} else if ((c & 0xF8) == 0xF0) {
			len = 4;
			cp = c & 0x07;
		} else {
			return (long)i;
		}
		if (i + len > n)
			return (long)i;
		for (size_t k = 1; k < len; k++) {
			if ((s[i + k] & 0xC0) != 0x80)
				return (long)i;
			cp = (cp << 6) | (s[i + k] & 0x3F);
		}
		if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
		    (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
			return (long)i;
		i += len;
	}
	return -1;
}

static struct src_pos pos_at(const char *file, const char *text, size_t off)
{
	struct src_pos p = {file, 1, 1};
	for (size_t i = 0; i < off; i++) {
		if (text[i] == '\n') {
			p.line++;
			p.col = 1;
		} else if (((unsigned char)text[i] & 0xC0) != 0x80) {
			p.col++;
		}
	}
	return p;
}

/* Tabs are not allowed for indentation in YAML; libyaml's message for them
 * is obscure, so report every such line ourselves. */
static int check_tabs(const char *file, const char *text, size_t n, struct diag *d)
{
	int bad = 0;
	size_t line_start = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && text[i] != '\n')
			continue;
		for (size_t k = line_start; k < i; k++) {
			if (text[k] == ' ')
				continue;
			if (text[k] == '\t') {
				struct src_pos p = pos_at(file, text, k);
				diag_error(d, &p,
				           "tab character in indentation; YAML indents with spaces only");
				bad = -EINVAL;
			}
			break;
		}
		line_start = i + 1;
	}
	return bad;
}

struct anchor {
	char *name;
	struct node *node; /* a copy, owned */
	size_t bytes;      /* what copying it costs (node_cost) */
	int depth;         /* levels of lists and maps in it */
};

struct loader {
	yaml_parser_t parser;
	const char *file;
	struct diag *d;
	struct anchor *anchors;
	size_t nanchors;
	int errors;
	int depth;            /* lists and maps open around the current event */
	size_t alias_bytes;   /* copied by aliases so far */
	size_t alias_allowed; /* SPEC_ALIAS_FACTOR x the text, at least SPEC_ALIAS_MIN */
};

static struct src_pos mark_pos(const struct loader *L, yaml_mark_t m)
{
	struct src_pos p = {L->file, (int)m.line + 1, (int)m.column + 1};
	return p;
}

/* What a copy of n costs: its text and keys, and SPEC_NODE_COST per value;
 * *depth receives its levels of lists and maps. */
static size_t node_cost(const struct node *n, int *depth)
{
	size_t c = SPEC_NODE_COST + (n->text ? strlen(n->text) : 0);
	int deepest = 0;
	for (size_t i = 0; i < n->n; i++) {
		int d = 0;
		c += node_cost(n->items[i], &d) + (n->keys && n->keys[i] ? strlen(n->keys[i]) : 0);
		if (d > deepest)
			deepest = d;
	}
	*depth = (n->kind == NODE_SEQ || n->kind == NODE_MAP) + deepest;
	return c;
}

/* Remember a complete node under its anchor (a copy: the tree may drop n). */
static void remember_anchor(struct loader *L, const yaml_char_t *name, const struct node *n)
{
	if (!name)
		return;
	struct anchor *v = realloc(L->anchors, (L->nanchors + 1) * sizeof(*v));
	if (!v)
		return;
	L->anchors = v;
	struct anchor *a = &L->anchors[L->nanchors];
	a->name = strdup((const char *)name);
	a->node = node_clone(n);
	a->bytes = node_cost(n, &a->depth);
	L->nanchors++;
}

static struct node *expand_alias(struct loader *L, yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	struct src_pos p = mark_pos(L, ev->start_mark);
	for (size_t i = L->nanchors; i-- > 0;) {
		const struct anchor *a = &L->anchors[i];
		if (strcmp(a->name, name))
			continue;
		if (L->depth + a->depth > SPEC_MAX_DEPTH) {
			diag_error(L->d, &p, "alias '*%s' nests the scenario deeper than %d levels", name,
			           SPEC_MAX_DEPTH);
			return NULL;
		}
		if (a->bytes > L->alias_allowed - L->alias_bytes) {
			diag_error(
			    L->d, &p,
			    "alias '*%s' goes over the limit of what aliases may copy: %zu bytes in all "
			    "(%d times the file's size, at least %d MiB); is it a \"billion laughs\"?",
			    name, L->alias_allowed, SPEC_ALIAS_FACTOR, SPEC_ALIAS_MIN >> 20);
			return NULL;
		}
		L->alias_bytes += a->bytes;
		return node_clone(a->node);
	}
	diag_error(L->d, &p,
	           "unknown alias '*%s' (an alias names an anchor defined before it, outside itself)", name);
	L->errors++;
	return node_new(NODE_NULL, &p);
}

static int next_event(struct loader *L, yaml_event_t *ev)
{
	if (yaml_parser_parse(&L->parser, ev))
		return 0;
	struct src_pos p = mark_pos(L, L->parser.problem_mark);
	if (L->parser.context)
		diag_error(L->d, &p, "YAML syntax error: %s %s",
		           L->parser.problem ? L->parser.problem : "error", L->parser.context);
	else
		diag_error(L->d, &p, "YAML syntax error: %s",
		           L->parser.problem ? L->parser.problem : "error");
	return -EINVAL;
}

static struct node *parse_node(struct loader *L, yaml_event_t *ev);

/* Parse children until the matching end event. ev is the start event. */
static struct node *parse_collection(struct loader *L, yaml_event_t *start, bool is_map)
{
	struct src_pos p = mark_pos(L, start->start_mark);
	if (L->depth >= SPEC_MAX_DEPTH) {
		diag_error(L->d, &p, "lists and maps are nested deeper than %d levels", SPEC_MAX_DEPTH);
		return NULL;
	}
	struct node *n = node_new(is_map ? NODE_MAP : NODE_SEQ, &p);
	const yaml_char_t *tag = is_map ? start->data.mapping_start.tag : start->data.sequence_start.tag;
	if (tag)
		n->tag = strdup((const char *)tag);
	L->depth++;
	for (;;) {
		yaml_event_t ev;
		if (next_event(L, &ev) < 0)
			goto fail;
		if (ev.type == (is_map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT)) {
			yaml_event_delete(&ev);
			L->depth--;
			remember_anchor(
			    L, is_map ? start->data.mapping_start.anchor : start->data.sequence_start.anchor,
			    n);
			return n;
		}
		if (!is_map) {
			struct node *item = parse_node(L, &ev);
			yaml_event_delete(&ev);
			if (!item)
				goto fail;
			node_seq_push(n, item);
			continue;
		}
		/* A map key: only scalars make sense in a scenario. */
		struct src_pos kp = mark_pos(L, ev.start_mark);
		struct node *key = parse_node(L, &ev);
		yaml_event_delete(&ev);
		if (!key)
			goto fail;
		yaml_event_t vev;
		if (next_event(L, &vev) < 0) {
			node_free(key);
			goto fail;
		}
		struct node *val = parse_node(L, &vev);
		yaml_event_delete(&vev);
		if (!val) {
			node_free(key);
			goto fail;
		}
		if (key->kind != NODE_SCALAR) {
			diag_error(L->d, &kp, "map keys must be plain values, found %s",
			           node_kind_name(key->kind));
			L->errors++;
			node_free(key);
			node_free(val);
			continue;
		}
		const struct src_pos *prev = node_key_pos(n, key->text);
		if (prev) {
			diag_error(L->d, &kp, "duplicate key '%s' (first defined at line %d)", key->text,
			           prev->line);
			L->errors++;
			node_free(key);
			node_free(val);
			continue;
		}
		node_map_put(n, key->text, &kp, val);
		node_free(key);
	}
fail:
	L->depth--;
	node_free(n);
	return NULL;
}

static struct node *parse_node(struct loader *L, yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_SCALAR_EVENT: {
		struct src_pos p = mark_pos(L, ev->start_mark);
		const char *v = (const char *)ev->data.scalar.value;
		yaml_scalar_style_t st = ev->data.scalar.style;
		bool plain = st == YAML_PLAIN_SCALAR_STYLE;
		bool null = plain && !ev->data.scalar.tag &&
		            (ev->data.scalar.length == 0 || strcmp(v, "~") == 0 || strcmp(v, "null") == 0);
		struct node *n;
		if (null) {
			n = node_new(NODE_NULL, &p);
		} else {
			n = node_new_scalar(v, &p);
			n->quoted = !plain;
		}
		if (ev->data.scalar.tag)
			n->tag = strdup((const char *)ev->data.scalar.tag);
		remember_anchor(L, ev->data.scalar.anchor, n);
		return n;
	}
	case YAML_SEQUENCE_START_EVENT: return parse_collection(L, ev, false);
	case YAML_MAPPING_START_EVENT: return parse_collection(L, ev, true);
	case YAML_ALIAS_EVENT: return expand_alias(L, ev);
	default: {
		struct src_pos p = mark_pos(L, ev->start_mark);
		diag_error(L->d, &p, "unexpected YAML event");
		return NULL;
	}
	}
}

struct node *spec_load_string(const char *name, const char *text, struct diag *d)
{
	const char *file = diag_intern(name);
	size_t n = strlen(text);
	diag_register_source(file, text, n);

	long bad = utf8_invalid_at((const unsigned char *)text, n);
	if (bad >= 0) {
		struct src_pos p = pos_at(file, text, (size_t)bad);
		diag_error(d, &p, "file is not valid UTF-8 (byte 0x%02x at offset %ld)",
		           (unsigned char)text[bad], bad);
		return NULL;
	}
	bool blank = true;
	for (size_t i = 0; i < n && blank; i++) {
		if (text[i] == '#') { /* a comment line */
			while (i < n && text[i] != '\n')
				i++;
		} else if (!strchr(" \t\r\n", text[i])) {
			blank = false;
		}
	}
	if (blank) {
		struct src_pos p = {file, 0, 0};
		diag_error(d, &p, "scenario is empty");
		return NULL;
	}
	if (check_tabs(file, text, n, d) < 0)
		return NULL;

	struct loader L = {.file = file, .d = d};
	L.alias_allowed = n > SPEC_ALIAS_MIN / SPEC_ALIAS_FACTOR ? n * SPEC_ALIAS_FACTOR : SPEC_ALIAS_MIN;
	yaml_parser_initialize(&L.parser);
	yaml_parser_set_input_string(&L.parser, (const unsigned char *)text, n);
	struct node *root = NULL;
	yaml_event_t ev;
	bool done = false;
	while (!done) {
		if (next_event(&L, &ev) < 0)
			break;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT: done = true; break;
		case YAML_SCALAR_EVENT:
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (root) {
				struct src_pos p = mark_pos(&L, ev.start_mark);
				diag_error(d, &p, "only one YAML document is allowed in a scenario");
				done = true;
				break;
			}
			root = parse_node(&L, &ev);
			if (!root)
				done = true;
			break;
		default: break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&L.parser);
	for (size_t i = 0; i < L.nanchors; i++) {
		free(L.anchors[i].name);
		node_free(L.anchors[i].node);
	}
	free(L.anchors);
	/* With duplicate keys (L.errors) the tree is kept: later checks can
	 * still report more problems in one pass. */
	if (!root && d->nerrors == 0) {
		struct src_pos p = {file, 0, 0};
		diag_error(d, &p, "scenario is empty");
	}
	return root;
}

struct node *spec_load_file(const char *path, struct diag *d)
{
	const char *file = diag_intern(path);
	struct src_pos p = {file, 0, 0};
	struct stat st;
	if (stat(path, &st) < 0) {
		diag_error(d, &p, "cannot open scenario: %s", strerror(errno));
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		diag_error(d, &p, "is a directory, not a scenario file");
		return NULL;
	}
	FILE *f = fopen(path, "rb");
	if (!f) {
		diag_error(d, &p, "cannot open scenario: %s", strerror(errno));
		return NULL;
	}
	size_t cap = 0, len = 0;
	char *buf = NULL;
	for (;;) {
		if (len + 65536 + 1 > cap) {
			cap = cap ? cap * 2 : 65536 * 2;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				diag_error(d, &p, "out of memory reading the scenario");
				return NULL;
			}
			buf = nb;
		}
		size_t r = fread(buf + len, 1, 65536, f);
		len += r;
		if (r < 65536)
			break;
	}
	bool err = ferror(f);
	fclose(f);
	if (err) {
		free(buf);
		diag_error(d, &p, "cannot read scenario: %s", strerror(errno));
		return NULL;
	}
	buf[len] = 0;
	if (memchr(buf, 0, len)) {
		long off = (long)((char *)memchr(buf, 0, len) - buf);
		struct src_pos q = pos_at(file, buf, (size_t)off);
		diag_error(d, &q, "file contains a NUL byte: not a text scenario");
		free(buf);
		return NULL;
	}
	struct node *root = spec_load_string(path, buf, d);
	free(buf);
	return root;
}
