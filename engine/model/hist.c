/* hist: log-linear latency histogram, see hist.h for the error bound.
 *
 * Index of a value v: below 2*HIST_SUB it is v itself. Otherwise, with
 * msb = position of the highest set bit, shift = msb - HIST_SUB_BITS, the
 * top HIST_SUB_BITS+1 bits of v (v >> shift, in [HIST_SUB, 2*HIST_SUB))
 * select the bucket within its power of two: idx = shift*HIST_SUB + (v>>shift).
 * Indices are contiguous and increase with v. */
#include "hist.h"
#include "grow.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned hist_bucket_index(uint64_t v)
{
	if (v < 2 * HIST_SUB)
		return (unsigned)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	if (msb > HIST_MAX_MSB)
		return HIST_NBUCKETS - 1;
	unsigned shift = msb - HIST_SUB_BITS;
	return shift * HIST_SUB + (unsigned)(v >> shift);
}

uint64_t hist_bucket_low(unsigned idx)
{
	if (idx < 2 * HIST_SUB)
		return idx;
	unsigned shift = idx / HIST_SUB - 1;
	uint64_t sub = idx - shift * HIST_SUB;
	return sub << shift;
}

uint64_t hist_bucket_high(unsigned idx)
{
	if (idx >= HIST_NBUCKETS - 1)
		return UINT64_MAX;
	return hist_bucket_low(idx + 1) - 1;
}

