/* spec_include: a scenario file and the files its `include:` names, merged
 * (docs/scenario.md, "Including other files").
 *
 * `include: FILE` or `include: [FILE, ...]` at the top level reads each
 * file (relative to the including file; read as the scenario is), resolves
 * its own includes, and merges them in order before the including file's
 * keys (spec_merge.h). Positions in an included file keep a name of their
 * own (diag_intern_included), so that its errors end with "included from"
 * lines. A file that includes itself, directly or not, is an error naming
 * the chain; including a file again costs its size from the budget of
 * aliases (spec_load.h), so that an include bomb stops at that limit. */
#ifndef BENCHGRID_SPEC_INCLUDE_H
#define BENCHGRID_SPEC_INCLUDE_H

#include "diag.h"
#include "node.h"

/* Files included inside files included inside ... at most this deep. */
#define SPEC_MAX_INCLUDE_DEPTH 16

/* Load a scenario with its includes; NULL with errors in d when the file
 * cannot be loaded (errors in an include leave d->nerrors > 0 and return
 * what could be merged). */
struct node *spec_load_scenario(const char *path, struct diag *d);

#endif
