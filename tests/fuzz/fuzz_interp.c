/* fuzz_interp: `${name}` interpolation (engine/spec/interp.c) of one text,
 * and of a small tree holding it, with a few names defined (a scalar, a
 * quoted scalar, a dotted name, a map), one deferred to run time and every
 * other name undefined. The first byte's bit 0 chooses quoted or plain, bit 1
 * tags the tree's value `!lua`. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "interp.h"
#include "spec_load.h"
#include "node.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct node *vars;

static const struct node *lookup(void *ud, const char *name, bool *defer)
{
	(void)ud;
	if (strncmp(name, "target.", 7) == 0 || strcmp(name, "cell.id") == 0) {
		*defer = true;
		return NULL;
	}
	return node_get(vars, name);
}

static void make_vars(void)
{
	struct src_pos pos = {diag_intern("vars.yaml"), 1, 1};
	vars = node_new(NODE_MAP, &pos);
	node_map_put(vars, "x", &pos, node_new_scalar("4k", &pos));
	struct node *q = node_new_scalar("a ${b} c", &pos);
	q->quoted = true;
	node_map_put(vars, "s", &pos, q);
	node_map_put(vars, "a.b", &pos, node_new_scalar("dotted", &pos));
	node_map_put(vars, "empty", &pos, node_new_scalar("", &pos));
	struct node *m = node_new(NODE_MAP, &pos);
	node_map_put(m, "k", &pos, node_new_scalar("v", &pos));
	node_map_put(vars, "m", &pos, m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (!vars)
		make_vars();
	bool quoted = data[0] & 1;
	char *text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = 0;
	struct src_pos pos = {diag_intern("interp.yaml"), 3, 7};
	struct diag d;
	diag_init(&d);
	char *out = NULL;
	const struct node *whole = NULL;
	(void)interp_has_ref(text);
	struct spec_budget b;
	interp_budget_for(&b, NULL);
	if (interp_text(text, &pos, quoted, lookup, NULL, &b, &out, &whole, &d) == 0 && !out && !whole)
		abort(); /* success gives a text or a whole node */
	free(out);

	struct node *tree = node_new(NODE_MAP, &pos);
	struct node *v = node_new_scalar(text, &pos);
	v->quoted = quoted;
	if (data[0] & 2)
		v->tag = strdup("!lua"); /* left alone by interpolation */
	node_map_put(tree, "k", &pos, v);
	struct node *seq = node_new(NODE_SEQ, &pos);
	node_seq_push(seq, node_new_scalar(text, &pos));
	node_seq_push(seq, node_new_scalar("${x}", &pos));
	node_map_put(tree, "seq", &pos, seq);
	struct node *res = interp_tree(tree, lookup, NULL, &b, &d);
	node_free(res);
	node_free(tree);
	for (size_t i = 0; i < d.n; i++) {
		char one[2048];
		diag_format_one(&d.v[i], one, sizeof(one));
	}
	diag_free(&d);
	free(text);
	return 0;
}
