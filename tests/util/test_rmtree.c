/* rmtree (engine/util): deep trees with a small stack and few descriptors,
 * links removed and never followed, and a folder moved out from under the
 * walk (issue 29, item 3). Mounts (inside the tree and on its top) are
 * covered with real bind mounts by tests/util/rmtree_mounts.sh.
 *
 * The two "moved" cases rename a folder at one exact moment of the walk:
 * the test links with -Wl,--wrap=openat and does a real rename(2) just
 * before rmtree opens "..". A race cannot be timed for real; the rename
 * and everything rmtree does after it are real. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "rmtree.h"
#include "test_cases.h"

#define DEEP 25000

static char tmp[256];

/* --wrap=openat: the hook runs once, just before the next openat of "..". */
static void (*before_dotdot)(int dfd);
int __real_openat(int dfd, const char *path, int flags, ...);
int __wrap_openat(int dfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (before_dotdot && strcmp(path, "..") == 0) {
		void (*hook)(int) = before_dotdot;
		before_dotdot = NULL;
		hook(dfd);
	}
	return __real_openat(dfd, path, flags, mode);
}

static int setup(void **state)
{
	(void)state;
	/* tmpfs when there is one: ext4 with online discard takes ~3 ms per
	 * rmdir, 80 s for the deep tree (rm -rf is no faster). */
	struct stat sb;
	const char *base = stat("/dev/shm", &sb) == 0 && S_ISDIR(sb.st_mode) && access("/dev/shm", W_OK) == 0
	                       ? "/dev/shm"
	                       : "/tmp";
	snprintf(tmp, sizeof(tmp), "%s/bg-rmtree.XXXXXX", base);
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	return system(cmd) == 0 ? 0 : -1;
}

static void touch(const char *path)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("precious\n", f);
	fclose(f);
}

static void path_of(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/%s", tmp, rel);
}

/* dir/d/d/.../d, depth folders deep, a file in every 1000th; two
 * descriptors at a time, names relative (the full path passes PATH_MAX). */
static void make_deep(const char *dir, int depth)
{
	assert_int_equal(mkdir(dir, 0755), 0);
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	for (int i = 0; i < depth; i++) {
		assert_int_equal(mkdirat(fd, "d", 0755), 0);
		if (i % 1000 == 0) {
			int f = openat(fd, "file", O_WRONLY | O_CREAT, 0644);
			assert_true(f >= 0);
			close(f);
		}
		int sub = openat(fd, "d", O_RDONLY | O_DIRECTORY);
		assert_true(sub >= 0);
		close(fd);
		fd = sub;
	}
	close(fd);
}

struct rm_call {
	const char *path;
	int rc;
	const char *failed;
};

static void *rm_thread(void *arg)
{
	struct rm_call *c = arg;
	c->rc = rmtree(c->path, &c->failed);
	return NULL;
}

/* rmtree(path) in a thread with a 256 KiB stack (room for the sanitizers;
 * the recursion needed ~5 MiB), with at most 32 open descriptors (the soft
 * limit; restored after). */
static int rmtree_small(const char *path)
{
	struct rlimit old, low;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	low = old;
	low.rlim_cur = 32;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	pthread_attr_t a;
	pthread_attr_init(&a);
	assert_int_equal(pthread_attr_setstacksize(&a, 256 * 1024), 0);
	struct rm_call c = {.path = path};
	pthread_t t;
	assert_int_equal(pthread_create(&t, &a, rm_thread, &c), 0);
	pthread_join(t, NULL);
	pthread_attr_destroy(&a);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	if (c.rc < 0)
		print_message("rmtree %s: %s: %s\n", path, c.failed ? c.failed : "?", strerror(-c.rc));
	return c.rc;
}

/* 25,000 nested folders: today's recursive walk overflowed the stack
 * (SIGSEGV) or ran out of descriptors. */
static void test_deep_tree(void **state)
{
	(void)state;
	char top[300];
	path_of(top, sizeof(top), "deep");
	make_deep(top, DEEP);
	assert_int_equal(rmtree_small(top), 0);
	assert_int_equal(access(top, F_OK), -1);
	assert_int_equal(errno, ENOENT);
}

/* A bushy tree (siblings at every level, files, a FIFO, links to a folder
 * and a file outside): everything inside goes, nothing outside. */
