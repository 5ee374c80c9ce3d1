/* io_dist_opts: parsing and validation of `random_distribution` and
 * `bssplit` (fio's syntax), each problem at the value's position. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_dist_opts.h"
#include "units.h"

#define RD "io.random_distribution"

/* A number that is the whole of s (and of nothing else). */
static bool io_dist_num(const char *s, double *out)
{
	char *end;
	if (!*s)
		return false;
	*out = strtod(s, &end);
	return *end == 0 && isfinite(*out);
}

static bool io_dist_pct(const char *s, size_t len, unsigned *out)
{
	char buf[16];
	int64_t v;
	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = 0;
	if (!units_is_int(buf, &v) || v < 0 || v > 100)
		return false;
	*out = (unsigned)v;
	return true;
}

/* zoned:IO/RANGE:IO/RANGE:... */
static void parse_zoned(const struct node *n, const char *list, struct io_dist_opts *o, struct diag *d)
{
	unsigned sum_io = 0, sum_range = 0;
	const char *p = list;
	o->nzones = 0;
	while (*p) {
		const char *colon = strchr(p, ':'), *slash = strchr(p, '/');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		unsigned io, range;
		if (o->nzones == IO_DIST_MAX_ZONES) {
			diag_error(d, &n->pos, RD ": at most %d zones", IO_DIST_MAX_ZONES);
			return;
		}
		if (!slash || slash >= p + len || !io_dist_pct(p, (size_t)(slash - p), &io) ||
		    !io_dist_pct(slash + 1, len - (size_t)(slash - p) - 1, &range)) {
			diag_error(d, &n->pos,
			           RD ": zone %u '%.*s' is not IO%%/RANGE%% (two integers 0-100, e.g. "
			              "zoned:60/10:30/20:10/70)",
			           o->nzones + 1, (int)len, p);
			return;
		}
		if (io && !range) {
			diag_error(d, &n->pos, RD ": zone %u takes %u%% of the I/O but 0%% of the file",
			           o->nzones + 1, io);
			return;
		}
		o->zone_io[o->nzones] = (unsigned char)io;
		o->zone_range[o->nzones++] = (unsigned char)range;
		sum_io += io;
		sum_range += range;
		p += len + (colon ? 1 : 0);
		if (colon && !*p)
			break;
	}
	if (!o->nzones)
		diag_error(d, &n->pos, RD ": zoned needs zones, e.g. zoned:60/10:30/20:10/70");
	else if (sum_io != 100)
		diag_error(d, &n->pos, RD ": the zones' shares of the I/O add up to %u%%, not 100%%", sum_io);
	else if (sum_range != 100)
		diag_error(d, &n->pos, RD ": the zones' shares of the file add up to %u%%, not 100%%",
		           sum_range);
}

/* The value of zipf/pareto/normal, checked against fio's ranges. */
static void parse_param(const struct node *n, const char *name, const char *v, struct io_dist_opts *o,
                        struct diag *d)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%s", v);
	size_t len = strlen(buf);
	if (o->kind == IO_DIST_NORMAL && len && buf[len - 1] == '%')
		buf[len - 1] = 0;
	if (strchr(buf, ':')) {
		diag_error(d, &n->pos, RD ": '%s:%s': a center (fio's third field) is not supported", name,
		           v);
		return;
	}
	if (!io_dist_num(buf, &o->param)) {
		static const char *const eg[] = {"", "zipf:1.2", "pareto:0.9", "normal:5%", ""};
		diag_error(d, &n->pos, RD ": '%s' needs a number after '%s:', e.g. %s", n->text, name,
		           eg[o->kind]);
		return;
	}
	if (o->kind == IO_DIST_ZIPF && (o->param <= 0 || o->param == 1.0))
		diag_error(d, &n->pos,
		           RD ": zipf theta must be > 0 and other than 1 (as fio requires), found %s", v);
	else if (o->kind == IO_DIST_PARETO && (o->param <= 0 || o->param >= 1))
		diag_error(d, &n->pos, RD ": pareto h must be between 0 and 1 (exclusive), found %s", v);
	else if (o->kind == IO_DIST_NORMAL && (o->param < 0 || o->param > 100))
		diag_error(d, &n->pos, RD ": normal sigma must be 0-100 (%% of the file), found %s", v);
}

static void parse_distribution(const struct node *n, struct io_dist_opts *o, struct diag *d)
{
	static const char *const kinds[] = {"uniform", "zipf", "pareto", "normal", "zoned", NULL};
	const char *s;
	if (node_as_string(n, RD, &s, d))
		return;
	const char *colon = strchr(s, ':');
	size_t klen = colon ? (size_t)(colon - s) : strlen(s);
	int k = -1;
	for (int i = 0; kinds[i]; i++)
		if (strlen(kinds[i]) == klen && !strncmp(s, kinds[i], klen))
			k = i;
	if (klen == 6 && !strncmp(s, "random", 6))
		k = IO_DIST_UNIFORM; /* fio's name for uniform */
	if (k < 0) {
		diag_error(d, &n->pos,
		           RD ": unknown distribution '%.*s' (expected uniform, zipf:THETA, pareto:H, "
		              "normal:SIGMA%%, zoned:IO/RANGE:...)%s",
		           (int)klen, s,
		           klen == 9 && !strncmp(s, "zoned_abs", 9) ? "; zoned_abs is not supported" : "");
		return;
	}
	o->kind = (enum io_dist_kind)k;
	if (k == IO_DIST_UNIFORM) {
		if (colon)
			diag_error(d, &n->pos, RD ": uniform takes no value, found '%s'", s);
		return;
	}
	if (!colon || !colon[1]) {
		static const char *const eg[] = {"", "zipf:1.2", "pareto:0.9", "normal:5%",
		                                 "zoned:60/10:30/20:10/70"};
		diag_error(d, &n->pos, RD ": %s needs a value, e.g. %s", kinds[k], eg[k]);
		return;
	}
	if (k == IO_DIST_ZONED)
		parse_zoned(n, colon + 1, o, d);
	else
		parse_param(n, kinds[k], colon + 1, o, d);
}

