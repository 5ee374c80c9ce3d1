/* cli_estimate: the estimate that ends `benchgrid plan`'s table (the
 * figures are spec/estimate.h's): set-ups, steps, total, and the disk space
 * of the largest cell against the free space of the work directory. Reads
 * the results history read-only and statvfs's the work directory (or its
 * nearest existing parent); creates and writes nothing. */
#ifndef BENCHGRID_CLI_ESTIMATE_H
#define BENCHGRID_CLI_ESTIMATE_H

#include <stdio.h>

#include "cell.h"
#include "spec.h"

/* store: --store (NULL: $BENCHGRID_STORE or the default file); work_dir:
 * --work-dir as run takes it (NULL: run's default, /var/tmp). Warnings go
 * to stderr. */
void cli_print_estimate(const struct spec *s, const struct cell *cells, size_t n, const char *store,
                        const char *work_dir, FILE *out);

#endif
