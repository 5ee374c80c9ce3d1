/* run_order: the repeat forms, the run order and its slots (see run_order.h). */
#include "run_order.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const run_order_names[] = {"grouped", "interleave", "random", NULL};

#define REPEAT_LIMIT 1000000

/* `until: 2%` (or 2): a percentage of the mean, above 0 and below 100. */
static int read_until(const struct node *v, double *pct, struct diag *d)
{
	char *end = NULL;
	double x = v && v->kind == NODE_SCALAR ? strtod(v->text, &end) : NAN;
	if (end && *end == '%')
		end++;
	if (!end || end == v->text || *end || !(x > 0 && x < 100)) {
		diag_error(d, v ? &v->pos : NULL,
		           "repeat.until: expected a percentage of the mean above 0 and below 100 (e.g. "
		           "2%%), got '%s'",
		           v && v->kind == NODE_SCALAR ? v->text : node_kind_name(v ? v->kind : NODE_NULL));
		return -EINVAL;
	}
	*pct = x;
	return 0;
}

static int read_metrics(const struct node *v, struct repeat_spec *r, struct diag *d)
{
	if (v->kind != NODE_SEQ || v->n == 0) {
		diag_error(d, &v->pos, "repeat.metrics: expected a list of STEP.METRIC names, e.g. [ro.tps]");
		return -EINVAL;
	}
	r->metrics = calloc(v->n, sizeof(*r->metrics));
	for (size_t i = 0; i < v->n; i++) {
		const struct node *m = v->items[i];
		const char *dot = m->kind == NODE_SCALAR ? strchr(m->text, '.') : NULL;
		if (!dot || dot == m->text || !dot[1]) {
			diag_error(d, &m->pos, "repeat.metrics: expected STEP.METRIC (e.g. ro.tps), got '%s'",
			           m->kind == NODE_SCALAR ? m->text : node_kind_name(m->kind));
			return -EINVAL;
		}
		r->metrics[r->nmetrics++] = strdup(m->text);
	}
	return 0;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
	return h;
}

int repeat_spec_read(const struct node *root, struct repeat_spec *r, struct diag *d)
{
	static const char *const keys[] = {"min", "max", "until", "metrics", NULL};
	memset(r, 0, sizeof(*r));
	r->min = r->max = 1;
	r->fingerprint = 1;
	const struct node *v = node_get(root, "repeat");
	if (!v)
		return 0;
	if (v->kind != NODE_MAP) {
		if (node_as_int(v, "repeat", 1, REPEAT_LIMIT, &r->max, d) < 0)
			return -EINVAL;
		r->min = r->max;
		r->fingerprint = (uint64_t)r->max; /* as before the map form existed */
		return 0;
	}
	int bad = node_check_keys(v, "repeat", keys, d);
	const struct node *mn = node_get(v, "min"), *mx = node_get(v, "max"), *u = node_get(v, "until");
	if (!mx || !u) {
		diag_error(d, &v->pos,
		           "repeat: the map form needs max: and until: (e.g. {min: 3, max: 15, "
		           "until: 2%%}); a fixed count is `repeat: N`");
		return -EINVAL;
	}
	if ((mn && node_as_int(mn, "repeat.min", 1, REPEAT_LIMIT, &r->min, d) < 0) ||
	    node_as_int(mx, "repeat.max", 1, REPEAT_LIMIT, &r->max, d) < 0 ||
	    read_until(u, &r->until_pct, d) < 0)
		return -EINVAL;
	if (!mn)
		r->min = r->max < 3 ? r->max : 3;
	if (r->min > r->max) {
		diag_error(d, &mn->pos, "repeat.min (%lld) is above repeat.max (%lld)", (long long)r->min,
		           (long long)r->max);
		return -EINVAL;
	}
	const struct node *ms = node_get(v, "metrics");
	if (ms && read_metrics(ms, r, d) < 0)
		return -EINVAL;
	uint64_t h = mix(mix(0x7265706561ULL, (uint64_t)r->min), (uint64_t)r->max);
	h = mix(h, (uint64_t)llround(r->until_pct * 1e6));
	for (size_t i = 0; i < r->nmetrics; i++)
		h = mix(h, node_hash(ms->items[i]));
	r->fingerprint = h;
	return bad ? -EINVAL : 0;
}

void repeat_spec_free(struct repeat_spec *r)
{
	for (size_t i = 0; i < r->nmetrics; i++)
		free(r->metrics[i]);
	free(r->metrics);
	r->metrics = NULL;
	r->nmetrics = 0;
}

int run_order_read(const struct node *root, enum run_order *o, bool *has_seed, uint64_t *seed, struct diag *d)
{
	*o = RUN_ORDER_GROUPED;
	*has_seed = false;
	const struct node *v = node_get(root, "run_order");
	int iv = 0;
	if (v && node_as_enum(v, "run_order", run_order_names, &iv, d) < 0)
		return -EINVAL;
	*o = (enum run_order)iv;
	if ((v = node_get(root, "run_order_seed"))) {
		int64_t s;
		if (node_as_int(v, "run_order_seed", 0, INT64_MAX, &s, d) < 0)
			return -EINVAL;
		*seed = (uint64_t)s;
		*has_seed = true;
	}
	return 0;
}

