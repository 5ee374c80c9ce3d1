/* cli_estimate: the estimate at the end of `plan` (see cli_estimate.h). */
#include "cli_estimate.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cli_store.h"
#include "estimate.h"
#include "estimate_cell.h"
#include "store_query.h"
#include "units.h"

/* The tps each step priced by transactions had in the last stored run of
 * the scenario that ran it (the metric its estimate names,
 * step_estimate.tps_metric): the mean over that run's cells. */
static void history_tps(const char *where, const struct spec *s, struct estimate_history *h)
{
	const struct node *steps = node_get(s->root, "steps");
	struct store *st = NULL;
	char err[512];
	if (!steps || steps->kind != NODE_SEQ || store_open(where, true, &st, err, sizeof(err)) < 0)
		return;
	h->tps_step = calloc(steps->n ? steps->n : 1, sizeof(*h->tps_step));
	h->tps = calloc(steps->n ? steps->n : 1, sizeof(*h->tps));
	for (size_t i = 0; h->tps_step && h->tps && i < steps->n; i++) {
		const struct node *name = node_get(steps->items[i], "name");
		struct store_point *p = NULL;
		size_t np = 0;
		struct step_estimate e;
		estimate_step_read(steps->items[i], &e);
		const char *metric = e.tps_metric;
		if (!metric || !name || name->kind != NODE_SCALAR ||
		    store_history(st, s->name, name->text, metric, NULL, 0, &p, &np, err, sizeof(err)) < 0 ||
		    !np) {
			store_points_free(p, np);
			continue;
		}
		double sum = 0;
		size_t k = 0; /* points come oldest run first: the last run's are at the end */
		for (size_t j = np; j-- > 0 && !strcmp(p[j].run_id, p[np - 1].run_id); k++)
			sum += p[j].value;
		h->tps_step[h->ntps] = strdup(name->text);
		h->tps[h->ntps++] = sum / (double)k;
		store_points_free(p, np);
	}
	store_close(st);
}

static void history_free(struct estimate_history *h)
{
	for (size_t i = 0; i < h->ntps; i++)
		free(h->tps_step[i]);
	free(h->tps_step);
	free(h->tps);
}

/* The history of this scenario (the store is opened read-only): the
 * seconds per set-up of its last run (true when there are some) and the
 * tps of its steps priced by transactions. where: the store. */
static bool history_of(const char *store, const struct spec *s, struct estimate_history *h, char *where,
                       size_t len)
{
	*h = (struct estimate_history){NAN, NAN, NAN, NULL, NULL, 0};
	if (!store_resolve(store, where, len))
		return false;
	int rc = store_last_setup_seconds(store, s->name, &h->fs_s, &h->pg_s, &h->data_s);
	if (rc < 0 && rc != -ENOENT)
		fprintf(stderr, "benchgrid plan: warning: cannot read the results history %s: %s\n",
		        cli_store_shown(where), strerror(-rc));
	history_tps(where, s, h); /* a store without such a run has none */
	return rc == 0;
}

/* The free bytes where run would create its work directory: that directory
 * or its nearest existing parent (plan creates nothing). *where: the
 * directory asked, and the parent read. -errno when none can be read. */
static int free_space(const char *work_dir, char *where, size_t len, uint64_t *avail)
{
	const char *dir = work_dir ? work_dir : "/var/tmp";
	char p[PATH_MAX];
	if (dir[0] == '/' || !getcwd(p, sizeof(p)))
		snprintf(p, sizeof(p), "%s", dir);
	else
		snprintf(p + strlen(p), sizeof(p) - strlen(p), "/%s", dir);
	snprintf(where, len, "%s", dir);
	for (bool up = false;; up = true) {
		struct statvfs v;
		struct stat st;
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode) && statvfs(p, &v) == 0) {
			*avail = (uint64_t)v.f_bavail * v.f_frsize;
			if (up)
				snprintf(where + strlen(where), len - strlen(where),
				         " (not there yet: free space of %s)", p);
			return 0;
		}
		char *slash = strrchr(p, '/');
		if (!slash || !strcmp(p, "/"))
			return errno ? -errno : -ENOENT;
		slash[slash == p] = 0; /* "/a/b" -> "/a", "/a" -> "/" */
	}
}

static void print_setups(const struct estimate *e, const struct estimate_rates *r, FILE *out)
{
	char t[32];
	fprintf(out,
	        "set-ups: %zu filesystem%s made (mkfs), %zu cluster%s initialised (initdb), %zu data load%s "
	        "(pgbench -i)",
	        e->mkfs, e->mkfs == 1 ? "" : "s", e->initdb, e->initdb == 1 ? "" : "s", e->loads,
	        e->loads == 1 ? "" : "s");
	if (e->restarts)
		fprintf(out, ", %zu server restart%s or reload%s for new settings", e->restarts,
		        e->restarts == 1 ? "" : "s", e->restarts == 1 ? "" : "s");
	fputc('\n', out);
	estimate_format_seconds(e->fs_s, t, sizeof(t));
	if (e->fs_hist)
		fprintf(out, "  filesystems  %-7s %zu set-up%s x %.3g s (last run)\n", t, e->fs_setups_made,
		        e->fs_setups_made == 1 ? "" : "s",
		        e->fs_s / (double)(e->fs_setups_made ? e->fs_setups_made : 1));
	else
		fprintf(out, "  filesystems  %-7s %zu x %.3g s (default)\n", t, e->mkfs, r->mkfs_s);
	estimate_format_seconds(e->pg_s, t, sizeof(t));
	fprintf(out, "  clusters     %-7s %zu x %.3g s (%s)\n", t, e->initdb,
	        e->pg_hist ? e->pg_s / (double)(e->initdb ? e->initdb : 1) : r->initdb_s,
	        e->pg_hist ? "last run" : "default");
	estimate_format_seconds(e->data_s, t, sizeof(t));
	if (e->data_hist)
		fprintf(out, "  data loads   %-7s %zu x %.3g s (last run)\n", t, e->loads,
		        e->data_s / (double)(e->loads ? e->loads : 1));
	else
		fprintf(out, "  data loads   %-7s %g scale units x %.3g s + %zu x %.3g s (default)\n", t,
		        e->scale_loaded, r->load_s_scale, e->loads, r->load_s_fixed);
	if (e->restarts) {
		estimate_format_seconds(e->restart_s, t, sizeof(t));
		fprintf(out, "  restarts     %-7s %zu x %.3g s (default)\n", t, e->restarts, r->restart_s);
	}
}