void hist_record(struct hist *h, uint64_t ns)
{
	h->bucket[hist_bucket_index(ns)]++;
	h->count++;
	h->sum += ns;
	h->sumsq += (double)ns * (double)ns;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (!src->count)
		return;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t hist_count(const struct hist *h)
{
	return h->count;
}

uint64_t hist_min(const struct hist *h)
{
	return h->count ? h->min : 0;
}

uint64_t hist_max(const struct hist *h)
{
	return h->max;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

double hist_stddev(const struct hist *h)
{
	if (h->count < 2)
		return 0.0;
	double n = (double)h->count, mean = (double)h->sum / n;
	double var = h->sumsq / n - mean * mean;
	return var > 0 ? sqrt(var) : 0.0;
}

uint64_t hist_percentile(const struct hist *h, double pct)
{
	if (!h->count)
		return 0;
	if (!(pct > 0))
		return h->min;
	if (pct >= 100)
		return h->max;
	/* nearest rank: the smallest value with at least pct% of values <= it */
	uint64_t rank = (uint64_t)ceil(pct / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	uint64_t seen = 0;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		seen += h->bucket[i];
		if (seen < rank)
			continue;
		uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);
		uint64_t v = lo + (hi - lo) / 2;
		if (v < h->min)
			v = h->min;
		if (v > h->max)
			v = h->max;
		return v;
	}
	return h->max;
}

uint64_t hist_coarse_low(unsigned c)
{
	if (c < 32)
		return 8u * c;
	if (c >= HIST_COARSE_N)
		return UINT64_MAX;
	return (uint64_t)(16 + c % 16) << (c / 16 + 2);
}

/* Append printf-style text to t (t->oom on failure). */
static void text_put(struct hist_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_put(struct hist_text *t, const char *fmt, ...)
{
	va_list ap;
	for (int tries = 0; tries < 2 && !t->oom; tries++) {
		va_start(ap, fmt);
		int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->oom = 1;
			return;
		}
		if (t->s && t->len + (size_t)n < t->cap) {
			t->len += (size_t)n;
			return;
		}
		size_t cap = t->cap ? t->cap : 256;
		while (cap <= t->len + (size_t)n)
			cap *= 2;
		char *p = realloc(t->s, cap);
		if (!p) {
			t->oom = 1;
			return;
		}
		t->s = p;
		t->cap = cap;
	}
}

/* Write one interval of coarse counts c. */
static void text_interval(struct hist_text *t, double t0, double t1, const uint64_t *c)
{
	if (!t->s)
		text_put(t, "h16");
	text_put(t, ";%.3f,%.3f", t0, t1);
	bool run = false;
	for (unsigned k = 0; k < HIST_COARSE_N; k++) {
		if (!c[k]) {
			run = false;
			continue;
		}
		if (run)
			text_put(t, ",%llu", (unsigned long long)c[k]);
		else
			text_put(t, " %u:%llu", k, (unsigned long long)c[k]);
		run = true;
	}
	t->nivl++;
}

/* Past HIST_TEXT_MAX_IVL intervals: the text again with its intervals
 * merged two by two, and twice as many added intervals per written one. */
static void text_halve(struct hist_text *t)
{
	struct hist_series hs = {0};
	if (hist_series_parse(&hs, t->s) < 0) {
		hist_series_free(&hs);
		t->oom = 1;
		return;
	}
	t->len = 0;
	t->s[0] = '\0';
	free(t->s);
	t->s = NULL;
	t->cap = 0;
	t->nivl = 0;
	for (size_t i = 0; i < hs.nivl; i += 2) {
		uint64_t *c = hs.c + i * HIST_COARSE_N;
		if (i + 1 < hs.nivl)
			for (unsigned k = 0; k < HIST_COARSE_N; k++)
				c[k] += c[HIST_COARSE_N + k];
		text_interval(t, hs.t0[i], hs.t1[i + 1 < hs.nivl ? i + 1 : i], c);
	}
	hist_series_free(&hs);
	t->every *= 2;
}

static void text_flush(struct hist_text *t)
{
	if (!t->npend || t->oom)
		return;
	text_interval(t, t->pend_t0, t->pend_t1, t->pend);
	memset(t->pend, 0, HIST_COARSE_N * sizeof(*t->pend));
	t->npend = 0;
	if (t->nivl >= HIST_TEXT_MAX_IVL && !t->oom)
		text_halve(t);
}

void hist_text_add(struct hist_text *t, double t0, double t1, const uint64_t *b)
{
	if (t->oom)
		return;
	if (!t->pend && !(t->pend = calloc(HIST_COARSE_N, sizeof(*t->pend)))) {
		t->oom = 1;
		return;
	}
	if (!t->every)
		t->every = 1;
	if (!t->npend)
		t->pend_t0 = t0;
	t->pend_t1 = t1;
	for (unsigned k = 0; k < HIST_NBUCKETS; k++) {
		t->pend[k >> HIST_COARSE_SHIFT] += b[k];
		t->count += b[k];
	}
	if (++t->npend >= t->every)
		text_flush(t);
}

const char *hist_text_str(struct hist_text *t)
{
	text_flush(t);
	return t->oom ? NULL : t->s;
}

void hist_text_free(struct hist_text *t)
{
	free(t->s);
	free(t->pend);
	memset(t, 0, sizeof(*t));
}

void hist_series_free(struct hist_series *hs)
{
	free(hs->t0);
	free(hs->t1);
	free(hs->c);
	memset(hs, 0, sizeof(*hs));
}

/* The row of hs for the interval [t0, t1), added when new; NULL: no memory.
 * The arrays grow geometrically (grow.h); a text has at most
 * HIST_SERIES_MAX_IVL intervals, so the linear search stays short. */
static uint64_t *series_row(struct hist_series *hs, double t0, double t1)
{
	for (size_t i = 0; i < hs->nivl; i++)
		if (fabs(hs->t0[i] - t0) < 5e-4 && fabs(hs->t1[i] - t1) < 5e-4)
			return hs->c + i * HIST_COARSE_N;
	size_t n = hs->nivl + 1;
	if (n > hs->cap) {
		size_t cap = hs->cap, cap1 = hs->cap;
		if (GROW(hs->t0, cap, n, 16) < 0 || GROW(hs->t1, cap1, n, 16) < 0)
			return NULL;
		/* c has HIST_COARSE_N counts a row: grown to the same rows */
		uint64_t *c = realloc(hs->c, cap * HIST_COARSE_N * sizeof(*c));
		if (!c)
			return NULL;
		hs->c = c;
		hs->cap = cap;
	}
	uint64_t *c = hs->c;
	/* keep the rows in time order (read and write may start apart) */
	size_t at = hs->nivl;
	while (at > 0 && hs->t1[at - 1] > t1)
		at--;
	memmove(hs->t0 + at + 1, hs->t0 + at, (hs->nivl - at) * sizeof(double));
	memmove(hs->t1 + at + 1, hs->t1 + at, (hs->nivl - at) * sizeof(double));
	memmove(c + (at + 1) * HIST_COARSE_N, c + at * HIST_COARSE_N,
	        (hs->nivl - at) * HIST_COARSE_N * sizeof(*c));
	hs->t0[at] = t0;
	hs->t1[at] = t1;
	memset(c + at * HIST_COARSE_N, 0, HIST_COARSE_N * sizeof(*c));
	hs->nivl = n;
	return c + at * HIST_COARSE_N;
}

/* An unsigned decimal at p (digits only: no sign, no space) into *v;
 * the end in *e. 0, or -EINVAL (no digits, out of range). */
static int parse_u64(const char *p, unsigned long long *v, char **e)
{
	if (*p < '0' || *p > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(p, e, 10);
	return errno == ERANGE ? -EINVAL : 0;
}

int hist_series_parse(struct hist_series *hs, const char *text)
{
	if (!text || strncmp(text, "h16", 3) != 0)
		return -EINVAL;
	const char *p = text + 3;
	size_t nivl = 0;
	while (*p == ';') {
		char *e;
		double t0 = strtod(p + 1, &e);
		if (*e != ',')
			return -EINVAL;
		double t1 = strtod(e + 1, &e);
		if (!isfinite(t0) || !isfinite(t1) || t0 > t1 || ++nivl > HIST_SERIES_MAX_IVL)
			return -EINVAL;
		uint64_t *row = series_row(hs, t0, t1);
		if (!row)
			return -ENOMEM;
		p = e;
		while (*p == ' ') {
			unsigned long long c, n;
			if (parse_u64(p + 1, &c, &e) < 0 || *e != ':')
				return -EINVAL;
			p = e;
			do {
				if (parse_u64(p + 1, &n, &e) < 0 || c >= HIST_COARSE_N ||
				    n > HIST_SERIES_MAX_TOTAL - hs->total)
					return -EINVAL;
				hs->total += n;
				row[c++] += n;
				p = e;
			} while (*p == ',');
		}
	}
	return *p ? -EINVAL : 0;
}

double hist_coarse_percentile(const uint64_t *c, double pct)
{
	uint64_t total = 0;
	for (unsigned i = 0; i < HIST_COARSE_N; i++)
		total = c[i] > UINT64_MAX - total ? UINT64_MAX : total + c[i]; /* no wrap */
	if (!total)
		return NAN;
	/* rank in [1, total], converted only when in range (else UB) */
	double r = ceil(fmin(fmax(pct, 0), 100) / 100.0 * (double)total);
	uint64_t rank = r >= (double)total ? total : r >= 1 ? (uint64_t)r : 1, seen = 0;
	for (unsigned i = 0; i < HIST_COARSE_N; i++) {
		seen = c[i] > UINT64_MAX - seen ? UINT64_MAX : seen + c[i];
		if (seen >= rank) {
			double lo = (double)hist_coarse_low(i), hi = (double)hist_coarse_low(i + 1);
			return i + 1 >= HIST_COARSE_N ? lo : (lo + hi) / 2;
		}
	}
	return NAN;
}
