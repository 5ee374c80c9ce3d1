/* cli_schema_tables: see cli_schema_tables.h. */
#include "cli_schema_tables.h"

#include <string.h>

#include "exec_opts_table.h"
#include "io_opts_table.h"
#include "spec_opts_table.h"

const struct opt_table *const cli_schema_tables[] = {
    &spec_top_table,        &spec_matrix_table, &spec_profile_table,
    &spec_step_table,       &io_opt_table,      &io_precondition_table,
    &io_steady_state_table, &exec_opt_table,    NULL,
};

const struct opt_table *cli_schema_table(const char *name)
{
	for (size_t i = 0; cli_schema_tables[i]; i++)
		if (!strcmp(cli_schema_tables[i]->name, name))
			return cli_schema_tables[i];
	return NULL;
}
