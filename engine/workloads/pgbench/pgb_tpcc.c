/* pgb_tpcc: tpcc-like's scripts and weights (see pgb_tpcc.h). The texts
 * are tpcc/NAME.sql, embedded by CMakeLists.txt. */
#include "pgb_tpcc.h"

#include <string.h>

/* TPC-C's minimum mix (clause 5.2.3): new-order takes what the others
 * leave, 45 %. */
static const struct pgb_builtin_part tpcc_mix[] = {
    {"new_order", tpcc_new_order, 45},      {"payment", tpcc_payment, 43},
    {"order_status", tpcc_order_status, 4}, {"delivery", tpcc_delivery, 4},
    {"stock_level", tpcc_stock_level, 4},
};

const struct pgb_builtin_part *pgb_builtin_mix(const char *name, int *n)
{
	if (!strcmp(name, "tpcc-like")) {
		*n = (int)(sizeof(tpcc_mix) / sizeof(tpcc_mix[0]));
		return tpcc_mix;
	}
	*n = 0;
	return NULL;
}