static void print_steps(const struct estimate *e, const struct estimate_rates *r, FILE *out)
{
	char t[32];
	fprintf(out, "steps: each cell runs them %s%lld time%s (repeat %lld%s + warmup %lld)\n",
	        e->repeat_until ? "at most " : "", (long long)(e->repeat + e->warmup),
	        e->repeat + e->warmup == 1 ? "" : "s", (long long)e->repeat,
	        e->repeat_until ? " at most" : "", (long long)e->warmup);
	size_t w = 4;
	for (size_t i = 0; i < e->nsteps; i++)
		if (strlen(e->steps[i].name) > w)
			w = strlen(e->steps[i].name);
	for (size_t i = 0; i < e->nsteps; i++) {
		const struct estimate_step *st = &e->steps[i];
		estimate_format_seconds(st->seconds, t, sizeof(t));
		fprintf(out, "  %-*s  %-7s from ", (int)w, st->name, t);
		if (!strcmp(st->basis, "transactions"))
			fprintf(out, "transactions at %.4g tps (%s)\n", st->tx_at,
			        st->tps_hist          ? "last run"
			        : st->tx_at == r->tps ? "default"
			                              : "rate:");
		else if (!strcmp(st->basis, "size"))
			fprintf(out, "size at %g MiB/s (default)\n", r->io_bytes_s / 1048576);
		else if (!strcmp(st->basis, "init"))
			fprintf(out, "init scale at %.3g s per scale unit (default)\n", r->load_s_scale);
		else if (!strcmp(st->basis, "not declared"))
			fprintf(out, "nothing: no duration declared, counted as 0\n");
		else
			fprintf(out, "%s\n", st->basis);
	}
}

static void print_disk(const struct estimate *e, const char *work_dir, FILE *out)
{
	char need[32], freeb[32], where[PATH_MAX + 64];
	uint64_t avail = 0;
	units_format_size(e->disk_need, need, sizeof(need));
	int rc = free_space(work_dir, where, sizeof(where), &avail);
	fprintf(out, "disk: the largest cell (index %zu) needs %s in the work directory %s", e->disk_cell,
	        need, where);
	if (rc < 0) {
		fprintf(out, ", whose free space cannot be read: %s\n", strerror(-rc));
		return;
	}
	units_format_size(avail, freeb, sizeof(freeb));
	fprintf(out, ", %s free%s\n", freeb, e->disk_need > avail ? ": NOT ENOUGH" : "");
	if (e->disk_outside)
		fprintf(
		    out,
		    "  (loop images in image_dir and dir targets with path: are elsewhere, not counted)\n");
	if (e->disk_need > avail)
		fprintf(stderr,
		        "warning: the largest cell (index %zu) needs %s, more than the %s free in %s\n",
		        e->disk_cell, need, freeb, where);
}

void cli_print_estimate(const struct spec *s, const struct cell *cells, size_t n, const char *store,
                        const char *work_dir, FILE *out)
{
	struct estimate_rates r = ESTIMATE_DEFAULTS;
	struct estimate_history h;
	char where[4096];
	bool have = history_of(store, s, &h, where, sizeof(where));
	struct estimate e;
	int rc = estimate_plan(s, cells, n, &r, &h, &e);
	history_free(&h);
	if (rc < 0) {
		fprintf(stderr, "benchgrid plan: out of memory for the estimate\n");
		estimate_free(&e);
		return;
	}
	char t[32], st[32], su[32];
	fprintf(out, "\n# estimate (run order: %s%s; set-ups priced from %s%s)\n", run_order_names[e.order],
	        e.order == RUN_ORDER_RANDOM && !e.order_seeded ? " with seed 0" : "",
	        have ? "the last run of this scenario in " : "the defaults",
	        have ? cli_store_shown(where) : "");
	print_setups(&e, &r, out);
	print_steps(&e, &r, out);
	estimate_format_seconds(e.total_s, t, sizeof(t));
	estimate_format_seconds(e.steps_s, st, sizeof(st));
	estimate_format_seconds(e.total_s - e.steps_s, su, sizeof(su));
	fprintf(out, "total: %s (steps %s, set-ups %s)%s\n", t, st, su,
	        e.undeclared ? "; steps that declare no duration are not in it" : "");
	print_disk(&e, work_dir, out);
	estimate_free(&e);
}
