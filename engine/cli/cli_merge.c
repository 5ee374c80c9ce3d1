/* cli_merge: `benchgrid merge`. */
#include "cli_merge.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli_store.h"
#include "merge.h"
#include "results_read.h"

static void merge_usage(FILE *out)
{
	fprintf(out, "usage: benchgrid merge [-q] [--store PATH|URL | --no-store] DIR\n\n"
	             "Join the shares of a sweep (`benchgrid run --shard i/n -o DIR` on one host or\n"
	             "several) into DIR's results.json, results.csv, timeseries.csv and report.md,\n"
	             "as one local run writes them. Every cell of the plan is checked: the missing\n"
	             "and failed ones are listed with their share and host; run the missing shares\n"
	             "again (or resubmit the array) to complete them, then merge again. A merge\n"
	             "with every planned cell is recorded in the results history (--store as for\n"
	             "`benchgrid run`; --no-store: not recorded).\n\n"
	             "Exit status: 0 every planned cell finished ok; 1 a cell is missing or failed,\n"
	             "or a file could not be written (the results are written all the same); 2 DIR\n"
	             "is not the output directory of a run.\n");
}

/* The sweep goes into the history once every planned cell is there (a
 * merge of some shares is merged again later, and a run is recorded once). */
static void store_complete(const struct cli_store_opt *so, const char *dir, bool quiet)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/results.json", dir);
	struct run r;
	struct diag d;
	diag_init(&d);
	if (results_read_json(&r, path, &d) == 0) {
		if (r.ncells >= r.nplanned)
			cli_store_record(so, dir, quiet);
		else if (!so->off)
			fprintf(stderr,
			        "benchgrid: results not stored: %zu of %zu planned cells are missing (merge "
			        "again when every share is done)\n",
			        r.nplanned - r.ncells, r.nplanned);
	}
	run_free(&r);
	diag_free(&d);
}

static int merge_main(int argc, char **argv)
{
	bool quiet = false;
	const char *dir = NULL;
	struct cli_store_opt so = {0};
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			merge_usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet"))
			quiet = true;
		else if (!strcmp(argv[i], "--no-store"))
			so.off = true;
		else if (!strcmp(argv[i], "--store") && i + 1 < argc)
			so.spec = argv[++i];
		else if (!strncmp(argv[i], "--store=", 8))
			so.spec = argv[i] + 8;
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
	if (rc >= 0)
		store_complete(&so, dir, quiet);
	return rc < 0 ? CLI_EXIT_USAGE : rc ? CLI_EXIT_FAIL : 0;
}

const struct cli_command cli_merge = {"merge", "join the shares of a sweep into one run's results",
                                      merge_main};
