/* cli_plan: `benchgrid check` and `benchgrid plan` (see cli_plan.h). */
#include "cli_plan.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_estimate.h"
#include "matrix.h"
#include "plan.h"
#include "run_order.h"
#include "shard.h"

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

int cli_only_add(struct defines *only, const char *arg, const char *cmd)
{
	if (defines_add(only, arg) < 0) {
		fprintf(stderr, "benchgrid %s: --only expects name=value, got '%s'\n", cmd, arg);
		return -1;
	}
	return 0;
}

/* Does the cell's value v equal one of the values given for its name: each
 * --only's value whole, or each of its comma-separated parts? */
static bool only_match(const struct node *v, const struct defines *only, const char *name)
{
	bool hit = false;
	for (size_t k = 0; k < only->n && !hit && v; k++) {
		if (strcmp(only->names[k], name))
			continue;
		char *copy = strdup(only->values[k]), *save = NULL;
		struct node *want = node_new_scalar(only->values[k], NULL);
		hit = param_equal(v, want);
		node_free(want);
		for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && !hit;
		     t = strtok_r(NULL, ",", &save)) {
			want = node_new_scalar(t, NULL);
			hit = param_equal(v, want);
			node_free(want);
		}
		free(copy);
	}
	return hit;
}

/* Every --only names a parameter some cell has: 0, or -EINVAL said. */
static int only_names_known(const struct cell *cells, size_t n, const struct defines *only, const char *cmd)
{
	int rc = 0;
	for (size_t k = 0; k < only->n; k++) {
		bool known = false;
		for (size_t i = 0; i < n && !known; i++)
			known = node_get(cells[i].params, only->names[k]) != NULL;
		if (known)
			continue;
		const struct node *p = n ? cells[0].params : NULL;
		const char **names = calloc((p ? p->n : 0) + 1, sizeof(*names));
		char list[512] = "";
		size_t used = 0;
		for (size_t i = 0; names && p && i < p->n; i++) {
			names[i] = p->keys[i];
			int w = snprintf(list + used, sizeof(list) - used, "%s%s", i ? ", " : "", p->keys[i]);
			used = w > 0 && used + (size_t)w < sizeof(list) ? used + (size_t)w : used;
		}
		const char *sug = names ? node_suggest(only->names[k], names) : NULL;
		fprintf(stderr, "benchgrid %s: --only %s: not a parameter of the matrix (%s%s)%s%s%s\n", cmd,
		        only->names[k], used ? "parameters: " : "it has none", list,
		        sug ? "; did you mean '" : "", sug ? sug : "", sug ? "'?" : "");
		free(names);
		rc = -EINVAL;
	}
	return rc;
}

int cli_apply_only(struct cell *cells, size_t *n, const struct defines *only, const char *cmd)
{
	if (only_names_known(cells, *n, only, cmd) < 0)
		return -EINVAL;
	size_t out = 0;
	for (size_t i = 0; i < *n; i++) {
		bool keep = true;
		for (size_t k = 0; k < only->n && keep; k++)
			keep = only_match(node_get(cells[i].params, only->names[k]), only, only->names[k]);
		if (keep)
			cells[out++] = cells[i];
		else {
			node_free(cells[i].params);
			cell_steps_free(&cells[i]);
		}
	}
	*n = out;
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
	fprintf(out, "usage: benchgrid plan SPEC [--format table|tsv|json] [-D name=value ...]\n"
	             "                      [--only name=value[,value...] ...]\n"
	             "                      [--shards N [--split-groups]] [--list-params]\n"
	             "                      [--store PATH] [--work-dir DIR]\n\n"
	             "Print the expanded cells with their normalised parameters; the table ends with\n"
	             "an estimate: set-ups, each step's time, the total, and the disk space of the\n"
	             "largest cell against the free space of the work directory.\n"
	             "  --format json   one JSON array: "
	             "[{\"index\":0,\"id\":\"...\",\"params\":{...},\"text\":{...}}]\n"
	             "                  sizes in bytes, durations in seconds; text keeps values as written\n"
	             "  -D name=value   override a variable from vars:\n"
	             "  --only name=value[,value...]\n"
	             "                  only the cells run --only would run, to preview a selection;\n"
	             "                  values of one name (listed, or in repeated --only) select\n"
	             "                  either, different names must all match\n"
	             "  --shards N      also show how `run --shard i/N` splits the cells over N\n"
	             "                  shares (hosts), and the set-ups each share repeats\n"
	             "  --split-groups  with --shards: split cells that share fixtures too\n"
	             "  --list-params   print, one per line and tab-separated, `param NAME VALUE` for\n"
	             "                  each value of each matrix parameter (what --only takes) and\n"
	             "                  `var NAME VALUE` for each variable and profile (what -D takes);\n"
	             "                  for the shell completions\n"
	             "  --store PATH    the results history whose last run of this scenario prices\n"
	             "                  the set-ups (default $BENCHGRID_STORE, else\n"
	             "                  ~/.local/share/benchgrid/results.db; opened read-only)\n"
	             "  --work-dir DIR  where run would work (as run's --work-dir; default /var/tmp):\n"
	             "                  the free space the estimate compares with\n");
}

