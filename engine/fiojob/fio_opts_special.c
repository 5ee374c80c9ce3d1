/* fio_opts_special: the fio options whose values change form (see
 * fio_opts_special.h). */
#include "fio_opts_special.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio_value.h"

int fio_need(const char *v, const char *key, char *err, size_t errlen)
{
	if (v && *v)
		return 0;
	snprintf(err, errlen, "'%s' needs a value", key);
	return -1;
}

int fio_size_text(struct fio_job *j, const char *v, char *out, size_t len, char *err, size_t errlen)
{
	uint64_t b;
	if (fio_parse_size(v, j->kb_base, &b, err, errlen))
		return -1;
	fio_format_size(b, out, len);
	return 0;
}

int fio_get_bool(const char *v, bool *b, char *err, size_t errlen)
{
	*b = true;
	if (v && fio_parse_bool(v, b)) {
		snprintf(err, errlen, "'%s' is not 0 or 1", v);
		return -1;
	}
	return 0;
}

static int one_of(const char *v, const char *const *names, char *err, size_t errlen)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(v, names[i]))
			return i;
	snprintf(err, errlen, "'%s' has no io equivalent", v);
	return -1;
}

int fio_h_rw(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = {"read", "write",    "randread", "randwrite", "randrw",
	                                    "trim", "randtrim", "rw",       "readwrite", NULL};
	if (fio_need(v, key, err, errlen))
		return -1;
	if (strchr(v, ':')) {
		snprintf(err, errlen, "the ':N' offset modifier has no io equivalent");
		return -1;
	}
	int i = one_of(v, names, err, errlen);
	if (i < 0)
		return -1;
	if (i >= 7) {
		snprintf(err, errlen,
		         "sequential mixed reads and writes have no io equivalent (randrw is random)");
		return -1;
	}
	fio_kv_set(&j->io, key, v);
	return 0;
}

static int mix(struct fio_job *j, const char *key, const char *v, bool reads, char *err, size_t errlen)
{
	uint64_t n;
	char buf[16];
	if (fio_need(v, key, err, errlen))
		return -1;
	if (fio_parse_uint(v, &n) || n > 100) {
		snprintf(err, errlen, "'%s' is not a percentage (0-100)", v);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%" PRIu64, reads ? n : 100 - n);
	fio_kv_set(&j->io, "mix", buf);
	return 0;
}

int fio_h_mixread(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	return mix(j, key, v, true, err, errlen);
}

int fio_h_mixwrite(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	return mix(j, key, v, false, err, errlen);
}

/* bssplit=4k/60:64k/30:1m/10, sizes in benchgrid's units. */
int fio_h_bssplit(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	if (fio_need(v, key, err, errlen))
		return -1;
	if (strchr(v, ',')) {
		snprintf(err, errlen, "a split per direction (',') has no io equivalent");
		return -1;
	}
	char out[1024] = "", part[128], size[64];
	for (const char *p = v; p && *p;) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		snprintf(part, sizeof(part), "%.*s", (int)n, p);
		p = colon ? colon + 1 : NULL;
		char *slash = strchr(part, '/');
		if (slash)
			*slash = 0;
		if (fio_size_text(j, part, size, sizeof(size), err, errlen))
			return -1;
		size_t len = strlen(out);
		snprintf(out + len, sizeof(out) - len, "%s%s%s%s", len ? ":" : "", size, slash ? "/" : "",
		         slash ? slash + 1 : "");
	}
	fio_kv_set(&j->io, key, out);
	return 0;
}

int fio_h_file_service(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = {"roundrobin", "random", "sequential", NULL};
	if (fio_need(v, key, err, errlen))
		return -1;
	if (strchr(v, ':')) {
		snprintf(err, errlen, "switching files every N I/Os (':N') has no io equivalent");
		return -1;
	}
	if (one_of(v, names, err, errlen) < 0)
		return -1;
	fio_kv_set(&j->io, key, v);
	return 0;
}

int fio_h_end_fsync(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	bool b;
	if (fio_get_bool(v, &b, err, errlen))
		return -1;
	if (b)
		fio_kv_set(&j->io, key, "end");
	return 0;
}

int fio_h_fdatasync(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	uint64_t n;
	char buf[40];
	if (fio_need(v, key, err, errlen))
		return -1;
	if (fio_parse_uint(v, &n)) {
		snprintf(err, errlen, "'%s' is not a number of writes", v);
		return -1;
	}
	if (n) {
		snprintf(buf, sizeof(buf), "every %" PRIu64, n);
		fio_kv_set(&j->io, key, buf);
	}
	return 0;
}

