/* fio_opts: fio option -> io step key, one handler per kind of value
 * (docs/import-fio.md is the table for users). */
#include "fio_opts.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio_opts_special.h"
#include "fio_value.h"

const char *const fio_io_key_order[] = {
    "op",
    "rw",
    "mix",
    "bs",
    "bssplit",
    "size",
    "filesize",
    "nrfiles",
    "openfiles",
    "file_service",
    "io_size",
    "runtime",
    "time_based",
    "ramp",
    "direct",
    "sync",
    "fsync_on_close",
    "cache",
    "engine",
    "iodepth",
    "jobs",
    "file",
    "data",
    "verify",
    "seed",
    "rate",
    "rate_iops",
    "rate_process",
    "random_distribution",
    "thinktime",
    "thinktime_blocks",
    "cpus_allowed",
    "nice",
    "ioprio",
    "steady_state",
    "lat_log",
    "hist_log",
    NULL,
};

struct fio_optdef {
	const char *name;
	fio_opt_fn fn;
	const char *key; /* the io key, or what the handler needs */
};

static int h_ignore(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	(void)j, (void)key, (void)v, (void)err, (void)errlen;
	return 0;
}

static int h_name(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	if (fio_need(v, key, err, errlen))
		return -1;
	free(j->name);
	j->name = strdup(v);
	return 0;
}

static int h_description(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	(void)key, (void)err, (void)errlen;
	if (v && *v)
		fio_strs_add(&j->notes, "%s", v);
	return 0;
}

/* stonewall, wait_for_previous, new_group, group_reporting: bools that
 * shape the groups (fio_map.c). */
static int h_group(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	bool b = true;
	if (v && fio_parse_bool(v, &b)) {
		snprintf(err, errlen, "'%s' is not 0 or 1", v);
		return -1;
	}
	if (!strcmp(key, "new_group"))
		j->new_group = b;
	else if (!strcmp(key, "group_reporting"))
		j->group_reporting = b;
	else
		j->stonewall = b;
	return 0;
}

static int h_size(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	char buf[64];
	if (fio_need(v, key, err, errlen) || fio_size_text(j, v, buf, sizeof(buf), err, errlen))
		return -1;
	fio_kv_set(&j->io, key, buf);
	return 0;
}

/* bs=4k or bs=4k,4k: one block size for reads and writes. */
static int h_bs(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	if (fio_need(v, key, err, errlen))
		return -1;
	char a[64], b[64], first[64] = "";
	const char *p = v;
	while (p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		snprintf(a, sizeof(a), "%.*s", (int)n, p);
		p = comma ? comma + 1 : NULL;
		if (!*a)
			continue;
		if (fio_size_text(j, a, b, sizeof(b), err, errlen))
			return -1;
		if (*first && strcmp(first, b)) {
			snprintf(err, errlen, "different block sizes per direction");
			return -1;
		}
		snprintf(first, sizeof(first), "%s", b);
	}
	if (!*first)
		return fio_need(NULL, key, err, errlen);
	fio_kv_set(&j->io, key, first);
	return 0;
}

/* filesize=4k or 4k-64k (or 4k:64k). */
static int h_filesize(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	if (fio_need(v, key, err, errlen))
		return -1;
	char lo[64], a[64], b[64], out[140];
	size_t n = strcspn(v, "-:");
	snprintf(lo, sizeof(lo), "%.*s", (int)n, v);
	if (fio_size_text(j, lo, a, sizeof(a), err, errlen))
		return -1;
	if (!v[n]) {
		fio_kv_set(&j->io, key, a);
		return 0;
	}
	if (fio_size_text(j, v + n + 1, b, sizeof(b), err, errlen))
		return -1;
	snprintf(out, sizeof(out), "%s-%s", a, b);
	fio_kv_set(&j->io, key, out);
	return 0;
}

static int h_time_unit(struct fio_job *j, const char *key, const char *v, uint64_t unit, char *err,
                       size_t errlen)
{
	uint64_t us;
	char buf[64];
	if (fio_need(v, key, err, errlen) || fio_parse_time(v, unit, &us, err, errlen))
		return -1;
	fio_format_time(us, buf, sizeof(buf));
	fio_kv_set(&j->io, key, buf);
	return 0;
}