static bool printable_value(const char *t)
{
	return t && !strpbrk(t, "\t\n\r");
}

/* --list-params: the values --only and -D take, for the shell completions. */
static void print_params(const struct spec *s, const struct cell *cells, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct node *p = cells[i].params;
		for (size_t k = 0; p && p->kind == NODE_MAP && k < p->n; k++) {
			const char *v = p->items[k]->kind == NODE_SCALAR ? p->items[k]->text : NULL;
			bool seen = !printable_value(v);
			for (size_t j = 0; j < i && !seen; j++) {
				const struct node *o = node_get(cells[j].params, p->keys[k]);
				seen = o && o->kind == NODE_SCALAR && !strcmp(o->text, v);
			}
			if (!seen)
				printf("param\t%s\t%s\n", p->keys[k], v);
		}
	}
	const struct node *vars = s->vars, *profiles = node_get(s->root, "profiles");
	for (size_t k = 0; vars && vars->kind == NODE_MAP && k < vars->n; k++)
		if (vars->items[k]->kind == NODE_SCALAR && printable_value(vars->items[k]->text) &&
		    !(profiles && !strcmp(vars->keys[k], "profile")))
			printf("var\t%s\t%s\n", vars->keys[k], vars->items[k]->text);
	for (size_t k = 0; profiles && profiles->kind == NODE_MAP && k < profiles->n; k++)
		printf("var\tprofile\t%s\n", profiles->keys[k]);
}

/* How `run --shard i/n` splits the run order, share by share. */
static void print_shares(const struct spec *s, const struct cell *cells, size_t n, size_t nshards,
                         bool split_groups)
{
	struct shard_plan sp;
	if (shard_plan_build(s, cells, n, nshards, split_groups, &sp) < 0)
		return;
	size_t setups = 0, idle = 0;
	printf("\n# %zu share%s of %zu run-order group%s%s\n", nshards, nshards == 1 ? "" : "s", sp.ngroups,
	       sp.ngroups == 1 ? "" : "s", split_groups ? " (--split-groups: one per cell)" : "");
	for (size_t j = 0; j < nshards; j++) {
		printf("share %zu/%zu: %zu cell%s", j, nshards, sp.ncells[j], sp.ncells[j] == 1 ? "" : "s");
		if (!sp.cheap)
			printf(", %zu set-up%s", sp.setups[j], sp.setups[j] == 1 ? "" : "s");
		printf(": %s", sp.ncells[j] ? "cells" : "nothing to do");
		for (size_t i = 0; i < n; i++)
			if (sp.share_of[i] == j)
				printf(" %zu", cells[i].index);
		printf("\n");
		setups += sp.setups[j];
		idle += sp.ncells[j] == 0;
	}
	if (sp.cheap)
		printf("set-ups: none worth keeping (no loop or device target, no postgres:), so every "
		       "cell is a group of its own\n");
	else
		printf("set-ups: %zu over the shares, %zu in one run (%zu repeated)\n", setups,
		       sp.setups_whole, setups - sp.setups_whole);
	if (idle)
		printf("%zu share%s would have nothing to do: fewer run-order groups than shares%s\n", idle,
		       idle == 1 ? "" : "s", split_groups || sp.cheap ? "" : " (--split-groups splits them)");
	shard_plan_free(&sp);
}

