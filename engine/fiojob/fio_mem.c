/* fio_mem: allocation that cannot fail (see fio_mem.h). */
#include "fio_mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

void *fio_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n);
	if (!q && n) {
		perror("benchgrid");
		abort();
	}
	return q;
}

void fio_xgrow(void *arrp, size_t *cap, size_t need, size_t size, size_t first)
{
	if (grow_array(arrp, cap, need, size, first) < 0) {
		fputs("benchgrid: out of memory\n", stderr);
		abort();
	}
}

char *fio_xstrdup(const char *s)
{
	return s ? strcpy(fio_xrealloc(NULL, strlen(s) + 1), s) : NULL;
}
