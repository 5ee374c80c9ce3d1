/* outdir: the output directory of a run, opened once and written only
 * through its directory fd (openat family), never through a link:
 *
 *  - a new directory is created (with its parents) mode 0755; an existing
 *    one (and `--resume DIR`, which must exist) must be a real directory, not
 *    a symbolic link, owned by the effective user and not writable by its
 *    group or others, or the run is refused; on a shared file system that
 *    squashes the user (NFS root_squash: root's files are created as
 *    nobody), a directory owned by the uid our files really get there
 *    (learnt from a probe file) is accepted, with a note, and that uid then
 *    counts as ours (outdir_owned_by_us; docs/results.md#ownership);
 *  - cells/ and cells/ID are created with mkdirat and opened with
 *    O_NOFOLLOW under the same rules;
 *  - files are written whole (results_write.h's results_file: a fresh
 *    O_EXCL|O_NOFOLLOW temporary name, fsync, renameat), so a killed run
 *    never leaves half a file and a planted link is replaced, not followed. */
#ifndef BENCHGRID_OUTDIR_H
#define BENCHGRID_OUTDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "diag.h"

/* benchgrid-out/NAME-YYYYmmdd-HHMMSS for the scenario's name (malloc'd),
 * or NULL. */
char *outdir_default(const char *scenario_name);
/* Create (unless resume: then it must exist) and open path as above, and
 * remove the temporary files a killed run left. A directory fd, or
 * -EINVAL with the reason in d. */
int outdir_open(const char *path, bool resume, struct diag *d);
/* The same rules for --dry-run, which creates and writes nothing: a
 * directory fd when path exists and would be accepted, -ENOENT when it
 * does not exist and could be created, or -EINVAL with the reason in d.
 * (A directory owned by the uid root is squashed to is refused here: only
 * a file written there would tell.) */
int outdir_probe(const char *path, bool resume, struct diag *d);
/* Whether a file or directory (its fstat) in the output directory is ours:
 * owned by the effective user, or by the uid the last outdir_open found our
 * files get there (a squashed root). */
bool outdir_owned_by_us(const struct stat *st);
/* The sub-directory name of dirfd (created mode 0755 when missing), opened
 * with O_NOFOLLOW and checked like the output directory. A directory fd, or
 * a negative errno with the reason in err (shown as path). */
int outdir_subdir(int dirfd, const char *name, const char *path, char *err, size_t errlen);
/* Remove the temporary files (results_file's) a killed writer left in
 * dirfd that are at least min_age seconds old (OUTDIR_LEFTOVER_AGE: old
 * enough not to be a live writer's in a directory shares write into). */
#define OUTDIR_LEFTOVER_AGE 600
/* The folder of a sweep's shares' journals (share.h). */
#define SHARES_DIR "shards"
void outdir_remove_leftovers(int dirfd, int min_age);
/* A copy of the scenario file as scenario.yaml in dirfd: 0 or a negative
 * errno. */
int outdir_copy_scenario(int dirfd, const char *scenario_file);

#endif
