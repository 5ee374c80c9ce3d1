/* cli_cleanup: `benchgrid cleanup`. */
#include "cli_cleanup.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state.h"

static void usage(FILE *out, const char *path)
{
	fprintf(out,
	        "usage: benchgrid cleanup [--dry-run] [STATE_FILE]\n\nUndo what a killed run left behind "
	        "(mounts, loop devices, image files, sysctl and queue settings, servers), from the state "
	        "journal (default %s, or $BENCHGRID_STATE), one line per action: the run that set it up "
	        "(its pid, id and output folder) and what is undone.\n"
	        "  --dry-run  list the actions that would be undone; undo and write nothing\n\n"
	        "Exit status: 0 every action undone (or nothing to do); 1 an action could not be "
	        "undone (a mount on or in a folder to remove, say; it stays in the journal for the "
	        "next cleanup) or the journal could not be used; 2 bad arguments.\n",
	        path);
}

static int cleanup_main(int argc, char **argv)
{
	const char *path = state_default_path(), *file = NULL;
	struct state_cleanup_opts o = {.list = stdout};
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout, path);
			return 0;
		} else if (!strcmp(argv[i], "--dry-run") || !strcmp(argv[i], "-n")) {
			o.dry_run = true;
		} else if (argv[i][0] == '-' || file) {
			usage(stderr, path);
			return CLI_EXIT_USAGE;
		} else {
			file = argv[i];
		}
	}
	if (file)
		path = file;
	struct diag d;
	diag_init(&d);
	int n = state_cleanup_opts(path, &o, &d);
	fflush(stdout);
	diag_print(&d, stderr);
	bool undo_failed = n == -EIO && d.nerrors > 0; /* an error printed per action */
	diag_free(&d);
	if (undo_failed) {
		fprintf(stderr,
		        "benchgrid cleanup: some actions could not be undone (the errors above); they stay "
		        "in %s: fix the cause and run `benchgrid cleanup` again\n",
		        path);
		return CLI_EXIT_FAIL;
	}
	if (n < 0) {
		fprintf(stderr, "benchgrid cleanup: %s: %s\n", path, strerror(-n));
		return CLI_EXIT_FAIL;
	}
	if (o.dry_run)
		printf("cleanup --dry-run: %d action%s would be undone; nothing was changed\n", n,
		       n == 1 ? "" : "s");
	else
		printf("cleanup: %d action%s undone\n", n, n == 1 ? "" : "s");
	return 0;
}

const struct cli_command cli_cleanup = {"cleanup", "undo what a killed run left set up", cleanup_main};
