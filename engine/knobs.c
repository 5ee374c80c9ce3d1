/* knobs: sysctl and block queue settings per cell (see knobs.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blkdev.h"
#include "knobs.h"
#include "state.h"

/* The queue attributes we know how to validate, in the order they are
 * applied. Some writes reset others: switching the scheduler resets
 * nr_requests, and changing a queue limit (write_cache, max_sectors_kb)
 * recomputes read_ahead_kb. So those go first, and the value they reset is
 * journalled (`resets`) before them, to be written back after them. */
enum qtype { Q_SCHED, Q_INT, Q_BOOL, Q_CACHE };
static const struct qknob {
	const char *name;
	enum qtype type;
	int64_t min, max;
	const char *resets;
} qknobs[] = {
    {"scheduler", Q_SCHED, 0, 0, "nr_requests"},
    {"write_cache", Q_CACHE, 0, 0, "read_ahead_kb"},
    {"max_sectors_kb", Q_INT, 1, 1 << 30, "read_ahead_kb"},
    {"nr_requests", Q_INT, 1, 1 << 20, NULL},
    {"read_ahead_kb", Q_INT, 0, 1 << 30, NULL},
    {"rotational", Q_BOOL, 0, 1, NULL},
    {"nomerges", Q_INT, 0, 2, NULL},
    {"rq_affinity", Q_INT, 0, 2, NULL},
    {"wbt_lat_usec", Q_INT, -1, INT32_MAX, NULL},
    {"add_random", Q_BOOL, 0, 1, NULL},
    {"iostats", Q_BOOL, 0, 1, NULL},
};
#define NQKNOBS (sizeof(qknobs) / sizeof(qknobs[0]))

struct knob {
	char *kind; /* "sysctl" or "sysfs" (journal kinds) */
	char *name; /* sysctl name or sysfs path */
	char *old;  /* value to write back */
	int token;
	bool implicit; /* saved only to survive a scheduler switch */
};

struct knobs {
	struct knob *v;
	size_t n;
};

static bool knobs_deferred(const struct node *n)
{
	return n && n->kind == NODE_SCALAR && strstr(n->text, "${");
}

static bool sysctl_name_ok(const char *s)
{
	if (!*s || *s == '.' || *s == '/' || strstr(s, ".."))
		return false;
	for (const char *p = s; *p; p++)
		if (!(('a' <= *p && *p <= 'z') || ('A' <= *p && *p <= 'Z') || ('0' <= *p && *p <= '9') ||
		      *p == '_' || *p == '.' || *p == '-' || *p == '/'))
			return false;
	return true;
}

/* Collapse runs of white space to one space and trim, for comparing what
 * was written with what the kernel shows. */
static void knobs_norm(const char *in, char *out, size_t len)
{
	size_t o = 0;
	bool sp = false;
	for (const char *p = in; *p && o + 1 < len; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n') {
			sp = o > 0;
			continue;
		}
		if (sp && o + 2 < len)
			out[o++] = ' ';
		sp = false;
		out[o++] = *p;
	}
	out[o] = '\0';
}

/* Write-cache values as the kernel spells them. */
static const char *knobs_cache_value(const char *s)
{
	if (!strcmp(s, "write back") || !strcmp(s, "writeback") || !strcmp(s, "write-back"))
		return "write back";
	if (!strcmp(s, "write through") || !strcmp(s, "writethrough") || !strcmp(s, "write-through"))
		return "write through";
	return NULL;
}

static int check_queue_value(const struct qknob *q, const struct node *v, struct diag *d)
{
	char what[64];
	snprintf(what, sizeof(what), "queue.%s", q->name);
	if (knobs_deferred(v))
		return 0;
	int64_t iv;
	bool bv;
	const char *s;
	switch (q->type) {
	case Q_INT: return node_as_int(v, what, q->min, q->max, &iv, d);
	case Q_BOOL: return node_as_bool(v, what, &bv, d);
	case Q_CACHE:
		if (node_as_string(v, what, &s, d) < 0)
			return -EINVAL;
		if (!knobs_cache_value(s)) {
			diag_error(d, &v->pos, "%s: expected 'write back' or 'write through', found '%s'",
			           what, s);
			return -EINVAL;
		}
		return 0;
	case Q_SCHED:
		if (node_as_string(v, what, &s, d) < 0)
			return -EINVAL;
		if (!strcmp(s, "noop") || !strcmp(s, "deadline") || !strcmp(s, "cfq")) {
			diag_error(
			    d, &v->pos,
			    "%s: '%s' is a legacy scheduler that multi-queue kernels do not have; use none, "
			    "mq-deadline, kyber or bfq",
			    what, s);
			return -EINVAL;
		}
		for (const char *p = s; *p; p++) {
			if (!(('a' <= *p && *p <= 'z') || ('0' <= *p && *p <= '9') || *p == '-' ||
			      *p == '_')) {
				diag_error(d, &v->pos, "%s: '%s' is not a scheduler name", what, s);
				return -EINVAL;
			}
		}
		return 0;
	}
	return 0;
}

