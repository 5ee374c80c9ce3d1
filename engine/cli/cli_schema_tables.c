/* cli_schema_tables: see cli_schema_tables.h. */
#include "cli_schema_tables.h"

#include <string.h>

#include "dm_opts_table.h"
#include "fs_opts_table.h"
#include "pg_opts_table.h"
#include "pgb_init_opts_table.h"
#include "report_opts_table.h"
#include "spec_opts_table.h"
#include "workload_table.h"

#define SCHEMA_TABLES_MAX 64
#define STEP_ROWS_MAX     32

/* clang-format off */
/* Before the steps' tables. */
static const struct opt_table *const head[] = {
    &spec_top_table,
    &spec_matrix_table,
    &spec_profile_table,
    NULL,
};

/* After the workloads' tables. */
static const struct opt_table *const tail[] = {
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

static const struct opt_table *tables[SCHEMA_TABLES_MAX + 1];
static struct opt_desc step_rows[STEP_ROWS_MAX];
static struct opt_table step_table;

static void add(size_t *n, const struct opt_table *t)
{
	if (*n < SCHEMA_TABLES_MAX)
		tables[(*n)++] = t;
}

/* A step: spec's common keys, then one key per workload (its step_row). */
static void make_step_table(const struct workload_ops *const *all)
{
	size_t n = 0;
	for (size_t i = 0; i < spec_step_table.n && n < STEP_ROWS_MAX; i++)
		step_rows[n++] = spec_step_table.rows[i];
	for (size_t w = 0; all[w] && n < STEP_ROWS_MAX; w++)
		if (all[w]->step_row)
			step_rows[n++] = *all[w]->step_row;
	step_table = spec_step_table;
	step_table.rows = step_rows;
	step_table.n = n;
}

const struct opt_table *const *cli_schema_tables(void)
{
	if (tables[0])
		return tables;
	const struct workload_ops *const *all = workload_all();
	size_t n = 0;
	make_step_table(all);
	for (size_t i = 0; head[i]; i++)
		add(&n, head[i]);
	add(&n, &step_table);
	add(&n, &spec_parallel_table);
	for (size_t w = 0; all[w]; w++)
		for (size_t i = 0; all[w]->tables && all[w]->tables[i]; i++)
			add(&n, all[w]->tables[i]);
	for (size_t i = 0; tail[i]; i++)
		add(&n, tail[i]);
	tables[n] = NULL;
	return tables;
}

const struct opt_table *cli_schema_table(const char *name)
{
	const struct opt_table *const *all = cli_schema_tables();
	for (size_t i = 0; all[i]; i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}
