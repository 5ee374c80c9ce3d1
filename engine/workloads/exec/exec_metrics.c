/* exec_metrics: see exec_metrics.h. */
#include "exec_metrics.h"

#include <stddef.h>

static const char *const names[] = {"exit_status", "elapsed_s", NULL};

static bool parsed(const struct node *opts)
{
	return node_get(opts, "parse") != NULL;
}

const struct workload_metrics exec_metric_names = {
    .names = names, .dynamic = parsed, .server_activity = true};
