/* grow: the one helper for the arrays benchgrid grows as it goes (a list of
 * diagnostics, of series points, of processes): the capacity doubles, so
 * appending n elements costs O(n) copies in all.
 *
 *   if (GROW(d->v, d->cap, d->n + 1, 8) < 0)
 *           return -ENOMEM;
 *   d->v[d->n++] = e;
 */
#ifndef BENCHGRID_GROW_H
#define BENCHGRID_GROW_H

#include <stddef.h>

/* Make the array *arrp (arrp is a T **, the elements size bytes each,
 * room for *cap of them) hold at least need elements: nothing when it
 * does, else realloc to *cap doubled (first, or 1, when *cap is 0) until
 * need fits. 0, or -ENOMEM with *arrp and *cap as they were (also when the
 * bytes would not fit a size_t). */
int grow_array(void *arrp, size_t *cap, size_t need, size_t size, size_t first);

/* grow_array on an array pointer and its capacity, both lvalues (the
 * capacity a size_t); the element size from the pointer's type. */
#define GROW(arr, cap, need, first) grow_array(&(arr), &(cap), (need), sizeof(*(arr)), (first))

#endif
