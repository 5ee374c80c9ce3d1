/* cli_run: `benchgrid run`. */
#include "cli_run.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_plan.h"
#include "matrix.h"
#include "plan.h"
#include "runner.h"

static void run_usage(FILE *out)
{
	fprintf(out, "usage: benchgrid run SPEC [-o DIR] [-D name=value ...] [--only name=value ...]\n"
	             "                     [--resume DIR] [--dry-run] [--fail-fast] [--yes] [-q]\n\n"
	             "Run every cell of the scenario and write results.json, results.csv,\n"
	             "timeseries.csv and report.md (with SVG charts) into DIR.\n\n"
	             "  -o, --output DIR   output directory (default benchgrid-out/NAME-DATE-TIME)\n"
	             "  -D name=value      override a variable of vars:\n"
	             "  --only name=value  run only the cells whose parameter has that value (repeatable)\n"
	             "  --resume DIR       complete an interrupted run: only cells not finished in DIR\n"
	             "  --dry-run          print the cells in run order and what each sets up; run nothing\n"
	             "  --fail-fast        stop at the first failed cell\n"
	             "  --yes              confirm destroying the block devices the scenario names\n"
	             "  --work-dir DIR     where temporary targets are created (default /var/tmp)\n"
	             "  -q, --quiet        no progress output\n\n"
	             "DIR must be a new directory, or a directory (not a symbolic link) owned by\n"
	             "you and not writable by group or others; --resume DIR must exist.\n\n"
	             "Exit status: 0 all cells ok and all results written; 1 a cell failed or\n"
	             "results could not be written (e.g. a full file system); 2 bad scenario,\n"
	             "bad arguments or an unusable output directory (nothing ran); 130 interrupted\n"
	             "(finished cells are kept; use --resume).\n");
}

/* Keep only cells matching every --only name=value. */
static size_t apply_only(struct cell *cells, size_t n, const struct defines *only)
{
	size_t out = 0;
	for (size_t i = 0; i < n; i++) {
		bool keep = true;
		for (size_t k = 0; k < only->n && keep; k++) {
			const struct node *v = node_get(cells[i].params, only->names[k]);
			struct node *want = node_new_scalar(only->values[k], NULL);
			keep = v && param_equal(v, want);
			node_free(want);
		}
		if (keep)
			cells[out++] = cells[i];
		else
			node_free(cells[i].params);
	}
	return out;
}

static int run_main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"define", required_argument, NULL, 'D'},
	    {"only", required_argument, NULL, 'O'},
	    {"resume", required_argument, NULL, 'R'},
	    {"dry-run", no_argument, NULL, 'n'},
	    {"fail-fast", no_argument, NULL, 'F'},
	    {"yes", no_argument, NULL, 'y'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"work-dir", required_argument, NULL, 'W'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct defines D = {0}, only = {0};
	struct runner_opts o = {0};
	char *work_dir = NULL; /* --work-dir, made absolute */
	int c, rc = CLI_EXIT_USAGE;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:D:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': o.outdir = optarg; break;
		case 'D':
			if (cli_define(&D, optarg) < 0)
				goto out;
			break;
		case 'O':
			if (defines_add(&only, optarg) < 0) {
				fprintf(stderr, "benchgrid run: --only expects name=value, got '%s'\n",
				        optarg);
				goto out;
			}
			break;
		case 'R':
			o.resume = true;
			if (o.outdir && strcmp(o.outdir, optarg)) {
				fprintf(
				    stderr,
				    "benchgrid run: --resume DIR and -o DIR name different directories\n");
				goto out;
			}
			o.outdir = optarg;
			break;
		case 'n': o.dry_run = true; break;
		case 'F': o.fail_fast = true; break;
		case 'y': o.yes = true; break;
		case 'q': o.quiet = 1; break;
		case 'W':
			/* Absolute, so that teardown compares the loop device's backing
			 * file (which the kernel stores absolute) with the same path. */
			free(work_dir);
			work_dir = realpath(optarg, NULL);
			if (!work_dir) {
				fprintf(stderr, "benchgrid run: --work-dir %s: %s\n", optarg,
				        strerror(errno));
				goto out;
			}
			o.work_dir = work_dir;
			break;
		case 'h':
			run_usage(stdout);
			rc = 0;
			goto out;
		default: run_usage(stderr); goto out;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "benchgrid run: expected one scenario file\n");
		run_usage(stderr);
		goto out;
	}
	struct diag d;
	struct spec *s;
	struct cell *cells;
	size_t n;
	if (cli_load_plan(argv[optind], &D, &s, &cells, &n, &d) < 0) {
		rc = CLI_EXIT_USAGE;
	} else {
		n = apply_only(cells, n, &only);
		if (only.n && n == 0) {
			fprintf(stderr, "benchgrid run: no cell matches the --only filters\n");
			rc = CLI_EXIT_USAGE;
		} else {
			int r = runner_run(s, cells, n, &o, &d);
			diag_print(&d, stderr);
			rc = r < 0 ? (r == -EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL) : r;
		}
	}
	matrix_free(cells, n);
	spec_free(s);
	diag_free(&d);
out:
	free(work_dir);
	defines_free(&D);
	defines_free(&only);
	return rc;
}

const struct cli_command cli_run = {"run", "run every cell and write results and reports", run_main};
