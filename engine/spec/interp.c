/* interp: `${name}` interpolation (see interp.h). */
#include "interp.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "spec_load.h"

bool interp_has_ref(const char *text)
{
	for (const char *p = text; (p = strstr(p, "${")); p += 2)
		if (p == text || p[-1] != '$')
			return true;
	return false;
}

void interp_budget_for(struct spec_budget *b, const struct node *root)
{
	int depth;
	*b = (struct spec_budget){0};
	spec_budget_add_text(b, root ? spec_node_cost(root, &depth) : 0);
}

struct buf {
	char *s;
	size_t n, cap;
	bool failed; /* an allocation failed: the text is incomplete */
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->failed)
		return;
	if (b->n + n + 1 > b->cap) {
		size_t cap = (b->n + n + 1) * 2;
		char *ns = cap > b->n + n ? realloc(b->s, cap) : NULL;
		if (!ns) {
			b->failed = true;
			return;
		}
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

static bool valid_name(const char *s, size_t n)
{
	if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.' || s[i] == '-'))
			return false;
	return true;
}

/* Take what a reference copies from the budget; an error at `at` when it
 * does not fit. */
static int take(struct spec_budget *bud, size_t bytes, const char *name, const struct src_pos *at,
                struct diag *d)
{
	bool first = bud->used <= bud->allowed; /* one error, not one per reference */
	if (spec_budget_take(bud, bytes))
		return 0;
	bud->used = bud->allowed + 1;
	if (first)
		diag_error(d, at,
		           "'${%s}' goes over the limit of what interpolation may copy in one expansion "
		           "(%zu bytes: %d times the scenario's size, at least %d MiB): reference a large "
		           "value fewer times",
		           name, bud->allowed, SPEC_ALIAS_FACTOR, SPEC_ALIAS_MIN >> 20);
	return -E2BIG;
}

/* The value v of `${name}`: appended to b, or (alone: the whole text) set as
 * *whole; a list or map only alone. */
static int add_value(struct buf *b, const char *name, const struct node *v, bool alone,
                     const struct src_pos *at, struct spec_budget *bud, const struct node **whole,
                     struct diag *d)
{
	int depth;
	if (v->kind == NODE_SEQ || v->kind == NODE_MAP) {
		if (!alone) {
			diag_error(d, at, "variable '%s' is %s and cannot be part of a string", name,
			           node_kind_name(v->kind));
			return -EINVAL;
		}
		*whole = v;
		return take(bud, spec_node_cost(v, &depth), name, at, d);
	}
	size_t len = strlen(v->text);
	if (alone)
		*whole = v;
	int rc = take(bud, len, name, at, d);
	if (rc == 0)
		buf_add(b, v->text, len);
	return rc;
}

int interp_text(const char *text, const struct src_pos *pos, bool quoted, interp_lookup_fn fn, void *ud,
                struct spec_budget *bud, char **out, const struct node **whole, struct diag *d)
{
	struct buf b = {0};
	buf_add(&b, "", 0);
	int rc = 0;
	*whole = NULL;
	const char *p = text;
	while (*p) {
		if (p[0] == '$' && p[1] == '$' && p[2] == '{') {
			buf_add(&b, "${", 2);
			p += 3;
			continue;
		}
		if (!(p[0] == '$' && p[1] == '{')) {
			buf_add(&b, p, 1);
			p++;
			continue;
		}
		/* Column of the `${` for messages (exact for one-line values). */
		struct src_pos at = *pos;
		at.col += (int)(p - text) + (quoted ? 1 : 0);
		const char *end = strchr(p + 2, '}');
		if (!end) {
			diag_error(d, &at, "unterminated '${' (write '$${' for a literal '${')");
			rc = -EINVAL;
			break;
		}
		size_t nlen = (size_t)(end - (p + 2));
		char name[256];
		if (!valid_name(p + 2, nlen) || nlen >= sizeof(name)) {
			diag_error(d, &at, "'${%.*s}' is not a valid variable name", (int)nlen, p + 2);
			rc = -EINVAL;
			p = end + 1;
			continue;
		}
		memcpy(name, p + 2, nlen);
		name[nlen] = 0;
		bool defer = false;
		const struct node *v = fn(ud, name, &defer);
		if (defer) {
			buf_add(&b, p, nlen + 3);
		} else if (!v) {
			diag_error(d, &at, "undefined variable '%s'", name);
			rc = -EINVAL;
		} else {
			int r = add_value(&b, name, v, p == text && end[1] == 0, &at, bud, whole, d);
			if (r < 0)
				rc = r;
			if (r == -E2BIG)
				break;
		}
		p = end + 1;
	}
	if (b.failed && rc == 0) {
		diag_error(d, pos, "out of memory while interpolating this value (%zu bytes so far)", b.n);
		rc = -ENOMEM;
	}
	if (rc < 0) {
		free(b.s);
		*out = NULL;
		*whole = NULL;
		return rc;
	}
	*out = b.s;
	return 0;
}

struct node *interp_tree(const struct node *t, interp_lookup_fn fn, void *ud, struct spec_budget *bud,
                         struct diag *d)
{
	if (!t)
		return NULL;
	if (t->kind == NODE_SCALAR) {
		if ((t->tag && strcmp(t->tag, "!lua") == 0) || !strchr(t->text, '$'))
			return node_clone(t);
		char *txt;
		const struct node *whole;
		if (interp_text(t->text, &t->pos, t->quoted, fn, ud, bud, &txt, &whole, d) < 0)
			return NULL;
		struct node *n;
		if (whole) {
			/* "${x}" keeps x's type and points where x's value is written
			 * (a matrix value, a var, -D), which is what a user must fix. */
			n = node_clone(whole);
			if (!n->pos.file)
				n->pos = t->pos;
		} else {
			n = node_clone(t);
			free(n->text);
			n->text = txt;
			txt = NULL;
		}
		free(txt);
		return n;
	}
	struct node *n = node_new(t->kind, &t->pos);
	if (t->tag)
		n->tag = strdup(t->tag);
	int bad = 0;
	for (size_t i = 0; i < t->n; i++) {
		struct node *c = interp_tree(t->items[i], fn, ud, bud, d);
		if (!c && t->items[i]) {
			bad = 1;
			continue;
		}
		if (t->kind == NODE_MAP)
			node_map_put(n, t->keys[i], &t->kpos[i], c);
		else
			node_seq_push(n, c);
	}
	if (bad) {
		node_free(n);
		return NULL;
	}
	return n;
}
