/* test_safe_file: util/safe_file's rules on real files: a FIFO (no wait
 * for a writer), /dev/zero, links to both, /proc/kallsyms, the size cap
 * (also for a file longer than its cap would allow), a private file in a
 * closed folder (refused to root, the user's own taken otherwise), and a
 * plain file read whole. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "safe_file.h"

static char dir[] = "/tmp/test_safe_fileXXXXXX";

static void path_of(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static void write_file(const char *name, const char *text, mode_t mode)
{
	char p[256];
	path_of(p, sizeof(p), name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(p, mode), 0);
}

/* safe_file_read of name (in dir, or absolute): NULL expected, err matching. */
static void refused(const char *name, unsigned flags, size_t max, const char *want)
{
	char p[256], err[1024] = "";
	if (name[0] == '/')
		snprintf(p, sizeof(p), "%s", name);
	else
		path_of(p, sizeof(p), name);
	size_t len;
	char *text = safe_file_read(p, flags, max, &len, err, sizeof(err));
	if (text || !strstr(err, want))
		fail_msg("%s: want an error with '%s', got %s '%s'", p, want, text ? "text" : "error", err);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	chmod(dir, 0755);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_plain_file(void **state)
{
	(void)state;
	write_file("ok.txt", "hello\n", 0644);
	char p[256], err[512];
	path_of(p, sizeof(p), "ok.txt");
	size_t len;
	char *text = safe_file_read(p, 0, SAFE_FILE_TEXT_MAX, &len, err, sizeof(err));
	assert_non_null(text);
	assert_int_equal(len, 6);
	assert_string_equal(text, "hello\n");
	free(text);
	/* the descriptor is blocking again and closed on exec */
	struct stat st;
	int fd = safe_file_open(p, 0, &st, err, sizeof(err));
	assert_true(fd >= 0);
	assert_false(fcntl(fd, F_GETFL) & O_NONBLOCK);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
}

static void test_fifo_and_devices(void **state)
{
	(void)state;
	char p[256], link[256];
	path_of(p, sizeof(p), "fifo");
	assert_int_equal(mkfifo(p, 0644), 0);
	refused("fifo", 0, SAFE_FILE_TEXT_MAX, "is a FIFO: only regular files are read");
	refused("fifo", SAFE_FILE_FOLLOW | SAFE_FILE_PRIVATE_OK, SAFE_FILE_TEXT_MAX, "is a FIFO");
	refused("/dev/zero", 0, SAFE_FILE_TEXT_MAX, "is a character device");
	refused("/dev/null", SAFE_FILE_PRIVATE_OK, SAFE_FILE_TEXT_MAX, "is a character device");
	path_of(link, sizeof(link), "fifo_link");
	assert_int_equal(symlink(p, link), 0);
	refused("fifo_link", 0, SAFE_FILE_TEXT_MAX, "is a symbolic link: not followed");
	/* a link the user named is followed, to the same refusal */
	refused("fifo_link", SAFE_FILE_FOLLOW, SAFE_FILE_TEXT_MAX, "is a FIFO");
	path_of(link, sizeof(link), "zero_link");
	assert_int_equal(symlink("/dev/zero", link), 0);
	refused("zero_link", 0, SAFE_FILE_TEXT_MAX, "is a symbolic link: not followed");
	refused("zero_link", SAFE_FILE_FOLLOW, SAFE_FILE_TEXT_MAX, "is a character device");
	refused(dir, SAFE_FILE_PRIVATE_OK, SAFE_FILE_TEXT_MAX, "is a directory");
	refused("missing", 0, SAFE_FILE_TEXT_MAX, "cannot open");
}

static void test_kernel_files(void **state)
{
	(void)state;
	if (access("/proc/kallsyms", F_OK) == 0)
		refused("/proc/kallsyms", 0, SAFE_FILE_TEXT_MAX, "is on procfs");
	refused("/proc/self/status", SAFE_FILE_PRIVATE_OK, SAFE_FILE_TEXT_MAX, "is on procfs");
	if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0)
		refused("/sys/kernel/mm/transparent_hugepage/enabled", 0, SAFE_FILE_TEXT_MAX, "is on sysfs");
}

static void test_cap(void **state)
{
	(void)state;
	write_file("ten.txt", "0123456789", 0644);
	refused("ten.txt", 0, 9, "is larger than 9 bytes");
	char p[256], err[512];
	path_of(p, sizeof(p), "ten.txt");
	size_t len;
	char *text = safe_file_read(p, 0, 10, &len, err, sizeof(err));
	assert_non_null(text);
	assert_int_equal(len, 10);
	free(text);
	/* past the first buffer: the cap holds while reading */
	char *big = malloc(300001);
	memset(big, 'x', 300000);
	big[300000] = 0;
	write_file("big.txt", big, 0644);
	free(big);
	refused("big.txt", 0, 200000, "is larger than 200000 bytes");
}

static void test_private(void **state)
{
	(void)state;
	char sub[256];
	path_of(sub, sizeof(sub), "closed");
	assert_int_equal(mkdir(sub, 0700), 0);
	write_file("closed/secret.txt", "SECRET\n", 0600);
	write_file("mode600.txt", "SECRET\n", 0600);
	write_file("closed/open.txt", "x\n", 0644);
	if (getuid() == 0) {
		refused("mode600.txt", 0, SAFE_FILE_TEXT_MAX, "is not readable by everyone (run as root)");
		refused("closed/secret.txt", 0, SAFE_FILE_TEXT_MAX,
		        "is not readable by everyone (run as root)");
		refused("closed/open.txt", 0, SAFE_FILE_TEXT_MAX, "not everyone may enter");
	}
	/* the user's own input (SAFE_FILE_PRIVATE_OK) is read */
	char p[256], err[512];
	path_of(p, sizeof(p), "closed/secret.txt");
	size_t len;
	char *text = safe_file_read(p, SAFE_FILE_PRIVATE_OK, SAFE_FILE_TEXT_MAX, &len, err, sizeof(err));
	assert_non_null(text);
	free(text);
	/* the error never holds the file's content */
	if (getuid() == 0) {
		text = safe_file_read(p, 0, SAFE_FILE_TEXT_MAX, &len, err, sizeof(err));
		assert_null(text);
		assert_null(strstr(err, "SECRET\n"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plain_file),   cmocka_unit_test(test_fifo_and_devices),
	    cmocka_unit_test(test_kernel_files), cmocka_unit_test(test_cap),
	    cmocka_unit_test(test_private),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
