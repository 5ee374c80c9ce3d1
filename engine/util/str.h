/* str: small string helpers shared by modules that cannot include each other. */
#ifndef BENCHGRID_STR_H
#define BENCHGRID_STR_H

#include <stdbool.h>

/* Equal strings, or both NULL. */
bool str_eq(const char *a, const char *b);

#endif
