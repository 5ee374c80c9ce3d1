/* fuzz_lua: the Lua-to-node bridge (engine/lua/lb_conv.c, lb_to_node) on
 * whatever a scenario's Lua code can return. The input is the body of a
 * function `fz` in a fresh sandboxed state (the scenario's, lb_new) with a
 * short time budget; its result is converted as a `!lua` value's (lb_eval
 * converts any value, tables included, before it refuses what is not a
 * scalar): cycles, deep nesting, huge tables, functions, coroutines and NaN
 * must give an error, never a crash. Only calls that `check` makes are
 * used, so bench.sh and run:write are refused: fuzz input never runs a
 * process or writes a file. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "lb.h"
#include "node.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(void *ud, const char *level, const char *msg)
{
	(void)ud;
	(void)level;
	(void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char head[] = "function fz()\n", tail[] = "\nend\n";
	if (memchr(data, 0, size)) /* Lua text is one C string */
		return 0;
	char *src = malloc(sizeof(head) + size + sizeof(tail));
	if (!src)
		return 0;
	memcpy(src, head, sizeof(head) - 1);
	memcpy(src + sizeof(head) - 1, data, size);
	memcpy(src + sizeof(head) - 1 + size, tail, sizeof(tail));
	struct diag d;
	diag_init(&d);
	struct lb *L = lb_new("fuzz.yaml", 0.2, &d);
	if (!L)
		abort();
	lb_set_log(L, quiet, NULL);
	if (lb_run_string(L, "fuzz.lua", src, &d) == 0) {
		struct src_pos pos = {diag_intern("fuzz.yaml"), 2, 5};
		struct node *e = node_new_scalar("fz()", &pos), *out = NULL;
		e->tag = strdup("!lua");
		if (lb_eval(L, e, NULL, &out, &d) == 0 && !out)
			abort();
		node_free(out);
		node_free(e);
	}
	for (size_t i = 0; i < d.n; i++) {
		char one[2048];
		diag_format_one(&d.v[i], one, sizeof(one));
	}
	lb_free(L);
	diag_free(&d);
	free(src);
	return 0;
}
