/* cli_plan: `benchgrid check` and `benchgrid plan` (see cli_plan.h). */
#include "cli_plan.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "plan.h"

int cli_define(struct defines *D, const char *arg)
{
	if (defines_add(D, arg) < 0) {
		fprintf(stderr, "benchgrid: -D expects name=value, got '%s'\n", arg);
		return -1;
	}
	return 0;
}

int cli_load_plan(const char *path, const struct defines *D, struct spec **s, struct cell **cells, size_t *n,
                  struct diag *d)
{
	diag_init(d);
	*cells = NULL;
	*n = 0;
	*s = spec_open(path, D, d);
	/* Go on after top-level errors: every problem of the file is reported. */
	if (*s && (*s)->root->kind == NODE_MAP)
		plan_build(*s, cells, n, d);
	diag_print(d, stderr); /* errors, or warnings only */
	if (d->nerrors) {
		fprintf(stderr, "%zu error%s\n", d->nerrors, d->nerrors == 1 ? "" : "s");
		return -EINVAL;
	}
	diag_free(d);
	diag_init(d);
	return 0;
}

static void check_usage(FILE *out)
{
	fprintf(out, "usage: benchgrid check SPEC [-D name=value ...]\n\n"
	             "Validate a scenario: print every problem as FILE:LINE:COL: error: MESSAGE.\n"
	             "Exit status 0 when the scenario is valid, 2 otherwise.\n");
}

static void plan_usage(FILE *out)
{
	fprintf(out, "usage: benchgrid plan SPEC [--format table|tsv|json] [-D name=value ...]\n\n"
	             "Print the expanded cells with their normalised parameters.\n"
	             "  --format json   one JSON array: "
	             "[{\"index\":0,\"id\":\"...\",\"params\":{...},\"text\":{...}}]\n"
	             "                  sizes in bytes, durations in seconds; text keeps values as written\n"
	             "  -D name=value   override a variable from vars:\n");
}

/* Both commands: SPEC, -D, and for plan --format. */
static int run_plan(int argc, char **argv, bool is_plan)
{
	static const struct option longopts[] = {
	    {"format", required_argument, NULL, 'f'},
	    {"define", required_argument, NULL, 'D'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct defines D = {0};
	enum plan_format fmt = PLAN_TABLE;
	int c, rc = CLI_EXIT_USAGE;
	optind = 1;
	while ((c = getopt_long(argc, argv, "D:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'D':
			if (cli_define(&D, optarg) < 0)
				goto out;
			break;
		case 'f':
			if (!is_plan)
				goto bad;
			if (!strcmp(optarg, "table"))
				fmt = PLAN_TABLE;
			else if (!strcmp(optarg, "tsv"))
				fmt = PLAN_TSV;
			else if (!strcmp(optarg, "json"))
				fmt = PLAN_JSON;
			else {
				fprintf(stderr, "benchgrid plan: --format must be table, tsv or json\n");
				goto out;
			}
			break;
		case 'h':
			(is_plan ? plan_usage : check_usage)(stdout);
			rc = 0;
			goto out;
		default: goto bad;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "benchgrid %s: expected one scenario file\n", argv[0]);
		goto bad;
	}
	struct diag d;
	struct spec *s;
	struct cell *cells;
	size_t n;
	if (cli_load_plan(argv[optind], &D, &s, &cells, &n, &d) < 0) {
		rc = CLI_EXIT_USAGE;
	} else {
		if (is_plan)
			plan_print(s, cells, n, fmt, stdout);
		else
			printf("%s: ok, %zu cell%s\n", argv[optind], n, n == 1 ? "" : "s");
		rc = CLI_EXIT_OK;
	}
	matrix_free(cells, n);
	spec_free(s);
	diag_free(&d);
	goto out;
bad:
	(is_plan ? plan_usage : check_usage)(stderr);
	rc = CLI_EXIT_USAGE;
out:
	defines_free(&D);
	return rc;
}

static int check_main(int argc, char **argv)
{
	return run_plan(argc, argv, false);
}

static int plan_main(int argc, char **argv)
{
	return run_plan(argc, argv, true);
}

const struct cli_command cli_check = {"check", "validate a scenario and print every problem", check_main};
const struct cli_command cli_plan = {"plan", "print the expanded matrix of cells", plan_main};
