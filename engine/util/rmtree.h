/* rmtree: remove a directory tree that benchgrid created (a work folder, a
 * PostgreSQL data directory). Never follows a symbolic link and never
 * descends into a mount point below the top: neither another file system nor
 * a bind mount of the same one (which a device-number check cannot see). */
#ifndef BENCHGRID_RMTREE_H
#define BENCHGRID_RMTREE_H

/* Remove path and everything below it. 0 when it is gone (or was never
 * there), else a negative errno; *failed (may be NULL) then names the first
 * entry that could not be removed (static storage). -EBUSY: that entry is a
 * mount point, left alone with everything below it (so the top stays too). */
int rmtree(const char *path, const char **failed);

#endif
