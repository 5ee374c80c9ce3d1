/* fio_mem: allocation for the job-file converter, which has nothing to save
 * when memory runs out: these end the program with a message instead. */
#ifndef BENCHGRID_FIO_MEM_H
#define BENCHGRID_FIO_MEM_H

#include <stddef.h>

void *fio_xrealloc(void *p, size_t n);
/* fio_xstrdup(NULL) is NULL. */
char *fio_xstrdup(const char *s);

#endif