/* splitmix64: small, and the same sequence on every machine. */
static uint64_t next_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* A uniform integer in [0, bound) without modulo bias. */
static size_t below(uint64_t *state, size_t bound)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
	uint64_t x;
	do
		x = next_rand(state);
	while (x >= limit);
	return (size_t)(x % bound);
}

/* Number each cell's repetitions in the order its slots come. */
static void renumber(struct run_slot *s, size_t ns, size_t ncells_max)
{
	size_t *seen = calloc(ncells_max + 1, sizeof(*seen));
	if (!seen)
		return;
	for (size_t i = 0; i < ns; i++)
		s[i].rep = seen[s[i].cell]++;
	free(seen);
}

struct run_slot *run_order_build(const size_t *which, size_t n, size_t reps, enum run_order o, uint64_t seed,
                                 size_t *nslots)
{
	*nslots = 0;
	if (!n || !reps || n > SIZE_MAX / reps)
		return NULL;
	struct run_slot *s = malloc(n * reps * sizeof(*s));
	if (!s)
		return NULL;
	size_t k = 0, maxcell = 0;
	for (size_t i = 0; i < n; i++)
		maxcell = which[i] > maxcell ? which[i] : maxcell;
	if (o == RUN_ORDER_GROUPED) {
		for (size_t i = 0; i < n; i++)
			for (size_t r = 0; r < reps; r++)
				s[k++] = (struct run_slot){which[i], r};
	} else {
		for (size_t r = 0; r < reps; r++)
			for (size_t i = 0; i < n; i++)
				s[k++] = (struct run_slot){which[i], r};
	}
	if (o == RUN_ORDER_RANDOM) {
		uint64_t st = seed;
		for (size_t i = k - 1; i > 0; i--) {
			size_t j = below(&st, i + 1);
			struct run_slot t = s[i];
			s[i] = s[j];
			s[j] = t;
		}
		renumber(s, k, maxcell);
	}
	*nslots = k;
	return s;
}

void run_order_cost(const struct cell *cells, const struct run_slot *seq, size_t nslots, bool has_pg,
                    struct run_order_cost *cost)
{
	memset(cost, 0, sizeof(*cost));
	const struct cell *prev = NULL;
	for (size_t i = 0; i < nslots; i++) {
		const struct cell *c = &cells[seq[i].cell];
		bool fs = cell_new_fs(prev, c);
		bool pg = has_pg && (fs || c->pg_key != prev->pg_key);
		cost->setups += fs || pg;
		cost->switches += c != prev;
		prev = c;
	}
}

static bool cost_of(const struct cell *cells, size_t n, size_t reps, enum run_order o, uint64_t seed,
                    bool has_pg, struct run_order_cost *cost)
{
	size_t *which = malloc((n ? n : 1) * sizeof(*which)), ns = 0;
	if (!which)
		return false;
	for (size_t i = 0; i < n; i++)
		which[i] = i;
	struct run_slot *seq = run_order_build(which, n, reps, o, seed, &ns);
	free(which);
	if (!seq)
		return false;
	run_order_cost(cells, seq, ns, has_pg, cost);
	free(seq);
	return true;
}

void run_order_print_cost(const struct node *root, const struct cell *cells, size_t n, FILE *out)
{
	if (!node_get(root, "run_order") && !node_get(root, "run_order_seed"))
		return; /* grouped, as plan's table shows it already */
	struct diag d;
	diag_init(&d);
	struct repeat_spec rs;
	enum run_order o;
	bool has_seed;
	uint64_t seed = 0;
	int bad = repeat_spec_read(root, &rs, &d);
	bad |= run_order_read(root, &o, &has_seed, &seed, &d);
	bool has_pg = node_get(root, "postgres") != NULL;
	struct run_order_cost c, g;
	if (!bad && cost_of(cells, n, (size_t)rs.max, o, seed, has_pg, &c)) {
		fprintf(out,
		        "# run order: %s%s, %s%lld repetition%s per cell: %zu slot%s, %zu set-up%s, %zu cell "
		        "set-up%s",
		        run_order_names[o],
		        o == RUN_ORDER_RANDOM && !has_seed ? " (seed from the clock; shown: 0)" : "",
		        rs.until_pct > 0 ? "at most " : "", (long long)rs.max, rs.max == 1 ? "" : "s",
		        n * (size_t)rs.max, n * (size_t)rs.max == 1 ? "" : "s", c.setups,
		        c.setups == 1 ? "" : "s", c.switches, c.switches == 1 ? "" : "s");
		if (o != RUN_ORDER_GROUPED &&
		    cost_of(cells, n, (size_t)rs.max, RUN_ORDER_GROUPED, 0, has_pg, &g))
			fprintf(out, " (grouped: %zu and %zu)", g.setups, g.switches);
		fputc('\n', out);
	}
	repeat_spec_free(&rs);
	diag_free(&d);
}
