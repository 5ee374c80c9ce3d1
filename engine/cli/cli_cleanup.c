/* cli_cleanup: `benchgrid cleanup`. */
#include "cli_cleanup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state.h"

static int cleanup_main(int argc, char **argv)
{
	const char *path = state_default_path();
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: benchgrid cleanup [STATE_FILE]\n\nUndo what a killed run left behind (mounts, "
		       "loop "
		       "devices, image files, sysctl and queue settings, servers), from the state journal "
		       "(default %s, or $BENCHGRID_STATE).\n",
		       path);
		return 0;
	}
	if (argc > 2) {
		fprintf(stderr, "usage: benchgrid cleanup [STATE_FILE]\n");
		return CLI_EXIT_USAGE;
	}
	if (argc == 2)
		path = argv[1];
	struct diag d;
	diag_init(&d);
	int n = state_cleanup(path, &d);
	diag_print(&d, stderr);
	diag_free(&d);
	if (n < 0) {
		fprintf(stderr, "benchgrid cleanup: %s: %s\n", path, strerror(-n));
		return CLI_EXIT_FAIL;
	}
	printf("cleanup: %d action%s undone\n", n, n == 1 ? "" : "s");
	return 0;
}

const struct cli_command cli_cleanup = {"cleanup", "undo what a killed run left set up", cleanup_main};
