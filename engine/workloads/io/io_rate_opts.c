/* io_rate_opts: rate, thinktime, cpus_allowed, nice and ioprio options
 * (see io_rate_opts.h). */
#include "io_rate_opts.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_opts_table.h"

#define IO_NCPU 1024

int io_sched_parse_cpus(const char *s, uint64_t mask[16], char *err, size_t errlen)
{
	memset(mask, 0, 16 * sizeof(uint64_t));
	const char *p = s;
	bool any = false;
	while (*p) {
		while (*p == ' ')
			p++;
		char *end;
		if (*p < '0' || *p > '9')
			goto bad;
		unsigned long a = strtoul(p, &end, 10), b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				goto bad;
			b = strtoul(p, &end, 10);
			p = end;
		}
		while (*p == ' ')
			p++;
		if (*p && *p != ',')
			goto bad;
		if (*p == ',')
			p++;
		if (b < a) {
			snprintf(err, errlen, "'%lu-%lu' is an empty range", a, b);
			return -EINVAL;
		}
		if (b >= IO_NCPU) {
			snprintf(err, errlen, "CPU %lu is beyond %d", b, IO_NCPU - 1);
			return -EINVAL;
		}
		for (unsigned long c = a; c <= b; c++)
			mask[c / 64] |= 1ull << (c % 64);
		any = true;
	}
	if (any)
		return 0;
bad:
	snprintf(err, errlen, "expected CPU numbers and ranges like \"0-1,3\", found '%s'", s);
	return -EINVAL;
}

void io_sched_format_cpus(const uint64_t mask[16], char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (unsigned c = 0; c < IO_NCPU && n < len; c++) {
		if (!(mask[c / 64] >> (c % 64) & 1))
			continue;
		unsigned e = c;
		while (e + 1 < IO_NCPU && (mask[(e + 1) / 64] >> ((e + 1) % 64) & 1))
			e++;
		int w = e > c ? snprintf(buf + n, len - n, "%s%u-%u", n ? "," : "", c, e)
		              : snprintf(buf + n, len - n, "%s%u", n ? "," : "", c);
		n += w > 0 ? (size_t)w : 0;
		c = e;
	}
}

