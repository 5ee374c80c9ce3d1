/* step_estimate: the lenient readers of a step's options (see step_estimate.h). */
#include "step_estimate.h"

#include <stdint.h>
#include <string.h>

#include "units.h"

const char *est_text(const struct node *n)
{
	return n && n->kind == NODE_SCALAR ? n->text : NULL;
}

bool est_is(const struct node *n, const char *s)
{
	return est_text(n) && !strcmp(est_text(n), s);
}

double est_seconds(const struct node *n, double dflt)
{
	double t;
	return est_text(n) && units_parse_duration(est_text(n), &t, NULL, 0) == 0 ? t : dflt;
}

double est_bytes(const struct node *n, double dflt)
{
	uint64_t b;
	return est_text(n) && units_parse_size(est_text(n), &b, NULL, 0) == 0 ? (double)b : dflt;
}

double est_number(const struct node *n, double dflt)
{
	double x;
	return est_text(n) && units_is_number(est_text(n), &x) && x > 0 ? x : dflt;
}

bool est_true(const struct node *n)
{
	return est_is(n, "true") || est_is(n, "yes") || est_is(n, "on");
}
