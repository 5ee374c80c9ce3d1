/* cli_schema_tables: see cli_schema_tables.h. */
#include "cli_schema_tables.h"

#include <string.h>

#include "dm_opts_table.h"
#include "exec_opts_table.h"
#include "fs_opts_table.h"
#include "io_opts_table.h"
#include "pg_opts_table.h"
#include "pgb_init_opts_table.h"
#include "pgb_opts_table.h"
#include "report_opts_table.h"
#include "spec_opts_table.h"

/* clang-format off */
const struct opt_table *const cli_schema_tables[] = {
    &spec_top_table,
    &spec_matrix_table,
    &spec_profile_table,
    &spec_step_table,
    &io_opt_table,
    &io_precondition_table,
    &io_steady_state_table,
    &pgb_opt_table,
    &pgb_script_table,
    &exec_opt_table,
    &fs_target_table,
    &dm_model_table,
    &dm_cache_table,
    &dm_limits_table,
    &dm_latency_table,
    &fs_queue_table,
    &pg_opt_table,
    &pgb_init_opt_table,
    &report_table,
    &report_pivot_table,
    &report_chart_table,
    &expect_table,
    &expect_ratio_table,
    &expect_order_table,
    &expect_ratio_of_table,
    NULL,
};
/* clang-format on */

const struct opt_table *cli_schema_table(const char *name)
{
	for (size_t i = 0; cli_schema_tables[i]; i++)
		if (!strcmp(cli_schema_tables[i]->name, name))
			return cli_schema_tables[i];
	return NULL;
}