/* Both commands: SPEC, -D, and for plan --format. */
static int run_plan(int argc, char **argv, bool is_plan)
{
	static const struct option longopts[] = {
	    {"format", required_argument, NULL, 'f'},   {"define", required_argument, NULL, 'D'},
	    {"only", required_argument, NULL, 'O'},     {"help", no_argument, NULL, 'h'},
	    {"shards", required_argument, NULL, 'N'},   {"split-groups", no_argument, NULL, 'G'},
	    {"list-params", no_argument, NULL, 'L'},    {"store", required_argument, NULL, 'S'},
	    {"work-dir", required_argument, NULL, 'W'}, {NULL, 0, NULL, 0},
	};
	struct defines D = {0}, only = {0};
	size_t nshards = 0;
	bool split_groups = false, list_params = false;
	const char *store = NULL, *work_dir = NULL;
	char *end;
	enum plan_format fmt = PLAN_TABLE;
	int c, rc = CLI_EXIT_USAGE;
	optind = 1;
	while ((c = getopt_long(argc, argv, "D:f:h", longopts, NULL)) != -1) {
		if (!is_plan && c != 'D' && c != 'h' && c != '?')
			goto bad; /* check takes -D only */
		switch (c) {
		case 'D':
			if (cli_define(&D, optarg) < 0)
				goto out;
			break;
		case 'O':
			if (defines_add(&only, optarg) < 0) {
				fprintf(stderr, "benchgrid plan: --only expects name=value, got '%s'\n",
				        optarg);
				goto out;
			}
			break;
		case 'f':
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
		case 'N':
			nshards = strtoul(optarg, &end, 10);
			if (*optarg < '0' || *optarg > '9' || *end || nshards < 1 || nshards > 1000000) {
				fprintf(stderr,
				        "benchgrid plan: --shards expects a number from 1, got '%s'\n",
				        optarg);
				goto out;
			}
			break;
		case 'G': split_groups = true; break;
		case 'L': list_params = true; break;
		case 'S':
		case 'W': *(c == 'S' ? &store : &work_dir) = optarg; break;
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
	if (nshards && fmt != PLAN_TABLE) {
		fprintf(stderr, "benchgrid plan: --shards shows the shares with the table format only\n");
		goto out;
	}
	struct diag d;
	struct spec *s;
	struct cell *cells;
	size_t n;
	if (cli_load_plan(argv[optind], &D, &s, &cells, &n, &d) < 0 ||
	    cli_apply_only(cells, &n, &only, "plan") < 0) {
		rc = CLI_EXIT_USAGE;
	} else if (only.n && n == 0) {
		fprintf(stderr, "benchgrid plan: no cell matches the --only filters\n");
		rc = CLI_EXIT_USAGE;
	} else {
		if (!is_plan)
			printf("%s: ok, %zu cell%s\n", argv[optind], n, n == 1 ? "" : "s");
		else if (list_params)
			print_params(s, cells, n);
		else {
			plan_print(s, cells, n, fmt, stdout);
			if (fmt == PLAN_TABLE && n)
				run_order_print_cost(s->root, cells, n,
				                     stdout); /* what the order costs in set-ups */
			if (nshards)
				print_shares(s, cells, n, nshards, split_groups);
			if (fmt == PLAN_TABLE) /* json and tsv stay what scripts read */
				cli_print_estimate(s, cells, n, store, work_dir, stdout);
		}
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
	defines_free(&only);
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
