/* pgb_driver: run one pgbench step from the command line.
 *
 *   pgb_driver CONNINFO 'YAML options of the pgbench: step' [SERVER_LOG]
 *
 * Prints every metric as "name=value unit", infos as "info key=value", and on
 * failure "error: ..." (exit 1); option errors are printed with positions
 * (exit 2). Used by bench/vs-pgbench and the integration tests until
 * `benchgrid run` covers a single step. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "diag.h"
#include "result.h"
#include "spec.h"
#include "wl_pgbench.h"

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s CONNINFO 'YAML options' [SERVER_LOG]\n", argv[0]);
		return 2;
	}
	struct diag d;
	struct step_result r;
	char cwd[4096];

	diag_init(&d);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	struct node *opts = spec_load_string("<options>", argv[2], &d);

	if (!opts || d.nerrors) {
		diag_print(&d, stderr);
		node_free(opts);
		diag_free(&d);
		return 2;
	}
	/* the server, by the names a step reads it with (step_ctx_name) */
	struct node *names = node_new(NODE_MAP, NULL);
	node_map_put(names, "pg.conninfo", NULL, node_new_scalar(argv[1], NULL));
	if (argc > 3)
		node_map_put(names, "pg.log", NULL, node_new_scalar(argv[3], NULL));
	struct step_ctx cx = {
	    .names = names,
	    .step_name = "pgbench",
	    .scenario_dir = getcwd(cwd, sizeof(cwd)),
	    .stop = &stop_flag,
	    .verbose = getenv("PGB_VERBOSE") ? 1 : 0,
	};
	int rc = wl_pgbench_ops.check(opts, &d);

	result_init(&r, "pgbench", "pgbench");
	if (!rc && !d.nerrors)
		rc = wl_pgbench_ops.run(opts, &cx, &r, &d);
	if (d.nerrors) {
		diag_print(&d, stderr);
		rc = 2;
	} else if (r.failed || rc) {
		printf("error: %s\n", r.error ? r.error : "failed");
		rc = 1;
	}
	for (size_t i = 0; i < r.nm; i++)
		printf("%s=%.6g %s\n", r.m[i].name, r.m[i].value, r.m[i].unit);
	for (size_t i = 0; i < r.ni; i++)
		printf("info %s=%s\n", r.info[i].key, r.info[i].value);
	for (size_t i = 0; i < r.ns; i++)
		printf("series %s n=%zu\n", r.s[i].name, r.s[i].n);
	result_free(&r);
	node_free(opts);
	node_free(names);
	diag_free(&d);
	return rc;
}
