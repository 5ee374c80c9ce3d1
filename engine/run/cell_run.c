/* cell_run: one cell (see cell_run.h). */
#include "cell_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devmodel.h"
#include "interrupt.h"
#include "lb.h"
#include "monitor_devs.h"
#include "outdir.h"
#include "step_run.h"

/* ${target.path}, ${cell.id}, ... as far as the fixtures are up. */
static struct node *runtime_names(const struct run_env *E, const struct cell *c, const char *cell_dir)
{
	struct node *m = node_new(NODE_MAP, NULL);
	char buf[64];
	fixture_set_names(&E->fx, m);
	node_map_put(m, "cell.id", NULL, node_new_scalar(c->id, NULL));
	snprintf(buf, sizeof(buf), "%zu", c->index);
	node_map_put(m, "cell.index", NULL, node_new_scalar(buf, NULL));
	node_map_put(m, "cell.dir", NULL, node_new_scalar(cell_dir, NULL));
	node_map_put(m, "outdir", NULL, node_new_scalar(E->outdir, NULL));
	return m;
}

/* The before_cell hook: 1 when it skips the cell, 0 to run it, -1 on error. */
static int before_cell(struct run_env *E, const struct cell *c, struct run_cell *rc, struct diag *d)
{
	if (!E->lua || !lb_has_hook(E->lua, "before_cell"))
		return 0;
	bool skip = false;
	char *reason = NULL;
	if (lb_before_cell(E->lua, c, &skip, &reason, d) < 0)
		return -1;
	if (skip) {
		run_cell_set_status(rc, RUN_SKIPPED, "skipped: %s", reason ? reason : "by before_cell");
		if (!E->quiet)
			progress_note(&E->prog, "  skipped: %s", reason ? reason : "by before_cell");
	}
	free(reason);
	return skip ? 1 : 0;
}

/* A loop target whose default direct I/O the kernel refused reads its
 * image through the page cache: a warning of the cell, on screen too. */
static void warn_dio_refused(struct run_env *E, struct run_cell *rc)
{
	static const char key[] = "dev.loop_direct_io_refused"; /* also NAME.dev.... */
	size_t kl = strlen(key);
	for (size_t i = 0; i < rc->facts.ni; i++) {
		const char *k = rc->facts.info[i].key;
		size_t n = strlen(k);
		if (n < kl || strcmp(k + n - kl, key) || (n > kl && k[n - kl - 1] != '.'))
			continue;
		char msg[1200];
		snprintf(msg, sizeof(msg), "direct I/O refused, buffered instead: %s",
		         rc->facts.info[i].value);
		progress_note(&E->prog, "  warning: %s", msg);
		result_info(&rc->facts, "warning", "%s", msg);
	}
}

/* Interpolate what is known now, set up the filesystems, then resolve
 * ${target.path} and friends; PostgreSQL comes after the filesystems.
 * Returns the final tree, or NULL with errors in d. */
static struct node *set_up(struct run_env *E, const struct cell *c, struct run_cell *rc, const char *cell_dir,
                           struct diag *d)
{
	struct node *tree0 = NULL, *tree1 = NULL, *tree = NULL, *rt = NULL;
	if (!(tree0 = spec_cell_tree(E->s, c, true, d)))
		goto out;
	if (fixture_set_fs(&E->fx, tree0, E->work, E->allow_destroy, d) < 0 ||
	    fixture_set_models(&E->fx, tree0, d) < 0)
		goto out;
	rt = runtime_names(E, c, cell_dir);
	if (!(tree1 = spec_cell_tree_rt(E->s, c, rt, true, d)))
		goto out;
	if (fixture_set_knobs(&E->fx, tree1, d) < 0)
		goto out;
	if (node_get(tree1, "postgres"))
		progress_step(&E->prog, "postgres");
	if (fixture_set_pg(&E->fx, tree1, cell_dir, &rc->facts, d) < 0)
		goto out;
	node_free(rt);
	rt = runtime_names(E, c, cell_dir);
	if (!(tree = spec_cell_tree_rt(E->s, c, rt, false, d)))
		goto out;
	fixture_set_facts(&E->fx, &rc->facts);
	warn_dio_refused(E, rc);
	/* Once per cell (it reads sysfs): the monitor's devices, and facts
	 * devices.PREFIX that say what its columns are. */
	mon_devs_free(&E->devs);
	mon_devs_of_fixtures(&E->devs, &E->fx);
	mon_devs_facts(&E->devs, &rc->facts);
out:
	/* What this set-up made, and how long it took: a cell set up again
	 * (run_order interleave) keeps its last figure of each part. */
	if (tree0 && E->fx.setup_fs_s >= 0)
		rc->setup_fs_s = E->fx.setup_fs_s;
	if (tree0 && E->fx.setup_pg_s >= 0)
		rc->setup_pg_s = E->fx.setup_pg_s;
	if (tree0 && E->fx.setup_data_s >= 0)
		rc->setup_data_s = E->fx.setup_data_s;
	node_free(tree0);
	node_free(tree1);
	node_free(rt);
	return tree;
}

