/* io_opts: the options of the `io:` step, parsed and validated with the
 * position of every value (see docs/steps/io.md for the manual).
 *
 * All problems of one map are reported together; cross-option rules (bs
 * divides size, time_based needs runtime, direct needs 512-byte multiples)
 * are checked only when the options involved parsed cleanly, so one typo
 * does not produce a cascade of follow-up errors. */
#include "io_opts.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "io_dist_opts.h"
#include "io_devopts.h"
#include "io_engine.h"
#include "io_lat_rec.h"
#include "io_opts_table.h"
#include "io_pattern.h"
#include "units.h"

const char *io_rw_name(enum io_rw rw)
{
	return io_rw_values[rw];
}

static void io_opts_defaults(struct io_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->rw = IO_RW_READ;
	o->mix = 50;
	o->bs = 4096;
	o->size = 1ull << 30;
	o->sync = IO_SYNC_NONE;
	o->cache = IO_CACHE_KEEP;
	o->engine = io_engines[0];
	o->iodepth = 1;
	o->jobs = 1;
	snprintf(o->file, sizeof(o->file), "%s", "benchgrid-io.dat");
	o->prepare = IO_PREPARE_AUTO;
	o->data = IO_DATA_RANDOM;
	o->interval = 1.0;
	o->seed = 1;
}

/* sync: none | end | dsync | sync | every N | N */
static int parse_sync(const struct node *n, struct io_opts *o, struct diag *d)
{
	static const char *const names[] = {"none", "end", "every N", "dsync", "sync", NULL};
	if (!n || n->kind != NODE_SCALAR) {
		const char *dummy;
		return node_as_string(n, "io.sync", &dummy, d);
	}
	const char *t = n->text;
	int64_t every;
	if (strncasecmp(t, "every", 5) == 0 || units_is_int(t, &every)) {
		const char *num = t;
		if (strncasecmp(t, "every", 5) == 0) {
			num = t + 5;
			while (*num == ' ' || *num == '\t')
				num++;
		}
		if (!units_is_int(num, &every) || every < 1) {
			diag_error(
			    d, &n->pos,
			    "io.sync: expected 'every N' with N a positive number of writes, found '%s'", t);
			return -EINVAL;
		}
		o->sync = IO_SYNC_EVERY;
		o->sync_every = (uint64_t)every;
		return 0;
	}
	int v;
	if (node_as_enum(n, "io.sync", names, &v, d))
		return -EINVAL;
	if (v == IO_SYNC_EVERY) {
		diag_error(d, &n->pos, "io.sync: write 'every N' with a number, e.g. 'every 32'");
		return -EINVAL;
	}
	o->sync = (enum io_sync)v;
	return 0;
}

/* engine: a name from io_engines[] */
static void parse_engine(const struct node *n, struct io_opts *o, struct diag *d)
{
	const char *names[16];
	size_t k = 0;
	for (; io_engines[k] && k + 1 < sizeof(names) / sizeof(names[0]); k++)
		names[k] = io_engines[k]->name;
	names[k] = NULL;
	int e;
	if (!node_as_enum(n, "io.engine", names, &e, d))
		o->engine = io_engines[e];
	o->engine_pos = n->pos;
}

/* file: a name inside the target */
static void parse_file(const struct node *n, struct io_opts *o, struct diag *d)
{
	const char *s;
	o->file_pos = n->pos;
	if (node_as_string(n, "io.file", &s, d))
		return;
	if (!*s)
		diag_error(d, &n->pos, "io.file: the file name is empty");
	else if (s[0] == '/')
		diag_error(d, &n->pos, "io.file: '%s' must be a name within the target, not an absolute path",
		           s);
	else if (strstr(s, "..") && (strcmp(s, "..") == 0 || strncmp(s, "../", 3) == 0 || strstr(s, "/../") ||
	                             (strlen(s) >= 3 && !strcmp(s + strlen(s) - 3, "/.."))))
		diag_error(d, &n->pos, "io.file: '%s' must stay within the target ('..' is not allowed)", s);
	else if (strlen(s) >= sizeof(o->file) - 8)
		diag_error(d, &n->pos, "io.file: name too long (at most %zu characters)",
		           sizeof(o->file) - 9);
	else
		snprintf(o->file, sizeof(o->file), "%s", s);
}

