/* test_cases: run a cmocka group case by case, so that a skipped case shows
 * as skipped in CTest, never as passed.
 *
 * A binary where only some cases can skip cannot exit 77 for a skip and 0
 * for the others at once. So each case that can skip is registered as its
 * own CTest test (bg_unit_test(... SKIPPABLE case...) in CMakeLists.txt),
 * which runs `binary CASE` with SKIP_RETURN_CODE 77, and the rest run as
 * `binary --except CASE...`. Include after <cmocka.h>; main() returns
 * bg_run_cases(...). Every skip() of the including file is counted. */
#ifndef BENCHGRID_TEST_CASES_H
#define BENCHGRID_TEST_CASES_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bg_skips;

#undef skip
#define skip()                                                                                               \
	do {                                                                                                 \
		bg_skips++;                                                                                  \
		_skip(__FILE__, __LINE__);                                                                   \
	} while (0)

static bool bg_named(const char *name, char **names, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

/* argv: no argument runs every case; NAME... only those; --except NAME...
 * all but those. Returns cmocka's count of failed cases, 77 when every case
 * that ran skipped, 1 when some skipped and others passed (that case must be
 * registered on its own), 2 for an unknown case name. */
static int bg_run_cases(const char *group, const struct CMUnitTest *all, size_t n, CMFixtureFunction setup,
                        CMFixtureFunction teardown, int argc, char **argv)
{
	bool except = argc > 1 && strcmp(argv[1], "--except") == 0;
	char **names = argv + 1 + except;
	int nnames = argc - 1 - except;
	for (int i = 0; i < nnames; i++) {
		bool found = false;
		for (size_t k = 0; k < n; k++)
			found |= strcmp(all[k].name, names[i]) == 0;
		if (!found) {
			fprintf(stderr, "%s: no test case named %s\n", group, names[i]);
			return 2;
		}
	}
	struct CMUnitTest *run = calloc(n ? n : 1, sizeof(*run));
	size_t nrun = 0;
	for (size_t k = 0; k < n; k++)
		if (nnames == 0 || bg_named(all[k].name, names, nnames) != except)
			run[nrun++] = all[k];
	int failed = _cmocka_run_group_tests(group, run, nrun, setup, teardown);
	free(run);
	if (failed || bg_skips == 0)
		return failed;
	if ((size_t)bg_skips >= nrun) {
		printf("%s: skipped\n", group);
		return 77;
	}
	fprintf(stderr,
	        "%s: %d case(s) skipped among others that passed: register each case that can skip as its "
	        "own test (bg_unit_test SKIPPABLE) so that CTest shows the skip\n",
	        group, bg_skips);
	return 1;
}

#endif
