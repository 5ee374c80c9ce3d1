/* cli_help: `benchgrid help [TOPIC]` (see cli_help.h). */
#include "cli_help.h"

#include <string.h>

static void list_topics(FILE *out)
{
	fprintf(out, "%-10s %s\n", "commands", "the commands and their options");
	for (const struct help_topic *t = help_topics; t->name; t++)
		fprintf(out, "%-10s %s\n", t->name, t->title);
}

/* The program's --help, then each command's, separated by a blank line. */
static int print_commands(const struct cli_command *const *commands, void (*usage)(FILE *))
{
	usage(stdout);
	for (size_t i = 0; commands[i]; i++) {
		char name[64], opt[] = "--help";
		snprintf(name, sizeof(name), "%s", commands[i]->name);
		char *argv[] = {name, opt, NULL};
		printf("\n");
		fflush(stdout);
		if (commands[i]->main(2, argv) != 0)
			return CLI_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
}

int cli_help(int argc, char **argv, const struct cli_command *const *commands, void (*usage)(FILE *))
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		printf("usage: benchgrid help [TOPIC | --list]\n\n"
		       "Print a topic of the manual (the text of the man pages benchgrid(1) and\n"
		       "benchgrid-scenario(5)). Topics:\n\n");
		list_topics(stdout);
		return CLI_EXIT_OK;
	}
	if (argc > 2) {
		fprintf(stderr, "benchgrid help: expected one topic\n");
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--list")) {
		list_topics(stdout);
		return CLI_EXIT_OK;
	}
	if (!strcmp(argv[1], "commands"))
		return print_commands(commands, usage);
	for (const struct help_topic *t = help_topics; t->name; t++)
		if (!strcmp(t->name, argv[1])) {
			fputs(t->text, stdout);
			return CLI_EXIT_OK;
		}
	fprintf(stderr, "benchgrid help: no topic '%s'; the topics are:\n", argv[1]);
	list_topics(stderr);
	return CLI_EXIT_USAGE;
}
