/* journal: journal.jsonl and plan.tsv (see journal.h). */
#include "journal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cell_run.h"
#include "outdir.h"

/* The fingerprint of a cell: everything that decides how it runs. */
static uint64_t cell_fingerprint(const struct spec *s, const struct cell *c, int64_t repeat, int64_t warmup)
{
	struct diag d;
	diag_init(&d);
	struct node *t = spec_cell_tree(s, c, true, &d);
	uint64_t h = node_hash(t) ^ node_hash(c->params) * 0x9E3779B97F4A7C15ULL;
	h ^= (uint64_t)repeat * 1000003u + (uint64_t)warmup;
	node_free(t);
	diag_free(&d);
	return h;
}

int journal_write_plan(const char *outdir, const struct spec *s, const struct cell *cells, size_t n,
                       int64_t repeat, int64_t warmup)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fprintf(f, "# id\tfingerprint\tindex\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s\t%016llx\t%zu\n", cells[i].id,
		        (unsigned long long)cell_fingerprint(s, &cells[i], repeat, warmup), cells[i].index);
	fclose(f);
	char path[4200];
	snprintf(path, sizeof(path), "%s/plan.tsv", outdir);
	int rc = outdir_write_atomic(path, buf, len);
	free(buf);
	return rc;
}

int journal_check_plan(const char *outdir, const struct run *run, const struct spec *s,
                       const struct cell *cells, size_t n, int64_t repeat, int64_t warmup, struct diag *d)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/plan.tsv", outdir);
	FILE *f = fopen(path, "r");
	if (!f && errno == ENOENT && run->ncells == 0)
		return 0; /* killed before anything was written: start afresh */
	if (!f) {
		diag_error(d, NULL, "--resume: %s: %s (not a benchgrid output directory?)", path,
		           strerror(errno));
		return -ENOENT;
	}
	char line[256];
	int bad = 0;
	while (fgets(line, sizeof(line), f)) {
		char id[32];
		unsigned long long fp;
		if (line[0] == '#' || sscanf(line, "%31s %llx", id, &fp) != 2)
			continue;
		if (!run_find_cell(run, id))
			continue;
		for (size_t i = 0; i < n; i++) {
			if (strcmp(cells[i].id, id))
				continue;
			uint64_t now = cell_fingerprint(s, &cells[i], repeat, warmup);
			if (now != fp) {
				char label[256];
				cell_run_label(&cells[i], label, sizeof(label));
				diag_error(
				    d, NULL,
				    "--resume: the scenario changed for finished cell %s (%s): its target, "
				    "settings, steps or repeat count differ; use a new output directory",
				    id, label);
				bad = -EINVAL;
			}
		}
	}
	fclose(f);
	return bad;
}

int journal_load(struct run *run, const char *path, struct diag *d)
{
	FILE *f = fopen(path, "r+");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long good_end = 0;
	size_t loaded = 0;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] != '\n')
			break; /* torn write: kill -9 in the middle of a line */
		struct run_cell c;
		struct diag ld;
		diag_init(&ld);
		if (results_cell_parse_line(line, (size_t)len, &c, &ld) == 0) {
			/* A cell finished twice (resumed run) keeps the newest. */
			struct run_cell *old = run_find_cell(run, c.id);
			if (old) {
				run_cell_free(old);
				*old = c;
			} else {
				run_take_cell(run, &c);
			}
			loaded++;
		} else {
			diag_free(&ld);
			break;
		}
		diag_free(&ld);
		good_end = ftell(f);
	}
	free(line);
	fclose(f);
	if (truncate(path, good_end) < 0)
		diag_warn(d, NULL, "cannot truncate %s: %s", path, strerror(errno));
	return (int)loaded;
}

int journal_append(FILE *journal, const struct run_cell *rc)
{
	if (results_cell_write_line(journal, rc) < 0)
		return -EIO;
	if (fflush(journal) != 0)
		return -errno;
	fsync(fileno(journal));
	return 0;
}
