/* spec_load: parse YAML (libyaml) into nodes with positions and report every
 * syntax problem (tabs, duplicate keys, non-UTF-8, empty or missing files)
 * into the diag list. NULL when nothing could be loaded. */
#ifndef BENCHGRID_SPEC_LOAD_H
#define BENCHGRID_SPEC_LOAD_H

#include "diag.h"
#include "node.h"

struct node *spec_load_file(const char *path, struct diag *d);
struct node *spec_load_string(const char *name, const char *yaml, struct diag *d);

#endif
