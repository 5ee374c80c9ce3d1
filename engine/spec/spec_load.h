/* spec_load: parse YAML (libyaml) into nodes with positions and report every
 * syntax problem (tabs, duplicate keys, non-UTF-8, empty or missing files)
 * into the diag list. NULL when nothing could be loaded. */
#ifndef BENCHGRID_SPEC_LOAD_H
#define BENCHGRID_SPEC_LOAD_H

#include "diag.h"
#include "node.h"

/* Limits of a scenario's YAML (docs/scenario.md, "Limits"): lists and maps
 * nested at most SPEC_MAX_DEPTH levels (aliases included); all aliases
 * together may copy at most SPEC_ALIAS_FACTOR times the file's size, at least
 * SPEC_ALIAS_MIN bytes, a copy counting its text and keys plus SPEC_NODE_COST
 * bytes per value. */
#define SPEC_MAX_DEPTH    100
#define SPEC_ALIAS_FACTOR 10
#define SPEC_ALIAS_MIN    (1 << 20)
#define SPEC_NODE_COST    32

struct node *spec_load_file(const char *path, struct diag *d);
struct node *spec_load_string(const char *name, const char *yaml, struct diag *d);

#endif
