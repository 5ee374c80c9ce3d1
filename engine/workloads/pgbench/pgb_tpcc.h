/* pgb_tpcc: the builtin `tpcc-like`, TPC-C's five transactions written in
 * the pgbench script language (pgb_script.h) over the nine tables that
 * pgdata/tpcc_init.c loads; :scale is the number of warehouses.
 *
 * A builtin that is a mix of scripts: new_order 45, payment 43,
 * order_status 4, delivery 4, stock_level 4 (TPC-C's minimum mix, clause
 * 5.2.3), chosen per transaction by weight like pgbench's -b a@w -b b@w.
 * No keying or think time. 1 % of new-orders name an unused item and end
 * with ROLLBACK (clause 2.4.1.4). Random values follow clause 2.1.6's
 * NURand(A, x, y) with the run-time constants below; the load used
 * TPCC_C_LAST_LOAD for customer names (clause 2.1.6.1's delta rule).
 * docs/steps/tpcc-like.md says what is and is not TPC-C. */
#ifndef BENCHGRID_PGB_TPCC_H
#define BENCHGRID_PGB_TPCC_H

/* NURand's C for c_last at load time; the run uses 223 (delta 66). */
#define TPCC_C_LAST_LOAD 157

struct pgb_builtin_part {
	const char *name; /* the script's name in reports (script_NAME_*) */
	const char *text;
	int weight;
};

/* The texts of tpcc/NAME.sql (pgb_tpcc_sql.c, generated). */
extern const char tpcc_new_order[], tpcc_payment[], tpcc_order_status[], tpcc_delivery[], tpcc_stock_level[];

/* The scripts of a builtin made of several ("tpcc-like"): *n of them, in
 * report order; NULL for a builtin of one script (pgb_builtin). */
const struct pgb_builtin_part *pgb_builtin_mix(const char *name, int *n);

#endif
