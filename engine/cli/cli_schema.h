/* cli_schema: `benchgrid schema [--markdown]`: the JSON Schema of the
 * scenario language, or its option reference, from the option tables. */
#ifndef BENCHGRID_CLI_SCHEMA_H
#define BENCHGRID_CLI_SCHEMA_H

#include "cli.h"

extern const struct cli_command cli_schema;

#endif
