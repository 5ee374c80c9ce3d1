/* spec_load: YAML text -> node tree with positions, via libyaml's event API.
 *
 * Problems libyaml does not name well are checked first, with positions:
 * bytes that are not UTF-8, tabs in indentation, an empty file. Duplicate
 * keys are found while building maps. Anchors and aliases are supported by
 * cloning the anchored node, within limits (spec_load.h): the nesting depth,
 * and the bytes all aliases may copy, so that a "billion laughs" file is
 * refused at the alias that goes over instead of filling the memory.
 * Merge keys (`<<`) move the keys of the maps they name into their map at
 * its end, where the map's own keys are known; `x-` keys are dropped. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "grow.h"
#include "safe_file.h"
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
	int depth;                 /* lists and maps open around the current event */
	bool in_merge;             /* parsing the value of a merge key */
	struct spec_budget *limit; /* what aliases may still copy */
};

void spec_budget_add_text(struct spec_budget *b, size_t n)
{
	b->text += n;
	size_t want = b->text > SPEC_ALIAS_MIN / SPEC_ALIAS_FACTOR ? b->text * SPEC_ALIAS_FACTOR
	                                                           : (size_t)SPEC_ALIAS_MIN;
	if (want > b->allowed)
		b->allowed = want;
}

bool spec_budget_take(struct spec_budget *b, size_t bytes)
{
	if (b->used > b->allowed || bytes > b->allowed - b->used)
		return false;
	b->used += bytes;
	return true;
}

static struct src_pos mark_pos(const struct loader *L, yaml_mark_t m)
{
	struct src_pos p = {L->file, (int)m.line + 1, (int)m.column + 1};
	return p;
}

/* What a copy of n costs: its text and keys, and SPEC_NODE_COST per value;
 * *depth receives its levels of lists and maps. */
