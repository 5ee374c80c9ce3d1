/* fixture_set: set up, reuse and tear down a cell's fixtures (see
 * fixture_set.h). */
#include "fixture_set.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "contain.h"
#include "devmodel.h"
#include "fx_fs.h"
#include "fx_pg.h"
#include "knobs.h"
#include "raw_device.h"

static void knobs_down(struct fixture_set *fx, struct diag *d)
{
	if (fx->knobs && knobs_restore(fx->knobs, d) < 0)
		fx->down_failures++;
	fx->knobs = NULL;
	node_free(fx->knob_sysctl);
	node_free(fx->knob_queue);
	fx->knob_sysctl = fx->knob_queue = NULL;
}

static void pg_down(struct fixture_set *fx)
{
	if (fx->pg)
		fx_pg_stop(fx->pg);
	fx->pg = NULL;
}

static void fs_down(struct fixture_set *fx, struct diag *d)
{
	devmodel_free(fx->dm, d); /* its limits are lifted first */
	fx->dm = NULL;
	for (size_t i = 0; i < fx->nnamed; i++) {
		if (fx->named[i].fs && fx_fs_teardown(fx->named[i].fs, d) < 0)
			fx->down_failures++;
		free(fx->named[i].name);
	}
	free(fx->named);
	fx->named = NULL;
	fx->nnamed = 0;
	if (fx->fs && fx_fs_teardown(fx->fs, d) < 0)
		fx->down_failures++;
	fx->fs = NULL;
	node_free(fx->target);
	node_free(fx->targets);
	fx->target = fx->targets = NULL;
}

void fixture_set_down(struct fixture_set *fx, struct diag *d)
{
	devmodel_lift(fx->dm, false, d); /* a server's shutdown is not shaped */
	knobs_down(fx, d);
	pg_down(fx);
	fs_down(fx, d);
}

/* A `target:` of kind dir (a fresh temporary directory) when none is given. */
static struct node *default_target(void)
{
	struct node *t = node_new(NODE_MAP, NULL);
	node_map_put(t, "kind", NULL, node_new_scalar("dir", NULL));
	return t;
}

static bool same_targets(const struct node *a, const struct node *b)
{
	if (!a || !b)
		return a == b;
	if (a->kind != NODE_MAP || b->kind != NODE_MAP || a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		const struct node *o = node_get(b, a->keys[i]);
		if (!o || !fx_fs_same(a->items[i], o))
			return false;
	}
	return true;
}

int fixture_set_fs(struct fixture_set *fx, const struct node *tree, const char *work_dir, bool allow_destroy,
                   struct diag *d)
{
	const struct node *target = node_get(tree, "target");
	struct node *deflt = NULL;
	if (!target)
		target = deflt = default_target();
	else if (raw_device_wanted(tree, target))
		target = deflt = raw_device_target(target);
	const struct node *targets = node_get(tree, "targets");
	fx->setup_fs_s = fx->setup_pg_s = fx->setup_data_s = -1;
	if (fx->fs && fx_fs_same(fx->target, target) && same_targets(fx->targets, targets)) {
		node_free(deflt);
		return 0;
	}
	/* A new filesystem: whatever lived on the old one goes first. */
	fixture_set_down(fx, d);
	double t0 = clock_mono();
	fx->fs = fx_fs_setup(target, work_dir, allow_destroy, d);
	if (!fx->fs) {
		node_free(deflt);
		return -EIO;
	}
	fx->target = deflt ? deflt : node_clone(target);
	deflt = NULL;
	if (targets && targets->kind == NODE_MAP) {
		fx->named = calloc(targets->n, sizeof(*fx->named));
		for (size_t i = 0; i < targets->n; i++) {
			struct fx_fs *fs = fx_fs_setup(targets->items[i], work_dir, allow_destroy, d);
			if (!fs)
				return -EIO;
			fx->named[fx->nnamed].name = strdup(targets->keys[i]);
			fx->named[fx->nnamed++].fs = fs;
		}
		fx->targets = node_clone(targets);
	}
	/* Only a filesystem made counts: a directory takes no time to make,
	 * and plan's estimate prices mkfs and mount. */
	bool made = fx_fs_made_fs(fx->fs);
	for (size_t i = 0; i < fx->nnamed; i++)
		made |= fx_fs_made_fs(fx->named[i].fs);
	if (made)
		fx->setup_fs_s = clock_mono() - t0;
	return 0;
}

/* A target's model throttles its disk: with consent only (fx_fs_may_change). */
static int may_throttle(const struct fx_fs *fs, const struct node *t, const char *where, struct diag *d)
{
	const struct node *m = t && t->kind == NODE_MAP ? node_get(t, "model") : NULL;
	char w[320];
	snprintf(w, sizeof(w), "%s.model", where);
	return m ? fx_fs_may_change(fs, w, "throttle", node_key_pos(t, "model"), d) : 0;
}

