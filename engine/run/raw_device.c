/* raw_device: see raw_device.h. */
#include "raw_device.h"

#include <errno.h>
#include <string.h>

#include "fx_fs.h"

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

/* The io step options of step i, or NULL. */
static const struct node *io_opts_of(const struct node *steps, size_t i)
{
	const struct node *st = steps->items[i];
	return st && st->kind == NODE_MAP ? node_get(st, "io") : NULL;
}

/* The file: value of the first io step using "@device" (want) or not. */
static const struct node *io_file(const struct node *tree, bool want)
{
	const struct node *steps = node_get(tree, "steps");
	for (size_t i = 0; steps && steps->kind == NODE_SEQ && i < steps->n; i++) {
		const struct node *io = io_opts_of(steps, i);
		if (!io || io->kind != NODE_MAP)
			continue;
		const struct node *f = node_get(io, "file");
		if (want == is_text(f, "@device"))
			return want ? f : io;
	}
	return NULL;
}

bool raw_device_wanted(const struct node *tree, const struct node *target)
{
	return raw_kind(target) && !node_get(target, "fs") && io_file(tree, true);
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
	const struct node *t = node_get(cell, "target"), *f = io_file(cell, true);
	bool device = raw_kind(t);
	const struct node *fs = device ? node_get(t, "fs") : NULL;
	if (f && (!device || (fs && !is_text(fs, "none")))) {
		diag_error(d, &f->pos,
		           "io.file: \"@device\" needs a raw device target: target: {kind: device, "
		           "path: /dev/...} without fs: (or fs: none)%s",
		           device ? "; this one is formatted" : "");
		return -EINVAL;
	}
	const struct node *other = (f || is_text(fs, "none")) && device ? io_file(cell, false) : NULL;
	if (other) {
		diag_error(d, &other->pos,
		           "io: the target is a raw device (no file system): this step needs file: "
		           "\"@device\"");
		return -EINVAL;
	}
	return 0;
}
