/* pgb_rand_sched: the `rate` schedule pgb_rand gives pgbench's threads.
 *
 *   pgb_rand_sched SEED CLIENTS THREADS RATE COUNT
 *
 * For each thread, one line "T d1 d2 ... dCOUNT": its first COUNT Poisson
 * delays in microseconds, from the throttle generator seeded as pgbench
 * --random-seed=SEED -c CLIENTS -j THREADS -R RATE seeds it (used by
 * tests/workloads/pgbench/pgbench_rand_oracle.sh against pgbench's own log). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "pgb_rand.h"

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: %s SEED CLIENTS THREADS RATE COUNT\n", argv[0]);
		return 2;
	}
	uint64_t seed = strtoull(argv[1], NULL, 10);
	int nc = atoi(argv[2]), nt = atoi(argv[3]), count = atoi(argv[5]);
	double rate = atof(argv[4]);

	if (nc < 1 || nt < 1 || count < 1 || rate <= 0)
		return 2;
	if (nt > nc)
		nt = nc;
	struct pgb_rng *cl = calloc(nc, sizeof(*cl));
	struct pgb_thread_rngs *th = calloc(nt, sizeof(*th));
	int64_t ds;

	if (!cl || !th)
		return 1;
	pgb_rand_seed_run(seed, nc, nt, false, cl, th, &ds);
	for (int t = 0; t < nt; t++) {
		printf("%d", t);
		for (int k = 0; k < count; k++)
			printf(" %" PRId64,
			       pgb_rand_poisson(&th[t].throttle, pgb_rand_throttle_us(rate, nt)));
		printf("\n");
	}
	free(cl);
	free(th);
	return 0;
}
