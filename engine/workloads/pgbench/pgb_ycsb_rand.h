/* pgb_ycsb_rand: YCSB's request distributions and key hash, as functions
 * of the pgbench script language (pgb_expr.c lists them, pgb_eval.c calls
 * them), drawn from the client's generator (pgb_rand.h).
 *
 * YCSB's definitions (site.ycsb.generator, core 0.17), re-derived here:
 *   zipfian   Gray et al.'s method ("Quickly generating billion-record
 *             synthetic databases", SIGMOD 1994) with theta = 0.99 over n
 *             items, item 0 the most popular: u uniform in [0, 1);
 *             u*zeta(n) < 1 gives 0, < 1 + 0.5^theta gives 1, else
 *             floor(n * (eta*u - eta + 1)^(1/(1-theta))), with
 *             eta = (1 - (2/n)^(1-theta)) / (1 - zeta(2)/zeta(n)).
 *   scrambled zipfian (YCSB's `requestdistribution=zipfian`): a zipfian
 *             draw over 10^10 items with YCSB's constant zeta(10^10) =
 *             26.46902820178302, then lb + fnvhash64(draw) mod (ub-lb+1):
 *             the popular keys scattered over the range. (YCSB 0.1.4 drew
 *             over 10^10 items; later versions draw over 10^16+1 with the
 *             same constant, zeta(10^16) being 45.12: we keep the pair
 *             that agrees, the test checks the constant is zeta(10^10).)
 *   latest    (SkewedLatestGenerator): ub - zipfian(ub-lb+1) draw, the
 *             newest key the most popular.
 *   fnvhash64 YCSB's Utils.fnvhash64: FNV-1a over the 8 bytes of the
 *             value, low byte first, then the absolute value; YCSB names a
 *             record "user" + fnvhash64(keynum) (insertorder=hashed).
 * zeta(n) for latest is computed once per n and thread and extended
 * incrementally as n grows (as YCSB does); eta is recomputed from the
 * current n (YCSB keeps the first n's 2/n term, a quirk below 10^-6).
 *
 * The insert key sequence (YCSB's transactioninsertkeysequence) is one
 * counter for the whole process, set by each ycsb-like run before its
 * clients start (pgb_ycsb_seq_reset(rows already inserted after the
 * load)): ycsb_insert_next(base) = base + inserts so far,
 * ycsb_insert_last(base) = the last one handed out (base - 1 + count). */
#ifndef BENCHGRID_PGB_YCSB_RAND_H
#define BENCHGRID_PGB_YCSB_RAND_H

#include <stdint.h>
#include "pgb_rand.h"

#define PGB_YCSB_THETA      0.99
#define PGB_YCSB_ITEM_COUNT 10000000000LL
#define PGB_YCSB_ZETAN      26.46902820178302

/* zeta(n, theta) = sum 1/i^theta, i = 1..n, from zeta(st) = initial. */
double pgb_ycsb_zeta(int64_t st, int64_t n, double theta, double initial);
/* A zipfian draw in [0, n) (theta 0.99) given zeta(n). */
int64_t pgb_ycsb_zipf_draw(struct pgb_rng *r, int64_t n, double zetan);
/* random_ycsb_zipfian(lb, ub): scrambled zipfian in [lb, ub]. */
int64_t pgb_ycsb_scrambled(struct pgb_rng *r, int64_t lb, int64_t ub);
/* random_ycsb_latest(lb, ub): ub the most popular. */
int64_t pgb_ycsb_latest(struct pgb_rng *r, int64_t lb, int64_t ub);
/* ycsb_hash(v): YCSB's fnvhash64. */
int64_t pgb_ycsb_fnv64(int64_t v);

void pgb_ycsb_seq_reset(int64_t inserted);
int64_t pgb_ycsb_insert_next(int64_t base);
int64_t pgb_ycsb_insert_last(int64_t base);

#endif
