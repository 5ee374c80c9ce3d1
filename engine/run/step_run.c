/* step_run: one repetition of a cell's steps (see step_run.h). */
#include "step_run.h"

#include "clock.h"
#include "interrupt.h"
#include "spec.h"
#include "step_conc.h"
#include "step_one.h"

static int step_run_one(struct run_env *E, const struct cell *c, const struct node *st, size_t i,
                        struct run_cell *rc, long rep, const char *cell_dir)
{
	struct step S;
	struct diag sd;
	struct step_result res;
	step_begin(E, c, st, i, &S, &res, &sd);
	double t0 = clock_mono();
	int rc_run = 0;
	if (S.ops && sd.nerrors == 0)
		rc_run = step_exec(E, c, &S, rep, cell_dir, &res, &sd, NULL);
	res.elapsed = clock_mono() - t0;
	return step_end(E, c, &S, rc, rep, &res, &sd, rc_run, interrupt_step_timed_out());
}

int step_run_rep(struct run_env *E, const struct cell *c, const struct node *tree, struct run_cell *rc,
                 long rep, const char *cell_dir)
{
	const struct node *steps = node_get(tree, "steps");
	if (step_conc_wanted(steps)) /* parallel: groups or background: steps */
		return step_conc_rep(E, c, tree, rc, rep, cell_dir);
	for (size_t i = 0; steps && i < steps->n; i++) {
		char why[256];
		if (spec_step_skipped(E->s, tree, i, why, sizeof(why))) {
			step_skip(E, steps->items[i], i, why, rc, rep);
			continue;
		}
		int st = step_run_one(E, c, steps->items[i], i, rc, rep, cell_dir);
		if (st != STEPS_OK)
			return st;
	}
	return STEPS_OK;
}