int knobs_check(const struct node *sysctl, const struct node *queue, struct diag *d)
{
	int bad = 0;
	if (sysctl) {
		if (sysctl->kind != NODE_MAP) {
			diag_error(d, &sysctl->pos, "sysctl: expected a map of name: value");
			bad = -EINVAL;
		} else {
			for (size_t i = 0; i < sysctl->n; i++) {
				if (!sysctl_name_ok(sysctl->keys[i])) {
					diag_error(d, &sysctl->kpos[i], "sysctl: '%s' is not a sysctl name",
					           sysctl->keys[i]);
					bad = -EINVAL;
				}
				const struct node *v = sysctl->items[i];
				if (v->kind != NODE_SCALAR) {
					diag_error(d, &v->pos, "sysctl.%s: expected a value, found a %s",
					           sysctl->keys[i], node_kind_name(v->kind));
					bad = -EINVAL;
				}
			}
		}
	}
	if (queue) {
		const char *known[NQKNOBS + 1];
		for (size_t i = 0; i < NQKNOBS; i++)
			known[i] = qknobs[i].name;
		known[NQKNOBS] = NULL;
		if (node_check_keys(queue, "queue", known, d) < 0)
			bad = -EINVAL;
		for (size_t i = 0; i < NQKNOBS; i++) {
			const struct node *v = node_get(queue, qknobs[i].name);
			if (v && check_queue_value(&qknobs[i], v, d) < 0)
				bad = -EINVAL;
		}
	}
	return bad;
}

static int knobs_read(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, len - 1);
	int e = n < 0 ? -errno : 0;
	close(fd);
	if (e)
		return e;
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return 0;
}

static int knobs_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, val, strlen(val));
	int e = n < 0 ? -errno : 0;
	if (close(fd) < 0 && !e)
		e = -errno;
	return e;
}

/* "none [mq-deadline] kyber" -> "mq-deadline" (in place). */
static char *knobs_active_sched(char *s)
{
	char *o = strchr(s, '['), *c = o ? strchr(o, ']') : NULL;
	if (!o || !c)
		return s;
	*c = '\0';
	return o + 1;
}

