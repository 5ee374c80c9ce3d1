/* exec_metrics: see exec_metrics.h. */
#include "exec_metrics.h"

#include <stddef.h>
#include <string.h>

static const char *const names[] = {"exit_status", "elapsed_s", NULL};

static bool parsed(const struct node *opts)
{
	return node_get(opts, "parse") != NULL;
}

/* A metric of the step's parser, not of the step itself or the monitor,
 * the server sampler, a device model. */
static bool parser_gave(const char *name)
{
	static const char *const prefixes[] = {"sys_", "disk_", "disk.", "pg_", "model.", NULL};
	for (size_t i = 0; names[i]; i++)
		if (!strcmp(name, names[i]))
			return false;
	for (size_t i = 0; prefixes[i]; i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return false;
	return true;
}

/* A rate its parser gave (tps, iops, mb_s), else what its parser gave
 * first; then a p99 (nothing: elapsed_s, headline.h). */
static size_t exec_headline(const struct step_result *r, const char **out, size_t max)
{
	static const char *const rates[] = {"tps", "iops", "mb_s", NULL};
	static const char *const p99[] = {"lat_p99_ms", "lat_p99_us", NULL};
	size_t n = 0;
	headline_add_first(r, rates, out, &n, max);
	for (size_t i = 0; n == 0 && i < r->nm; i++)
		if (parser_gave(r->m[i].name))
			headline_add(r, r->m[i].name, out, &n, max);
	headline_add_first(r, p99, out, &n, max);
	return n;
}

const struct workload_metrics exec_metric_names = {
    .names = names, .dynamic = parsed, .server_activity = true, .headline = exec_headline};
