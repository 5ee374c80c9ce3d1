/* grow: doubling arrays (see grow.h). */
#include "grow.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int grow_array(void *arrp, size_t *cap, size_t need, size_t size, size_t first)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : (first ? first : 1);
	while (c < need)
		c = c > SIZE_MAX / 2 ? need : c * 2;
	if (size && c > SIZE_MAX / size)
		return -ENOMEM;
	/* arrp points at a T *: read and write it as bytes, the one way C
	 * allows through a void * for any T */
	size_t bytes = c * size;
	void *old, *nv;
	memcpy(&old, arrp, sizeof(old));
	nv = realloc(old, bytes ? bytes : 1);
	if (!nv)
		return -ENOMEM;
	memcpy(arrp, &nv, sizeof(nv));
	*cap = c;
	return 0;
}
