/* fio_yaml: a mapped scenario as YAML. */
#ifndef BENCHGRID_FIO_YAML_H
#define BENCHGRID_FIO_YAML_H

#include <stdio.h>

#include "fio_map.h"

/* The scenario as YAML, every value that needs quotes quoted; -1 on a
 * write error. */
int fio_yaml_write(const struct fio_scenario *sc, FILE *out);

#endif
