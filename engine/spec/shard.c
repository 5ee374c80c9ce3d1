/* shard: shares of a plan for several hosts (see shard.h). */
#include "shard.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* A target that is only a directory costs nothing to set up again; a loop
 * or device target (mkfs, mount) or a server does. */
static bool kind_is_costly(const struct node *target)
{
	if (!target || target->kind != NODE_MAP)
		return false;
	const struct node *k = node_get(target, "kind");
	return !k || k->kind != NODE_SCALAR || strcmp(k->text, "dir") != 0;
}

static bool fixtures_worth_keeping(const struct spec *s)
{
	if (node_get(s->root, "postgres") || kind_is_costly(node_get(s->root, "target")))
		return true;
	const struct node *ts = node_get(s->root, "targets");
	if (ts && ts->kind == NODE_MAP)
		for (size_t i = 0; i < ts->n; i++)
			if (kind_is_costly(ts->items[i]))
				return true;
	return false;
}

struct group {
	size_t first, n; /* cells [first, first + n) of the run order */
};

static int cmp_group_size(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1; /* largest first */
	return x->first < y->first ? -1 : x->first > y->first;
}

/* Set-ups of the cells of one share, in run order: a cell sets up anew when
 * it differs from the share's previous cell in filesystem or server. */
static size_t count_setups(const struct cell *cells, size_t n, const size_t *share_of, size_t share,
                           bool has_pg)
{
	size_t setups = 0;
	const struct cell *prev = NULL;
	for (size_t i = 0; i < n; i++) {
		if (share_of && share_of[i] != share)
			continue;
		bool fs = cell_new_fs(prev, &cells[i]);
		bool pg = has_pg && (fs || cells[i].pg_key != prev->pg_key);
		setups += fs || pg;
		prev = &cells[i];
	}
	return setups;
}

int shard_plan_build(const struct spec *s, const struct cell *cells, size_t n, size_t nshards,
                     bool split_groups, struct shard_plan *sp)
{
	memset(sp, 0, sizeof(*sp));
	if (nshards < 1)
		nshards = 1;
	sp->nshards = nshards;
	sp->share_of = calloc(n ? n : 1, sizeof(*sp->share_of));
	sp->ncells = calloc(nshards, sizeof(*sp->ncells));
	sp->setups = calloc(nshards, sizeof(*sp->setups));
	struct group *g = malloc((n ? n : 1) * sizeof(*g));
	if (!sp->share_of || !sp->ncells || !sp->setups || !g) {
		free(g);
		shard_plan_free(sp);
		return -ENOMEM;
	}
	sp->cheap = !fixtures_worth_keeping(s);
	bool keep = !split_groups && !sp->cheap;
	for (size_t i = 0; i < n; i++) {
		if (keep && sp->ngroups && !cell_new_fs(&cells[i - 1], &cells[i]))
			g[sp->ngroups - 1].n++;
		else
			g[sp->ngroups++] = (struct group){i, 1};
	}
	qsort(g, sp->ngroups, sizeof(*g), cmp_group_size);
	for (size_t k = 0; k < sp->ngroups; k++) {
		size_t best = 0;
		for (size_t j = 1; j < nshards; j++)
			if (sp->ncells[j] < sp->ncells[best])
				best = j;
		for (size_t c = 0; c < g[k].n; c++)
			sp->share_of[g[k].first + c] = best;
		sp->ncells[best] += g[k].n;
	}
	free(g);
	bool has_pg = node_get(s->root, "postgres") != NULL;
	for (size_t j = 0; j < nshards && !sp->cheap; j++)
		sp->setups[j] = count_setups(cells, n, sp->share_of, j, has_pg);
	sp->setups_whole = sp->cheap ? 0 : count_setups(cells, n, NULL, 0, has_pg);
	return 0;
}

void shard_plan_free(struct shard_plan *sp)
{
	free(sp->share_of);
	free(sp->ncells);
	free(sp->setups);
	memset(sp, 0, sizeof(*sp));
}

/* A whole non-negative number of at most 9 digits. */
static bool parse_count(const char *t, size_t *out)
{
	if (!t || !*t || strlen(t) > 9 || strspn(t, "0123456789") != strlen(t))
		return false;
	*out = (size_t)strtoul(t, NULL, 10);
	return true;
}

static int shard_auto(size_t shards_opt, size_t *i, size_t *n, char *err, size_t errlen)
{
	const char *id = getenv("SLURM_ARRAY_TASK_ID"), *count = getenv("SLURM_ARRAY_TASK_COUNT");
	const char *k8s = getenv("JOB_COMPLETION_INDEX");
	if (id) {
		if (!parse_count(id, i) || !parse_count(count, n)) {
			snprintf(err, errlen,
			         "--shard auto: SLURM_ARRAY_TASK_ID=%s and SLURM_ARRAY_TASK_COUNT=%s are not "
			         "whole numbers",
			         id, count ? count : "(unset)");
			return -EINVAL;
		}
		/* A resubmission of some tasks only (sbatch --array=3) counts
		 * fewer tasks than there are shares: --shards tells them. */
		if (shards_opt)
			*n = shards_opt;
		return 0;
	}
	if (k8s) {
		if (!parse_count(k8s, i)) {
			snprintf(err, errlen, "--shard auto: JOB_COMPLETION_INDEX=%s is not a whole number",
			         k8s);
			return -EINVAL;
		}
		if (!shards_opt) {
			snprintf(
			    err, errlen,
			    "--shard auto: JOB_COMPLETION_INDEX gives the share but not their number: add "
			    "--shards N (the Job's completions)");
			return -EINVAL;
		}
		*n = shards_opt;
		return 0;
	}
	snprintf(err, errlen,
	         "--shard auto: neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor "
	         "JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) is set; give --shard i/n");
	return -EINVAL;
}

int shard_parse(const char *arg, size_t shards_opt, size_t *i, size_t *n, char *err, size_t errlen)
{
	int rc;
	if (!strcmp(arg, "auto")) {
		rc = shard_auto(shards_opt, i, n, err, errlen);
	} else {
		const char *slash = strchr(arg, '/');
		char head[16];
		size_t hl = slash ? (size_t)(slash - arg) : 0;
		if (!slash || hl >= sizeof(head)) {
			snprintf(err, errlen, "--shard expects i/n (e.g. 0/4) or auto, got '%s'", arg);
			return -EINVAL;
		}
		memcpy(head, arg, hl);
		head[hl] = '\0';
		if (!parse_count(head, i) || !parse_count(slash + 1, n)) {
			snprintf(err, errlen, "--shard expects i/n (e.g. 0/4) or auto, got '%s'", arg);
			return -EINVAL;
		}
		if (shards_opt && shards_opt != *n) {
			snprintf(err, errlen, "--shard %s and --shards %zu disagree", arg, shards_opt);
			return -EINVAL;
		}
		rc = 0;
	}
	if (rc == 0 && (*n < 1 || *i >= *n)) {
		snprintf(err, errlen, "--shard %zu/%zu: the share must be 0 to %zu (shares count from 0)", *i,
		         *n, *n ? *n - 1 : 0);
		rc = -EINVAL;
	}
	return rc;
}
