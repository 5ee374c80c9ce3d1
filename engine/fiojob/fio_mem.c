/* fio_mem: allocation that cannot fail (see fio_mem.h). */
#include "fio_mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *fio_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n);
	if (!q && n) {
		perror("benchgrid");
		abort();
	}
	return q;
}

char *fio_xstrdup(const char *s)
{
	return s ? strcpy(fio_xrealloc(NULL, strlen(s) + 1), s) : NULL;
}
