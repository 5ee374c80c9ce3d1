/* fio_kv: the keys of a mapped io step (a scalar or a map of scalars) and
 * lists of comment lines. */
#ifndef BENCHGRID_FIO_KV_H
#define BENCHGRID_FIO_KV_H

#include <stddef.h>

/* A key of the io step: a scalar (val) or a map (sub). */
struct fio_kv {
	char *key;
	char *val; /* NULL when sub is a map */
	struct fio_kv *sub;
	size_t nsub;
};

struct fio_kvl {
	struct fio_kv *kv;
	size_t n, cap;
};

struct fio_strs {
	char **s;
	size_t n, cap;
};

void fio_kv_set(struct fio_kvl *l, const char *key, const char *val);
struct fio_kv *fio_kv_get(const struct fio_kvl *l, const char *key);
void fio_kv_sub(struct fio_kv *kv, const char *key, const char *val);
void fio_kv_del(struct fio_kvl *l, const char *key);
void fio_kvl_free(struct fio_kvl *l);
void fio_strs_add(struct fio_strs *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fio_strs_free(struct fio_strs *l);

#endif
