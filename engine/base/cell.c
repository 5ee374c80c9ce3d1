/* cell: the names of a step's files (see cell.h). */
#include "cell.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

void step_file_name(const struct step_ctx *cx, const char *ext, char *name, size_t len)
{
	char tag[32] = "";
	if (cx->rep < 0)
		snprintf(tag, sizeof(tag), ".warmup%ld", -cx->rep);
	else if (cx->nrep > 1)
		snprintf(tag, sizeof(tag), ".rep%ld", cx->rep + 1);
	const char *step = cx->step_name && *cx->step_name ? cx->step_name : "step";
	int keep = (int)len - (int)strlen(ext) - (int)strlen(tag) - 2;
	if (keep < 1)
		keep = 1;
	snprintf(name, len, "%.*s", keep, step);
	for (char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' && *p != '.')
			*p = '_';
	size_t n = strlen(name);
	snprintf(name + n, len - n, "%s.%s", tag, ext);
}
