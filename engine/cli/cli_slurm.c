/* cli_slurm: `benchgrid slurm` (see cli_slurm.h).
 *
 * The script submits two jobs with `sbatch --parsable`, their options on
 * the sbatch command line (the shell quotes them, so paths with spaces
 * work) and their bodies on stdin (quoted heredocs: nothing is expanded):
 *   - an array job of N tasks, one per share, each running
 *     `benchgrid run SPEC -o DIR --shard auto --shards N -q` (i comes from
 *     SLURM_ARRAY_TASK_ID; n is given, so that resubmitting some tasks
 *     only, `sbatch --array=3 DIR/slurm/array.sh`, works);
 *   - a merge job, --dependency=afterany on the array, running
 *     `benchgrid merge DIR`.
 * Slurm writes each job's output into DIR/slurm/, which the script creates
 * first (sbatch cannot). --submit does the same without a shell: the bodies
 * go to DIR/slurm/array.sh and DIR/slurm/merge.sh and sbatch is started
 * through util/spawn. Paths are absolute: the tasks run on other hosts. */
#include "cli_slurm.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_plan.h"
#include "outdir.h"
#include "estimate.h"
#include "matrix.h"
#include "shard.h"
#include "spawn.h"

/* The default number of shares: one per run-order group, at most this many
 * (more tasks than that is asked for with --shards). */
#define SLURM_MAX_DEFAULT_SHARDS 32
/* The time limit of a task when --time is not given: the declared seconds
 * of its share's steps x 1.5, plus 2 minutes per fixture set-up and 10 s per
 * cell, rounded up to minutes, at least 5 minutes; the largest of all shares
 * (an array has one limit). docs/scale-out.md. */
#define SLURM_MARGIN_FACTOR 1.5
#define SLURM_SETUP_SECONDS 120.0
#define SLURM_CELL_SECONDS  10.0
#define SLURM_MIN_MINUTES   5
/* The merge job's time limit (minutes). */
#define SLURM_MERGE_MINUTES "30"

/* A growing list of strings. */
struct strv {
	char **v;
	size_t n;
};

