/* cli_report: `benchgrid report` and `benchgrid compare`. */
#include "cli_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "rep.h"
#include "results.h"

static int report_main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf(
		    "usage: benchgrid report DIR\n\nRebuild results.csv, timeseries.csv, report.md and the "
		    "charts in DIR from DIR/results.json.\n");
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: benchgrid report DIR\n");
		return CLI_EXIT_USAGE;
	}
	struct diag d;
	diag_init(&d);
	struct run r;
	char path[4200];
	snprintf(path, sizeof(path), "%s/results.json", argv[1]);
	int rc = results_read_json(&r, path, &d);
	if (rc == 0) {
		rc = rep_write_all(&r, argv[1], &d);
		run_free(&r);
	}
	diag_print(&d, stderr);
	diag_free(&d);
	if (rc == 0)
		printf("%s: reports rebuilt\n", argv[1]);
	return rc == 0 ? 0 : CLI_EXIT_FAIL;
}

static int compare_main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf(
		    "usage: benchgrid compare DIR_A DIR_B\n\nPrint a Markdown table of the cells both runs "
		    "share and the ratio B/A of each metric.\n");
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: benchgrid compare DIR_A DIR_B\n");
		return CLI_EXIT_USAGE;
	}
	struct diag d;
	diag_init(&d);
	int rc = rep_compare(argv[1], argv[2], stdout, &d);
	diag_print(&d, stderr);
	diag_free(&d);
	return rc == 0 ? 0 : CLI_EXIT_FAIL;
}

const struct cli_command cli_report = {"report", "rebuild the reports of a run from its results.json",
                                       report_main};
const struct cli_command cli_compare = {"compare", "compare two runs cell by cell", compare_main};
