/* node: the scenario tree and its typed readers (see node.h). */
#include "node.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "grow.h"
#include "units.h"

struct node *node_new(enum node_kind kind, const struct src_pos *pos)
{
	struct node *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->kind = kind;
	if (pos)
		n->pos = *pos;
	if (kind == NODE_NULL || kind == NODE_SCALAR)
		n->text = strdup("");
	return n;
}

struct node *node_new_scalar(const char *text, const struct src_pos *pos)
{
	struct node *n = node_new(NODE_SCALAR, pos);
	if (!n)
		return NULL;
	free(n->text);
	n->text = strdup(text ? text : "");
	return n;
}

/* Room for one more item (and its key and key position in a map), the
 * three arrays doubling together. Out of memory has no way back here (the
 * loader and interpolation push without an error path): abort with a
 * message, where an unchecked realloc used to write through NULL. */
static void grow(struct node *n)
{
	size_t ci = n->cap, ck = n->cap, cp = n->cap;
	if (GROW(n->items, ci, n->n + 1, 4) < 0 ||
	    (n->kind == NODE_MAP &&
	     (GROW(n->keys, ck, n->n + 1, 4) < 0 || GROW(n->kpos, cp, n->n + 1, 4) < 0))) {
		fputs("benchgrid: out of memory\n", stderr);
		abort();
	}
	n->cap = ci;
}

void node_seq_push(struct node *seq, struct node *item)
{
	grow(seq);
	seq->items[seq->n++] = item;
}

void node_map_put(struct node *map, const char *key, const struct src_pos *kpos, struct node *val)
{
	for (size_t i = 0; i < map->n; i++) {
		if (strcmp(map->keys[i], key) == 0) {
			node_free(map->items[i]);
			map->items[i] = val;
			return;
		}
	}
	grow(map);
	map->keys[map->n] = strdup(key);
	if (kpos)
		map->kpos[map->n] = *kpos;
	else
		map->kpos[map->n] = val ? val->pos : (struct src_pos){0};
	map->items[map->n++] = val;
}

struct node *node_clone(const struct node *s)
{
	if (!s)
		return NULL;
	struct node *n = node_new(s->kind, &s->pos);
	if (!n)
		return NULL;
	if (s->text) {
		free(n->text);
		n->text = strdup(s->text);
	}
	n->tag = s->tag ? strdup(s->tag) : NULL;
	n->quoted = s->quoted;
	for (size_t i = 0; i < s->n; i++) {
		if (s->kind == NODE_MAP)
			node_map_put(n, s->keys[i], &s->kpos[i], node_clone(s->items[i]));
		else
			node_seq_push(n, node_clone(s->items[i]));
	}
	return n;
}

void node_free(struct node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n; i++) {
		node_free(n->items[i]);
		if (n->keys)
			free(n->keys[i]);
	}
	free(n->items);
	free(n->keys);
	free(n->kpos);
	free(n->text);
	free(n->tag);
	free(n);
}

const struct node *node_get(const struct node *map, const char *key)
{
	if (!map || map->kind != NODE_MAP)
		return NULL;
	for (size_t i = 0; i < map->n; i++)
		if (strcmp(map->keys[i], key) == 0)
			return map->items[i];
	return NULL;
}

const struct src_pos *node_key_pos(const struct node *map, const char *key)
{
	if (!map || map->kind != NODE_MAP)
		return NULL;
	for (size_t i = 0; i < map->n; i++)
		if (strcmp(map->keys[i], key) == 0)
			return &map->kpos[i];
	return NULL;
}

const char *node_kind_name(enum node_kind k)
{
	switch (k) {
	case NODE_NULL: return "nothing";
	case NODE_SCALAR: return "a value";
	case NODE_SEQ: return "a list";
	default: return "a map";
	}
}

/* Describe what a node is, for "expected X, found Y" messages. */
static void describe(const struct node *n, char *buf, size_t len)
{
	if (n->kind == NODE_SCALAR)
		snprintf(buf, len, "'%.60s'", n->text);
	else
		snprintf(buf, len, "%s", node_kind_name(n->kind));
}

