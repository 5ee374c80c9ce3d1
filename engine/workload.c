/* workload: the table of step kinds (see workload.h). */
#include "workload.h"

#include <string.h>

static const struct workload_ops *const table[] = {
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
