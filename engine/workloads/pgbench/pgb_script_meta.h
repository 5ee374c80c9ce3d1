/* pgb_script_meta: pgbench's meta commands parsed into commands, and the
 * checks of a whole script's \if blocks and pipelines (pgbench 15's). */
#ifndef BENCHGRID_PGB_SCRIPT_META_H
#define BENCHGRID_PGB_SCRIPT_META_H

#include <stdbool.h>
#include "diag.h"
#include "pgb_cmd.h"

/* One meta command, text [s, e) starting with its backslash at column col0
 * (0-based) of script line `line`. 0, -EINVAL (error in d) or -ENOMEM. */
int pgbs_meta(struct pgb_prog *p, struct pgb_script *sc, const char *s, const char *e, int line, int col0,
              const struct src_pos *base, bool is_file, struct diag *d);

/* After a script's last command: link \if blocks, check them and the
 * pipelines as pgbench does. Returns the number of errors. */
int pgbs_blocks(struct pgb_script *sc, struct diag *d);

#endif