/* One SIZE/PCT entry of bssplit; false after an error. */
static bool parse_split_entry(const struct node *n, const char *p, size_t len, struct io_bssplit_opts *b,
                              struct diag *d)
{
	char buf[64], err[96];
	const char *slash = memchr(p, '/', len);
	unsigned pct;
	if (!slash || len >= sizeof(buf)) {
		diag_error(d, &n->pos, "io.bssplit: '%.*s' is not SIZE/PERCENT (e.g. 4k/60:64k/30:1m/10)",
		           (int)len, p);
		return false;
	}
	size_t sl = (size_t)(slash - p);
	memcpy(buf, p, sl);
	buf[sl] = 0;
	uint64_t size = 0;
	err[0] = 0;
	if (units_parse_size(buf, &size, err, sizeof(err)) || !size || size > (1ull << 30)) {
		diag_error(d, &n->pos, "io.bssplit: '%s' is not a block size between 1 byte and 1GiB%s%s",
		           buf, err[0] ? ": " : "", err);
		return false;
	}
	if (!io_dist_pct(slash + 1, len - sl - 1, &pct) || !pct) {
		diag_error(d, &n->pos, "io.bssplit: '%.*s': the percentage must be an integer 1-100",
		           (int)len, p);
		return false;
	}
	b->size[b->n] = size;
	b->pct[b->n++] = pct;
	return true;
}

static bool parse_bssplit(const struct node *n, struct io_bssplit_opts *b, struct diag *d)
{
	const char *s;
	if (node_as_string(n, "io.bssplit", &s, d))
		return false;
	b->pos = n->pos;
	if (strchr(s, ',')) {
		diag_error(d, &n->pos,
		           "io.bssplit: separate splits per direction (READ,WRITE) are not supported; "
		           "give one list");
		return false;
	}
	unsigned sum = 0;
	for (const char *p = s; *p;) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		if (b->n == IO_BSSPLIT_MAX) {
			diag_error(d, &n->pos, "io.bssplit: at most %d sizes", IO_BSSPLIT_MAX);
			return false;
		}
		if (!parse_split_entry(n, p, len, b, d))
			return false;
		sum += b->pct[b->n - 1];
		p += len + (colon ? 1 : 0);
	}
	if (!b->n) {
		diag_error(d, &n->pos, "io.bssplit: empty (e.g. 4k/60:64k/30:1m/10)");
		return false;
	}
	if (sum != 100) {
		diag_error(d, &n->pos, "io.bssplit: the percentages add up to %u, not 100", sum);
		return false;
	}
	b->min = b->max = b->size[0];
	for (unsigned i = 1; i < b->n; i++) {
		b->min = b->size[i] < b->min ? b->size[i] : b->min;
		b->max = b->size[i] > b->max ? b->size[i] : b->max;
	}
	return true;
}

/* bssplit against bs, direct, size and verify. */
static bool check_bssplit(const struct node *n, const struct io_dist_rules *r,
                          const struct io_bssplit_opts *b, struct diag *d)
{
	char sz[32], fs[32];
	bool ok = true;
	if (r->bs_given) {
		diag_error(d, &n->pos, "io.bssplit: replaces io.bs; give one of them");
		ok = false;
	}
	for (unsigned i = 0; r->direct && i < b->n; i++)
		if (b->size[i] % 512) {
			diag_error(
			    d, &n->pos,
			    "io.bssplit: %llu bytes is not a multiple of 512, which direct: true needs",
			    (unsigned long long)b->size[i]);
			ok = false;
			break;
		}
	if (b->max > r->size) {
		units_format_size(b->max, sz, sizeof(sz));
		units_format_size(r->size, fs, sizeof(fs));
		diag_error(d, &n->pos, "io.bssplit: %s is larger than io.size (%s)", sz, fs);
		ok = false;
	}
	if (r->verify) {
		diag_error(d, &n->pos, "io.bssplit: verify: true is not supported with a block-size split");
		ok = false;
	}
	return ok;
}

void io_dist_parse(const struct node *opts, const struct io_dist_rules *r, struct io_dist_opts *dist,
                   struct io_bssplit_opts *bs, struct diag *d)
{
	const struct node *n;
	if ((n = node_get(opts, "random_distribution"))) {
		size_t before = d->nerrors;
		parse_distribution(n, dist, d);
		if (d->nerrors == before && dist->kind != IO_DIST_UNIFORM && !r->random)
			diag_error(d, &n->pos, RD ": only applies to random I/O (rw is %s)", r->rw);
	}
	if ((n = node_get(opts, "bssplit")) && !(parse_bssplit(n, bs, d) && check_bssplit(n, r, bs, d)))
		bs->n = 0;
}
