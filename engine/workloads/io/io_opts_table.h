/* io_opts_table: the options of the `io:` step as option tables (see
 * base/opt_table.h); the enum names are the parser's, in the order of its
 * enums. */
#ifndef BENCHGRID_IO_OPTS_TABLE_H
#define BENCHGRID_IO_OPTS_TABLE_H

#include "opt_table.h"

extern const struct opt_table io_opt_table;          /* "io" */
extern const struct opt_table io_precondition_table; /* "io.precondition" */
extern const struct opt_table io_steady_state_table; /* "io.steady_state" */

extern const char *const io_rw_values[];           /* enum io_rw */
extern const char *const io_cache_values[];        /* enum io_cache */
extern const char *const io_prepare_values[];      /* enum io_prepare */
extern const char *const io_data_values[];         /* enum io_data */
extern const char *const io_file_service_values[]; /* io_files.c */
extern const char *const io_op_values[];           /* io_files.c: "none" first */
extern const char *const io_rate_process_values[];
extern const char *const io_ss_metric_values[];

#endif
