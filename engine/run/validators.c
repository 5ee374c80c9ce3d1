/* validators: each section's check, from the module that owns it (see
 * validators.h). */
#include "validators.h"

#include <errno.h>
#include <stdio.h>

#include "consent.h"
#include "devmodel.h"
#include "dm_spec.h"
#include "estimate_cell.h"
#include "estimate_target.h"
#include "expect.h"
#include "fx_fs.h"
#include "fx_pg.h"
#include "headline.h"
#include "knobs.h"
#include "raw_device.h"
#include "ref_check.h"
#include "rep_config.h"
#include "spec_check.h"
#include "target_ops.h"
#include "workload_table.h"

static int check_target(const struct node *cell, const struct node *scenario, struct diag *d)
{
	const struct node *v = node_get(cell, "target");
	return v ? fx_fs_check(v, d) : 0;
}

static int check_targets(const struct node *cell, const struct node *scenario, struct diag *d)
{
	const struct node *v = node_get(cell, "targets");
	if (!v)
		return 0;
	if (v->kind != NODE_MAP) {
		diag_error(d, &v->pos, "targets: expected a map of name: {target options}");
		return -EINVAL;
	}
	int bad = 0;
	for (size_t i = 0; i < v->n; i++)
		if (fx_fs_check(v->items[i], d) < 0)
			bad = -EINVAL;
	return bad;
}

/* The device models (`model:`, `model_during:`) of every target. */
static int check_models(const struct node *cell, const struct node *scenario, struct diag *d)
{
	int bad = devmodel_check_cell(cell, d);
	if (devmodel_check(node_get(cell, "target"), "target", d) < 0)
		bad = -EINVAL;
	const struct node *v = node_get(cell, "targets");
	for (size_t i = 0; v && v->kind == NODE_MAP && i < v->n; i++) {
		char where[256];
		snprintf(where, sizeof(where), "targets.%s", v->keys[i]);
		if (devmodel_check(v->items[i], where, d) < 0)
			bad = -EINVAL;
	}
	return bad;
}

/* Throttling and queue settings of a disk benchgrid did not make: the
 * consent the scenario must give, and the safety rules of a device path
 * known now (fixtures/fs/consent.h), those only for a cell without errors
 * so far (d holds one cell's: plan.c). */
static int check_consent(const struct node *cell, const struct node *scenario, struct diag *d)
{
	const struct node *t = node_get(cell, "target"), *v = node_get(cell, "targets");
	bool rules = d->nerrors == 0;
	int bad = consent_check(t, "target", raw_device_wanted(cell, t), node_get(cell, "queue"), rules, d);
	for (size_t i = 0; v && v->kind == NODE_MAP && i < v->n; i++) {
		char where[256];
		snprintf(where, sizeof(where), "targets.%s", v->keys[i]);
		if (consent_check(v->items[i], where, false, NULL, rules, d) < 0)
			bad = -EINVAL;
	}
	return bad;
}

static int check_postgres(const struct node *cell, const struct node *scenario, struct diag *d)
{
	const struct node *v = node_get(cell, "postgres");
	return v ? fx_pg_check(v, d) : 0;
}

static int check_knobs(const struct node *cell, const struct node *scenario, struct diag *d)
{
	const struct node *sysctl = node_get(cell, "sysctl"), *queue = node_get(cell, "queue");
	return sysctl || queue ? knobs_check(sysctl, queue, d) : 0;
}

static int check_report(const struct node *cell, const struct node *scenario, struct diag *d)
{
	const struct node *v = node_get(scenario, "report");
	return v ? rep_check_config(v, d) : 0;
}

static int check_expect(const struct node *cell, const struct node *scenario, struct diag *d)
{
	const struct node *v = node_get(scenario, "expect");
	return v ? expect_check_scenario(scenario, cell, d) : 0;
}

void validators_register(void)
{
	/* The target kinds answer the layers below them: the journal's undo
	 * kinds (cleanup), plan's estimate, which kinds a model can throttle. */
	target_kinds_register();
	estimate_set_target_cost(target_kind_cost);
	dm_spec_set_block_kinds(target_kind_has_block);
	const struct workload_ops *const *all = workload_all();
	for (size_t i = 0; all[i]; i++) {
		spec_check_add_step_kind(all[i]->name, all[i]->check);
		estimate_add_step_kind(all[i]->name, all[i]->estimate);
		if (all[i]->metrics && all[i]->metrics->headline)
			headline_add_rule(all[i]->name, all[i]->metrics->headline);
	}
	/* In the order the errors have always been reported. */
	spec_check_add_validator(check_target);
	spec_check_add_validator(check_targets);
	spec_check_add_validator(raw_device_check);
	spec_check_add_validator(check_models);
	spec_check_add_validator(check_postgres);
	spec_check_add_validator(check_knobs);
	spec_check_add_validator(check_consent);
	spec_check_add_validator(check_report);
	spec_check_add_validator(check_expect);
	spec_check_add_validator(ref_check);
}
