/* rep_hosts: see rep_hosts.h. */
#include "rep_hosts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rep_text.h"

const char *rep_cell_host(const struct run_cell *c)
{
	const char *h = result_info_get(&c->facts, "host");
	return h && *h ? h : NULL;
}

int rep_hosts_count(const struct run *r, const size_t *cells, size_t n, struct rep_hosts *out)
{
	memset(out, 0, sizeof(*out));
	if (!cells)
		n = r->ncells;
	out->count = calloc(n ? n : 1, sizeof(*out->count));
	if (!out->count)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const char *h = rep_cell_host(&r->cells[cells ? cells[i] : i]);
		if (!h) {
			out->unknown++;
			continue;
		}
		rep_strs_add(&out->names, h);
		long k = rep_strs_find(&out->names, h);
		if (k < 0)
			return -ENOMEM;
		out->count[k]++;
	}
	return 0;
}

void rep_hosts_free(struct rep_hosts *h)
{
	rep_strs_free(&h->names);
	free(h->count);
	memset(h, 0, sizeof(*h));
}

void rep_hosts_list(FILE *f, const struct rep_hosts *h)
{
	for (size_t i = 0; i < h->names.n; i++) {
		fputs(i ? ", " : "", f);
		rep_md_cell(f, h->names.v[i]);
		fprintf(f, " (%zu cell%s)", h->count[i], h->count[i] == 1 ? "" : "s");
	}
	if (h->unknown)
		fprintf(f, "%s%zu cell%s without a host fact", h->names.n ? ", " : "", h->unknown,
		        h->unknown == 1 ? "" : "s");
}

/* Not `node`: a NUMA node or a cluster size is no host axis (a parameter
 * whose values name the hosts still is one, whatever its name). */
static bool host_param_name(const char *p)
{
	return strcasecmp(p, "host") == 0 || strcasecmp(p, "hostname") == 0;
}

/* Does parameter value v name host h: the same name (case aside), or one
 * is the other's short name (before the first '.')? */
static bool value_names_host(const char *v, const char *h)
{
	size_t lv = strcspn(v, "."), lh = strcspn(h, ".");
	if (strcasecmp(v, h) == 0)
		return true;
	return (v[lv] == '\0' && lv == lh && strncasecmp(v, h, lh) == 0) ||
	       (h[lh] == '\0' && lv == lh && strncasecmp(v, h, lv) == 0);
}

/* Are p's values the names of the cells' hosts (in every cell that has a
 * host)? Values that merely correspond to hosts do not count: a sharded run
 * keeps cells that share a file system in one share, so `fs` often maps one
 * to one onto hosts, and that is exactly the comparison to warn about. */
static bool param_names_hosts(const struct run *r, const size_t *cells, size_t n, const char *p)
{
	for (size_t i = 0; i < n; i++) {
		const struct run_cell *c = &r->cells[cells[i]];
		const char *h = rep_cell_host(c), *v = run_cell_param(c, p);
		if (h && (!v || !value_names_host(v, h)))
			return false;
	}
	return true;
}

static bool param_varies_in(const struct run *r, const size_t *cells, size_t n, const char *p)
{
	const char *v0 = n ? run_cell_param(&r->cells[cells[0]], p) : NULL;
	for (size_t i = 1; i < n; i++) {
		const char *v = run_cell_param(&r->cells[cells[i]], p);
		if ((v == NULL) != (v0 == NULL) || (v && strcmp(v, v0) != 0))
			return true;
	}
	return false;
}

bool rep_hosts_is_axis(const struct run *r, const size_t *cells, size_t n)
{
	struct rep_strs names = {0};
	bool axis = false;
	for (size_t i = 0; i < n; i++) {
		const struct node *p = r->cells[cells[i]].params;
		for (size_t k = 0; p && p->kind == NODE_MAP && k < p->n; k++)
			rep_strs_add(&names, p->keys[k]);
	}
	for (size_t k = 0; k < names.n && !axis; k++)
		axis = param_varies_in(r, cells, n, names.v[k]) &&
		       (host_param_name(names.v[k]) || param_names_hosts(r, cells, n, names.v[k]));
	rep_strs_free(&names);
	return axis;
}

void rep_hosts_warn(FILE *f, const struct run *r, const size_t *cells, size_t n, const char *what)
{
	struct rep_hosts h;
	if (rep_hosts_count(r, cells, n, &h) == 0 && h.names.n > 1 && !rep_hosts_is_axis(r, cells, n)) {
		fprintf(f, "**Warning:** cells of this %s ran on %zu hosts: ", what, h.names.n);
		rep_hosts_list(f, &h);
		fputs("; differences between them may be the hardware's.\n\n", f);
	}
	rep_hosts_free(&h);
}
