/* cell: the names of a step's files (see cell.h). */
#include "cell.h"

#include <ctype.h>
#include <stdio.h>
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
