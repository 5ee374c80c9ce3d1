/* fio_opts_special: the fio options whose values change form on the way to
 * the io step (rw, rates, engines, files, distributions, priorities, steady
 * state), and the value helpers every handler uses. */
#ifndef BENCHGRID_FIO_OPTS_SPECIAL_H
#define BENCHGRID_FIO_OPTS_SPECIAL_H

#include <stdbool.h>
#include <stddef.h>

#include "fio_job.h"

/* A handler: 0 done, -1 unsupported or bad value (reason in err). `key` is
 * the io key of the table's row. */
typedef int (*fio_opt_fn)(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);

int fio_need(const char *v, const char *key, char *err, size_t errlen);
int fio_size_text(struct fio_job *j, const char *v, char *out, size_t len, char *err, size_t errlen);
int fio_get_bool(const char *v, bool *b, char *err, size_t errlen);

int fio_h_rw(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_mixread(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_mixwrite(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_bssplit(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_file_service(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_end_fsync(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_fdatasync(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_sync(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_invalidate(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_engine(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_filename(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_directory(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_zero(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_verify(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_rate(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_rate_iops(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_word(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_distribution(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_cpus(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_prio(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_prioclass(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_ss(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_ss_time(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);
int fio_h_lat_log(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen);

#endif
