/* pgb_ycsb_rand: YCSB's distributions (see pgb_ycsb_rand.h). */
#include "pgb_ycsb_rand.h"

#include <math.h>
#include "ycsb_key.h"

double pgb_ycsb_zeta(int64_t st, int64_t n, double theta, double initial)
{
	double sum = initial;
	for (int64_t i = st; i < n; i++)
		sum += 1.0 / pow((double)(i + 1), theta);
	return sum;
}

/* zeta(2, 0.99) = 1 + 2^-0.99 */
static double pgb_ycsb_zeta2(void)
{
	static double z;
	if (z == 0)
		z = 1.0 + pow(2.0, -PGB_YCSB_THETA);
	return z;
}

int64_t pgb_ycsb_zipf_draw(struct pgb_rng *r, int64_t n, double zetan)
{
	const double theta = PGB_YCSB_THETA, alpha = 1.0 / (1.0 - theta);
	double u = pgb_rng_double(r), uz = u * zetan;

	if (uz < 1.0 || n < 2)
		return 0;
	if (uz < 1.0 + pow(0.5, theta))
		return 1;
	double eta = (1.0 - pow(2.0 / (double)n, 1.0 - theta)) / (1.0 - pgb_ycsb_zeta2() / zetan);
	int64_t v = (int64_t)((double)n * pow(eta * u - eta + 1.0, alpha));
	return v < n ? v : n - 1;
}

int64_t pgb_ycsb_fnv64(int64_t v)
{
	return ycsb_fnv64(v);
}

int64_t pgb_ycsb_scrambled(struct pgb_rng *r, int64_t lb, int64_t ub)
{
	int64_t v = pgb_ycsb_zipf_draw(r, PGB_YCSB_ITEM_COUNT, PGB_YCSB_ZETAN);
	int64_t h = pgb_ycsb_fnv64(v) % (ub - lb + 1);
	return lb + (h < 0 ? -h : h);
}

int64_t pgb_ycsb_latest(struct pgb_rng *r, int64_t lb, int64_t ub)
{
	/* zeta(n) per thread, extended as n grows (clients of one thread
	 * share it: it is a function of n alone) */
	static _Thread_local int64_t zn;
	static _Thread_local double zeta;
	int64_t n = ub - lb + 1;

	if (n != zn) {
		zeta = n > zn ? pgb_ycsb_zeta(zn, n, PGB_YCSB_THETA, zeta)
		              : pgb_ycsb_zeta(0, n, PGB_YCSB_THETA, 0);
		zn = n;
	}
	return ub - pgb_ycsb_zipf_draw(r, n, zeta);
}

static int64_t pgb_ycsb_count;

void pgb_ycsb_seq_reset(int64_t inserted)
{
	__atomic_store_n(&pgb_ycsb_count, inserted > 0 ? inserted : 0, __ATOMIC_RELAXED);
}

int64_t pgb_ycsb_insert_next(int64_t base)
{
	return base + __atomic_fetch_add(&pgb_ycsb_count, 1, __ATOMIC_RELAXED);
}

int64_t pgb_ycsb_insert_last(int64_t base)
{
	return base - 1 + __atomic_load_n(&pgb_ycsb_count, __ATOMIC_RELAXED);
}
