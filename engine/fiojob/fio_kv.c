/* fio_kv: keys of a mapped io step and comment lists (see fio_kv.h). */
#include "fio_kv.h"
#include "fio_mem.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fio_kv *fio_kv_get(const struct fio_kvl *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->kv[i].key, key))
			return &l->kv[i];
	return NULL;
}

static void kv_clear(struct fio_kv *kv)
{
	free(kv->val);
	for (size_t i = 0; i < kv->nsub; i++) {
		kv_clear(&kv->sub[i]);
		free(kv->sub[i].key);
	}
	free(kv->sub);
	kv->val = NULL;
	kv->sub = NULL;
	kv->nsub = 0;
}

void fio_kv_set(struct fio_kvl *l, const char *key, const char *val)
{
	struct fio_kv *kv = fio_kv_get(l, key);
	if (!kv) {
		FIO_XGROW(l->kv, l->cap, l->n + 1, 16);
		kv = &l->kv[l->n++];
		memset(kv, 0, sizeof(*kv));
		kv->key = fio_xstrdup(key);
	}
	kv_clear(kv);
	kv->val = fio_xstrdup(val);
}

void fio_kv_sub(struct fio_kv *kv, const char *key, const char *val)
{
	kv->sub = fio_xrealloc(kv->sub, (kv->nsub + 1) * sizeof(*kv->sub));
	struct fio_kv *s = &kv->sub[kv->nsub++];
	memset(s, 0, sizeof(*s));
	s->key = fio_xstrdup(key);
	s->val = fio_xstrdup(val);
}

void fio_kv_del(struct fio_kvl *l, const char *key)
{
	struct fio_kv *kv = fio_kv_get(l, key);
	if (!kv)
		return;
	kv_clear(kv);
	free(kv->key);
	size_t i = (size_t)(kv - l->kv);
	memmove(kv, kv + 1, (l->n - i - 1) * sizeof(*kv));
	l->n--;
}

void fio_kvl_free(struct fio_kvl *l)
{
	for (size_t i = 0; i < l->n; i++) {
		kv_clear(&l->kv[i]);
		free(l->kv[i].key);
	}
	free(l->kv);
	memset(l, 0, sizeof(*l));
}

void fio_strs_add(struct fio_strs *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	FIO_XGROW(l->s, l->cap, l->n + 1, 8);
	l->s[l->n++] = s;
}

void fio_strs_free(struct fio_strs *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->s[i]);
	free(l->s);
	memset(l, 0, sizeof(*l));
}