static int strv_push(struct strv *a, const char *s)
{
	char **nv = realloc(a->v, (a->n + 2) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	a->v = nv;
	if (!(a->v[a->n] = strdup(s)))
		return -ENOMEM;
	a->v[++a->n] = NULL;
	return 0;
}

static int strv_pushf(struct strv *a, const char *fmt, const char *arg)
{
	char *s;
	if (asprintf(&s, fmt, arg) < 0)
		return -ENOMEM;
	int rc = strv_push(a, s);
	free(s);
	return rc;
}

static void strv_free(struct strv *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = 0;
}

struct slurm_opts {
	const char *outdir;
	size_t shards, parallel; /* 0: not given */
	const char *partition, *time;
	bool exclusive, split_groups, submit;
	struct strv sbatch_args;
	struct strv pass; /* -D, --only and --split-groups, for `run` */
	struct defines D, only;
};

/* What the script is made of. */
struct slurm_job {
	char *bin, *spec, *dir; /* absolute */
	char *dir_pattern;      /* dir with each % doubled: Slurm reads --output as a pattern */
	char *name;             /* --job-name */
	char time[32];          /* --time of the tasks */
	struct strv array_opts, merge_opts;
	char *array_body, *merge_body;
};

static void slurm_usage(FILE *out)
{
	fprintf(out,
	        "usage: benchgrid slurm SPEC -o DIR [--shards N] [--parallel P] [--partition X]\n"
	        "                       [--exclusive|--no-exclusive] [--time T] [--sbatch-arg ARG ...]\n"
	        "                       [-D name=value ...] [--only name=value ...] [--split-groups] "
	        "[--submit]\n\n"
	        "Print a bash script that submits the sweep to Slurm: an array job of N tasks, each\n"
	        "running one share of the cells (benchgrid run SPEC -o DIR --shard auto), and a merge\n"
	        "job that runs after them (benchgrid merge DIR). DIR must be on a file system that\n"
	        "every node shares. Running the script again finishes the missing cells.\n\n"
	        "  -o, --output DIR    the shared output directory (required)\n"
	        "  --shards N          array tasks (default: one per run-order group, at most %d)\n"
	        "  --parallel P        at most P tasks at once (--array=0-(N-1)%%P)\n"
	        "  --partition X       the partition of both jobs\n"
	        "  --no-exclusive      share nodes with other jobs (default --exclusive: benchmarks\n"
	        "                      sharing a node measure each other)\n"
	        "  --time T            the tasks' time limit in a Slurm format (MM, MM:SS, HH:MM:SS,\n"
	        "                      D-HH, D-HH:MM, D-HH:MM:SS); default: from the declared durations\n"
	        "                      of each share's steps x 1.5, + 2 min per set-up, + 10 s per\n"
	        "                      cell, at least 5 min\n"
	        "  --sbatch-arg ARG    one more sbatch option for both jobs, e.g. --sbatch-arg=--account=X\n"
	        "                      (repeatable)\n"
	        "  -D name=value       override a variable of vars: (passed on to run)\n"
	        "  --only name=value   only the cells with that parameter value (passed on to run)\n"
	        "  --split-groups      split run-order groups over the shares (more set-ups)\n"
	        "  --submit            submit the jobs now (sbatch) and print their ids\n\n"
	        "Prints, and --submit prints after submitting: 'array job ID' and 'merge job ID'.\n"
	        "Exit status: 0 printed or submitted; 1 sbatch is missing or refused a job; 2 bad\n"
	        "scenario or bad arguments.\n",
	        SLURM_MAX_DEFAULT_SHARDS);
}

/* A Slurm time limit: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, or
 * UNLIMITED/INFINITE. */
static bool slurm_time_valid(const char *t)
{
	if (!strcasecmp(t, "UNLIMITED") || !strcasecmp(t, "INFINITE"))
		return true;
	const char *p = t;
	const char *dash = strchr(t, '-');
	if (dash) {
		if (dash == t)
			return false;
		for (; p < dash; p++)
			if (*p < '0' || *p > '9')
				return false;
		p = dash + 1;
	}
	int fields = 0;
	for (;;) {
		const char *start = p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == start || p - start > 9)
			return false;
		fields++;
		if (*p == 0)
			break;
		if (*p++ != ':')
			return false;
	}
	return fields <= 3;
}

/* The text is passed into a shell script: no newline, no NUL. */
static int check_text(const char *what, const char *s)
{
	if (strchr(s, '\n') || strchr(s, '\r')) {
		fprintf(stderr, "benchgrid slurm: %s must not contain a line break\n", what);
		return -1;
	}
	return 0;
}

static size_t parse_count(const char *opt, const char *arg)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);
	if (errno || *end || end == arg || arg[0] == '-' || v < 1 || v > 100000) {
		fprintf(stderr, "benchgrid slurm: %s expects a whole number from 1 to 100000, got '%s'\n",
		        opt, arg);
		return 0;
	}
	return (size_t)v;
}

/* -D and --only: parsed for the plan, kept as written for `run`. */
static int pass_define(struct slurm_opts *o, int c, const char *arg)
{
	if (check_text(c == 'D' ? "-D" : "--only", arg) < 0)
		return -1;
	if (c == 'D' && cli_define(&o->D, arg) < 0)
		return -1;
	if (c == 'O' && cli_only_add(&o->only, arg, "slurm") < 0)
		return -1;
	if (strv_push(&o->pass, c == 'D' ? "-D" : "--only") < 0 || strv_push(&o->pass, arg) < 0)
		return -1;
	return 0;
}

