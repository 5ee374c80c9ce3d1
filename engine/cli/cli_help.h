/* cli_help: `benchgrid help [TOPIC]`. The topics are docs/ rendered as plain
 * text by scripts/md2man at build time (help_topics.c, generated), the same
 * text as the man pages benchgrid(1) and benchgrid-scenario(5); the topic
 * `commands` is every command's --help, the text benchgrid(1) is made of. */
#ifndef BENCHGRID_CLI_HELP_H
#define BENCHGRID_CLI_HELP_H

#include <stdio.h>

#include "cli.h"

struct help_topic {
	const char *name;  /* "scenario", "io", ... */
	const char *title; /* the document's title */
	const char *text;  /* plain text, lines of at most 78 columns */
};

/* Generated: the topics in man-page order, ended by a {NULL} row. */
extern const struct help_topic help_topics[];

/* argv[0] is "help". commands: the program's table (NULL-ended); usage
 * prints the program's own --help. */
int cli_help(int argc, char **argv, const struct cli_command *const *commands, void (*usage)(FILE *));

#endif
