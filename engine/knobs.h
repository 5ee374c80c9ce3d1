/* knobs: system settings applied for a cell and restored afterwards.
 *
 *   sysctl: {vm.dirty_background_ratio: 1, vm.dirty_ratio: 10}
 *           written to /proc/sys/vm/dirty_background_ratio, ...
 *   queue:  {scheduler: none, read_ahead_kb: 128, nr_requests: 64,
 *            max_sectors_kb: 256, write_cache: write through, ...}
 *           written to /sys/block/<disk>/queue/ of the target's block device
 *           (for a partition, its disk's queue).
 *
 * Each old value is journalled (state_push "sysctl"/"sysfs") before it is
 * changed, and every value is read back after writing: the kernel refusing
 * or altering a value is an error with the scenario position. Changing the
 * scheduler resets nr_requests, so the old nr_requests is journalled before
 * a scheduler change and restored after it. */
#ifndef BENCHGRID_KNOBS_H
#define BENCHGRID_KNOBS_H

#include "diag.h"
#include "node.h"

struct knobs;

/* Validate the `sysctl:` and `queue:` maps (either may be NULL). Does not
 * touch the system. */
int knobs_check(const struct node *sysctl, const struct node *queue, struct diag *d);

/* Apply both maps; `blockdev` is the target's device (fx_fs_blockdev), needed
 * only when queue settings are given. Returns NULL with errors in d after
 * restoring anything already changed; with nothing to apply it returns an
 * empty (non-NULL) knobs. */
struct knobs *knobs_apply(const struct node *sysctl, const struct node *queue, const char *blockdev,
                          struct diag *d);

/* Write back every old value, newest first; frees k (NULL is a no-op).
 * 0, or the first -errno (after trying all). */
int knobs_restore(struct knobs *k, struct diag *d);

#endif