/* One option; -1 on a bad one (message printed), 1 on --help. */
static int parse_one(struct slurm_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'o': o->outdir = arg; return check_text("-o", arg);
	case 'N': return (o->shards = parse_count("--shards", arg)) ? 0 : -1;
	case 'P': return (o->parallel = parse_count("--parallel", arg)) ? 0 : -1;
	case 'p':
		if (!*arg || strpbrk(arg, " \t")) {
			fprintf(stderr, "benchgrid slurm: --partition expects a partition name, got '%s'\n",
			        arg);
			return -1;
		}
		o->partition = arg;
		return check_text("--partition", arg);
	case 'x': o->exclusive = true; return 0;
	case 'X': o->exclusive = false; return 0;
	case 't':
		if (!slurm_time_valid(arg)) {
			fprintf(
			    stderr,
			    "benchgrid slurm: --time '%s' is not a Slurm time limit (MM, MM:SS, HH:MM:SS, "
			    "D-HH, D-HH:MM, D-HH:MM:SS, UNLIMITED)\n",
			    arg);
			return -1;
		}
		o->time = arg;
		return 0;
	case 'a':
		if (arg[0] != '-' || check_text("--sbatch-arg", arg) < 0) {
			if (arg[0] != '-')
				fprintf(stderr,
				        "benchgrid slurm: --sbatch-arg expects an sbatch option, got '%s'\n",
				        arg);
			return -1;
		}
		return strv_push(&o->sbatch_args, arg) < 0 ? -1 : 0;
	case 'D':
	case 'O': return pass_define(o, c, arg);
	case 'S': o->split_groups = true; return strv_push(&o->pass, "--split-groups") < 0 ? -1 : 0;
	case 's': o->submit = true; return 0;
	case 'h': slurm_usage(stdout); return 1;
	default: slurm_usage(stderr); return -1;
	}
}

