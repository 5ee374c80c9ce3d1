/* cli_report: `benchgrid report` and `benchgrid compare`. */
#include "cli_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_by.h"
#include "compare_metric.h"
#include "rep.h"
#include "results.h"

static int report_main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: benchgrid report DIR\n\n"
		       "Rebuild the reports in DIR from DIR/results.json: those its report.formats\n"
		       "names (by default results.csv, timeseries.csv, report.md with its charts,\n"
		       "report.html and expect.json; junit.xml with junit).\n");
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

static const char compare_usage[] = "usage: benchgrid compare [OPTIONS] DIR_A DIR_B\n"
                                    "       benchgrid compare [OPTIONS] --by PARAM DIR\n";

static void compare_help(void)
{
	printf("%s\nCompare two runs cell by cell (cells matched by id), or with --by the cells of\n"
	       "one run that differ only in PARAM (each against the parameter's first value).\n"
	       "Per metric: the medians, their ratio B/A with a 95%% bootstrap interval, the\n"
	       "Mann-Whitney U test (Welch's t below 5 repetitions) and a verdict: faster, slower\n"
	       "or no significant difference. Markdown on stdout. See `benchgrid help statistics`.\n\n"
	       "Options:\n"
	       "  --all              every metric (default: each step's headline metrics:\n"
	       "                     tps, mb_s or iops, p99 latency; else the duration)\n"
	       "  --alpha A          significance level (default 0.05)\n"
	       "  --fail-above P%%    exit 1 when a metric got worse by more than P%% with\n"
	       "                     significance (for CI pipelines)\n"
	       "  --by PARAM         compare the cells of one run along PARAM\n\n"
	       "Exit status: 0, 1 when --fail-above tripped, 2 on bad arguments or results.\n",
	       compare_usage);
}

/* The value of option argv[*i] ("--alpha 0.01" or "--alpha=0.01"). */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n) == 0 && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (strcmp(argv[*i], name) == 0 && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static int compare_args(int argc, char **argv, struct compare_opts *o, const char **pos, int *npos)
{
	*npos = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		char *end;
		if (strcmp(a, "--all") == 0) {
			o->all = true;
		} else if (strncmp(a, "--alpha", 7) == 0 && (a[7] == 0 || a[7] == '=')) {
			v = opt_value(argc, argv, &i, "--alpha");
			double x = v ? strtod(v, &end) : 0;
			if (!v || end == v || *end || !(x > 0 && x < 1)) {
				fprintf(stderr, "compare: --alpha expects a number between 0 and 1\n");
				return -1;
			}
			o->alpha = x;
		} else if (strncmp(a, "--fail-above", 12) == 0 && (a[12] == 0 || a[12] == '=')) {
			v = opt_value(argc, argv, &i, "--fail-above");
			if (!v || !cmp_parse_percent(v, &o->fail_above)) {
				fprintf(stderr, "compare: --fail-above expects a percentage such as 5%%\n");
				return -1;
			}
		} else if (strncmp(a, "--by", 4) == 0 && (a[4] == 0 || a[4] == '=')) {
			o->by = opt_value(argc, argv, &i, "--by");
			if (!o->by || !*o->by) {
				fprintf(stderr, "compare: --by expects a parameter name\n");
				return -1;
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "compare: unknown option '%s'\n", a);
			return -1;
		} else if (*npos < 2) {
			pos[(*npos)++] = a;
		} else {
			*npos = 3;
		}
	}
	return 0;
}

static int compare_main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		compare_help();
		return 0;
	}
	struct compare_opts o;
	const char *pos[2];
	int npos;
	compare_opts_init(&o);
	if (compare_args(argc, argv, &o, pos, &npos) < 0 || npos != (o.by ? 1 : 2)) {
		fputs(compare_usage, stderr);
		return CLI_EXIT_USAGE;
	}
	struct diag d;
	bool failed = false;
	diag_init(&d);
	int rc = o.by ? rep_compare_by(pos[0], &o, stdout, &d, &failed)
	              : rep_compare_runs(pos[0], pos[1], &o, stdout, &d, &failed);
	diag_print(&d, stderr);
	diag_free(&d);
	if (fflush(stdout) != 0)
		rc = -EIO;
	if (rc < 0)
		return CLI_EXIT_USAGE;
	return failed ? CLI_EXIT_FAIL : 0;
}

const struct cli_command cli_report = {"report", "rebuild the reports of a run from its results.json",
                                       report_main};
const struct cli_command cli_compare = {"compare", "compare two runs cell by cell", compare_main};
