/* workload_table: the table of step kinds (see workload.h). */
#include "workload_table.h"

#include <string.h>

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

const struct workload_ops *workload_of_step(const struct node *st, const struct node **opts)
{
	for (size_t k = 0; st && st->kind == NODE_MAP && k < st->n; k++) {
		const struct workload_ops *w = workload_find(st->keys[k]);
		if (w) {
			*opts = st->items[k];
			return w;
		}
	}
	*opts = NULL;
	return NULL;
}

const struct workload_ops *const *workload_all(void)
{
	return table;
}

const struct workload_metrics *workload_metrics_of(const char *name)
{
	const struct workload_ops *w = workload_find(name);
	return w ? w->metrics : NULL;
}