static void test_links_removed_not_followed(void **state)
{
	(void)state;
	char p[400], top[300], out[300];
	path_of(top, sizeof(top), "bushy");
	path_of(out, sizeof(out), "outside");
	assert_int_equal(mkdir(out, 0755), 0);
	path_of(p, sizeof(p), "outside/keep");
	touch(p);
	assert_int_equal(mkdir(top, 0755), 0);
	const char *dirs[] = {"a", "a/b", "a/b/c", "a/e", "f", "f/g", "f/g/h", "f/g/i", "j"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char d[400], f[450];
		snprintf(d, sizeof(d), "%s/%s", top, dirs[i]);
		assert_int_equal(mkdir(d, 0700), 0);
		snprintf(f, sizeof(f), "%s/file", d);
		touch(f);
	}
	snprintf(p, sizeof(p), "%s/a/b/to-dir", top);
	assert_int_equal(symlink(out, p), 0);
	snprintf(p, sizeof(p), "%s/f/g/to-file", top);
	char keep[400];
	path_of(keep, sizeof(keep), "outside/keep");
	assert_int_equal(symlink(keep, p), 0);
	snprintf(p, sizeof(p), "%s/j/fifo", top);
	assert_int_equal(mkfifo(p, 0600), 0);
	snprintf(p, sizeof(p), "%s/to-etc", top);
	assert_int_equal(symlink("/etc", p), 0);

	assert_int_equal(rmtree_small(top), 0);
	assert_int_equal(access(top, F_OK), -1);
	assert_int_equal(access(keep, F_OK), 0);
	assert_int_equal(access("/etc/passwd", F_OK), 0);

	/* A link as the top: the link goes, its target stays. */
	path_of(p, sizeof(p), "link-top");
	assert_int_equal(symlink(out, p), 0);
	assert_int_equal(rmtree(p, NULL), 0);
	assert_int_equal(access(p, F_OK), -1);
	assert_int_equal(access(keep, F_OK), 0);
	/* A link as the top, named with a trailing slash (which lstat follows). */
	assert_int_equal(symlink(out, p), 0);
	char slash[410];
	snprintf(slash, sizeof(slash), "%s/", p);
	const char *failed = NULL;
	int rc = rmtree(slash, &failed);
	assert_true(rc == -ELOOP || rc == -ENOTDIR); /* O_NOFOLLOW | O_DIRECTORY */
	assert_int_equal(access(keep, F_OK), 0);
	/* Missing: nothing to do. */
	path_of(p, sizeof(p), "none");
	assert_int_equal(rmtree(p, NULL), 0);
}

/* The folder whose ".." is about to be opened: moved to outside/moved. */
static void move_parent_of(int dfd)
{
	char link[64], here[PATH_MAX], to[400];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", dfd);
	ssize_t n = readlink(link, here, sizeof(here) - 1);
	assert_true(n > 0);
	here[n] = '\0';
	char *slash = strrchr(here, '/');
	*slash = '\0'; /* the parent of the folder the walk is in */
	path_of(to, sizeof(to), "outside/moved");
	assert_int_equal(rename(here, to), 0);
}

/* The folder whose ".." is about to be opened, named swap_name in its
 * parent: renamed to "aside" there, a new folder with a file taking its
 * name. Relative to dfd: deep paths pass PATH_MAX. */
static const char *swap_name;
static void swap_current(int dfd)
{
	int up = __real_openat(dfd, "..", O_RDONLY | O_DIRECTORY);
	assert_true(up >= 0);
	assert_int_equal(renameat(up, swap_name, up, "aside"), 0);
	assert_int_equal(mkdirat(up, swap_name, 0755), 0);
	int nd = __real_openat(up, swap_name, O_RDONLY | O_DIRECTORY);
	assert_true(nd >= 0);
	int f = __real_openat(nd, "new", O_WRONLY | O_CREAT, 0644);
	assert_true(f >= 0);
	close(f);
	close(nd);
	close(up);
}

/* top/{s1,s2,s3}/leaf/leaf2 and decoys outside/{s1,s2,s3}/keep: when a
 * folder is moved out of the tree while the walk is inside it, ".." leads
 * to outside, whose names match the folders still to remove. The walk must
 * stop there (-ESTALE), and a second rmtree finishes the tree. */
