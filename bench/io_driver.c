/* io_driver: run one `io:` step outside a scenario, for bench/vs-fio.
 *
 *   io_driver DIR key=value...
 *
 * builds the options map from the arguments (values as a scenario would
 * write them), runs wl_io_ops in DIR and prints every metric and info as
 * `name=value` lines. Exit status 0 on success, 1 when the step failed,
 * 2 for bad options. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "node.h"
#include "result.h"
#include "wl_io.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: io_driver DIR key=value...\n");
		return 2;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	const char *file = diag_intern("<argv>");
	struct src_pos pos = {file, 1, 1};
	struct node *map = node_new(NODE_MAP, &pos);
	for (int i = 2; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		if (!eq) {
			fprintf(stderr, "io_driver: expected key=value, found '%s'\n", argv[i]);
			node_free(map);
			return 2;
		}
		*eq = 0;
		struct src_pos p = {file, 1, i};
		node_map_put(map, argv[i], &p, node_new_scalar(eq + 1, &p));
	}
	struct diag d;
	diag_init(&d);
	struct step_result res;
	result_init(&res, "io", "io");
	struct step_ctx cx = {.target_dir = argv[1], .step_name = "io", .stop = &stop};
	int ret = wl_io_ops.check(map, &d);
	if (!ret)
		ret = wl_io_ops.run(map, &cx, &res, &d);
	diag_print(&d, stderr);
	for (size_t i = 0; i < res.nm; i++)
		printf("%s=%.9g\n", res.m[i].name, res.m[i].value);
	for (size_t i = 0; i < res.ni; i++)
		printf("info.%s=%s\n", res.info[i].key, res.info[i].value);
	for (size_t i = 0; i < res.ns; i++) {
		printf("series.%s=", res.s[i].name);
		for (size_t k = 0; k < res.s[i].n; k++)
			printf("%s%.3f:%.1f", k ? "," : "", res.s[i].t[k], res.s[i].v[k]);
		printf("\n");
	}
	if (res.failed)
		fprintf(stderr, "io_driver: %s\n", res.error ? res.error : "failed");
	int status = d.nerrors ? 2 : res.failed ? 1 : 0;
	result_free(&res);
	diag_free(&d);
	node_free(map);
	return status;
}