static int after_cell(struct run_env *E, const struct cell *c, struct run_cell *rc, struct diag *d)
{
	if (!rc->nreps || !E->lua || !lb_has_hook(E->lua, "after_cell"))
		return STEPS_OK;
	int status = STEPS_OK;
	struct run_rep *last = &rc->reps[rc->nreps - 1];
	struct step_result **ptrs = calloc(last->nsteps + 1, sizeof(*ptrs));
	for (size_t i = 0; i < last->nsteps; i++)
		ptrs[i] = &last->steps[i];
	if (lb_after_cell(E->lua, c, ptrs, last->nsteps, d) < 0) {
		char err[2048];
		step_run_first_error(d, err, sizeof(err));
		run_cell_set_status(rc, RUN_FAILED, "after_cell: %s", err);
		status = STEPS_FAILED;
	}
	free(ptrs);
	return status;
}

/* Lift the device models after the steps. A limit that stays would shape
 * the next cells unseen: say so loudly (the cell's own figures stand). */
static void lift_models(struct run_env *E, struct run_cell *rc)
{
	struct diag ld;
	diag_init(&ld);
	devmodel_lift(E->fx.dm, true, &ld);
	if (ld.nerrors) {
		char err[1024];
		step_run_first_error(&ld, err, sizeof(err));
		result_info(&rc->facts, "warning", "device model not lifted (run `benchgrid cleanup`): %s",
		            err);
		progress_note(&E->prog, "  WARNING: device model not lifted: %s", err);
	}
	diag_free(&ld);
}

int cell_open(struct run_env *E, const struct cell *c, struct run_cell *rc, bool first,
              struct cell_session *S)
{
	char err[4600];
	memset(S, 0, sizeof(*S));
	S->c = c;
	S->cellfd = -1;
	snprintf(S->dir, sizeof(S->dir), "%s/cells/%s", E->outdir, c->id);
	/* Its logs and artefacts go there: a folder of ours, never a link. */
	S->cellfd = outdir_subdir(E->cellsfd, c->id, S->dir, err, sizeof(err));
	if (S->cellfd < 0) {
		run_cell_set_status(rc, RUN_FAILED, "cell folder: %s", err);
		progress_note(&E->prog, "  FAILED: cell folder: %s", err);
		return STEPS_FAILED;
	}
	E->cellfd = S->cellfd;
	S->open = true;
	struct diag d;
	diag_init(&d);
	int skip = first ? before_cell(E, c, rc, &d) : 0;
	int status = STEPS_OK;
	/* Device models shape the steps only (unless model_during: all). */
	if (skip == 1) {
		status = CELL_SKIPPED;
	} else if (skip < 0 || !(S->tree = set_up(E, c, rc, S->dir, &d)) ||
	           devmodel_apply(E->fx.dm, true, &d) < 0) {
		char msg[2048];
		step_run_first_error(&d, msg, sizeof(msg));
		run_cell_set_status(rc, RUN_FAILED, "%s", msg[0] ? msg : "cell set-up failed");
		progress_note(&E->prog, "  FAILED: %s", msg);
		status = interrupt_requested() ? STEPS_INTERRUPTED : STEPS_FAILED;
		devmodel_lift(E->fx.dm, true, &d);
		node_free(S->tree);
		S->tree = NULL;
	} else {
		S->applied = true;
	}
	diag_free(&d);
	return status;
}

int cell_rep(struct run_env *E, struct cell_session *S, struct run_cell *rc, size_t rep, bool warm)
{
	int status = STEPS_OK;
	for (long w = warm ? 0 : -(long)E->warmup; w < 0 && status == STEPS_OK; w++) {
		progress_rep(&E->prog, true, (size_t)(E->warmup + w + 1), (size_t)E->warmup);
		status = step_run_rep(E, S->c, S->tree, rc, w, S->dir);
	}
	if (status == STEPS_OK && E->repeat > 1) /* "rep 2/5": 5 the most, under repeat: {until} */
		progress_rep(&E->prog, false, rep + 1, (size_t)E->repeat);
	if (status == STEPS_OK)
		status = step_run_rep(E, S->c, S->tree, rc, (long)rep, S->dir);
	return status;
}

int cell_close(struct run_env *E, struct cell_session *S, struct run_cell *rc, int status, bool last)
{
	if (!S->open)
		return status;
	struct diag d;
	diag_init(&d);
	if (S->applied) {
		lift_models(E, rc);
		devmodel_facts(E->fx.dm, &rc->facts);
		if (last && status == STEPS_OK)
			status = after_cell(E, S->c, rc, &d);
	}
	if (last && status == STEPS_FAILED && E->lua && lb_has_hook(E->lua, "on_error")) {
		struct diag hd;
		diag_init(&hd);
		lb_on_error(E->lua, S->c, rc->error ? rc->error : "failed", &hd);
		diag_free(&hd);
	}
	node_free(S->tree);
	diag_free(&d);
	E->cellfd = -1;
	if (S->cellfd >= 0)
		close(S->cellfd);
	memset(S, 0, sizeof(*S));
	S->cellfd = -1;
	return status;
}
