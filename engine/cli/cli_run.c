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
#include "selection.h"
#include "cli_store.h"
#include "outdir.h"
#include "shard.h"

static void run_usage(FILE *out)
{
	fprintf(out, "usage: benchgrid run SPEC [-o DIR] [-D name=value ...] [--only name=value ...]\n"
	             "                     [--resume DIR] [--dry-run] [--fail-fast] [--yes] [-q]\n"
	             "                     [--shard i/n|auto [--shards N] [--split-groups]]\n\n"
	             "Run every cell of the scenario and write results.json, results.csv,\n"
	             "timeseries.csv and report.md (with SVG charts) into DIR.\n\n"
	             "  -o, --output DIR   output directory (default benchgrid-out/NAME-DATE-TIME)\n"
	             "  -D name=value      override a variable of vars:\n"
	             "  --only name=value  run only the cells whose parameter has that value (repeatable;\n"
	             "                     fs=xfs,ext4 or --only fs=xfs --only fs=ext4 select both)\n"
	             "  --resume DIR       complete an interrupted run: only cells not finished in DIR\n"
	             "  --dry-run          print the cells in run order and what each sets up; run nothing\n"
	             "  --fail-fast        stop at the first failed cell\n"
	             "  --yes              confirm destroying (destroy: true) or throttling and retuning\n"
	             "                     (tune_disk: true) the block devices the scenario names\n"
	             "  --work-dir DIR     where temporary targets are created (default /var/tmp)\n"
	             "  -q, --quiet        no progress output\n"
	             "  --shard i/n        run share i (from 0) of n of the cells into DIR, which\n"
	             "                     the other shares (other hosts) write too; then `merge DIR`\n"
	             "  --shard auto       i and n from SLURM_ARRAY_TASK_ID and _COUNT, or i from\n"
	             "                     JOB_COMPLETION_INDEX (Kubernetes) with --shards N\n"
	             "  --shards N         the number of shares (with --shard auto)\n"
	             "  --split-groups     split cells that share a filesystem or server over shares\n"
	             "  --store PATH|URL   record the run in this results history: an SQLite file or\n"
	             "                     postgresql://... (default $BENCHGRID_STORE, else\n"
	             "                     ~/.local/share/benchgrid/results.db; see `benchgrid history`)\n"
	             "  --no-store         do not record the run in the results history\n\n"
	             "DIR must be a new directory, or a directory (not a symbolic link) owned by\n"
	             "you and not writable by group or others; --resume DIR must exist.\n\n"
	             "Exit status: 0 all cells ok and all results written; 1 a cell failed,\n"
	             "results could not be written (e.g. a full file system), or teardown left\n"
	             "something set up (`benchgrid cleanup` finishes it); 2 bad scenario,\n"
	             "bad arguments or an unusable output directory (nothing ran); 130 interrupted\n"
	             "(finished cells are kept; use --resume).\n");
}

static int parse_shards(const char *arg, size_t *out)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end || v < 1 || v > 1000000) {
		fprintf(stderr, "benchgrid run: --shards expects a number from 1, got '%s'\n", arg);
		return -1;
	}
	*out = v;
	return 0;
}

/* --shard: which share of the plan this run is, and the shares. */
static int plan_share(const struct spec *s, const struct cell *cells, size_t n, const char *arg,
                      size_t nshards_opt, bool split_groups, struct runner_opts *o, struct shard_plan *sp)
{
	char err[512];
	size_t i, nshards;
	if (shard_parse(arg, nshards_opt, &i, &nshards, err, sizeof(err)) < 0) {
		fprintf(stderr, "benchgrid run: %s\n", err);
		return -1;
	}
	if (!o->outdir) {
		fprintf(stderr,
		        "benchgrid run: --shard needs -o DIR, the directory every share writes into\n");
		return -1;
	}
	if (shard_plan_build(s, cells, n, nshards, split_groups, sp) < 0) {
		fprintf(stderr, "benchgrid run: out of memory\n");
		return -1;
	}
	o->shards = sp;
	o->share = i;
	return 0;
}

