/* step_file_name: the names of the files a step writes into its cell's
 * folder, one set per repetition; cell_label: a cell's parameters for
 * people. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cell.h"

static const char *name_of(const char *step, long rep, long nrep, const char *ext, size_t len)
{
	static char buf[256];
	struct step_ctx cx = {.step_name = step, .rep = rep, .nrep = nrep};
	step_file_name(&cx, ext, buf, len);
	return buf;
}

static void test_one_run_keeps_the_plain_name(void **state)
{
	(void)state;
	assert_string_equal(name_of("rr", 0, 1, "lat.csv", 256), "rr.lat.csv");
	assert_string_equal(name_of("rr", 0, 0, "stdout", 256), "rr.stdout");
}

static void test_repetitions_and_warmups(void **state)
{
	(void)state;
	assert_string_equal(name_of("rr", 0, 3, "lat.csv", 256), "rr.rep1.lat.csv");
	assert_string_equal(name_of("rr", 2, 3, "lat.csv", 256), "rr.rep3.lat.csv");
	assert_string_equal(name_of("rr", -2, 3, "stdout", 256), "rr.warmup2.stdout");
	assert_string_equal(name_of("rr", -1, 1, "stdout", 256), "rr.warmup1.stdout");
}

static void test_unsafe_characters_and_length(void **state)
{
	(void)state;
	assert_string_equal(name_of("../a b/ü", 0, 1, "log", 256), ".._a_b___.log");
	assert_string_equal(name_of(NULL, 0, 1, "log", 256), "step.log");
	assert_string_equal(name_of("", 1, 2, "log", 256), "step.rep2.log");
	/* cut: the tag and the extension always survive */
	assert_string_equal(name_of("abcdefghij", 1, 2, "csv", 14), "abcd.rep2.csv");
}

static void test_label(void **state)
{
	(void)state;
	char buf[64];
	struct cell c = {.params = node_new(NODE_MAP, NULL)};
	cell_label(&c, buf, sizeof(buf));
	assert_string_equal(buf, "(single cell)");
	node_map_put(c.params, "bs", NULL, node_new_scalar("4k", NULL));
	node_map_put(c.params, "fs", NULL, node_new_scalar("ext4", NULL));
	cell_label(&c, buf, sizeof(buf));
	assert_string_equal(buf, "bs=4k fs=ext4");
	/* cut to the buffer, never past it */
	char small[8];
	memset(small, 'x', sizeof(small));
	cell_label(&c, small, 6);
	assert_string_equal(small, "bs=4k");
	assert_int_equal(small[6], 'x');
	node_free(c.params);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_one_run_keeps_the_plain_name),
	    cmocka_unit_test(test_repetitions_and_warmups),
	    cmocka_unit_test(test_unsafe_characters_and_length),
	    cmocka_unit_test(test_label),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