static int knobs_push(struct knobs *k, const char *kind, const char *name, const char *old, bool implicit)
{
	struct knob *nv = realloc(k->v, (k->n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	k->v = nv;
	struct knob *e = &k->v[k->n];
	int tok = state_push(kind, name, old);
	if (tok < 0)
		return tok;
	e->kind = strdup(kind);
	e->name = strdup(name);
	e->old = strdup(old);
	e->token = tok;
	e->implicit = implicit;
	k->n++;
	return 0;
}

/* Save, write, read back one value. label names it in messages. */
static int knobs_set(struct knobs *k, const char *kind, const char *name, const char *path, const char *label,
                     const char *val, bool sched, const char *resets, const struct src_pos *pos,
                     struct diag *d)
{
	char old[4096], now[4096], a[4096], b[4096];
	int r = knobs_read(path, old, sizeof(old));
	if (r < 0) {
		if (r == -ENOENT)
			diag_error(d, pos, "%s: no such setting on this system (%s does not exist)", label,
			           path);
		else
			diag_error(d, pos, "%s: cannot read %s: %s", label, path, strerror(-r));
		return r;
	}
	const char *oldv = sched ? knobs_active_sched(old) : old;
	if (resets) {
		/* this write resets another attribute: save that one first */
		char rpath[PATH_MAX + 64], rv[64];
		snprintf(rpath, sizeof(rpath), "%.*s/%s", (int)(strrchr(path, '/') - path), path, resets);
		if (knobs_read(rpath, rv, sizeof(rv)) == 0 &&
		    (r = knobs_push(k, "sysfs", rpath, rv, true)) < 0)
			return r;
	}
	if ((r = knobs_push(k, kind, name, oldv, false)) < 0) {
		diag_error(d, pos, "%s: cannot journal the old value: %s", label, strerror(-r));
		return r;
	}
	r = knobs_write(path, val);
	if (r < 0) {
		diag_error(d, pos, "%s: the kernel refused '%s' (%s): %s", label, val, path, strerror(-r));
		return r;
	}
	if ((r = knobs_read(path, now, sizeof(now))) < 0) {
		diag_error(d, pos, "%s: cannot read back %s: %s", label, path, strerror(-r));
		return r;
	}
	knobs_norm(sched ? knobs_active_sched(now) : now, a, sizeof(a));
	knobs_norm(val, b, sizeof(b));
	if (strcmp(a, b) != 0) {
		diag_error(d, pos, "%s: wrote '%s' but the kernel reports '%s'", label, val, a);
		return -EINVAL;
	}
	return 0;
}

struct knobs *knobs_apply(const struct node *sysctl, const struct node *queue, const char *blockdev,
                          struct diag *d)
{
	struct knobs *k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	struct diag tmp;
	diag_init(&tmp);
	int bad = knobs_check(sysctl, queue, &tmp);
	diag_move(d, &tmp);
	diag_free(&tmp);
	if (bad < 0)
		goto fail;
	for (size_t i = 0; sysctl && i < sysctl->n; i++) {
		const char *name = sysctl->keys[i];
		char path[PATH_MAX], label[300];
		snprintf(path, sizeof(path), "/proc/sys/%s", name);
		for (char *p = path + 10; *p; p++)
			if (*p == '.')
				*p = '/';
		snprintf(label, sizeof(label), "sysctl %s", name);
		if (knobs_set(k, "sysctl", name, path, label, sysctl->items[i]->text, false, NULL,
		              &sysctl->kpos[i], d) < 0)
			goto fail;
	}
	if (queue && queue->n) {
		char qdir[PATH_MAX];
		int r = blockdev ? blkdev_queue_dir(blockdev, qdir, sizeof(qdir)) : -ENODEV;
		if (r < 0) {
			if (blockdev)
				diag_error(d, &queue->pos, "queue: cannot find the queue of %s: %s", blockdev,
				           strerror(-r));
			else
				diag_error(d, &queue->pos,
				           "queue: the target is on no block device (tmpfs, overlay, ...): "
				           "there is no "
				           "queue to tune");
			goto fail;
		}
		for (size_t i = 0; i < NQKNOBS; i++) {
			const struct node *v = node_get(queue, qknobs[i].name);
			if (!v)
				continue;
			char path[PATH_MAX + 64], label[64], val[64];
			snprintf(path, sizeof(path), "%s/%s", qdir, qknobs[i].name);
			snprintf(label, sizeof(label), "queue.%s", qknobs[i].name);
			const char *text = v->text;
			bool b;
			if (qknobs[i].type == Q_CACHE) {
				text = knobs_cache_value(v->text);
			} else if (qknobs[i].type == Q_BOOL) {
				node_as_bool(v, label, &b, d);
				snprintf(val, sizeof(val), "%d", b ? 1 : 0);
				text = val;
			}
			if (knobs_set(k, "sysfs", path, path, label, text, qknobs[i].type == Q_SCHED,
			              qknobs[i].resets, &v->pos, d) < 0)
				goto fail;
		}
		/* Read everything back once more: a later write may have reset
		 * an earlier one in a way we do not know about. */
		for (size_t i = 0; i < NQKNOBS; i++) {
			const struct node *v = node_get(queue, qknobs[i].name);
			char path[PATH_MAX + 64], now[256], a[256], b[256];
			if (!v)
				continue;
			snprintf(path, sizeof(path), "%s/%s", qdir, qknobs[i].name);
			if (knobs_read(path, now, sizeof(now)) < 0)
				continue;
			const char *want = qknobs[i].type == Q_CACHE ? knobs_cache_value(v->text) : v->text;
			bool bv;
			if (qknobs[i].type == Q_BOOL && node_as_bool(v, "queue", &bv, d) == 0)
				want = bv ? "1" : "0";
			knobs_norm(qknobs[i].type == Q_SCHED ? knobs_active_sched(now) : now, a, sizeof(a));
			knobs_norm(want, b, sizeof(b));
			if (strcmp(a, b) != 0) {
				diag_error(d, &v->pos,
				           "queue.%s: set to '%s' but later changes reset it to '%s'",
				           qknobs[i].name, want, a);
				goto fail;
			}
		}
	}
	return k;
fail:
	knobs_restore(k, d);
	return NULL;
}

int knobs_restore(struct knobs *k, struct diag *d)
{
	if (!k)
		return 0;
	int first = 0;
	for (size_t i = k->n; i-- > 0;) {
		struct knob *e = &k->v[i];
		struct diag tmp;
		diag_init(&tmp);
		int r = state_undo_action(e->kind, e->name, e->old, &tmp);
		if (r < 0 && e->implicit) {
			/* not every device lets nr_requests be written back */
			diag_free(&tmp);
			diag_init(&tmp);
			r = 0;
		}
		diag_move(d, &tmp);
		diag_free(&tmp);
		if (r == 0)
			state_done(e->token);
		else if (!first)
			first = r;
		free(e->kind);
		free(e->name);
		free(e->old);
	}
	free(k->v);
	free(k);
	return first;
}
