/* cli_merge: `benchgrid merge`. */
#include "cli_merge.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "merge.h"

static void merge_usage(FILE *out)
{
	fprintf(out, "usage: benchgrid merge [-q] DIR\n\n"
	             "Join the shares of a sweep (`benchgrid run --shard i/n -o DIR` on one host or\n"
	             "several) into DIR's results.json, results.csv, timeseries.csv and report.md,\n"
	             "as one local run writes them. Every cell of the plan is checked: the missing\n"
	             "and failed ones are listed with their share and host; run the missing shares\n"
	             "again (or resubmit the array) to complete them, then merge again.\n\n"
	             "Exit status: 0 every planned cell finished ok; 1 a cell is missing or failed,\n"
	             "or a file could not be written (the results are written all the same); 2 DIR\n"
	             "is not the output directory of a run.\n");
}

static int merge_main(int argc, char **argv)
{
	bool quiet = false;
	const char *dir = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			merge_usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet"))
			quiet = true;
		else if (argv[i][0] == '-' || dir) {
			merge_usage(stderr);
			return CLI_EXIT_USAGE;
		} else
			dir = argv[i];
	}
	if (!dir) {
		merge_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	struct diag d;
	diag_init(&d);
	int rc = merge_run(dir, quiet, &d);
	diag_print(&d, stderr);
	diag_free(&d);
	return rc < 0 ? CLI_EXIT_USAGE : rc ? CLI_EXIT_FAIL : 0;
}

const struct cli_command cli_merge = {"merge", "join the shares of a sweep into one run's results",
                                      merge_main};
