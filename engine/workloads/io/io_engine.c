/* io_engine: the table of I/O engines (see io_engine.h). */
#include "io_engine.h"

#include <stddef.h>

const struct io_engine_ops *const io_engines[] = {
    &io_engine_io_uring,
    &io_engine_psync,
    NULL,
};
