/* rep_md_devices: the legend of the monitor's disk columns (see
 * rep_md_devices.h).
 *
 * A fact devices.PREFIX reads "/dev/loop3 (target main: ext4 on ...)": the
 * device, then what it is in parentheses. One row per prefix and distinct
 * value; when a value holds for some cells only (each cell got its own
 * loop device), a last column lists their numbers. */
#include "rep_md_devices.h"

#include <stdio.h>
#include <string.h>

#include "rep_text.h"

#define DEV_PREFIX "devices."

/* The columns a prefix names: disk_* for the main target, PREFIX.* else. */
static void columns_of(const char *prefix, char *out, size_t len)
{
	if (!strcmp(prefix, "disk"))
		snprintf(out, len, "disk_*");
	else
		snprintf(out, len, "%s.*", prefix);
}

/* "/dev/x (what)" into device and what; without parentheses all is device. */
static void split_fact(const char *v, char *dev, size_t dlen, char *what, size_t wlen)
{
	const char *p = strstr(v, " (");
	size_t n = strlen(v);
	if (!p || n < 2 || v[n - 1] != ')') {
		snprintf(dev, dlen, "%s", v);
		what[0] = '\0';
		return;
	}
	snprintf(dev, dlen, "%.*s", (int)(p - v), v);
	snprintf(what, wlen, "%.*s", (int)(v + n - 1 - (p + 2)), p + 2);
}

/* The numbers of the cells whose fact key has value v ("" when all do). */
static void cells_with(const struct run *r, const char *key, const char *v, char *out, size_t len)
{
	size_t used = 0, n = 0;
	out[0] = '\0';
	for (size_t i = 0; i < r->ncells; i++) {
		const char *x = result_info_get(&r->cells[i].facts, key);
		if (!x || strcmp(x, v) != 0)
			continue;
		n++;
		if (used < len)
			used += (size_t)snprintf(out + used, len - used, "%s%zu", used ? ", " : "",
			                         r->cells[i].index);
	}
	if (n == r->ncells)
		out[0] = '\0';
}

void rep_md_devices(struct rep_ctx *cx, struct md *m)
{
	const struct run *r = cx->run;
	struct rep_strs keys = {0}, rows = {0};
	bool per_cell = false;
	char cells[512];

	for (size_t i = 0; i < r->ncells; i++)
		for (size_t k = 0; k < r->cells[i].facts.ni; k++)
			if (!strncmp(r->cells[i].facts.info[k].key, DEV_PREFIX, strlen(DEV_PREFIX)))
				rep_strs_add(&keys, r->cells[i].facts.info[k].key);
	/* rows are "key\nvalue", in the order the cells give them */
	for (size_t k = 0; k < keys.n; k++)
		for (size_t i = 0; i < r->ncells; i++) {
			const char *v = result_info_get(&r->cells[i].facts, keys.v[k]);
			char row[2048];
			if (!v)
				continue;
			snprintf(row, sizeof(row), "%s\n%s", keys.v[k], v);
			rep_strs_add(&rows, row);
			cells_with(r, keys.v[k], v, cells, sizeof(cells));
			per_cell = per_cell || cells[0];
		}
	if (rows.n) {
		FILE *f = m->rf.f;
		fputs("## Devices\n\nThe system monitor's disk columns and the devices they describe "
		      "(docs/sections/monitor.md):\n\n",
		      f);
		fputs(per_cell ? "| columns | device | what it is | cells |\n|---|---|---|---|\n"
		               : "| columns | device | what it is |\n|---|---|---|\n",
		      f);
		for (size_t k = 0; k < rows.n; k++) {
			char *nl = strchr(rows.v[k], '\n');
			char col[256], dev[512], what[1536];
			*nl = '\0';
			columns_of(rows.v[k] + strlen(DEV_PREFIX), col, sizeof(col));
			split_fact(nl + 1, dev, sizeof(dev), what, sizeof(what));
			fputs("| ", f);
			rep_md_code(f, col);
			fputs(" | ", f);
			rep_md_cell(f, dev);
			fputs(" | ", f);
			rep_md_cell(f, what);
			if (per_cell) {
				cells_with(r, rows.v[k], nl + 1, cells, sizeof(cells));
				fputs(" | ", f);
				rep_md_cell(f, cells[0] ? cells : "all");
			}
			fputs(" |\n", f);
		}
		fputc('\n', f);
	}
	rep_strs_free(&keys);
	rep_strs_free(&rows);
}
