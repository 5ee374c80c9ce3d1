/* workload_table: the table of step kinds (see workload.h). */
#include "workload_table.h"

#include <string.h>

#include "exec_metrics.h"
#include "io_metrics.h"
#include "pgb_metrics.h"
#include "wl_exec.h"
#include "wl_io.h"
#include "wl_pgbench.h"

static const struct workload_ops *const table[] = {
    &wl_io_ops,
    &wl_pgbench_ops,
    &wl_exec_ops,
    NULL,
};

const struct workload_ops *workload_find(const char *name)
{
	for (size_t i = 0; table[i]; i++)
		if (!strcmp(table[i]->name, name))
			return table[i];
	return NULL;
}

const struct workload_ops *const *workload_all(void)
{
	return table;
}

/* Beside the table until issue 30 puts each workload's metrics in its ops. */
static const struct {
	const struct workload_ops *ops;
	const struct workload_metrics *metrics;
} metric_table[] = {
    {&wl_io_ops, &io_metric_names},
    {&wl_pgbench_ops, &pgb_metric_names},
    {&wl_exec_ops, &exec_metric_names},
};

const struct workload_metrics *workload_metrics_of(const char *name)
{
	for (size_t i = 0; i < sizeof(metric_table) / sizeof(metric_table[0]); i++)
		if (!strcmp(metric_table[i].ops->name, name))
			return metric_table[i].metrics;
	return NULL;
}