static int h_time(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	return h_time_unit(j, key, v, 1000000, err, errlen);
}

static int h_time_us(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	return h_time_unit(j, key, v, 1, err, errlen);
}

static int h_time_ms(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	return h_time_unit(j, key, v, 1000, err, errlen);
}

static int h_bool(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	bool b;
	if (fio_get_bool(v, &b, err, errlen))
		return -1;
	fio_kv_set(&j->io, key, b ? "true" : "false");
	return 0;
}

static int h_buffered(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	bool b;
	if (fio_get_bool(v, &b, err, errlen))
		return -1;
	fio_kv_set(&j->io, key, b ? "false" : "true");
	return 0;
}

static int h_uint(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	uint64_t n;
	char buf[32];
	if (fio_need(v, key, err, errlen))
		return -1;
	if (fio_parse_uint(v, &n)) {
		snprintf(err, errlen, "'%s' is not a whole number", v);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%" PRIu64, n);
	fio_kv_set(&j->io, key, buf);
	return 0;
}

static int h_nice(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	uint64_t n;
	if (fio_need(v, key, err, errlen))
		return -1;
	if (fio_parse_uint(v[0] == '-' ? v + 1 : v, &n) || n > 20) {
		snprintf(err, errlen, "'%s' is not a nice value (-20..19)", v);
		return -1;
	}
	fio_kv_set(&j->io, key, v);
	return 0;
}

static int h_numjobs(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	if (fio_need(v, key, err, errlen))
		return -1;
	if (fio_parse_uint(v, &j->numjobs) || j->numjobs < 1) {
		snprintf(err, errlen, "'%s' is not a positive number", v);
		return -1;
	}
	return 0;
}

/* fio option -> handler and io key. Every other fio option is unsupported. */
static const struct fio_optdef optdefs[] = {
    /* accepted, no effect on the step (see docs/import-fio.md) */
    {"kb_base", h_ignore, NULL},
    {"group_reporting", h_group, NULL},
    {"new_group", h_group, NULL},
    {"thread", h_ignore, NULL},
    {"unlink", h_ignore, NULL},
    {"name", h_name, NULL},
    {"description", h_description, NULL},
    {"stonewall", h_group, NULL},
    {"wait_for_previous", h_group, NULL},
    /* the existing io keys */
    {"rw", fio_h_rw, "rw"},
    {"readwrite", fio_h_rw, "rw"},
    {"rwmixread", fio_h_mixread, "mix"},
    {"rwmixwrite", fio_h_mixwrite, "mix"},
    {"bs", h_bs, "bs"},
    {"blocksize", h_bs, "bs"},
    {"size", h_size, "size"},
    {"io_size", h_size, "io_size"},
    {"io_limit", h_size, "io_size"},
    {"runtime", h_time, "runtime"},
    {"timeout", h_time, "runtime"},
    {"time_based", h_bool, "time_based"},
    {"ramp_time", h_time, "ramp"},
    {"direct", h_bool, "direct"},
    {"buffered", h_buffered, "direct"},
    {"end_fsync", fio_h_end_fsync, "sync"},
    {"fdatasync", fio_h_fdatasync, "sync"},
    {"sync", fio_h_sync, "sync"},
    {"invalidate", fio_h_invalidate, "cache"},
    {"ioengine", fio_h_engine, "engine"},
    {"iodepth", h_uint, "iodepth"},
    {"numjobs", h_numjobs, "jobs"},
    {"filename", fio_h_filename, "file"},
    {"directory", fio_h_directory, NULL},
    {"zero_buffers", fio_h_zero, "data"},
    {"verify", fio_h_verify, "verify"},
    {"randseed", h_uint, "seed"},
    /* the keys added with issue 15 */
    {"fsync_on_close", h_bool, "fsync_on_close"},
    {"nrfiles", h_uint, "nrfiles"},
    {"filesize", h_filesize, "filesize"},
    {"file_service_type", fio_h_file_service, "file_service"},
    {"openfiles", h_uint, "openfiles"},
    {"rate", fio_h_rate, "rate"},
    {"rate_iops", fio_h_rate_iops, "rate_iops"},
    {"rate_process", fio_h_word, "rate_process"},
    {"random_distribution", fio_h_distribution, "random_distribution"},
    {"bssplit", fio_h_bssplit, "bssplit"},
    {"thinktime", h_time_us, "thinktime"},
    {"thinktime_blocks", h_uint, "thinktime_blocks"},
    {"cpus_allowed", fio_h_cpus, "cpus_allowed"},
    {"nice", h_nice, "nice"},
    {"prio", fio_h_prio, "ioprio"},
    {"prioclass", fio_h_prioclass, "ioprio"},
    {"steadystate", fio_h_ss, "steady_state"},
    {"ss", fio_h_ss, "steady_state"},
    {"steadystate_duration", fio_h_ss_time, "duration"},
    {"ss_dur", fio_h_ss_time, "duration"},
    {"steadystate_ramp_time", fio_h_ss_time, "ramp"},
    {"ss_ramp", fio_h_ss_time, "ramp"},
    {"write_lat_log", fio_h_lat_log, "lat_log"},
    {"log_hist_msec", h_time_ms, "hist_log"},
};

int fio_opt_apply(struct fio_job *j, const struct fio_opt *o, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(optdefs) / sizeof(optdefs[0]); i++)
		if (!strcmp(o->key, optdefs[i].name)) {
			const char *key = optdefs[i].key ? optdefs[i].key : optdefs[i].name;
			if (o->val && (strstr(o->val, "$ncpus") || strstr(o->val, "$mb_memory") ||
			               strstr(o->val, "$pagesize"))) {
				snprintf(
				    err, errlen,
				    "fio's keywords ($ncpus, $mb_memory, $pagesize) have no io equivalent");
				return -1;
			}
			if (o->val && o->val[0] == '(') {
				snprintf(err, errlen, "fio's arithmetic expressions have no io equivalent");
				return -1;
			}
			return optdefs[i].fn(j, key, o->val, err, errlen) ? -1 : 0;
		}
	return 1;
}

