/* store_query: the read-only queries (first cut: the contract only). */
#include "store_query.h"

#include <errno.h>

int store_last_setup_seconds(const char *store_spec, const char *scenario_name, double *fs_s, double *pg_s,
                             double *data_s)
{
	(void)store_spec;
	(void)scenario_name;
	(void)fs_s;
	(void)pg_s;
	(void)data_s;
	return -ENOENT;
}
