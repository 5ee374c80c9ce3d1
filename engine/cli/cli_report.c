/* cli_report: `benchgrid report` and `benchgrid compare`. */
#include "cli_report.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_by.h"
#include "compare_html.h"
#include "cli_store.h"
#include "compare_metric.h"
#include "rep.h"
#include "results.h"
#include "store.h"
#include "store_query.h"

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

static const char compare_usage[] =
    "usage: benchgrid compare [OPTIONS] DIR_A DIR_B\n"
    "       benchgrid compare [OPTIONS] DIR_A1 DIR_A2... -- DIR_B1 DIR_B2...\n"
    "       benchgrid compare [OPTIONS] --by PARAM DIR\n";

static void compare_help(void)
{
	printf("%s\nCompare two runs cell by cell (cells matched by id), or with --by the cells of\n"
	       "one run that differ only in PARAM (each against the parameter's first value).\n"
	       "Per metric: the medians, their ratio B/A with a 95%% interval, a p-value and a\n"
	       "verdict: faster, slower or no significant difference. Markdown on stdout,\n"
	       "and the same as a page with charts in compare.html (--html FILE).\n\n"
	       "Which noise judges a difference (each verdict line and the table say which):\n"
	       "  - between runs, from the results store: at least 3 earlier runs of the same\n"
	       "    cell of the scenario on the same host (every `benchgrid run` records one);\n"
	       "  - between runs, from the runs given: several result folders per side,\n"
	       "    A1 A2 A3 -- B1 B2 B3 (at least 2 on each side);\n"
	       "  - else within-run noise only (the repetitions of each run: Mann-Whitney U,\n"
	       "    Welch's t below 5), which understates the noise between runs: the output\n"
	       "    says so and --fail-above does not fail on it unless\n"
	       "    --trust-within-run-noise is given. See `benchgrid help statistics`.\n\n"
	       "Options:\n"
	       "  --all              every metric (default: each step's headline metrics:\n"
	       "                     tps, mb_s or iops, p99 latency; else the duration)\n"
	       "  --alpha A          significance level (default 0.05)\n"
	       "  --fail-above P%%    exit 1 when a metric got worse by more than P%% with\n"
	       "                     significance against the noise between runs (for CI)\n"
	       "  --trust-within-run-noise\n"
	       "                     let --fail-above fail on within-run noise alone too\n"
	       "  --by PARAM         compare the cells of one run along PARAM\n"
	       "  --window N         use at most the latest N earlier runs of the store\n"
	       "                     (default 5, at least 3)\n"
	       "  --store PATH|URL   the results store to read earlier runs from (default\n"
	       "                     $BENCHGRID_STORE, else ~/.local/share/benchgrid/results.db)\n"
	       "  --no-store         read no store: between-run noise only from the runs given\n"
	       "  --html FILE        write the page to FILE (default: compare.html in the\n"
	       "                     current directory; written whole, never through a link)\n"
	       "  --no-html          write no page: the Markdown on stdout only\n\n"
	       "Exit status: 0, 1 when --fail-above tripped, 2 on bad arguments or results\n"
	       "(or when the page of --html FILE could not be written).\n",
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

static bool is_opt(const char *a, const char *name)
{
	size_t n = strlen(name);
	return strncmp(a, name, n) == 0 && (a[n] == 0 || a[n] == '=');
}

/* The folders of each side: pos[0..*na) are A's; with "--", B's follow. */
struct cmp_args {
	const char **pos;
	int npos, na;     /* na: where "--" was, or -1 */
	const char *html; /* compare.html's path; NULL: --no-html */
	bool html_given;  /* by --html */
	struct cli_store_opt store;
};

static int compare_args(int argc, char **argv, struct compare_opts *o, struct cmp_args *ca)
{
	ca->npos = 0;
	ca->na = -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		char *end;
		if (strcmp(a, "--all") == 0) {
			o->all = true;
		} else if (strcmp(a, "--trust-within-run-noise") == 0) {
			o->trust_within = true;
		} else if (strcmp(a, "--no-store") == 0) {
			ca->store.off = true;
		} else if (strcmp(a, "--no-html") == 0) {
			ca->html = NULL;
			ca->html_given = false;
		} else if (is_opt(a, "--html")) {
			ca->html = opt_value(argc, argv, &i, "--html");
			ca->html_given = true;
			if (!ca->html || !*ca->html) {
				fprintf(stderr, "compare: --html expects a file name\n");
				return -1;
			}
		} else if (strcmp(a, "--") == 0 && ca->na < 0) {
			ca->na = ca->npos;
		} else if (is_opt(a, "--store")) {
			ca->store.spec = opt_value(argc, argv, &i, "--store");
			if (!ca->store.spec || !*ca->store.spec) {
				fprintf(stderr, "compare: --store expects a file or a postgresql:// URL\n");
				return -1;
			}
		} else if (is_opt(a, "--window")) {
			v = opt_value(argc, argv, &i, "--window");
			long x = v ? strtol(v, &end, 10) : 0;
			if (!v || end == v || *end || x < CMP_HIST_MIN || x > 1000) {
				fprintf(stderr,
				        "compare: --window expects a number of runs from %d to 1000\n",
				        CMP_HIST_MIN);
				return -1;
			}
			o->window = (size_t)x;
		} else if (is_opt(a, "--alpha")) {
			v = opt_value(argc, argv, &i, "--alpha");
			double x = v ? strtod(v, &end) : 0;
			if (!v || end == v || *end || !(x > 0 && x < 1)) {
				fprintf(stderr, "compare: --alpha expects a number between 0 and 1\n");
				return -1;
			}
			o->alpha = x;
		} else if (is_opt(a, "--fail-above")) {
			v = opt_value(argc, argv, &i, "--fail-above");
			if (!v || !cmp_parse_percent(v, &o->fail_above)) {
				fprintf(stderr, "compare: --fail-above expects a percentage such as 5%%\n");
				return -1;
			}
		} else if (is_opt(a, "--by")) {
			o->by = opt_value(argc, argv, &i, "--by");
			if (!o->by || !*o->by) {
				fprintf(stderr, "compare: --by expects a parameter name\n");
				return -1;
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "compare: unknown option '%s'\n", a);
			return -1;
		} else {
			ca->pos[ca->npos++] = a;
		}
	}
	if (ca->store.off && ca->store.spec) {
		fprintf(stderr, "compare: --store and --no-store exclude each other\n");
		return -1;
	}
	return 0;
}

/* The results store as compare's source of earlier runs (compare_metric.h):
 * opened read-only at the first question, never created or written. A
 * store that does not exist yet has no earlier runs; one that cannot be
 * read is said once on stderr and the comparison goes on without it. */
struct cmp_store {
	char spec[4096];
	struct store *s;
	bool tried;
};

static int store_values(void *ctx, const struct cmp_hist_key *k, double **v, size_t *n)
{
	struct cmp_store *cs = ctx;
	char err[1024];
	*v = NULL;
	*n = 0;
	if (!cs->tried) {
		cs->tried = true;
		int rc = store_open(cs->spec, true, &cs->s, err, sizeof(err));
		if (rc < 0 && rc != -ENOENT)
			fprintf(stderr, "compare: results store not read (%s): %s\n",
			        cli_store_shown(cs->spec), err);
		if (rc < 0)
			cs->s = NULL;
	}
	if (!cs->s)
		return -1;
	struct store_point *p;
	size_t np;
	if (store_cell_runs(cs->s, k->scenario, k->cell_id, k->host, k->fingerprint, k->step, k->metric,
	                    k->before, k->skip, k->nskip, k->max, &p, &np, err, sizeof(err)) < 0) {
		fprintf(stderr, "compare: results store: %s\n", err);
		store_close(cs->s);
		cs->s = NULL;
		return -1;
	}
	*v = malloc((np ? np : 1) * sizeof(double));
	if (*v)
		for (size_t i = 0; i < np; i++)
			(*v)[(*n)++] = p[i].value;
	store_points_free(p, np);
	return *v ? 0 : -1;
}

static int compare_main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		compare_help();
		return 0;
	}
	struct compare_opts o;
	struct cmp_args ca = {.pos = calloc((size_t)argc + 1, sizeof(char *)), .html = "compare.html"};
	if (!ca.pos)
		return CLI_EXIT_FAIL;
	compare_opts_init(&o);
	int rc = compare_args(argc, argv, &o, &ca);
	bool ok = rc == 0 && (o.by        ? ca.npos == 1 && ca.na < 0
	                      : ca.na < 0 ? ca.npos == 2
	                                  : ca.na >= 1 && ca.npos - ca.na >= 1);
	if (!ok) {
		if (rc == 0 && !o.by && ca.na >= 0)
			fprintf(stderr, "compare: each side of -- needs at least one result folder\n");
		fputs(compare_usage, stderr);
		free(ca.pos);
		return CLI_EXIT_USAGE;
	}
	struct cmp_store cs = {.s = NULL};
	struct cmp_history hist = {.values = store_values, .ctx = &cs};
	if (!ca.store.off && store_resolve(ca.store.spec, cs.spec, sizeof(cs.spec))) {
		hist.where = cli_store_shown(cs.spec);
		o.history = &hist;
	}
	struct diag d;
	struct cmp_outcome res = {0};
	diag_init(&d);
	size_t na = ca.na < 0 ? 1 : (size_t)ca.na;
	/* The Markdown in memory first: compare.html is made from it */
	struct cmp_html page = {0};
	char *md = NULL;
	size_t mdlen = 0;
	FILE *out = ca.html ? open_memstream(&md, &mdlen) : stdout;
	if (!out)
		out = stdout, ca.html = NULL;
	o.html = ca.html ? &page : NULL;
	if (o.by)
		rc = rep_compare_by(ca.pos[0], &o, out, &d, &res);
	else
		rc = rep_compare_sides(ca.pos, na, ca.pos + na, (size_t)ca.npos - na, &o, out, &d, &res);
	if (out != stdout) {
		if (fclose(out) != 0 && rc == 0)
			rc = -ENOMEM;
		if (md)
			fwrite(md, 1, mdlen, stdout);
		/* The Markdown is out either way. A page asked for by --html that
		 * cannot be written is an error (exit 2); the default one (an
		 * unwritable current directory) is said and changes no status. */
		struct diag pd;
		diag_init(&pd);
		if (rc == 0 && cmp_html_write(&page, md ? md : "", md ? mdlen : 0, ca.html, &pd) < 0) {
			if (ca.html_given) {
				rc = -EIO;
			} else {
				for (size_t i = 0; i < pd.n; i++)
					pd.v[i].level = DIAG_WARNING;
				pd.nerrors = 0;
				diag_warn(&pd, NULL,
				          "compare: compare.html not written; the comparison above stands "
				          "(--html FILE elsewhere, --no-html for none)");
			}
		}
		diag_print(&pd, stderr);
		diag_free(&pd);
		free(md);
	}
	cmp_html_free(&page);
	diag_print(&d, stderr);
	diag_free(&d);
	if (cs.s)
		store_close(cs.s);
	free(ca.pos);
	if (fflush(stdout) != 0)
		rc = -EIO;
	if (rc < 0)
		return CLI_EXIT_USAGE;
	if (res.held)
		fprintf(stderr,
		        "compare: %zu metric%s over --fail-above against within-run noise only, not failed "
		        "(no spread between runs known; see Threshold, --trust-within-run-noise)\n",
		        res.held, res.held == 1 ? "" : "s");
	return res.failed ? CLI_EXIT_FAIL : 0;
}

const struct cli_command cli_report = {"report", "rebuild the reports of a run from its results.json",
                                       report_main};
const struct cli_command cli_compare = {"compare", "compare two runs cell by cell", compare_main};
