/* cell: the names of a step's files, a cell's planned steps and its label
 * (see cell.h). */
#include "cell.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void step_file_stem(const struct step_ctx *cx, char *stem, size_t len, size_t reserve)
{
	char tag[32] = "";
	if (cx->rep < 0)
		snprintf(tag, sizeof(tag), ".warmup%ld", -cx->rep);
	else if (cx->nrep > 1)
		snprintf(tag, sizeof(tag), ".rep%ld", cx->rep + 1);
	const char *step = cx->step_name && *cx->step_name ? cx->step_name : "step";
	int keep = (int)len - (int)reserve - (int)strlen(tag) - 1;
	if (keep < 1)
		keep = 1;
	snprintf(stem, len, "%.*s", keep, step);
	for (char *p = stem; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' && *p != '.')
			*p = '_';
	size_t n = strlen(stem);
	snprintf(stem + n, len - n, "%s", tag);
}

void step_file_name(const struct step_ctx *cx, const char *ext, char *name, size_t len)
{
	step_file_stem(cx, name, len, strlen(ext) + 1);
	size_t n = strlen(name);
	snprintf(name + n, len - n, ".%s", ext);
}

void cell_steps_free(struct cell *c)
{
	for (size_t i = 0; i < c->nsteps; i++)
		free(c->steps[i].name);
	free(c->steps);
	c->steps = NULL;
	c->nsteps = 0;
}

int cell_steps_copy(struct cell *to, const struct cell *from)
{
	if (!from->nsteps)
		return 0;
	to->steps = calloc(from->nsteps, sizeof(*to->steps));
	if (!to->steps)
		return -ENOMEM;
	for (size_t i = 0; i < from->nsteps; i++) {
		to->steps[i].skipped = from->steps[i].skipped;
		to->steps[i].name = strdup(from->steps[i].name);
		to->nsteps = i + 1;
		if (!to->steps[i].name) {
			cell_steps_free(to);
			return -ENOMEM;
		}
	}
	return 0;
}

bool cell_new_fs(const struct cell *prev, const struct cell *c)
{
	return !prev || c->fresh_fs || c->fs_key != prev->fs_key;
}

const char *step_ctx_name(const struct step_ctx *cx, const char *name)
{
	const struct node *v = cx->names ? node_get(cx->names, name) : NULL;
	return v && v->kind == NODE_SCALAR ? v->text : NULL;
}

void cell_label(const struct cell *c, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t i = 0; i < c->params->n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", i ? " " : "", c->params->keys[i],
		                         c->params->items[i]->text);
	if (!c->params->n)
		snprintf(buf, len, "(single cell)");
}
