/* main: the command line. The only place that prints the final error and
 * chooses the exit status: 0 success, 1 failure at run time, 2 bad scenario
 * or bad arguments. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "build_info.h"
#include "cli_cleanup.h"
#include "cli_help.h"
#include "cli_history.h"
#include "cli_import_fio.h"
#include "cli_merge.h"
#include "cli_plan.h"
#include "cli_report.h"
#include "cli_run.h"
#include "cli_schema.h"
#include "cli_slurm.h"
#include "cli_store.h"
#include "validators.h"

static const struct cli_command *const commands[] = {
    &cli_check,   &cli_plan,    &cli_run,   &cli_merge,      &cli_report,
    &cli_compare, &cli_cleanup, &cli_slurm, &cli_import_fio, &cli_schema, /* the results history: */
    &cli_store,   &cli_history, NULL,
};

static void usage(FILE *out)
{
	fprintf(out, "usage: benchgrid [--help] [--version] COMMAND [ARGS]\n\n"
	             "benchgrid expands a YAML benchmark scenario into a matrix of cells, provisions each\n"
	             "cell (filesystem, PostgreSQL), runs its steps and writes reports.\n\n"
	             "commands:\n");
	for (size_t i = 0; commands[i]; i++)
		fprintf(out, "  %-9s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(out, "\nRun 'benchgrid COMMAND --help' for a command's options, 'benchgrid help TOPIC'\n"
	             "for the manual (topics: 'benchgrid help --list'; man benchgrid-scenario).\n");
}

int main(int argc, char **argv)
{
	validators_register();
	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "help") && argc > 2)
		return cli_help(argc - 1, argv + 1, commands, usage);
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		const struct build_info *b = build_info();
		printf("benchgrid %s (commit %s)\nbuilt %s with %s\n", b->version, b->commit, b->type,
		       b->compiler);
		return 0;
	}
	for (size_t i = 0; commands[i]; i++)
		if (!strcmp(commands[i]->name, cmd))
			return commands[i]->main(argc - 1, argv + 1);
	fprintf(stderr, "benchgrid: unknown command '%s'\n", cmd);
	usage(stderr);
	return CLI_EXIT_USAGE;
}