/* The CPUs this process may run on. */
static void machine_cpus(uint64_t mask[16])
{
	cpu_set_t set;
	memset(mask, 0, 16 * sizeof(uint64_t));
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (unsigned c = 0; c < IO_NCPU && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			mask[c / 64] |= 1ull << (c % 64);
}

static void parse_cpus(const struct node *n, struct io_rate_opts *o, struct diag *d)
{
	const char *s;
	char err[160], have[128];
	if (node_as_string(n, "io.cpus_allowed", &s, d))
		return;
	if (io_sched_parse_cpus(s, o->cpus_mask, err, sizeof(err))) {
		diag_error(d, &n->pos, "io.cpus_allowed: %s", err);
		return;
	}
	uint64_t m[16];
	machine_cpus(m);
	for (unsigned c = 0; c < IO_NCPU; c++)
		if ((o->cpus_mask[c / 64] >> (c % 64) & 1) && !(m[c / 64] >> (c % 64) & 1)) {
			io_sched_format_cpus(m, have, sizeof(have));
			diag_error(d, &n->pos,
			           "io.cpus_allowed: CPU %u is not available on this machine (CPUs %s are)",
			           c, have);
			return;
		}
	snprintf(o->cpus_allowed, sizeof(o->cpus_allowed), "%s", s);
}

/* ioprio: rt/N | be/N | idle (N 0-7, the level; lower is more urgent) */
static void parse_ioprio(const struct node *n, struct io_rate_opts *o, struct diag *d)
{
	const char *s;
	if (node_as_string(n, "io.ioprio", &s, d))
		return;
	int cls = 0;
	const char *lvl = NULL;
	if (!strcmp(s, "idle"))
		cls = 3;
	else if (!strncmp(s, "rt/", 3))
		cls = 1, lvl = s + 3;
	else if (!strncmp(s, "be/", 3))
		cls = 2, lvl = s + 3;
	if (!cls || (lvl && (lvl[0] < '0' || lvl[0] > '7' || lvl[1]))) {
		diag_error(
		    d, &n->pos,
		    "io.ioprio: expected rt/N, be/N (N a level 0-7, 0 the most urgent) or idle, found '%s'",
		    s);
		return;
	}
	o->has_ioprio = true;
	o->ioprio_class = cls;
	o->ioprio_level = lvl ? lvl[0] - '0' : 0;
}

static void io_sched_parse(const struct node *opts, struct io_rate_opts *o, struct diag *d)
{
	const struct node *n;
	int64_t i64;
	if ((n = node_get(opts, "cpus_allowed")))
		parse_cpus(n, o, d);
	if ((n = node_get(opts, "nice")) && !node_as_int(n, "io.nice", -20, 19, &i64, d)) {
		o->has_nice = true;
		o->nice = (int)i64;
	}
	if ((n = node_get(opts, "ioprio")))
		parse_ioprio(n, o, d);
}

static const char *const dir_keys[] = {"read", "write", NULL};

/* One value: an integer count (iops), else a size per second. */
static int parse_one(const struct node *n, const char *what, bool iops, uint64_t *out, struct diag *d)
{
	int64_t i64;
	if (!iops)
		return node_as_size(n, what, false, out, d);
	if (node_as_int(n, what, 1, 1000000000, &i64, d))
		return -EINVAL;
	*out = (uint64_t)i64;
	return 0;
}

/* A value for both directions, or {read: .., write: ..}. */
static void parse_dirs(const struct node *n, const char *what, bool iops, uint64_t out[2], struct diag *d)
{
	char w[48];
	uint64_t v;
	if (n->kind != NODE_MAP) {
		if (!parse_one(n, what, iops, &v, d))
			out[0] = out[1] = v;
		return;
	}
	if (node_check_keys(n, what, dir_keys, d))
		return;
	for (int k = 0; k < 2; k++) {
		const struct node *e = node_get(n, dir_keys[k]);
		snprintf(w, sizeof(w), "%s.%s", what, dir_keys[k]);
		if (e && !parse_one(e, w, iops, &v, d))
			out[k] = v;
	}
}

/* What the step does, for the rules between options. */
struct io_rw_facts {
	const char *rw;
	bool dir[2]; /* reads, writes */
};

/* A limit on a direction the workload does not do is a mistake. */
static void check_dirs(const struct node *n, const char *what, const struct io_rw_facts *f, struct diag *d)
{
	if (n->kind != NODE_MAP)
		return;
	for (int k = 0; k < 2; k++) {
		const struct node *v = node_get(n, dir_keys[k]);
		if (v && !f->dir[k])
			diag_error(d, &v->pos, "%s.%s: rw: %s does no %ss", what, dir_keys[k], f->rw,
			           dir_keys[k]);
	}
}

static void parse_rates(const struct node *opts, const struct io_rw_facts *f, struct io_rate_opts *o,
                        struct diag *d)
{
	const struct node *nr = node_get(opts, "rate"), *ni = node_get(opts, "rate_iops"), *n;
	size_t before = d->nerrors;
	if (nr) {
		parse_dirs(nr, "io.rate", false, o->rate, d);
		check_dirs(nr, "io.rate", f, d);
	}
	if (ni) {
		parse_dirs(ni, "io.rate_iops", true, o->rate_iops, d);
		check_dirs(ni, "io.rate_iops", f, d);
	}
	for (int k = 0; k < 2 && d->nerrors == before; k++)
		if (o->rate[k] && o->rate_iops[k] && f->dir[k])
			diag_error(d, &ni->pos, "io.rate_iops: %ss have both rate and rate_iops; give one",
			           dir_keys[k]);
	int e;
	if ((n = node_get(opts, "rate_process"))) {
		if (!node_as_enum(n, "io.rate_process", io_rate_process_values, &e, d))
			o->poisson = e == 1;
		if (!nr && !ni && !diag_error_at(d, &n->pos))
			diag_error(d, &n->pos, "io.rate_process: needs rate or rate_iops");
	}
	/* a limit on the direction rw does not do is no limit */
	for (int k = 0; k < 2; k++)
		if (!f->dir[k])
			o->rate[k] = o->rate_iops[k] = 0;
}

void io_rate_parse(const struct node *opts, const char *rw, bool reads, bool writes, struct io_rate_opts *o,
                   struct diag *d)
{
	const struct node *n, *nt = node_get(opts, "thinktime");
	const struct io_rw_facts f = {rw, {reads, writes}};
	int64_t i64;
	memset(o, 0, sizeof(*o));
	parse_rates(opts, &f, o, d);
	if (nt)
		node_as_duration(nt, "io.thinktime", true, &o->thinktime, d);
	o->thinktime_blocks = 1;
	if ((n = node_get(opts, "thinktime_blocks"))) {
		if (!node_as_int(n, "io.thinktime_blocks", 1, INT32_MAX, &i64, d))
			o->thinktime_blocks = (uint64_t)i64;
		if (!nt && !diag_error_at(d, &n->pos))
			diag_error(d, &n->pos, "io.thinktime_blocks: needs thinktime");
	}
	o->paced = o->rate[0] || o->rate[1] || o->rate_iops[0] || o->rate_iops[1] || o->thinktime > 0;
	io_sched_parse(opts, o, d);
}