static int want_scalar(const struct node *n, const char *what, const char *expected, struct diag *d)
{
	if (n && n->kind == NODE_SCALAR)
		return 0;
	char found[96] = "nothing";
	if (n)
		describe(n, found, sizeof(found));
	diag_error(d, n ? &n->pos : NULL, "%s: expected %s, found %s", what, expected, found);
	return -EINVAL;
}

int node_as_string(const struct node *n, const char *what, const char **out, struct diag *d)
{
	if (want_scalar(n, what, "a string", d))
		return -EINVAL;
	*out = n->text;
	return 0;
}

int node_as_bool(const struct node *n, const char *what, bool *out, struct diag *d)
{
	if (want_scalar(n, what, "true or false", d))
		return -EINVAL;
	static const char *yes[] = {"true", "yes", "on", "1"}, *no[] = {"false", "no", "off", "0"};
	for (int i = 0; i < 4; i++) {
		if (strcasecmp(n->text, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(n->text, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	diag_error(d, &n->pos, "%s: expected true or false, found '%s'", what, n->text);
	return -EINVAL;
}

int node_as_int(const struct node *n, const char *what, int64_t min, int64_t max, int64_t *out,
                struct diag *d)
{
	if (want_scalar(n, what, "an integer", d))
		return -EINVAL;
	int64_t v;
	if (!units_is_int(n->text, &v)) {
		diag_error(d, &n->pos, "%s: expected an integer, found '%s'", what, n->text);
		return -EINVAL;
	}
	if (v < min || v > max) {
		if (max == INT64_MAX)
			diag_error(d, &n->pos, "%s: %lld is out of range (at least %lld)", what, (long long)v,
			           (long long)min);
		else
			diag_error(d, &n->pos, "%s: %lld is out of range (%lld to %lld)", what, (long long)v,
			           (long long)min, (long long)max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int node_as_double(const struct node *n, const char *what, double *out, struct diag *d)
{
	if (want_scalar(n, what, "a number", d))
		return -EINVAL;
	if (!units_is_number(n->text, out)) {
		diag_error(d, &n->pos, "%s: expected a number, found '%s'", what, n->text);
		return -EINVAL;
	}
	return 0;
}

int node_as_size(const struct node *n, const char *what, bool allow_zero, uint64_t *out, struct diag *d)
{
	if (want_scalar(n, what, "a size such as 4k or 1GiB", d))
		return -EINVAL;
	char err[160];
	if (units_parse_size(n->text, out, err, sizeof(err)) < 0) {
		diag_error(d, &n->pos, "%s: %s", what, err);
		return -EINVAL;
	}
	if (!allow_zero && *out == 0) {
		diag_error(d, &n->pos, "%s: size must be greater than zero", what);
		return -EINVAL;
	}
	return 0;
}

int node_as_duration(const struct node *n, const char *what, bool allow_zero, double *out, struct diag *d)
{
	if (want_scalar(n, what, "a duration such as 30s or 5min", d))
		return -EINVAL;
	char err[160];
	if (units_parse_duration(n->text, out, err, sizeof(err)) < 0) {
		diag_error(d, &n->pos, "%s: %s", what, err);
		return -EINVAL;
	}
	if (!allow_zero && *out <= 0) {
		diag_error(d, &n->pos, "%s: duration must be greater than zero", what);
		return -EINVAL;
	}
	return 0;
}

int node_as_enum(const struct node *n, const char *what, const char *const *names, int *out, struct diag *d)
{
	if (want_scalar(n, what, "a name", d))
		return -EINVAL;
	for (int i = 0; names[i]; i++) {
		if (strcmp(names[i], n->text) == 0) {
			*out = i;
			return 0;
		}
	}
	char list[512] = "";
	for (int i = 0; names[i]; i++) {
		strncat(list, i ? ", " : "", sizeof(list) - strlen(list) - 1);
		strncat(list, names[i], sizeof(list) - strlen(list) - 1);
	}
	const char *sug = node_suggest(n->text, names);
	if (sug)
		diag_error(d, &n->pos, "%s: unknown value '%s'; did you mean '%s'? (one of: %s)", what,
		           n->text, sug, list);
	else
		diag_error(d, &n->pos, "%s: unknown value '%s' (one of: %s)", what, n->text, list);
	return -EINVAL;
}

/* Damerau-free Levenshtein distance, case-insensitive, capped by the
 * length of short words (long keys only). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return 99;
	size_t prev[65], cur[65];
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = (a[i - 1] | 32) == (b[j - 1] | 32) ? 0 : 1;
			size_t v = prev[j - 1] + cost;
			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			cur[j] = v;
		}
		memcpy(prev, cur, (lb + 1) * sizeof(size_t));
	}
	return prev[lb];
}

const char *node_suggest(const char *word, const char *const *cands)
{
	const char *best = NULL;
	size_t bestd = 99;
	size_t wl = strlen(word);
	for (int i = 0; cands[i]; i++) {
		size_t dist = edit_distance(word, cands[i]);
		size_t limit = wl <= 3 ? 1 : 2;
		if (dist <= limit && dist < bestd) {
			best = cands[i];
			bestd = dist;
		}
	}
	return best;
}

int node_check_keys(const struct node *map, const char *section, const char *const *known, struct diag *d)
{
	if (!map || map->kind != NODE_MAP) {
		char found[96] = "nothing";
		if (map)
			describe(map, found, sizeof(found));
		diag_error(d, map ? &map->pos : NULL, "%s: expected a map of options, found %s", section,
		           found);
		return -EINVAL;
	}
	int bad = 0;
	for (size_t i = 0; i < map->n; i++) {
		bool ok = false;
		for (int k = 0; known[k]; k++)
			if (strcmp(known[k], map->keys[i]) == 0)
				ok = true;
		if (ok)
			continue;
		bad = -EINVAL;
		const char *sug = node_suggest(map->keys[i], known);
		if (sug)
			diag_error(d, &map->kpos[i], "%s: unknown key '%s'; did you mean '%s'?", section,
			           map->keys[i], sug);
		else
			diag_error(d, &map->kpos[i], "%s: unknown key '%s'", section, map->keys[i]);
	}
	return bad;
}

/* FNV-1a over a canonical form: kinds, keys, texts, tags and quoting, but not
 * positions, so equal configurations hash equal wherever they were written. */
static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

static uint64_t hash_node(uint64_t h, const struct node *n)
{
	if (!n)
		return hash_bytes(h, "\x00", 1);
	unsigned char k = (unsigned char)(n->kind + 1);
	h = hash_bytes(h, &k, 1);
	if (n->tag)
		h = hash_bytes(h, n->tag, strlen(n->tag) + 1);
	if (n->kind == NODE_SCALAR) {
		h = hash_bytes(h, n->quoted ? "q" : "p", 1);
		return hash_bytes(h, n->text, strlen(n->text) + 1);
	}
	for (size_t i = 0; i < n->n; i++) {
		if (n->kind == NODE_MAP)
			h = hash_bytes(h, n->keys[i], strlen(n->keys[i]) + 1);
		h = hash_node(h, n->items[i]);
	}
	return hash_bytes(h, "\x01", 1);
}

uint64_t node_hash(const struct node *n)
{
	return hash_node(1469598103934665603ULL, n);
}

bool node_equal(const struct node *a, const struct node *b)
{
	if (!a || !b)
		return a == b;
	if (a->kind != b->kind || a->n != b->n || (a->tag == NULL) != (b->tag == NULL))
		return false;
	if (a->tag && strcmp(a->tag, b->tag))
		return false;
	if (a->kind == NODE_SCALAR)
		return a->quoted == b->quoted && !strcmp(a->text, b->text);
	for (size_t i = 0; i < a->n; i++) {
		if (a->kind == NODE_MAP && strcmp(a->keys[i], b->keys[i]))
			return false;
		if (!node_equal(a->items[i], b->items[i]))
			return false;
	}
	return true;
}
