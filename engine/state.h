/* state: a journal of what a run set up on the system, so that it can be
 * undone after a crash (`benchgrid cleanup`).
 *
 * Before a fixture changes the system (attach a loop device, mount, write a
 * sysctl, start a server) it records an undo action; after undoing it, it
 * records that the action is done. Each record is one line appended and
 * fsync'd, so kill -9 at any moment leaves a readable journal. cleanup reads
 * the journal and undoes, in reverse order, every action not marked done.
 *
 * Undo kinds (arguments are plain strings, no shell):
 *   "umount"      arg1 = mount point
 *   "losetup-d"   arg1 = loop device, arg2 = its image (only detached while
 *                 still bound to that image)
 *   "rm"          arg1 = file to remove (image files)
 *   "rmdir"       arg1 = directory to remove if empty
 *   "rmtree"      arg1 = directory to remove with its contents (never
 *                 crossing a mount point or following a symlink)
 *   "sysctl"      arg1 = name, arg2 = old value to write back
 *   "sysfs"       arg1 = path, arg2 = old value to write back
 *   "pg-stop"     arg1 = data directory, arg2 = pg_ctl path (run as its owner)
 *   "kill"        arg1 = pid, arg2 = process start time (from /proc) */
#ifndef BENCHGRID_STATE_H
#define BENCHGRID_STATE_H

#include "diag.h"

/* Open (create) the journal; NULL path disables journalling. */
int state_open(const char *path);
void state_close(void);
const char *state_path(void);

/* Record an undo action; returns a positive token, or a negative errno. */
int state_push(const char *kind, const char *arg1, const char *arg2);
/* Mark the action done (it was undone by the code that set it up). */
int state_done(int token);

/* Undo one action now (used by fixtures and by cleanup). 0 or -errno. */
int state_undo_action(const char *kind, const char *arg1, const char *arg2, struct diag *d);

/* Undo everything a journal lists as not done, newest first; then mark each
 * done. Returns the number of actions undone, or a negative errno. */
int state_cleanup(const char *path, struct diag *d);

/* Default journal location: /run/benchgrid/state or $BENCHGRID_STATE. */
const char *state_default_path(void);

#endif