/* Run the cells; a finished run (not a share: `merge` records the sweep)
 * goes into the results history. The default output directory is chosen
 * here to know where the results are. */
static int run_and_record(struct spec *s, struct cell *cells, size_t n, struct runner_opts *o, bool share,
                          const struct cli_store_opt *so, struct diag *d)
{
	char *outdir = NULL;
	if (!o->outdir && !o->dry_run)
		o->outdir = outdir = outdir_default(s->name);
	int r = runner_run(s, cells, n, o, d);
	diag_print(d, stderr);
	if ((r == 0 || r == 1) && !o->dry_run && !share && o->outdir)
		cli_store_record(so, o->outdir, o->quiet);
	if (outdir)
		o->outdir = NULL;
	free(outdir);
	return r < 0 ? (r == -EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL) : r;
}

/* -D and --only: recorded by the run; on --resume the run's own when none
 * are given (selection.h). 0, or -1 said on stderr. */
static int take_selection(struct runner_opts *o, const char *shard, struct defines *D, struct defines *only)
{
	bool reused = false;
	if (o->resume && !shard && selection_resume(o->outdir, D, only, &reused) < 0)
		return -1;
	if (reused && !o->quiet) {
		char text[2048];
		selection_text(D, only, text, sizeof(text));
		fprintf(stderr, "resuming with the run's %s\n", text);
	}
	o->defines = D;
	o->only = only;
	return 0;
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
	    {"shard", required_argument, NULL, 'S'},
	    {"shards", required_argument, NULL, 'N'},
	    {"split-groups", no_argument, NULL, 'G'},
	    {"help", no_argument, NULL, 'h'},
	    {"store", required_argument, NULL, 256},
	    {"no-store", no_argument, NULL, 257},
	    {NULL, 0, NULL, 0},
	};
	struct defines D = {0}, only = {0};
	struct runner_opts o = {0};
	char *work_dir = NULL; /* --work-dir, made absolute */
	const char *shard = NULL;
	size_t nshards_opt = 0;
	bool split_groups = false;
	struct shard_plan sp = {0};
	struct cli_store_opt so = {0};
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
			if (cli_only_add(&only, optarg, "run") < 0)
				goto out;
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
		case 'S': shard = optarg; break;
		case 'N':
			if (parse_shards(optarg, &nshards_opt) < 0)
				goto out;
			break;
		case 'G': split_groups = true; break;
		case 256: so.spec = optarg; break;
		case 257: so.off = true; break;
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
	if (take_selection(&o, shard, &D, &only) < 0)
		goto out;
	if (cli_load_plan(argv[optind], &D, &s, &cells, &n, &d) < 0) {
		rc = CLI_EXIT_USAGE;
	} else {
		if (cli_apply_only(cells, &n, &only, "run") < 0) {
			rc = CLI_EXIT_USAGE;
		} else if (only.n && n == 0) {
			fprintf(stderr, "benchgrid run: no cell matches the --only filters\n");
			rc = CLI_EXIT_USAGE;
		} else if (!shard && (nshards_opt || split_groups)) {
			fprintf(stderr, "benchgrid run: --shards and --split-groups go with --shard\n");
			rc = CLI_EXIT_USAGE;
		} else if (shard && plan_share(s, cells, n, shard, nshards_opt, split_groups, &o, &sp) < 0) {
			rc = CLI_EXIT_USAGE;
		} else {
			rc = run_and_record(s, cells, n, &o, shard != NULL, &so, &d);
		}
	}
	matrix_free(cells, n);
	spec_free(s);
	diag_free(&d);
	shard_plan_free(&sp);
out:
	free(work_dir);
	defines_free(&D);
	defines_free(&only);
	return rc;
}

const struct cli_command cli_run = {"run", "run every cell and write results and reports", run_main};
