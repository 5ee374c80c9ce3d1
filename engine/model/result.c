/* result: metrics, series and facts of one step (see result.h). */
#include "result.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

void result_init(struct step_result *r, const char *step, const char *workload)
{
	memset(r, 0, sizeof(*r));
	r->step = step ? strdup(step) : NULL;
	r->workload = workload ? strdup(workload) : NULL;
}

void result_free(struct step_result *r)
{
	for (size_t i = 0; i < r->nm; i++) {
		free(r->m[i].name);
		free(r->m[i].unit);
	}
	for (size_t i = 0; i < r->ns; i++) {
		free(r->s[i].name);
		free(r->s[i].unit);
		free(r->s[i].t);
		free(r->s[i].v);
	}
	for (size_t i = 0; i < r->ni; i++) {
		free(r->info[i].key);
		free(r->info[i].value);
	}
	free(r->m);
	free(r->s);
	free(r->info);
	free(r->skip_reason);
	free(r->step);
	free(r->workload);
	free(r->error);
	memset(r, 0, sizeof(*r));
}

void result_metric(struct step_result *r, const char *name, double value, const char *unit)
{
	for (size_t i = 0; i < r->nm; i++) {
		if (!strcmp(r->m[i].name, name)) {
			r->m[i].value = value;
			free(r->m[i].unit);
			r->m[i].unit = strdup(unit ? unit : "");
			return;
		}
	}
	if (GROW(r->m, r->capm, r->nm + 1, 8) < 0)
		return;
	r->m[r->nm].name = strdup(name);
	r->m[r->nm].unit = strdup(unit ? unit : "");
	r->m[r->nm].value = value;
	r->nm++;
}

const struct metric *result_get(const struct step_result *r, const char *name)
{
	for (size_t i = 0; i < r->nm; i++)
		if (!strcmp(r->m[i].name, name))
			return &r->m[i];
	return NULL;
}

const struct series *result_series(const struct step_result *r, const char *name)
{
	for (size_t i = 0; i < r->ns; i++)
		if (!strcmp(r->s[i].name, name))
			return &r->s[i];
	return NULL;
}

void result_sample(struct step_result *r, const char *name, const char *unit, double t, double v)
{
	struct series *s = (struct series *)result_series(r, name);
	if (!s) {
		if (GROW(r->s, r->caps, r->ns + 1, 8) < 0)
			return;
		s = &r->s[r->ns++];
		memset(s, 0, sizeof(*s));
		s->name = strdup(name);
		s->unit = strdup(unit ? unit : "");
	}
	size_t capt = s->cap, capv = s->cap; /* t and v grow together */
	if (GROW(s->t, capt, s->n + 1, 64) < 0 || GROW(s->v, capv, s->n + 1, 64) < 0)
		return;
	s->cap = capt;
	s->t[s->n] = t;
	s->v[s->n] = v;
	s->n++;
}

void result_info(struct step_result *r, const char *key, const char *fmt, ...)
{
	char *val = NULL;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&val, fmt, ap) < 0)
		val = NULL;
	va_end(ap);
	if (!val)
		return;
	if (strcmp(key, "warning") != 0) {
		for (size_t i = 0; i < r->ni; i++) {
			if (!strcmp(r->info[i].key, key)) {
				free(r->info[i].value);
				r->info[i].value = val;
				return;
			}
		}
	}
	if (GROW(r->info, r->capi, r->ni + 1, 8) < 0) {
		free(val);
		return;
	}
	r->info[r->ni].key = strdup(key);
	r->info[r->ni].value = val;
	r->ni++;
}

const char *result_info_get(const struct step_result *r, const char *key)
{
	for (size_t i = 0; i < r->ni; i++)
		if (!strcmp(r->info[i].key, key))
			return r->info[i].value;
	return NULL;
}

void result_fail(struct step_result *r, const char *fmt, ...)
{
	r->failed = true;
	if (r->error)
		return;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&r->error, fmt, ap) < 0)
		r->error = NULL;
	va_end(ap);
}

void result_skip(struct step_result *r, const char *reason)
{
	r->skipped = true;
	free(r->skip_reason);
	r->skip_reason = strdup(reason ? reason : "");
}
