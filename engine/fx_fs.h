/* fx_fs: the `target:` fixture — where a cell's files live.
 *
 * Three kinds of target:
 *   dir     an existing directory (`path:`), in which a fresh subdirectory is
 *           made, or by default a fresh temporary directory under the run's
 *           work directory; `fs:` / `block_size:` are then checked, not made.
 *   loop    an image file of `size` in `image_dir`, attached to a free loop
 *           device (LOOP_CTL_GET_FREE + LOOP_CONFIGURE, no losetup), made with
 *           mkfs and mounted under the work directory.
 *   device  a real block device or partition, formatted and mounted. It needs
 *           `destroy: true` in the scenario and --yes on the command line, and
 *           passes the device safety rules of blkdev_check_safe().
 * mkfs and mount get their options as argv / mount(2) data, never through a
 * shell. After mounting, the file system type, block size and mount options
 * are read back (statfs, /proc/self/mountinfo); a mismatch is an error.
 * Every change to the system is journalled with state_push() before it is
 * made, so `benchgrid cleanup` can undo it after kill -9; teardown (and a
 * failed setup) undoes it at once and marks it done. */
#ifndef BENCHGRID_FX_FS_H
#define BENCHGRID_FX_FS_H

#include <stdbool.h>
#include "diag.h"
#include "node.h"
#include "result.h"

struct fx_fs;

/* Validate a `target:` map (NULL = the default dir target). Errors carry the
 * positions of the offending keys. Does not touch the system. */
int fx_fs_check(const struct node *target, struct diag *d);

/* Set up the (interpolated) target. allow_destroy: the command line said
 * --yes. Mount points and temporary directories go under work_dir, which must
 * exist. Returns NULL with errors in d on failure, after undoing whatever was
 * already done. */
struct fx_fs *fx_fs_setup(const struct node *target, const char *work_dir, bool allow_destroy,
                          struct diag *d);

/* Directory where the cell's files go. */
const char *fx_fs_path(const struct fx_fs *fs);
/* The block device holding the target ("/dev/loop3", the partition under a
 * dir target), or NULL when there is none (tmpfs, overlay). */
const char *fx_fs_blockdev(const struct fx_fs *fs);

/* Would b be satisfied by the file system set up for a? (Same kind, fs,
 * block size, size, image dir, device, path and options.) Both must pass
 * fx_fs_check; false otherwise. */
bool fx_fs_same(const struct node *a, const struct node *b);

/* Record what was really set up, as result_info entries: fs.kind, fs.type,
 * fs.block_size, fs.mount_options, fs.size, fs.path, fs.source, fs.mkfs,
 * fs.image, plus the dev.* facts of the block device (facts_blockdev). */
void fx_fs_facts(const struct fx_fs *fs, struct step_result *facts);

/* Unmount, detach, remove the image and temporary directories; frees fs
 * (NULL is a no-op). Keeps going after a failure; 0 or the first -errno. */
int fx_fs_teardown(struct fx_fs *fs, struct diag *d);

#endif
