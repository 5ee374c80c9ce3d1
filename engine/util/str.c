/* str: see str.h. */
#include "str.h"

#include <string.h>

bool str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}
