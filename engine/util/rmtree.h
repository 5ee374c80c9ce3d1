/* rmtree: remove a directory tree that benchgrid created (a work folder, a
 * PostgreSQL data directory). Never follows a symbolic link and never
 * descends into another file system mounted below the top. */
#ifndef BENCHGRID_RMTREE_H
#define BENCHGRID_RMTREE_H

/* Remove path and everything below it. 0 when it is gone (or was never
 * there), else a negative errno; *failed (may be NULL) then names the first
 * entry that could not be removed (static storage). */
int rmtree(const char *path, const char **failed);

#endif
