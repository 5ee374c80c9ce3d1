/* rmtree: remove a directory tree that benchgrid created (a work folder, a
 * PostgreSQL data directory). Never follows a symbolic link and never
 * descends into a mount point, the top included: neither another file
 * system nor a bind mount of the same one (which a device-number check
 * cannot see).
 *
 * Iterative, with a constant number of file descriptors and a constant
 * amount of stack whatever the depth: it walks down with openat and back up
 * with openat(fd, ".."), checking at each step up that it arrives in the
 * directory (device and inode) it came down from. */
#ifndef BENCHGRID_RMTREE_H
#define BENCHGRID_RMTREE_H

/* Remove path and everything below it. 0 when it is gone (or was never
 * there), else a negative errno of the first failure; *failed (may be NULL)
 * then names the entry that could not be removed (per-thread static
 * storage, shortened in the middle past PATH_MAX). The walk goes on past a
 * failure, removing what it can.
 *   -EBUSY:  that entry is a mount point, left alone with everything below
 *            it (so the folders above it stay too); when it is path itself,
 *            nothing was touched.
 *   -ESTALE: that directory was moved or replaced while it was being
 *            removed (".." was not the folder the walk came from, or its
 *            name now points elsewhere): the walk stopped there and touched
 *            nothing outside the tree. */
int rmtree(const char *path, const char **failed);

#endif