/* sync=0|1|none|sync|dsync (O_SYNC / O_DSYNC). */
int fio_h_sync(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = {"0", "none", "1", "sync", "dsync", NULL};
	int i = one_of(v ? v : "1", names, err, errlen);
	if (i < 0)
		return -1;
	if (i >= 2)
		fio_kv_set(&j->io, key, i == 4 ? "dsync" : "sync");
	return 0;
}

int fio_h_invalidate(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	bool b;
	(void)key;
	if (fio_get_bool(v, &b, err, errlen))
		return -1;
	j->invalidate = b;
	return 0;
}

/* ioengine=: the metadata engines become op:, the others go through the
 * io step's engine table (j->engine_of). */
int fio_h_engine(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	static const struct {
		const char *fio, *op;
	} ops[] = {
	    {"filecreate", "create"},
	    {"filestat", "stat"},
	    {"filedelete", "unlink"},
	    {"dircreate", "mkdir"},
	};
	if (fio_need(v, key, err, errlen))
		return -1;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(v, ops[i].fio)) {
			fio_kv_set(&j->io, "op", ops[i].op);
			return 0;
		}
	const char *engine = j->engine_of ? j->engine_of(v) : NULL;
	if (engine) {
		fio_kv_set(&j->io, key, engine);
		return 0;
	}
	snprintf(err, errlen, "the I/O engine '%s' has no io equivalent", v);
	return -1;
}

static int set_target(char **slot, const char *v, size_t n)
{
	free(*slot);
	*slot = strndup(v, n);
	return 0;
}

/* filename=NAME (in the target), /dev/X (a device target) or /dir/NAME. */
int fio_h_filename(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	if (fio_need(v, key, err, errlen))
		return -1;
	if (strchr(v, ':')) {
		snprintf(err, errlen, "several files (':') have no io equivalent (use nrfiles)");
		return -1;
	}
	if (!strncmp(v, "/dev/", 5)) {
		fio_kv_set(&j->io, key, "@device");
		return set_target(&j->device, v, strlen(v));
	}
	const char *slash = strrchr(v, '/');
	if (slash && slash == v) {
		snprintf(err, errlen, "a file in / cannot be a target directory");
		return -1;
	}
	if (v[0] == '/') {
		set_target(&j->dir, v, (size_t)(slash - v));
		v = slash + 1;
	}
	if (!strcmp(v, "..") || !strncmp(v, "../", 3) || strstr(v, "/../")) {
		snprintf(err, errlen, "a file outside the target ('..') has no io equivalent");
		return -1;
	}
	fio_kv_set(&j->io, key, v);
	return 0;
}

int fio_h_directory(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	if (fio_need(v, key, err, errlen))
		return -1;
	if (strchr(v, ':')) {
		snprintf(err, errlen, "several directories (':') have no io equivalent");
		return -1;
	}
	return set_target(&j->dir, v, strlen(v));
}

int fio_h_zero(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	bool b;
	if (fio_get_bool(v, &b, err, errlen))
		return -1;
	fio_kv_set(&j->io, key, b ? "zero" : "random");
	return 0;
}

int fio_h_verify(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = {
	    "0",        "none",     "md5",      "crc64", "crc32c", "crc32c-intel", "crc32",
	    "crc16",    "crc7",     "xxhash",   "sha1",  "sha256", "sha512",       "sha3-224",
	    "sha3-256", "sha3-384", "sha3-512", "meta",  NULL};
	int i = one_of(v ? v : "", names, err, errlen);
	if (i < 0)
		return -1;
	if (i >= 2) {
		fio_kv_set(&j->io, key, "true");
		fio_strs_add(&j->notes, "verify=%s: benchgrid checks its own self-checking pattern", v);
	}
	return 0;
}

/* rate=R, rate=R,W, rate=,W, rate=R, : per direction (trims: none). */
static int per_direction(struct fio_job *j, const char *key, const char *v, bool sizes, char *err,
                         size_t errlen)
{
	if (fio_need(v, key, err, errlen))
		return -1;
	char part[2][64] = {"", ""}, out[2][64] = {"", ""};
	const char *comma = strchr(v, ',');
	if (comma && strchr(comma + 1, ',') && comma[strcspn(comma + 1, ",") + 2]) {
		snprintf(err, errlen, "a rate for trims has no io equivalent");
		return -1;
	}
	snprintf(part[0], sizeof(part[0]), "%.*s", comma ? (int)(comma - v) : (int)strlen(v), v);
	if (comma)
		snprintf(part[1], sizeof(part[1]), "%.*s", (int)strcspn(comma + 1, ","), comma + 1);
	for (int i = 0; i < 2; i++) {
		uint64_t n;
		if (!*part[i])
			continue;
		if (sizes ? fio_size_text(j, part[i], out[i], sizeof(out[i]), err, errlen)
		          : fio_parse_uint(part[i], &n)) {
			if (!sizes)
				snprintf(err, errlen, "'%s' is not a number of I/Os per second", part[i]);
			return -1;
		}
		if (!sizes)
			snprintf(out[i], sizeof(out[i]), "%" PRIu64, n);
	}
	if (!comma) {
		fio_kv_set(&j->io, key, out[0]);
		return 0;
	}
	fio_kv_set(&j->io, key, NULL);
	struct fio_kv *kv = fio_kv_get(&j->io, key);
	if (*out[0])
		fio_kv_sub(kv, "read", out[0]);
	if (*out[1])
		fio_kv_sub(kv, "write", out[1]);
	return 0;
}