/* Which values parsed cleanly: the rules between options need them. */
struct io_parsed {
	bool bs, size, io_size, runtime;
};

/* What the I/O is: rw, mix, sizes, time. */
static void parse_shape(const struct node *opts, struct io_opts *o, struct io_parsed *ok, struct diag *d)
{
	const struct node *n;
	int e;
	int64_t i64;
	if ((n = node_get(opts, "rw")) && !node_as_enum(n, "io.rw", io_rw_values, &e, d))
		o->rw = (enum io_rw)e;
	if ((n = node_get(opts, "mix")) && !node_as_int(n, "io.mix", 0, 100, &i64, d))
		o->mix = (unsigned)i64;
	if ((n = node_get(opts, "bs")))
		ok->bs = !node_as_size(n, "io.bs", false, &o->bs, d);
	if ((n = node_get(opts, "size")))
		ok->size = !node_as_size(n, "io.size", false, &o->size, d);
	if ((n = node_get(opts, "io_size")))
		ok->io_size = !node_as_size(n, "io.io_size", false, &o->io_size, d);
	if ((n = node_get(opts, "runtime")))
		ok->runtime = !node_as_duration(n, "io.runtime", true, &o->runtime, d);
	if ((n = node_get(opts, "time_based")))
		node_as_bool(n, "io.time_based", &o->time_based, d);
	if ((n = node_get(opts, "ramp")))
		node_as_duration(n, "io.ramp", true, &o->ramp, d);
}

/* How the I/O is done and where: engine, flags, file, data, monitor. */
static void parse_how(const struct node *opts, struct io_opts *o, struct diag *d)
{
	const struct node *n;
	int e;
	int64_t i64;
	if ((n = node_get(opts, "direct"))) {
		node_as_bool(n, "io.direct", &o->direct, d);
		o->direct_pos = n->pos;
	}
	if ((n = node_get(opts, "sync")))
		parse_sync(n, o, d);
	if ((n = node_get(opts, "cache"))) {
		if (!node_as_enum(n, "io.cache", io_cache_values, &e, d))
			o->cache = (enum io_cache)e;
		o->cache_pos = n->pos;
	}
	if ((n = node_get(opts, "engine")))
		parse_engine(n, o, d);
	if ((n = node_get(opts, "iodepth")) && !node_as_int(n, "io.iodepth", 1, 4096, &i64, d))
		o->iodepth = (unsigned)i64;
	if ((n = node_get(opts, "jobs")) && !node_as_int(n, "io.jobs", 1, 256, &i64, d))
		o->jobs = (unsigned)i64;
	if ((n = node_get(opts, "file")))
		parse_file(n, o, d);
	if ((n = node_get(opts, "keep")))
		node_as_bool(n, "io.keep", &o->keep, d);
	if ((n = node_get(opts, "prepare")) && !node_as_enum(n, "io.prepare", io_prepare_values, &e, d))
		o->prepare = (enum io_prepare)e;
	if ((n = node_get(opts, "data")) && !node_as_enum(n, "io.data", io_data_values, &e, d))
		o->data = (enum io_data)e;
	if ((n = node_get(opts, "interval")) && !node_as_duration(n, "io.interval", false, &o->interval, d) &&
	    o->interval < 0.01) {
		diag_error(d, &n->pos, "io.interval: %g s is too short (at least 10ms)", o->interval);
	}
	if ((n = node_get(opts, "verify")))
		node_as_bool(n, "io.verify", &o->verify, d);
	if ((n = node_get(opts, "seed")) && !node_as_int(n, "io.seed", 0, INT64_MAX, &i64, d))
		o->seed = (uint64_t)i64;
}

