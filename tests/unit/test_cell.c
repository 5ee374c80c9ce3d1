/* step_file_name: the names of the files a step writes into its cell's
 * folder, one set per repetition. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_one_run_keeps_the_plain_name),
	    cmocka_unit_test(test_repetitions_and_warmups),
	    cmocka_unit_test(test_unsafe_characters_and_length),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
