/* safe_file: the one way benchgrid reads a file that somebody else named
 * (a scenario's include:, hooks_file:, a Lua module, a pgbench script, an
 * fio job file and its includes, a run's results.json). Run as root, such a
 * name may point anywhere: a FIFO that never ends, /dev/zero, /proc/kallsyms,
 * /etc/shadow. The rules, in order:
 *
 *  1. opened O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC: a symbolic link as
 *     the last component is refused (SAFE_FILE_FOLLOW lifts that for a file
 *     the user named on the command line), a FIFO does not wait for a
 *     writer; O_NONBLOCK is cleared once the file is known to be regular;
 *  2. fstat after open: only a regular file is read (no FIFO, device,
 *     socket, directory), and none on the kernel's pseudo file systems
 *     (/proc, /sys, debugfs, tracefs, securityfs, configfs, cgroup): their
 *     files look regular but are the kernel's state;
 *  3. at most `max` bytes (SAFE_FILE_TEXT_MAX for the text files above,
 *     SAFE_FILE_RESULTS_MAX for results.json), checked while reading, so a
 *     file growing under us is cut off too;
 *  4. unless SAFE_FILE_PRIVATE_OK: readable by everyone (its mode has
 *     S_IROTH and every directory above it S_IXOTH), or the caller's own
 *     file when the caller is not root: what a scenario names must not let
 *     it show a private file's lines in its errors.
 *
 * Errors are written to err as one line that names the file and the rule;
 * never a line of the file. */
#ifndef BENCHGRID_SAFE_FILE_H
#define BENCHGRID_SAFE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* Scenario, included, hooks, Lua module, pgbench script, fio job files. */
#define SAFE_FILE_TEXT_MAX ((size_t)16 << 20)
/* A run's results.json read back by report and compare. */
#define SAFE_FILE_RESULTS_MAX ((size_t)1 << 30)

enum safe_file_flags {
	SAFE_FILE_FOLLOW = 1,     /* the user named it: a link to it is followed */
	SAFE_FILE_PRIVATE_OK = 2, /* rule 4 does not apply (the user's own input) */
};

/* Open path under rules 1, 2 and 4. An fd (blocking, close-on-exec) and
 * its fstat in *st, or a negative errno with the reason in err. */
int safe_file_open(const char *path, unsigned flags, struct stat *st, char *err, size_t errlen);
/* The same for a name relative to the folder open as dirfd (AT_FDCWD: the
 * working directory): a results folder's files, read through its fd. */
int safe_file_openat(int dirfd, const char *path, unsigned flags, struct stat *st, char *err, size_t errlen);

/* Read all of fd (from safe_file_open; closed here), at most max bytes, into
 * a NUL-terminated malloc'd text; its length in *len. NULL with the reason
 * in err (path names the file). */
char *safe_file_read_fd(int fd, const char *path, size_t max, size_t *len, char *err, size_t errlen);

/* safe_file_open then safe_file_read_fd; errno is set on failure. */
char *safe_file_read(const char *path, unsigned flags, size_t max, size_t *len, char *err, size_t errlen);

/* Rule 4 alone for the file opened as fd (path, its fstat st): true when
 * it may be read on a scenario's behalf, else false with the reason in err. */
bool safe_file_everyone_may_read(int fd, const char *path, const struct stat *st, char *err, size_t errlen);

#endif
