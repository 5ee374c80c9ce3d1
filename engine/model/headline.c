/* headline: the one rule of a step's headline metrics (see headline.h). */
#include "headline.h"

#include <errno.h>
#include <string.h>

/* The workloads' rules, registered at start (headline_add_rule). */
#define HEADLINE_RULES_MAX 12

static struct {
	const char *workload;
	headline_rule_fn fn;
} rules[HEADLINE_RULES_MAX];
static size_t nrules;

int headline_add_rule(const char *workload, headline_rule_fn fn)
{
	if (!workload || !fn)
		return -EINVAL;
	for (size_t i = 0; i < nrules; i++)
		if (!strcmp(rules[i].workload, workload))
			return 0;
	if (nrules == HEADLINE_RULES_MAX)
		return -ENOSPC;
	rules[nrules].workload = workload;
	rules[nrules++].fn = fn;
	return 0;
}

static headline_rule_fn rule_of(const char *workload)
{
	for (size_t i = 0; workload && i < nrules; i++)
		if (!strcmp(rules[i].workload, workload))
			return rules[i].fn;
	return NULL;
}

static bool has(const struct step_result *r, const char *name)
{
	return result_get(r, name) != NULL;
}

void headline_add(const struct step_result *r, const char *name, const char **out, size_t *n, size_t max)
{
	if (*n >= max || !has(r, name))
		return;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(out[i], name))
			return;
	out[(*n)++] = result_get(r, name)->name;
}

void headline_add_first(const struct step_result *r, const char *const *names, const char **out, size_t *n,
                        size_t max)
{
	for (size_t i = 0; names[i]; i++)
		if (has(r, names[i])) {
			headline_add(r, names[i], out, n, max);
			return;
		}
}

/* `headline: [a, b]` as recorded: the names r has, in their order. */
static size_t by_step_option(const struct step_result *r, const char *list, const char **out, size_t max)
{
	size_t n = 0;
	const char *p = list;
	while (*p && n < max) {
		size_t len = strcspn(p, " ");
		for (size_t j = 0; len && j < r->nm && n < max; j++)
			if (strlen(r->m[j].name) == len && !strncmp(r->m[j].name, p, len)) {
				headline_add(r, r->m[j].name, out, &n, max);
				break;
			}
		p += len;
		p += strspn(p, " ");
	}
	return n;
}

size_t headline_generic(const struct step_result *r, const char **out, size_t max)
{
	static const char *const rates[] = {"tps", "mb_s", "iops", "ops_s", NULL};
	static const char *const p99[] = {"lat_p99_ms", "lat_p99_us", NULL};
	size_t n = 0;
	headline_add_first(r, rates, out, &n, max);
	headline_add_first(r, p99, out, &n, max);
	return n;
}

size_t headline_names(const struct step_result *r, const char **out, size_t max)
{
	static const char *const times[] = {"elapsed_s", "seconds", NULL};
	size_t n = 0;
	if (!r)
		return 0;
	if (max > HEADLINE_MAX)
		max = HEADLINE_MAX;
	const char *over = result_info_get(r, "headline");
	if (over && (n = by_step_option(r, over, out, max)) > 0)
		return n;
	headline_rule_fn fn = rule_of(r->workload);
	n = fn ? fn(r, out, max) : headline_generic(r, out, max);
	if (n == 0)
		headline_add_first(r, times, out, &n, max);
	return n;
}