int fixture_set_models(struct fixture_set *fx, const struct node *tree, struct diag *d)
{
	if (!fx->fs)
		return 0;
	if (!fx->dm && !(fx->dm = devmodel_new(NULL, contain_cgroup())))
		return -ENOMEM;
	struct dm_cell cell;
	if (dm_cell_parse(tree, true, &cell, d) < 0)
		return -EINVAL;
	devmodel_cell(fx->dm, &cell);
	const struct node *target = node_get(tree, "target");
	int r = may_throttle(fx->fs, target, "target", d);
	if (r == 0)
		r = devmodel_target(fx->dm, "target", target, fx_fs_blockdev(fx->fs), d);
	const struct node *targets = node_get(tree, "targets");
	for (size_t i = 0; r == 0 && i < fx->nnamed; i++) {
		const struct node *t = node_get(targets, fx->named[i].name);
		char where[300];
		snprintf(where, sizeof(where), "targets.%s", fx->named[i].name);
		r = may_throttle(fx->named[i].fs, t, where, d);
		if (r == 0)
			r = devmodel_target(fx->dm, fx->named[i].name, t, fx_fs_blockdev(fx->named[i].fs), d);
	}
	return r < 0 ? r : devmodel_apply(fx->dm, false, d);
}

int fixture_set_knobs(struct fixture_set *fx, const struct node *tree, struct diag *d)
{
	const struct node *sysctl = node_get(tree, "sysctl"), *queue = node_get(tree, "queue");
	if (fx->knobs && node_equal(sysctl, fx->knob_sysctl) && node_equal(queue, fx->knob_queue))
		return 0;
	knobs_down(fx, d);
	if (!sysctl && !queue)
		return 0;
	if (queue && queue->kind == NODE_MAP && queue->n &&
	    fx_fs_may_change(fx->fs, "queue", "change the queue settings of", &queue->pos, d) < 0)
		return -EPERM;
	fx->knobs = knobs_apply(sysctl, queue, fx_fs_blockdev(fx->fs), d);
	if (!fx->knobs)
		return -EIO;
	fx->knob_sysctl = node_clone(sysctl);
	fx->knob_queue = node_clone(queue);
	return 0;
}

/* Where a server's tablespace or WAL directory names a target. */
static const char *resolve_target(void *ud, const char *name)
{
	struct fixture_set *fx = ud;
	if (!strcmp(name, "target") || !strcmp(name, "main"))
		return fx->fs ? fx_fs_path(fx->fs) : NULL;
	for (size_t i = 0; i < fx->nnamed; i++)
		if (!strcmp(fx->named[i].name, name))
			return fx_fs_path(fx->named[i].fs);
	if (name[0] == '/')
		return name;
	return NULL;
}

int fixture_set_pg(struct fixture_set *fx, const struct node *tree, const char *cell_dir,
                   struct step_result *facts, struct diag *d)
{
	const struct node *pgsec = node_get(tree, "postgres");
	if (!pgsec) {
		pg_down(fx);
		return 0;
	}
	double t0 = clock_mono();
	int rc = fx_pg_prepare(&fx->pg, pgsec, fx_fs_path(fx->fs), cell_dir, resolve_target, fx, facts, d);
	if (rc < 0)
		return rc;
	/* The load's own clock (pgb_init) splits it from the cluster's. */
	const char *reuse = result_info_get(facts, "pg.reuse"), *data = result_info_get(facts, "pg.data");
	const struct metric *load = result_get(facts, "init_s");
	double data_s = data && !strcmp(data, "loaded") && load ? load->value : -1;
	fx->setup_data_s = data_s;
	if (reuse && !strcmp(reuse, "initdb"))
		fx->setup_pg_s = clock_mono() - t0 - (data_s > 0 ? data_s : 0);
	return rc;
}

void fixture_set_facts(const struct fixture_set *fx, struct step_result *facts)
{
	fx_fs_facts(fx->fs, facts);
	for (size_t i = 0; i < fx->nnamed; i++) {
		struct step_result nf;
		result_init(&nf, NULL, NULL);
		fx_fs_facts(fx->named[i].fs, &nf);
		for (size_t k = 0; k < nf.ni; k++) {
			char key[256];
			snprintf(key, sizeof(key), "%s.%s", fx->named[i].name, nf.info[k].key);
			result_info(facts, key, "%s", nf.info[k].value);
		}
		result_free(&nf);
	}
}

const char *fixture_set_dir(const struct fixture_set *fx, const char *dflt)
{
	return fx->fs ? fx_fs_path(fx->fs) : dflt;
}

const char *fixture_set_device(const struct fixture_set *fx, const char **refuse)
{
	*refuse = NULL;
	return fx_fs_raw_device(fx->fs, refuse);
}

void fixture_set_check_pg(struct fixture_set *fx)
{
	if (fx->pg && !fx_pg_alive(fx->pg))
		pg_down(fx);
}

static void put(struct node *m, const char *k, const char *v)
{
	if (v) /* a raw device target has no path */
		node_map_put(m, k, NULL, node_new_scalar(v, NULL));
}

void fixture_set_names(const struct fixture_set *fx, struct node *m)
{
	if (fx->fs)
		put(m, "target.path", fx_fs_path(fx->fs));
	for (size_t i = 0; i < fx->nnamed; i++) {
		char key[256];
		snprintf(key, sizeof(key), "targets.%s.path", fx->named[i].name);
		put(m, key, fx_fs_path(fx->named[i].fs));
	}
	if (fx->pg) {
		put(m, "pg.conninfo", fx_pg_conninfo(fx->pg));
		if (fx_pg_logfile(fx->pg))
			put(m, "pg.log", fx_pg_logfile(fx->pg));
	}
}
