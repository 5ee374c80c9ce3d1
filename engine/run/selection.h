/* selection: the -D and --only a run was started with, kept in its output
 * folder (selection.json), so that --resume runs the same cells with the
 * same variables: given none, it takes them from there; given others, it is
 * refused (they would resume a different plan). */
#ifndef BENCHGRID_SELECTION_H
#define BENCHGRID_SELECTION_H

#include <stddef.h>

#include "spec.h"

#define SELECTION_NAME "selection.json"

/* Write them into the output folder dirfd: 0 or a negative errno. */
int selection_write(int dirfd, const struct defines *D, const struct defines *only);

/* For `run --resume DIR`, before the plan is built: when DIR records a
 * selection and D and only are both empty, fill them with it (*reused set);
 * when they differ from it, print why on stderr and return -EINVAL. 0 also
 * when DIR records none (a run of an older benchgrid, or no DIR yet: the
 * run says what is wrong with it). */
int selection_resume(const char *outdir, struct defines *D, struct defines *only, bool *reused);

/* "-D a=1 --only fs=xfs" into buf, for messages. */
void selection_text(const struct defines *D, const struct defines *only, char *buf, size_t len);

#endif
