/* fio_opts: the table of fio options benchgrid maps, each with its handler
 * (what the option becomes in the io step). */
#ifndef BENCHGRID_FIO_OPTS_H
#define BENCHGRID_FIO_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fio_ini.h"
#include "fio_job.h"

/* Map one option of j: 0 done, 1 unsupported option, -1 unsupported or bad
 * value (reason in err). */
int fio_opt_apply(struct fio_job *j, const struct fio_opt *o, char *err, size_t errlen);
/* After all options: defaults and the options that combine. */
int fio_job_finish(struct fio_job *j, char *err, size_t errlen);
/* The io keys in the order the scenario writes them (NULL-terminated). */
extern const char *const fio_io_key_order[];

#endif
