/* estimate_target: see estimate_target.h. */
#include "estimate_target.h"

static target_cost_fn target_cost_of;

void estimate_set_target_cost(target_cost_fn fn)
{
	target_cost_of = fn;
}

struct target_cost estimate_target_cost(const struct node *t, bool raw_io)
{
	struct target_cost c = {0};
	if (target_cost_of)
		target_cost_of(t, raw_io, &c);
	return c;
}
