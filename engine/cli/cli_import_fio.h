/* cli_import_fio: `benchgrid import-fio`, a fio job file as a scenario. */
#ifndef BENCHGRID_CLI_IMPORT_FIO_H
#define BENCHGRID_CLI_IMPORT_FIO_H

#include "cli.h"

extern const struct cli_command cli_import_fio;

#endif