/* Options, then SPEC; -1 bad, 1 --help done, 0 go on. */
static int parse_args(int argc, char **argv, struct slurm_opts *o)
{
	static const struct option longopts[] = {
	    {"output", required_argument, NULL, 'o'},   {"shards", required_argument, NULL, 'N'},
	    {"parallel", required_argument, NULL, 'P'}, {"partition", required_argument, NULL, 'p'},
	    {"exclusive", no_argument, NULL, 'x'},      {"no-exclusive", no_argument, NULL, 'X'},
	    {"time", required_argument, NULL, 't'},     {"sbatch-arg", required_argument, NULL, 'a'},
	    {"define", required_argument, NULL, 'D'},   {"only", required_argument, NULL, 'O'},
	    {"split-groups", no_argument, NULL, 'S'},   {"submit", no_argument, NULL, 's'},
	    {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
	};
	int c, rc;
	o->exclusive = true;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:D:h", longopts, NULL)) != -1)
		if ((rc = parse_one(o, c, optarg)) != 0)
			return rc;
	if (optind != argc - 1) {
		fprintf(stderr, "benchgrid slurm: expected one scenario file\n");
		slurm_usage(stderr);
		return -1;
	}
	if (!o->outdir || !*o->outdir) {
		fprintf(stderr, "benchgrid slurm: -o DIR is required (a directory every node shares)\n");
		return -1;
	}
	return check_text("the scenario path", argv[optind]);
}

/* The shares of the plan and their declared seconds. */
struct slurm_plan {
	struct shard_plan sp;
	size_t ncells, ngroups;
	double *declared; /* per share */
};

/* Quoted for the shell when it needs to be: '...' with ' as '\''. */
static void shq(FILE *f, const char *s)
{
	bool plain = *s != 0;
	for (const char *p = s; *p && plain; p++)
		plain =
		    strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./%:=,+@-", *p);
	if (plain) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (const char *p = s; *p; p++)
		if (*p == '\'')
			fputs("'\\''", f);
		else
			fputc(*p, f);
	fputc('\'', f);
}

/* An absolute form of path (which may not exist yet), or NULL. */
static char *abs_path(const char *path)
{
	if (path[0] == '/')
		return strdup(path);
	char cwd[PATH_MAX], *out;
	if (!getcwd(cwd, sizeof(cwd)))
		return NULL;
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	if (asprintf(&out, "%s/%s", strcmp(cwd, "/") ? cwd : "", path) < 0)
		return NULL;
	return out;
}

/* --job-name: benchgrid-NAME with only [A-Za-z0-9_.-]. */
/* s with each '%' doubled (malloc'd), or NULL. */
static char *percent_escaped(const char *s)
{
	char *out = malloc(strlen(s) * 2 + 1), *o = out;
	if (!out)
		return NULL;
	for (; *s; s++) {
		if (*s == '%')
			*o++ = '%';
		*o++ = *s;
	}
	*o = 0;
	return out;
}

static char *job_name(const char *scenario)
{
	char *out;
	if (asprintf(&out, "benchgrid-%.40s", scenario ? scenario : "sweep") < 0)
		return NULL;
	for (char *p = out; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-", *p))
			*p = '_';
	return out;
}

/* Split the cells into nshards shares (0: the default), with their
 * declared seconds. 0, or -1 (message printed). */
static int plan_shares(const struct spec *s, const struct cell *cells, size_t n, const struct slurm_opts *o,
                       struct slurm_plan *P)
{
	struct shard_plan one = {0};
	P->ncells = n;
	if (shard_plan_build(s, cells, n, 1, o->split_groups, &one) < 0)
		goto oom;
	P->ngroups = one.ngroups;
	shard_plan_free(&one);
	size_t N = o->shards;
	if (!N)
		N = P->ngroups < SLURM_MAX_DEFAULT_SHARDS ? P->ngroups : SLURM_MAX_DEFAULT_SHARDS;
	if (!N)
		N = 1;
	if (N > P->ngroups)
		fprintf(
		    stderr,
		    "benchgrid slurm: warning: %zu shards for %zu %s: %zu task%s will have nothing to do%s\n",
		    N, P->ngroups,
		    o->split_groups ? (P->ngroups == 1 ? "cell" : "cells")
		                    : (P->ngroups == 1 ? "run-order group" : "run-order groups"),
		    N - P->ngroups, N - P->ngroups == 1 ? "" : "s",
		    o->split_groups ? ""
		                    : " (--split-groups splits the groups, at the cost of more set-ups)");
	if (shard_plan_build(s, cells, n, N, o->split_groups, &P->sp) < 0)
		goto oom;
	if (!(P->declared = calloc(N, sizeof(*P->declared))))
		goto oom;
	int64_t repeat = 1, warmup = 0;
	const struct node *v;
	struct diag d;
	diag_init(&d);
	if ((v = node_get(s->root, "repeat")))
		node_as_int(v, "repeat", 1, 1000000, &repeat, &d);
	if ((v = node_get(s->root, "warmup")))
		node_as_int(v, "warmup", 0, 1000000, &warmup, &d);
	diag_free(&d);
	for (size_t i = 0; i < n; i++)
		P->declared[P->sp.share_of[i]] += estimate_cell_seconds(s, &cells[i], repeat, warmup);
	return 0;
oom:
	fprintf(stderr, "benchgrid slurm: out of memory\n");
	return -1;
}

/* Minutes of one share's time limit (the formula above). */
static long share_minutes(const struct slurm_plan *P, size_t i)
{
	if (!P->sp.ncells[i])
		return 0;
	double sec = P->declared[i] * SLURM_MARGIN_FACTOR + (double)P->sp.setups[i] * SLURM_SETUP_SECONDS +
	             (double)P->sp.ncells[i] * SLURM_CELL_SECONDS;
	long m = (long)ceil(sec / 60.0);
	return m < SLURM_MIN_MINUTES ? SLURM_MIN_MINUTES : m;
}

static void format_minutes(long m, char *out, size_t len)
{
	if (m >= 1440)
		snprintf(out, len, "%ld-%02ld:%02ld:00", m / 1440, m % 1440 / 60, m % 60);
	else
		snprintf(out, len, "%ld:%02ld:00", m / 60, m % 60);
}

/* A share whose steps declare no duration gets a limit that is a guess:
 * Slurm would kill it at the limit, so say so. */
static void warn_undeclared(const struct slurm_plan *P, const char *limit)
{
	size_t undeclared = 0;
	for (size_t i = 0; i < P->sp.nshards; i++)
		undeclared += P->sp.ncells[i] && P->declared[i] == 0;
	if (undeclared)
		fprintf(stderr,
		        "benchgrid slurm: warning: the steps of %zu share%s declare no duration (runtime:, "
		        "duration:): the time limit %s is a guess; give --time\n",
		        undeclared, undeclared == 1 ? "" : "s", limit);
}

/* The job's paths, options and bodies. 0, or -1 (message printed). */
static int build_job(const struct spec *s, const char *spec_path, const struct slurm_opts *o,
                     const struct slurm_plan *P, struct slurm_job *J)
{
	char bin[PATH_MAX];
	ssize_t bl = readlink("/proc/self/exe", bin, sizeof(bin) - 1);
	if (bl <= 0) {
		fprintf(stderr, "benchgrid slurm: /proc/self/exe: %s\n", strerror(errno));
		return -1;
	}
	bin[bl] = 0;
	J->bin = strdup(bin);
	J->spec = realpath(spec_path, NULL);
	J->dir = abs_path(o->outdir);
	J->name = job_name(s->name);
	J->dir_pattern = J->dir ? percent_escaped(J->dir) : NULL;
	if (!J->bin || !J->spec || !J->dir || !J->name || !J->dir_pattern) {
		fprintf(stderr, "benchgrid slurm: cannot make the paths absolute: %s\n", strerror(errno));
		return -1;
	}
	/* The absolute paths (the current directory, links resolved) go into the
	 * script too. */
	if (check_text("the scenario's absolute path", J->spec) < 0 ||
	    check_text("the output path", J->dir) < 0 || check_text("benchgrid's path", J->bin) < 0)
		return -1;
	if (o->time) {
		snprintf(J->time, sizeof(J->time), "%s", o->time);
	} else {
		long m = 0;
		for (size_t i = 0; i < P->sp.nshards; i++)
			if (share_minutes(P, i) > m)
				m = share_minutes(P, i);
		format_minutes(m < SLURM_MIN_MINUTES ? SLURM_MIN_MINUTES : m, J->time, sizeof(J->time));
		warn_undeclared(P, J->time);
	}
	char range[64];
	snprintf(range, sizeof(range), "0-%zu", P->sp.nshards - 1);
	if (o->parallel)
		snprintf(range + strlen(range), sizeof(range) - strlen(range), "%%%zu", o->parallel);
	struct strv *a = &J->array_opts, *m = &J->merge_opts;
	int rc = strv_pushf(a, "--job-name=%s", J->name) | strv_pushf(a, "--array=%s", range) |
	         (o->exclusive ? strv_push(a, "--exclusive") : 0) | strv_pushf(a, "--time=%s", J->time) |
	         strv_pushf(a, "--output=%s/slurm/%%A_%%a.out", J->dir_pattern) |
	         strv_pushf(m, "--job-name=%s-merge", J->name) | strv_push(m, "--time=" SLURM_MERGE_MINUTES) |
	         strv_pushf(m, "--output=%s/slurm/%%j-merge.out", J->dir_pattern);
	if (o->partition)
		rc |= strv_pushf(a, "--partition=%s", o->partition) |
		      strv_pushf(m, "--partition=%s", o->partition);
	for (size_t i = 0; i < o->sbatch_args.n; i++)
		rc |= strv_push(a, o->sbatch_args.v[i]) | strv_push(m, o->sbatch_args.v[i]);
	if (rc)
		return -1;
	return 0;
}

/* The bodies of the two jobs (bash scripts). */
static int build_bodies(const struct slurm_opts *o, size_t nshards, struct slurm_job *J)
{
	size_t len;
	FILE *f = open_memstream(&J->array_body, &len);
	if (!f)
		return -1;
	fprintf(f, "#!/bin/bash\n# One share of the cells: SLURM_ARRAY_TASK_ID of %zu.\nexec ", nshards);
	shq(f, J->bin);
	fputs(" run ", f);
	shq(f, J->spec);
	fputs(" -o ", f);
	shq(f, J->dir);
	fprintf(f, " --shard auto --shards %zu -q", nshards);
	for (size_t i = 0; i < o->pass.n; i++) {
		fputc(' ', f);
		shq(f, o->pass.v[i]);
	}
	fputc('\n', f);
	if (fclose(f))
		return -1;
	if (!(f = open_memstream(&J->merge_body, &len)))
		return -1;
	fputs("#!/bin/bash\n# Every share's results into one: lists the missing and failed cells.\nexec ", f);
	shq(f, J->bin);
	fputs(" merge ", f);
	shq(f, J->dir);
	fputc('\n', f);
	return fclose(f) ? -1 : 0;
}

static void print_shares(FILE *f, const struct slurm_opts *o, const struct slurm_plan *P, const char *time)
{
	fprintf(f, "# %zu cell%s in %zu run-order group%s%s, %zu share%s (array tasks):\n", P->ncells,
	        P->ncells == 1 ? "" : "s", P->ngroups, P->ngroups == 1 ? "" : "s",
	        o->split_groups ? " (split)" : "", P->sp.nshards, P->sp.nshards == 1 ? "" : "s");
	for (size_t i = 0; i < P->sp.nshards; i++) {
		char lim[32] = "nothing to do";
		if (P->sp.ncells[i])
			format_minutes(share_minutes(P, i), lim, sizeof(lim));
		fprintf(f, "#   share %zu/%zu: %zu cell%s, %zu set-up%s, %.0f s declared -> %s\n", i,
		        P->sp.nshards, P->sp.ncells[i], P->sp.ncells[i] == 1 ? "" : "s", P->sp.setups[i],
		        P->sp.setups[i] == 1 ? "" : "s", P->declared[i], lim);
	}
	size_t setups = 0;
	for (size_t i = 0; i < P->sp.nshards; i++)
		setups += P->sp.setups[i];
	fprintf(f, "# set-ups: %zu in all shares (%zu in one run)\n", setups, P->sp.setups_whole);
	if (o->time)
		fprintf(f, "# time limit of every task: %s (--time)\n", time);
	else
		fprintf(f,
		        "# time limit of every task: %s, the largest share's declared seconds x %.1f\n"
		        "#   + %.0f s per set-up + %.0f s per cell, rounded up to minutes, at least %d min\n",
		        time, SLURM_MARGIN_FACTOR, SLURM_SETUP_SECONDS, SLURM_CELL_SECONDS,
		        SLURM_MIN_MINUTES);
}

static void print_sbatch(FILE *f, const char *var, const char *dep, const struct strv *opts, const char *eof,
                         const char *body)
{
	fprintf(f, "%s=$(sbatch --parsable%s", var, dep);
	for (size_t i = 0; i < opts->n; i++) {
		fputs(" \\\n\t", f);
		shq(f, opts->v[i]);
	}
	fprintf(f, " <<'%s'\n%s%s\n)\n%s=${%s%%%%;*}\n", eof, body, eof, var, var);
}

static void print_script(FILE *f, const struct slurm_opts *o, const struct slurm_plan *P,
                         const struct slurm_job *J)
{
	fputs("#!/bin/bash\n# Submit the sweep of ", f);
	shq(f, J->spec);
	fputs(" to Slurm (benchgrid slurm).\n", f);
	print_shares(f, o, P, J->time);
	fputs("# Running this script again finishes the cells still missing in the output directory.\n"
	      "set -euo pipefail\n(umask 022 && mkdir -p ",
	      f);
	char *logs;
	if (asprintf(&logs, "%s/slurm", J->dir) >= 0) {
		shq(f, logs);
		free(logs);
	}
	fputs(")\n", f);
	print_sbatch(f, "array", "", &J->array_opts, "BENCHGRID_ARRAY", J->array_body);
	print_sbatch(f, "merge", " --dependency=afterany:\"$array\"", &J->merge_opts, "BENCHGRID_MERGE",
	             J->merge_body);
	fputs("echo \"array job $array\"\necho \"merge job $merge\"\n", f);
}

/* name in the directory dirfd (shown as dir), never through a link: 0, or
 * -1 (message printed). */
static int write_file(int dirfd, const char *dir, const char *name, const char *body, char **path)
{
	if (asprintf(path, "%s/%s", dir, name) < 0)
		return -1;
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	size_t len = strlen(body);
	int err = fd < 0 ? errno : 0;
	if (!err) {
		ssize_t w = write(fd, body, len);
		err = w < 0 ? errno : (size_t)w != len ? EIO : 0;
		if (close(fd) < 0 && !err)
			err = errno;
	}
	if (err)
		fprintf(stderr, "benchgrid slurm: cannot write %s: %s\n", *path, strerror(err));
	return err ? -1 : 0;
}

/* sbatch --parsable [dep] OPTS FILE: the job id in id, or -1 (message
 * printed). */
static int run_sbatch(const char *sbatch, const char *dep, const struct strv *opts, const char *file,
                      char *id, size_t idlen)
{
	const char **argv = calloc(opts->n + 5, sizeof(*argv));
	if (!argv)
		return -1;
	size_t k = 0;
	argv[k++] = sbatch;
	argv[k++] = "--parsable";
	if (dep)
		argv[k++] = dep;
	for (size_t i = 0; i < opts->n; i++)
		argv[k++] = opts->v[i];
	argv[k++] = file;
	struct spawn_run r = {.c = {.argv = argv, .out_fd = -1, .err_fd = -1}, .timeout = 120};
	int rc = spawn_run(&r);
	free(argv);
	if (rc < 0 || r.why.exec_errno || r.status != 0) {
		char why[64];
		snprintf(why, sizeof(why), "exit status %d", r.status);
		fprintf(stderr, "benchgrid slurm: sbatch %s failed (%s): %s", file,
		        rc < 0             ? strerror(-rc)
		        : r.why.exec_errno ? strerror(r.why.exec_errno)
		        : r.timed_out      ? "no answer in 120 s"
		                           : why,
		        r.err && *r.err ? r.err : "\n");
		spawn_run_free(&r);
		return -1;
	}
	size_t n = strspn(r.out, "0123456789_");
	if (n == 0 || n >= idlen) {
		fprintf(stderr, "benchgrid slurm: sbatch %s printed no job id: %s\n", file, r.out);
		spawn_run_free(&r);
		return -1;
	}
	memcpy(id, r.out, n);
	id[n] = 0;
	spawn_run_free(&r);
	return 0;
}

/* The program name in one of PATH's directories (as execvp, which spawn
 * uses, finds it): the path in out, or false. */
static bool find_in_path(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");
	for (const char *p = path ? path : ""; *p;) {
		size_t n = strcspn(p, ":");
		if (n > 0 && (size_t)snprintf(out, len, "%.*s/%s", (int)n, p, name) < len &&
		    access(out, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

/* --submit: the bodies into DIR/slurm/, then both jobs. 0 or -1. */
static int submit(const struct slurm_job *J)
{
	char sbatch[PATH_MAX], array[64], merge[64], *logs = NULL, *af = NULL, *mf = NULL, *dep = NULL;
	int rc = -1;
	if (!find_in_path("sbatch", sbatch, sizeof(sbatch))) {
		fprintf(stderr, "benchgrid slurm: --submit: sbatch not found in PATH (is Slurm's client "
		                "installed here? without --submit the script is printed instead)\n");
		return -1;
	}
	/* DIR under the rules of every run's output directory (run/outdir.h):
	 * ours, not a link, not writable by others; slurm/ likewise. */
	struct diag d;
	diag_init(&d);
	int dirfd = outdir_open(J->dir, false, &d), logfd = -1;
	diag_print(&d, stderr);
	diag_free(&d);
	char err[4600];
	if (dirfd < 0 || asprintf(&logs, "%s/slurm", J->dir) < 0)
		goto out;
	if ((logfd = outdir_subdir(dirfd, "slurm", logs, err, sizeof(err))) < 0) {
		fprintf(stderr, "benchgrid slurm: %s\n", err);
		goto out;
	}
	if (write_file(logfd, logs, "array.sh", J->array_body, &af) < 0 ||
	    write_file(logfd, logs, "merge.sh", J->merge_body, &mf) < 0)
		goto out;
	if (run_sbatch(sbatch, NULL, &J->array_opts, af, array, sizeof(array)) < 0)
		goto out;
	if (asprintf(&dep, "--dependency=afterany:%s", array) < 0 ||
	    run_sbatch(sbatch, dep, &J->merge_opts, mf, merge, sizeof(merge)) < 0) {
		fprintf(stderr,
		        "benchgrid slurm: array job %s was submitted without its merge job (scancel %s, "
		        "or run benchgrid merge %s when it ends)\n",
		        array, array, J->dir);
		goto out;
	}
	printf("array job %s\nmerge job %s\n", array, merge);
	rc = 0;
out:
	if (logfd >= 0)
		close(logfd);
	if (dirfd >= 0)
		close(dirfd);
	free(logs);
	free(af);
	free(mf);
	free(dep);
	return rc;
}

static void job_free(struct slurm_job *J)
{
	free(J->bin);
	free(J->spec);
	free(J->dir);
	free(J->dir_pattern);
	free(J->name);
	free(J->array_body);
	free(J->merge_body);
	strv_free(&J->array_opts);
	strv_free(&J->merge_opts);
}

static int slurm_main(int argc, char **argv)
{
	struct slurm_opts o = {0};
	struct slurm_job J = {0};
	struct slurm_plan P = {0};
	int rc = parse_args(argc, argv, &o);
	if (rc != 0) {
		rc = rc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
		goto out;
	}
	struct diag d;
	struct spec *s;
	struct cell *cells;
	size_t n;
	rc = CLI_EXIT_USAGE;
	if (cli_load_plan(argv[optind], &o.D, &s, &cells, &n, &d) == 0) {
		if (cli_apply_only(cells, &n, &o.only, "slurm") < 0)
			; /* said */
		else if (o.only.n && n == 0)
			fprintf(stderr, "benchgrid slurm: no cell matches the --only filters\n");
		else if (plan_shares(s, cells, n, &o, &P) == 0 &&
		         build_job(s, argv[optind], &o, &P, &J) == 0 &&
		         build_bodies(&o, P.sp.nshards, &J) == 0) {
			if (o.submit) {
				rc = submit(&J) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
			} else {
				print_script(stdout, &o, &P, &J);
				rc = fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
			}
		}
	}
	matrix_free(cells, n);
	spec_free(s);
	diag_free(&d);
out:
	shard_plan_free(&P.sp);
	free(P.declared);
	job_free(&J);
	strv_free(&o.sbatch_args);
	strv_free(&o.pass);
	defines_free(&o.D);
	defines_free(&o.only);
	return rc;
}

const struct cli_command cli_slurm = {"slurm", "print or submit the Slurm jobs of a sweep (array + merge)",
                                      slurm_main};