/* The rules between options, each reported at the value that breaks it. */
static void check_rules(const struct node *opts, struct io_opts *o, const struct io_parsed *ok,
                        struct diag *d)
{
	const struct node *n;
	const struct node *nbs = node_get(opts, "bs"), *nsize = node_get(opts, "size");
	const struct src_pos *pbs = nbs ? &nbs->pos : &o->pos, *psize = nsize ? &nsize->pos : &o->pos;
	if ((n = node_get(opts, "mix")) && o->rw != IO_RW_RANDRW && !diag_error_at(d, &n->pos))
		diag_error(d, &n->pos, "io.mix: only applies to rw: randrw (rw is %s)", io_rw_name(o->rw));
	if (ok->bs && ok->size) {
		if (o->bs > o->size)
			diag_error(d, pbs, "io.bs: %llu bytes is larger than io.size (%llu bytes)",
			           (unsigned long long)o->bs, (unsigned long long)o->size);
		else if (o->size % o->bs)
			diag_error(d, psize, "io.size: %llu bytes is not a multiple of io.bs (%llu bytes)",
			           (unsigned long long)o->size, (unsigned long long)o->bs);
	}
	if (ok->bs && o->bs > (1ull << 30))
		diag_error(d, pbs, "io.bs: at most 1GiB");
	if (ok->bs && o->direct && o->bs % 512)
		diag_error(d, pbs, "io.bs: %llu bytes is not a multiple of 512, which direct: true needs",
		           (unsigned long long)o->bs);
	if (ok->bs && o->verify && o->bs < IO_PATTERN_MIN)
		diag_error(d, pbs, "io.bs: verify needs blocks of at least %d bytes", IO_PATTERN_MIN);
	if (ok->bs && (n = node_get(opts, "io_size")) && ok->io_size) {
		if (o->io_size < o->bs)
			diag_error(d, &n->pos, "io.io_size: %llu bytes is less than one block (io.bs = %llu)",
			           (unsigned long long)o->io_size, (unsigned long long)o->bs);
		o->io_size -= o->io_size % o->bs;
	}
	if (!node_get(opts, "io_size"))
		o->io_size = o->size;
	if (o->time_based && ok->runtime && o->runtime <= 0) {
		n = node_get(opts, "time_based");
		diag_error(d, &n->pos, "io.time_based: needs a runtime (e.g. runtime: 30s)");
	}
	if (o->iodepth > 1 && !o->engine->queued) {
		n = node_get(opts, "iodepth");
		diag_warn(d, &n->pos, "io.iodepth: %s does one I/O at a time; iodepth %u is ignored",
		          o->engine->name, o->iodepth);
	}
}

int io_opts_parse(const struct node *opts, struct io_opts *o, struct diag *d)
{
	io_opts_defaults(o);
	o->io_size = o->size;
	if (!opts || opts->kind == NODE_NULL)
		return 0;
	if (opts->pos.line)
		o->pos = opts->pos;
	size_t before = d->nerrors;
	/* An unknown key is one error among the others, not the only one. */
	if (opt_check_keys(opts, "io", &io_opt_table, d) && opts->kind != NODE_MAP)
		return -EINVAL;

	struct io_parsed ok = {true, true, true, true};
	parse_shape(opts, o, &ok, d);
	parse_how(opts, o, d);
	io_lat_parse(opts, &o->lat_log, &o->hist_log, d);
	io_rate_parse(opts, io_rw_name(o->rw), io_rw_reads(o->rw), io_rw_writes(o->rw), &o->rt, d);
	io_dist_parse(opts,
	              &(struct io_dist_rules){io_rw_random(o->rw), io_rw_name(o->rw), o->direct, o->verify,
	                                      node_get(opts, "bs") != NULL, o->size},
	              &o->dist, &o->bssplit, d);
	if (o->bssplit.n) /* the offsets' granule; buffers take the largest */
		o->bs = o->bssplit.min;
	check_rules(opts, o, &ok, d);
	io_files_opts.parse(opts, o, d);
	io_devopts_parse(opts, &o->dev,
	                 &(struct io_devopts_in){o->file, io_rw_name(o->rw), io_rw_trims(o->rw), o->verify,
	                                         o->sync != IO_SYNC_NONE, o->runtime, o->interval},
	                 d);
	/* what the engine cannot do, once the rest is right (trims and
	 * metadata operations do not use it) */
	if (o->engine->check && d->nerrors == before && !io_rw_trims(o->rw) && o->op == IO_OP_NONE)
		o->engine->check(opts, o, d);
	opt_check_values(opts, "io", &io_opt_table, d);
	return d->nerrors > before ? -EINVAL : 0;
}
