/* cli_schema_md: docs/options.md, the option reference, from the option
 * tables (`benchgrid schema --markdown`). */
#ifndef BENCHGRID_CLI_SCHEMA_MD_H
#define BENCHGRID_CLI_SCHEMA_MD_H

#include <stdio.h>

/* One table per section. 0, or -1 when out could not be written. */
int cli_schema_markdown(FILE *out);

#endif
