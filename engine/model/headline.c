/* headline: the one rule of a step's headline metrics (see headline.h). */
#include "headline.h"

#include <stdlib.h>
#include <string.h>

bool headline_io_by_iops(bool random, unsigned long long bs)
{
	return random && bs > 0 && bs <= HEADLINE_IOPS_MAX_BS;
}

static bool has(const struct step_result *r, const char *name)
{
	return result_get(r, name) != NULL;
}

/* Append name when r has it and it is not there yet. */
static void add(const struct step_result *r, const char *name, const char **out, size_t *n, size_t max)
{
	if (*n >= max || !has(r, name))
		return;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(out[i], name))
			return;
	out[(*n)++] = result_get(r, name)->name;
}

/* The first of names that r has, appended. */
static void add_first(const struct step_result *r, const char *const *names, const char **out, size_t *n,
                      size_t max)
{
	for (size_t i = 0; names[i]; i++)
		if (has(r, names[i])) {
			add(r, names[i], out, n, max);
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
				add(r, r->m[j].name, out, &n, max);
				break;
			}
		p += len;
		p += strspn(p, " ");
	}
	return n;
}

/* A metric of an exec step's parser, not of the step itself or the
 * monitor, the server sampler, a device model. */
static bool parsed(const char *name)
{
	static const char *const own[] = {"exit_status", "elapsed_s", NULL};
	static const char *const prefixes[] = {"sys_", "disk_", "disk.", "pg_", "model.", NULL};
	for (size_t i = 0; own[i]; i++)
		if (!strcmp(name, own[i]))
			return false;
	for (size_t i = 0; prefixes[i]; i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return false;
	return true;
}

size_t headline_names(const struct step_result *r, const char **out, size_t max)
{
	static const char *const rates[] = {"tps", "mb_s", "iops", "ops_s", NULL};
	static const char *const parsed_rates[] = {"tps", "iops", "mb_s", NULL};
	static const char *const p99[] = {"lat_p99_ms", "lat_p99_us", NULL};
	static const char *const times[] = {"elapsed_s", "seconds", NULL};
	size_t n = 0;
	if (!r)
		return 0;
	if (max > HEADLINE_MAX)
		max = HEADLINE_MAX;
	const char *over = result_info_get(r, "headline");
	if (over && (n = by_step_option(r, over, out, max)) > 0)
		return n;
	const char *wl = r->workload ? r->workload : "";
	const char *rw = result_info_get(r, "rw"), *bs = result_info_get(r, "bs");
	if (!strcmp(wl, "io") && rw) {
		bool iops = headline_io_by_iops(strncmp(rw, "rand", 4) == 0, bs ? strtoull(bs, NULL, 10) : 0);
		add(r, iops ? "iops" : "mb_s", out, &n, max);
		add(r, "lat_p99_us", out, &n, max);
	} else if (!strcmp(wl, "exec")) {
		add_first(r, parsed_rates, out, &n, max);
		for (size_t i = 0; n == 0 && i < r->nm; i++) /* else what its parser gave first */
			if (parsed(r->m[i].name))
				add(r, r->m[i].name, out, &n, max);
		add_first(r, p99, out, &n, max);
	} else {
		add_first(r, rates, out, &n, max); /* pgbench: tps; an old io result: mb_s; io op: ops_s */
		add_first(r, p99, out, &n, max);
	}
	if (n == 0)
		add_first(r, times, out, &n, max);
	return n;
}