static void test_moved_folder_stops_walk(void **state)
{
	(void)state;
	char top[300], out[300], p[400];
	path_of(top, sizeof(top), "top");
	path_of(out, sizeof(out), "outside");
	assert_int_equal(mkdir(top, 0755), 0);
	assert_int_equal(mkdir(out, 0755), 0);
	const char *s[] = {"s1", "s2", "s3"};
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/%s", top, s[i]);
		assert_int_equal(mkdir(p, 0755), 0);
		snprintf(p, sizeof(p), "%s/%s/leaf", top, s[i]);
		assert_int_equal(mkdir(p, 0755), 0);
		snprintf(p, sizeof(p), "%s/%s/leaf/leaf2", top, s[i]);
		assert_int_equal(mkdir(p, 0755), 0);
		snprintf(p, sizeof(p), "%s/%s", out, s[i]);
		assert_int_equal(mkdir(p, 0755), 0);
		snprintf(p, sizeof(p), "%s/%s/keep", out, s[i]);
		touch(p);
	}
	/* The first ".." is opened from top/sN/leaf/leaf2: move top/sN/leaf. */
	before_dotdot = move_parent_of;
	const char *failed = NULL;
	int rc = rmtree(top, &failed);
	before_dotdot = NULL;
	assert_int_equal(rc, -ESTALE);
	assert_non_null(failed);
	print_message("stopped at %s\n", failed);
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/%s/keep", out, s[i]);
		assert_int_equal(access(p, F_OK), 0);
	}
	path_of(p, sizeof(p), "outside/moved");
	assert_int_equal(access(p, F_OK), 0); /* moved away: no longer rmtree's */
	assert_int_equal(rmtree(top, NULL), 0);
	assert_int_equal(access(top, F_OK), -1);
}

/* A folder renamed and replaced by another of the same name while the walk
 * is inside it: the replacement is not removed. */
static void test_swapped_name_kept(void **state)
{
	(void)state;
	char top[300], p[400];
	path_of(top, sizeof(top), "top");
	assert_int_equal(mkdir(top, 0755), 0);
	snprintf(p, sizeof(p), "%s/a", top);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/a/b", top);
	assert_int_equal(mkdir(p, 0755), 0);
	swap_name = "b";
	before_dotdot = swap_current; /* from top/a/b: a/b -> a/aside, new a/b */
	const char *failed = NULL;
	int rc = rmtree(top, &failed);
	before_dotdot = NULL;
	assert_int_equal(rc, -ESTALE);
	assert_string_equal(failed, p);
	snprintf(p, sizeof(p), "%s/a/b/new", top);
	assert_int_equal(access(p, F_OK), 0);
	assert_int_equal(rmtree(top, NULL), 0);
	assert_int_equal(access(top, F_OK), -1);
}

/* A failure 2,500 folders down (the same swap) is named by a path that
 * fits PATH_MAX: the top, "/...", and the folders nearest the failure. */
static void test_deep_failure_named(void **state)
{
	(void)state;
	char top[300];
	path_of(top, sizeof(top), "deep");
	make_deep(top, 2500);
	swap_name = "d";
	before_dotdot = swap_current;
	const char *failed = NULL;
	int rc = rmtree(top, &failed);
	before_dotdot = NULL;
	assert_int_equal(rc, -ESTALE);
	assert_non_null(failed);
	print_message("%.60s ... %s\n", failed, failed + strlen(failed) - 20);
	assert_true(strlen(failed) < PATH_MAX);
	assert_int_equal(strncmp(failed, top, strlen(top)), 0);
	assert_non_null(strstr(failed, "/.../d/d/d"));
	assert_int_equal(strcmp(failed + strlen(failed) - 2, "/d"), 0);
	assert_int_equal(rmtree(top, NULL), 0);
	assert_int_equal(access(top, F_OK), -1);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_deep_tree, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_links_removed_not_followed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_moved_folder_stops_walk, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_swapped_name_kept, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_deep_failure_named, setup, teardown),
	};
	return bg_run_cases("test_rmtree", tests, sizeof(tests) / sizeof(tests[0]), NULL, NULL, argc, argv);
}