int fio_h_rate(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	return per_direction(j, key, v, true, err, errlen);
}

int fio_h_rate_iops(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	return per_direction(j, key, v, false, err, errlen);
}

/* A word passed on as it is (rate_process=linear|poisson). */
int fio_h_word(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = {"linear", "poisson", NULL};
	if (fio_need(v, key, err, errlen) || one_of(v, names, err, errlen) < 0)
		return -1;
	fio_kv_set(&j->io, key, v);
	return 0;
}

/* random_distribution: fio's syntax is the io step's. */
int fio_h_distribution(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = {"random", "uniform", "zipf", "pareto", "normal", "zoned", NULL};
	if (fio_need(v, key, err, errlen))
		return -1;
	char kind[16];
	snprintf(kind, sizeof(kind), "%.*s", (int)strcspn(v, ":"), v);
	int i = one_of(kind, names, err, errlen);
	if (i < 0)
		return -1;
	if (!strncmp(v, "zoned_abs", 9) || strchr(v, ',')) {
		snprintf(err, errlen, "'%s': zones per direction or absolute zones have no io equivalent", v);
		return -1;
	}
	fio_kv_set(&j->io, key, i == 0 ? "uniform" : v);
	return 0;
}

int fio_h_cpus(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	if (fio_need(v, key, err, errlen))
		return -1;
	for (const char *c = v; *c; c++)
		if (!isdigit((unsigned char)*c) && *c != ',' && *c != '-') {
			snprintf(err, errlen, "'%s' is not a list of CPUs (e.g. 0-1,4)", v);
			return -1;
		}
	fio_kv_set(&j->io, key, v);
	return 0;
}

int fio_h_prio(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	uint64_t n;
	if (fio_need(v, key, err, errlen) || fio_parse_uint(v, &n) || n > 7) {
		snprintf(err, errlen, "'%s' is not a priority level (0-7)", v ? v : "");
		return -1;
	}
	j->prio = (int)n;
	return 0;
}

int fio_h_prioclass(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	uint64_t n;
	if (fio_need(v, key, err, errlen) || fio_parse_uint(v, &n) || n < 1 || n > 3) {
		snprintf(err, errlen, "'%s' is not a priority class (1 rt, 2 be, 3 idle)", v ? v : "");
		return -1;
	}
	j->prioclass = (int)n;
	return 0;
}

/* ss=iops|iops_slope|bw|bw_slope:LIMIT%, ss_dur, ss_ramp: kept for finish. */
int fio_h_ss(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = {"iops", "iops_slope", "bw", "bw_slope", NULL};
	if (fio_need(v, key, err, errlen))
		return -1;
	char kind[16];
	const char *colon = strchr(v, ':');
	snprintf(kind, sizeof(kind), "%.*s", (int)strcspn(v, ":"), v);
	if (one_of(kind, names, err, errlen) < 0)
		return -1;
	if (!colon || !colon[1] || colon[strlen(colon) - 1] != '%') {
		snprintf(err, errlen, "'%s': the limit must be a percentage (e.g. iops_slope:0.3%%)", v);
		return -1;
	}
	free(j->ss);
	j->ss = strdup(v);
	return 0;
}

int fio_h_ss_time(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	uint64_t us;
	char buf[64];
	if (fio_need(v, key, err, errlen) || fio_parse_time(v, 1000000, &us, err, errlen))
		return -1;
	fio_format_time(us, buf, sizeof(buf));
	char **slot = !strcmp(key, "duration") ? &j->ss_dur : &j->ss_ramp;
	free(*slot);
	*slot = strdup(buf);
	return 0;
}

int fio_h_lat_log(struct fio_job *j, const char *key, const char *v, char *err, size_t errlen)
{
	(void)v, (void)err, (void)errlen;
	fio_kv_set(&j->io, key, "true");
	fio_strs_add(&j->notes, "write_lat_log: benchgrid writes cells/ID/STEP.lat.csv");
	return 0;
}