size_t spec_node_cost(const struct node *n, int *depth)
{
	size_t c = SPEC_NODE_COST + (n->text ? strlen(n->text) : 0);
	int deepest = 0;
	for (size_t i = 0; i < n->n; i++) {
		int d = 0;
		c += spec_node_cost(n->items[i], &d) + (n->keys && n->keys[i] ? strlen(n->keys[i]) : 0);
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
	a->bytes = spec_node_cost(n, &a->depth);
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
		if (!spec_budget_take(L->limit, a->bytes)) {
			diag_error(L->d, &p,
			           "%s '%s*%s' goes over the limit of what aliases, merge keys and includes "
			           "may copy: %zu bytes in all (%d times the size of the files read, at "
			           "least %d MiB); is it a \"billion laughs\"?",
			           L->in_merge ? "merge key" : "alias", L->in_merge ? "<<: " : "", name,
			           L->limit->allowed, SPEC_ALIAS_FACTOR, SPEC_ALIAS_MIN >> 20);
			return NULL;
		}
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

/* The maps a merge key names, in order: earlier ones win. */
struct merges {
	struct node **v;
	size_t n;
	struct src_pos at; /* the first `<<`, for "more than one merge key" */
};

static bool is_merge_key(const struct node *key)
{
	return key->kind == NODE_SCALAR && !key->quoted && !strcmp(key->text, "<<") &&
	       (!key->tag || !strcmp(key->tag, "tag:yaml.org,2002:merge"));
}

/* The value of `<<`: a map, or a list of maps; kept in m until the map ends. */
static void merge_value(struct loader *L, struct merges *m, const struct src_pos *kp, struct node *val)
{
	if (m->n) {
		diag_error(L->d, kp,
		           "duplicate merge key '<<' (first at line %d); list the maps in one: "
		           "<<: [*a, *b]",
		           m->at.line);
		L->errors++;
		node_free(val);
		return;
	}
	m->at = *kp;
	/* Every item must be a map: [*a, x, *b] is refused as a whole. */
	const struct node *bad = val->kind == NODE_MAP || (val->kind == NODE_SEQ && val->n > 0) ? NULL : val;
	for (size_t i = 0; val->kind == NODE_SEQ && i < val->n && !bad; i++)
		if (val->items[i]->kind != NODE_MAP)
			bad = val->items[i];
	if (bad) {
		diag_error(L->d, kp,
		           "merge key '<<' expects a map or a list of maps (such as *base or [*a, *b]), "
		           "found %s%s",
		           bad == val ? "" : "a list holding ", node_kind_name(bad->kind));
		L->errors++;
		node_free(val);
		return;
	}
	if (val->kind == NODE_MAP) {
		m->v = malloc(sizeof(*m->v));
		m->v[m->n++] = val;
		return;
	}
	m->v = malloc(val->n * sizeof(*m->v));
	for (size_t i = 0; i < val->n; i++) {
		m->v[m->n++] = val->items[i];
		val->items[i] = NULL;
	}
	node_free(val);
}

/* At the end of map n: the keys of its merged maps that it does not set
 * itself, with the positions where they were written. */
static void merge_apply(struct node *n, struct merges *m)
{
	for (size_t i = 0; i < m->n; i++) {
		struct node *src = m->v[i];
		for (size_t k = 0; k < src->n; k++) {
			if (node_key_pos(n, src->keys[k]))
				continue;
			node_map_put(n, src->keys[k], &src->kpos[k], src->items[k]);
			src->items[k] = NULL;
		}
		node_free(src);
	}
	free(m->v);
	m->v = NULL;
	m->n = 0;
}

/* One key and its value into map n; -1 when the YAML cannot go on. */
static int parse_pair(struct loader *L, struct node *n, yaml_event_t *kev, struct merges *m)
{
	/* A map key: only scalars make sense in a scenario. */
	struct src_pos kp = mark_pos(L, kev->start_mark);
	struct node *key = parse_node(L, kev);
	if (!key)
		return -1;
	yaml_event_t vev;
	if (next_event(L, &vev) < 0) {
		node_free(key);
		return -1;
	}
	bool merge = is_merge_key(key);
	bool outer = L->in_merge;
	L->in_merge = merge;
	struct node *val = parse_node(L, &vev);
	L->in_merge = outer;
	yaml_event_delete(&vev);
	if (!val) {
		node_free(key);
		return -1;
	}
	const struct src_pos *prev = NULL;
	if (merge) {
		merge_value(L, m, &kp, val);
	} else if (key->kind != NODE_SCALAR) {
		diag_error(L->d, &kp, "map keys must be plain values, found %s", node_kind_name(key->kind));
		L->errors++;
		node_free(val);
	} else if (!strncmp(key->text, "x-", 2)) {
		node_free(val); /* an extension field: ignored, its anchors kept */
	} else if ((prev = node_key_pos(n, key->text))) {
		diag_error(L->d, &kp, "duplicate key '%s' (first defined at line %d)", key->text, prev->line);
		L->errors++;
		node_free(val);
	} else {
		node_map_put(n, key->text, &kp, val);
	}
	node_free(key);
	return 0;
}

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
	struct merges m = {0};
	bool outer_merge = L->in_merge;
	L->in_merge = false; /* an alias nested in a merged map is an alias */
	L->depth++;
	for (;;) {
		yaml_event_t ev;
		if (next_event(L, &ev) < 0)
			goto fail;
		if (ev.type == (is_map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT)) {
			yaml_event_delete(&ev);
			L->depth--;
			L->in_merge = outer_merge;
			merge_apply(n, &m);
			remember_anchor(
			    L, is_map ? start->data.mapping_start.anchor : start->data.sequence_start.anchor,
			    n);
			return n;
		}
		if (is_map) {
			int rc = parse_pair(L, n, &ev, &m);
			yaml_event_delete(&ev);
			if (rc < 0)
				goto fail;
			continue;
		}
		L->in_merge = outer_merge; /* the items of `<<: [*a, *b]` */
		struct node *item = parse_node(L, &ev);
		L->in_merge = false;
		yaml_event_delete(&ev);
		if (!item)
			goto fail;
		node_seq_push(n, item);
	}
fail:
	L->depth--;
	L->in_merge = outer_merge;
	merge_apply(n, &m);
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

/* Problems libyaml names badly, before parsing: not UTF-8, blank, tabs. */
static int check_text(const char *file, const char *text, size_t n, struct diag *d)
{
	long bad = utf8_invalid_at((const unsigned char *)text, n);
	if (bad >= 0) {
		struct src_pos p = pos_at(file, text, (size_t)bad);
		diag_error(d, &p, "file is not valid UTF-8 (byte 0x%02x at offset %ld)",
		           (unsigned char)text[bad], bad);
		return -EINVAL;
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
		return -EINVAL;
	}
	return check_tabs(file, text, n, d);
}

struct node *spec_load_text(const char *file, const char *text, size_t n, struct spec_budget *b,
                            bool new_text, struct diag *d)
{
	diag_register_source(file, text, n);
	if (check_text(file, text, n, d) < 0)
		return NULL;
	if (new_text)
		spec_budget_add_text(b, n);
	struct loader L = {.file = file, .d = d, .limit = b};
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

struct node *spec_load_string(const char *name, const char *text, struct diag *d)
{
	struct spec_budget b = {0};
	return spec_load_text(diag_intern(name), text, strlen(text), &b, true, d);
}

int spec_open_text(const char *path, const struct src_pos *at, const char *what, struct stat *st,
                   struct diag *d)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer (it is then
	 * refused, as every file that is not a regular one) */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, st) < 0) {
		diag_error(d, at, "cannot open %s%s%s: %s", what, at->line ? " " : "", at->line ? path : "",
		           strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (S_ISREG(st->st_mode))
		return fd;
	close(fd);
	const char *why = S_ISDIR(st->st_mode) ? "a directory, not a scenario file"
	                                       : "not a regular file (a scenario is read from one)";
	if (at->line)
		diag_error(d, at, "%s %s is %s", what, path, why);
	else
		diag_error(d, at, "is %s", why);
	return -1;
}

char *spec_read_text(const char *path, const struct src_pos *at, const char *what, size_t *lenp,
                     struct diag *d)
{
	struct stat st;
	int fd = spec_open_text(path, at, what, &st, d);
	return fd < 0 ? NULL : spec_read_fd(fd, path, at, what, lenp, d);
}

char *spec_read_fd(int fd, const char *path, const struct src_pos *at, const char *what, size_t *lenp,
                   struct diag *d)
{
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		diag_error(d, at, "cannot read %s: %s", what, strerror(errno));
		close(fd);
		return NULL;
	}
	size_t cap = 0, len = 0;
	char *buf = NULL;
	for (;;) {
		if (GROW(buf, cap, len + 65536 + 1, 65536 * 2) < 0) {
			free(buf);
			fclose(f);
			diag_error(d, at, "out of memory reading the %s", what);
			return NULL;
		}
		size_t r = fread(buf + len, 1, 65536, f);
		len += r;
		if (len > SAFE_FILE_TEXT_MAX) { /* safe_file.h: the cap of every text file read */
			free(buf);
			fclose(f);
			diag_error(d, at, "%s %s is larger than %zu MiB, the limit for a scenario file", what,
			           path, SAFE_FILE_TEXT_MAX >> 20);
			return NULL;
		}
		if (r < 65536)
			break;
	}
	bool err = ferror(f);
	fclose(f);
	if (err) {
		free(buf);
		diag_error(d, at, "cannot read %s: %s", what, strerror(errno));
		return NULL;
	}
	buf[len] = 0;
	if (memchr(buf, 0, len)) {
		long off = (long)((char *)memchr(buf, 0, len) - buf);
		struct src_pos q = pos_at(diag_intern(path), buf, (size_t)off);
		diag_error(d, &q, "file contains a NUL byte: not a text scenario");
		free(buf);
		return NULL;
	}
	*lenp = len;
	return buf;
}

struct node *spec_load_file(const char *path, struct diag *d)
{
	const char *file = diag_intern(path);
	struct src_pos p = {file, 0, 0};
	size_t len;
	char *buf = spec_read_text(path, &p, "scenario", &len, d);
	if (!buf)
		return NULL;
	struct spec_budget b = {0};
	struct node *root = spec_load_text(file, buf, len, &b, true, d);
	free(buf);
	return root;
}
