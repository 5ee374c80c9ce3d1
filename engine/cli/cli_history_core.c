/* cli_history_core: the flagging rule, the runs' order and the facts that
 * changed (see cli_history_core.h).
 *
 * The prediction interval, mean ± t * s * sqrt(1 + 1/n), is where the next
 * single run is expected; the confidence interval of the mean, narrower by
 * sqrt(n + 1), would flag ordinary run-to-run noise. */
#include "cli_history_core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stats_ci.h"

bool hist_same_series(const struct store_point *a, const struct store_point *b)
{
	return !strcmp(a->host, b->host) && !strcmp(a->cell_id, b->cell_id);
}

void hist_judge(const struct store_point *p, size_t n, long window, struct judged *j)
{
	double *v = malloc(sizeof(double) * (size_t)window);
	for (size_t i = 0; i < n; i++) {
		j[i] = (struct judged){.lo = NAN, .hi = NAN, .prev = -1};
		size_t k = 0;
		for (size_t b = i; b-- > 0 && v && k < (size_t)window;) {
			if (!hist_same_series(&p[b], &p[i]) || !isfinite(p[b].value))
				continue;
			if (j[i].prev < 0)
				j[i].prev = (long)b;
			v[k++] = p[b].value;
		}
		j[i].nbefore = k;
		if (k < HISTORY_MIN_BEFORE || !isfinite(p[i].value) ||
		    !stats_prediction_interval(v, k, HISTORY_LEVEL, &j[i].lo, &j[i].hi))
			continue;
		j[i].flag = p[i].value < j[i].lo ? -1 : p[i].value > j[i].hi ? 1 : 0;
	}
	free(v);
}

void hist_date_text(double t, char *buf, size_t len)
{
	time_t s = (time_t)t;
	struct tm tm;
	strftime(buf, len, "%Y-%m-%d %H:%M", localtime_r(&s, &tm));
}

bool hist_fact_ignored(const char *key)
{
	size_t n = strlen(key);
	return (n >= 5 && !strcmp(key + n - 5, ".path")) || !strcmp(key, "devices.disk") ||
	       !strcmp(key, "fingerprint") || !strncmp(key, "warning", 7);
}

const char *hist_fact_find(const struct store_fact *f, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(f[i].key, key))
			return f[i].value;
	return NULL;
}

char *hist_changed_text(struct store *s, const struct store_point *now, const struct store_point *before,
                        char *err, size_t errlen)
{
	struct store_fact *a = NULL, *b = NULL;
	size_t na = 0, nb = 0, len = 0;
	char *text = NULL;
	if (store_facts(s, before->run_id, before->cell_id, &a, &na, err, errlen) < 0 ||
	    store_facts(s, now->run_id, now->cell_id, &b, &nb, err, errlen) < 0)
		goto out;
	FILE *f = open_memstream(&text, &len);
	if (!f) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < nb; i++) {
		const char *old = hist_fact_find(a, na, b[i].key);
		if (!hist_fact_ignored(b[i].key) && !(old && !strcmp(old, b[i].value)))
			fprintf(f, "%s: %s -> %s\n", b[i].key, old ? old : "(none)", b[i].value);
	}
	for (size_t i = 0; i < na; i++)
		if (!hist_fact_ignored(a[i].key) && !hist_fact_find(b, nb, a[i].key))
			fprintf(f, "%s: %s -> (none)\n", a[i].key, a[i].value);
	if (fclose(f) != 0) {
		free(text);
		text = NULL;
		snprintf(err, errlen, "out of memory");
	}
out:
	store_facts_free(a, na);
	store_facts_free(b, nb);
	return text;
}

const struct store_run_meta *hist_run_meta(const struct store_run_meta *m, size_t n, const char *run_id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(m[i].run_id, run_id))
			return &m[i];
	return NULL;
}

struct keyed {
	size_t key, pos;
	struct store_point p;
};

static int by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

size_t hist_order_by_commit(struct store_point *p, size_t n, const struct store_run_meta *m, size_t nm)
{
	struct keyed *k = malloc(sizeof(*k) * (n ? n : 1));
	size_t none = 0;
	if (!k)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct store_run_meta *r = hist_run_meta(m, nm, p[i].run_id);
		/* the key: the index (in date order) of the first run of this
		 * run's commit, or of this run when it records none */
		size_t key = r ? (size_t)(r - m) : nm + i;
		for (size_t e = 0; r && r->commit && e < nm; e++)
			if (m[e].commit && !strcmp(m[e].commit, r->commit)) {
				key = e;
				break;
			}
		if (i == 0 || strcmp(p[i].run_id, p[i - 1].run_id))
			none += !(r && r->commit);
		k[i] = (struct keyed){key, i, p[i]};
	}
	qsort(k, n, sizeof(*k), by_key);
	for (size_t i = 0; i < n; i++)
		p[i] = k[i].p;
	free(k);
	return none;
}

/* Index of the first point of the runs shown (the last `last` runs). */
size_t hist_first_shown(const struct store_point *p, size_t n, long last)
{
	if (last <= 0)
		return 0;
	long runs = 0;
	for (size_t i = n; i-- > 0;)
		if (i + 1 == n || strcmp(p[i].run_id, p[i + 1].run_id)) {
			if (++runs > last)
				return i + 1;
		}
	return 0;
}
