/* cli: a command of the benchgrid program (one file each) and the exit
 * statuses they return. */
#ifndef BENCHGRID_CLI_H
#define BENCHGRID_CLI_H

enum { CLI_EXIT_OK = 0, CLI_EXIT_FAIL = 1, CLI_EXIT_USAGE = 2 };

struct cli_command {
	const char *name;
	const char *summary;
	int (*main)(int argc, char **argv); /* argv[0] is the command name */
};

#endif
