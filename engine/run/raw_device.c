/* raw_device: see raw_device.h. */
#include "raw_device.h"

#include <errno.h>
#include <string.h>

#include "fx_fs.h"
#include "workload_table.h"

static bool is_text(const struct node *n, const char *s)
{
	return n && n->kind == NODE_SCALAR && !strcmp(n->text, s);
}

/* A target whose kind can be used raw (fs: none): fx_fs_kind_raw. */
static bool raw_kind(const struct node *target)
{
	const struct node *k = target && target->kind == NODE_MAP ? node_get(target, "kind") : NULL;
	return k && k->kind == NODE_SCALAR && fx_fs_kind_raw(k->text);
}

/* The first step of the tree that opens the target's device raw (want),
 * or that opens files in its file system (!want), as its workload says
 * (workload_ops.opens_device): *at the option that asks for the device, or
 * the step's options. NULL when none. */
static const struct workload_ops *device_step(const struct node *tree, bool want, const struct node **at)
{
	const struct node *steps = node_get(tree, "steps");
	for (size_t i = 0; steps && steps->kind == NODE_SEQ && i < steps->n; i++) {
		const struct node *opts;
		const struct workload_ops *w = workload_of_step(steps->items[i], &opts);
		if (!w || !w->opens_device || !opts || opts->kind != NODE_MAP)
			continue;
		const struct node *dev = w->opens_device(opts);
		if (want == (dev != NULL)) {
			*at = want ? dev : opts;
			return w;
		}
	}
	return NULL;
}

bool raw_device_wanted(const struct node *tree, const struct node *target)
{
	const struct node *at;
	return raw_kind(target) && !node_get(target, "fs") && device_step(tree, true, &at);
}

struct node *raw_device_target(const struct node *target)
{
	struct node *t = node_clone(target);
	if (t)
		node_map_put(t, "fs", NULL, node_new_scalar("none", NULL));
	return t;
}

int raw_device_check(const struct node *cell, const struct node *scenario, struct diag *d)
{
	(void)scenario;
	const struct node *t = node_get(cell, "target"), *f = NULL, *other = NULL;
	const struct workload_ops *w = device_step(cell, true, &f);
	bool device = raw_kind(t);
	const struct node *fs = device ? node_get(t, "fs") : NULL;
	if (w && (!device || (fs && !is_text(fs, "none")))) {
		diag_error(
		    d, &f->pos,
		    "%s.%s needs a raw device target: target: {kind: device, path: /dev/...} without fs: "
		    "(or fs: none)%s",
		    w->name, w->device_how ? w->device_how : "", device ? "; this one is formatted" : "");
		return -EINVAL;
	}
	w = (w || is_text(fs, "none")) && device ? device_step(cell, false, &other) : NULL;
	if (w) {
		diag_error(d, &other->pos,
		           "%s: the target is a raw device (no file system): this step needs %s", w->name,
		           w->device_how ? w->device_how : "its device");
		return -EINVAL;
	}
	return 0;
}
