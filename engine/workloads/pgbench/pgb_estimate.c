/* pgb_estimate: what a pgbench step will do, for plan's estimate (see
 * pgb_estimate.h). */
#include "pgb_estimate.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* A script that may write: a builtin other than select-only, a script text
 * with a statement that changes rows, or a file (not read: plan reads no
 * file but the scenario). */
static bool pgb_est_script_writes(const char *s)
{
	if (!s)
		return true;
	if (strchr(s, '\n') || strchr(s, ';') || s[0] == '\\') {
		static const char *const verbs[] = {"insert", "update", "delete", "copy", "merge", NULL};
		for (const char *p = s; *p; p++)
			for (int v = 0; verbs[v]; v++)
				if (!strncasecmp(p, verbs[v], strlen(verbs[v])) &&
				    (p == s || !isalnum((unsigned char)p[-1])))
					return true;
		return false;
	}
	return strncmp(s, "select-only", strlen("select-only")) != 0;
}

static bool pgb_est_writes(const struct node *o)
{
	const struct node *scripts = node_get(o, "scripts");
	if (node_get(o, "init"))
		return true;
	if (node_get(o, "script"))
		return pgb_est_script_writes(est_text(node_get(o, "script")));
	if (scripts && scripts->kind == NODE_SEQ) {
		for (size_t i = 0; i < scripts->n; i++)
			if (pgb_est_script_writes(est_text(scripts->items[i])))
				return true;
		return false;
	}
	const char *builtin = est_text(node_get(o, "builtin"));
	return pgb_est_script_writes(builtin ? builtin : "tpcb-like");
}

/* init: loads data at its scale; else a duration, else transactions
 * (10 a client by default, as pgbench's -t) at the schedule's rate, or at
 * the tps the step had in the scenario's last stored run. */
void pgb_estimate(const struct node *o, struct step_estimate *e)
{
	const struct node *init = node_get(o, "init");
	e->writes_db = pgb_est_writes(o);
	if (init) {
		e->basis = "init";
		e->load_scale = init->kind == NODE_MAP ? est_number(node_get(init, "scale"), 1) : 1;
		const struct node *k = init->kind == NODE_MAP ? node_get(init, "kind") : NULL;
		/* a TPC-C warehouse: ~100 MB, about 7 pgbench scale units */
		if (k && k->kind == NODE_SCALAR && !strcmp(k->text, "tpcc"))
			e->load_scale = 7 * est_number(node_get(init, "warehouses"), 1);
	} else if (node_get(o, "duration")) {
		e->basis = "duration";
		e->seconds = est_seconds(node_get(o, "duration"), 0);
	} else {
		e->basis = "transactions";
		e->tps_metric = "tps"; /* pgb_metrics.c: priced at the last run's */
		e->rate = est_number(node_get(o, "rate"), 0);
		e->transactions =
		    est_number(node_get(o, "transactions"), 10) * est_number(node_get(o, "clients"), 1);
	}
}
