/* fio_mem: allocation for the job-file converter, which has nothing to save
 * when memory runs out: these end the program with a message instead. */
#ifndef BENCHGRID_FIO_MEM_H
#define BENCHGRID_FIO_MEM_H

#include <stddef.h>

void *fio_xrealloc(void *p, size_t n);
/* grow_array (util/grow.h) that cannot fail, and its GROW. */
void fio_xgrow(void *arrp, size_t *cap, size_t need, size_t size, size_t first);
#define FIO_XGROW(arr, cap, need, first) fio_xgrow(&(arr), &(cap), (need), sizeof(*(arr)), (first))
/* fio_xstrdup(NULL) is NULL. */
char *fio_xstrdup(const char *s);

#endif