/* ss=iops_slope:0.3% -> {metric: iops, slope: 0.3%, duration, ramp}. */
static int finish_ss(struct fio_job *j, char *err, size_t errlen)
{
	if (!j->ss) {
		if (j->ss_dur || j->ss_ramp) {
			snprintf(err, errlen, "ss_dur or ss_ramp without ss");
			return -1;
		}
		return 0;
	}
	char metric[16];
	const char *colon = strchr(j->ss, ':');
	snprintf(metric, sizeof(metric), "%.*s", (int)strcspn(j->ss, "_:"), j->ss);
	fio_kv_set(&j->io, "steady_state", NULL);
	struct fio_kv *kv = fio_kv_get(&j->io, "steady_state");
	fio_kv_sub(kv, "metric", metric);
	fio_kv_sub(kv, strstr(j->ss, "_slope") ? "slope" : "range", colon + 1);
	if (j->ss_dur)
		fio_kv_sub(kv, "duration", j->ss_dur);
	if (j->ss_ramp)
		fio_kv_sub(kv, "ramp", j->ss_ramp);
	return 0;
}

int fio_job_finish(struct fio_job *j, char *err, size_t errlen)
{
	/* fio's invalidate=1 is its default: the page cache of the file is
	 * dropped before the job. */
	if (j->invalidate != 0)
		fio_kv_set(&j->io, "cache", "invalidate");
	if (j->numjobs > 1) {
		char buf[32];
		snprintf(buf, sizeof(buf), "%" PRIu64, j->numjobs);
		fio_kv_set(&j->io, "jobs", buf);
	}
	/* fio reads rwmixread only for mixed workloads; the io step refuses it
	 * elsewhere. */
	const struct fio_kv *rw = fio_kv_get(&j->io, "rw");
	if (!rw || strcmp(rw->val, "randrw"))
		fio_kv_del(&j->io, "mix");
	if (j->prioclass || j->prio >= 0) {
		static const char *const cls[] = {"be", "rt", "be", "idle"};
		char buf[32];
		snprintf(buf, sizeof(buf), "%s/%d", cls[j->prioclass], j->prio >= 0 ? j->prio : 4);
		fio_kv_set(&j->io, "ioprio", buf);
	}
	return finish_ss(j, err, errlen);
}
