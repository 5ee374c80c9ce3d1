/* journal: journal.jsonl and plan.tsv (see journal.h). */
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cell.h"
#include "outdir.h"
#include "results_write.h"

uint64_t journal_cell_fingerprint(const struct spec *s, const struct cell *c, int64_t repeat, int64_t warmup)
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

int journal_write_plan(int dirfd, const struct spec *s, const struct cell *cells, size_t n, int64_t repeat,
                       int64_t warmup)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fprintf(f, "# id\tfingerprint\tindex\tlabel\n");
	for (size_t i = 0; i < n; i++) {
		char label[1024];
		cell_label(&cells[i], label, sizeof(label));
		for (char *p = label; *p; p++) /* one field of one line */
			if (*p == '\t' || *p == '\n' || *p == '\r')
				*p = ' ';
		fprintf(f, "%s\t%016llx\t%zu\t%s\n", cells[i].id,
		        (unsigned long long)journal_cell_fingerprint(s, &cells[i], repeat, warmup),
		        cells[i].index, label);
	}
	fclose(f);
	int rc = results_file_write_changed(dirfd, "plan.tsv", buf, len);
	free(buf);
	return rc;
}

/* A file of the output directory that benchgrid wrote: a regular file of
 * ours with one link, opened without following a link (nor waiting for a
 * writer of a FIFO planted there: O_NONBLOCK until it is known to be
 * regular). fd or -errno. */
static int open_own(int dirfd, const char *name, int flags)
{
	int fd = openat(dirfd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	struct stat st;
	int rc = fstat(fd, &st) < 0 ? -errno : 0;
	if (rc == 0 && (!S_ISREG(st.st_mode) || st.st_nlink != 1 || !outdir_owned_by_us(&st)))
		rc = -EPERM;
	if (rc == 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)
		rc = -errno;
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}

static const char *open_own_error(int rc)
{
	if (rc == -ELOOP)
		return "a symbolic link: refusing to follow it";
	if (rc == -EPERM)
		return "not a regular file of this user with a single link: refusing it";
	return strerror(-rc);
}

/* The fingerprint finished cell rc ran with: its fact, else plan.tsv's
 * (read once into *p). 1 found, 0 unknown, or a negative errno. */
static int finished_fingerprint(int dirfd, const struct run_cell *rc, struct plan_entry **p, size_t *np,
                                bool *read, uint64_t *fp)
{
	unsigned long long v;
	const char *fact = result_info_get(&rc->facts, "fingerprint");
	if (fact && sscanf(fact, "%llx", &v) == 1) {
		*fp = v;
		return 1;
	}
	if (!*read) {
		int e = journal_read_plan(dirfd, p, np);
		if (e < 0)
			return e;
		*read = true;
	}
	for (size_t k = 0; k < *np; k++)
		if (!strcmp((*p)[k].id, rc->id)) {
			*fp = (*p)[k].fingerprint;
			return 1;
		}
	return 0;
}

int journal_check_plan(int dirfd, const char *outdir, const struct run *run, const struct spec *s,
                       const struct cell *cells, size_t n, int64_t repeat, int64_t warmup, struct diag *d)
{
	struct plan_entry *p = NULL;
	size_t np = 0;
	bool read = false;
	int bad = 0;
	for (size_t i = 0; i < n && !bad; i++) {
		const struct run_cell *rc = run_find_cell(run, cells[i].id);
		uint64_t was;
		int e = rc ? finished_fingerprint(dirfd, rc, &p, &np, &read, &was) : 0;
		if (e < 0) {
			diag_error(d, NULL, "--resume: %s/plan.tsv: %s%s", outdir, open_own_error(e),
			           e == -ENOENT ? " (not a benchgrid output directory?)" : "");
			bad = -EINVAL;
		} else if (e == 1 && journal_cell_fingerprint(s, &cells[i], repeat, warmup) != was) {
			char label[256];
			cell_label(&cells[i], label, sizeof(label));
			diag_error(d, NULL,
			           "--resume: the scenario changed for finished cell %s (%s): its target, "
			           "settings, steps or repeat count differ; use a new output directory",
			           cells[i].id, label);
			bad = -EINVAL;
		}
	}
	journal_plan_free(p, np);
	return bad;
}

int journal_load(struct run *run, int dirfd, const char *name, const char *shown, bool own, struct diag *d)
{
	int fd = open_own(dirfd, name, own ? O_RDWR : O_RDONLY);
	if (fd == -ENOENT)
		return 0;
	FILE *f = fd >= 0 ? fdopen(fd, own ? "r+" : "r") : NULL;
	if (!f) {
		diag_error(d, NULL, "%s: %s", shown, open_own_error(fd >= 0 ? -ENOMEM : fd));
		if (fd >= 0)
			close(fd);
		return -EINVAL;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long good_end = 0;
	size_t loaded = 0;
	size_t lineno = 0;
	while ((len = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (line[len - 1] != '\n')
			break; /* torn write: kill -9 in the middle of a line */
		struct run_cell c;
		struct diag ld;
		diag_init(&ld);
		if (results_cell_parse_line(line, (size_t)len, &c, &ld) == 0) {
			/* A cell finished twice (resumed run) keeps the newest. */
			struct run_cell *old = run_find_cell(run, c.id);
			if (old && old->started > c.started) {
				run_cell_free(&c);
			} else if (old) {
				run_cell_free(old);
				*old = c;
			} else {
				run_take_cell(run, &c);
			}
			loaded++;
		} else {
			/* A whole line that is no cell: what follows is not trusted. */
			diag_warn(
			    d, NULL,
			    "%s: line %zu is not a finished cell: it and the lines after it are ignored",
			    shown, lineno);
			diag_free(&ld);
			break;
		}
		diag_free(&ld);
		good_end = ftell(f);
	}
	free(line);
	if (own && ftruncate(fileno(f), good_end) < 0)
		diag_warn(d, NULL, "cannot truncate %s: %s", shown, strerror(errno));
	fclose(f);
	return (int)loaded;
}

int journal_open(int dirfd, const char *name, const char *shown, bool resume, struct diag *d)
{
	int fd = open_own(dirfd, name, O_WRONLY | O_APPEND | O_CREAT | (resume ? 0 : O_EXCL));
	if (fd < 0)
		diag_error(d, NULL, "cannot open %s: %s", shown, open_own_error(fd));
	return fd;
}

void journal_plan_free(struct plan_entry *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i].label);
	free(p);
}

int journal_read_plan(int dirfd, struct plan_entry **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	int fd = open_own(dirfd, "plan.tsv", O_RDONLY);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		return fd >= 0 ? -ENOMEM : fd;
	}
	char *line = NULL;
	size_t cap = 0, have = 0;
	ssize_t len;
	struct plan_entry *p = NULL;
	while ((len = getline(&line, &cap, f)) > 0) {
		char id[32];
		unsigned long long fp;
		size_t index;
		int used = 0;
		if (line[0] == '#' || sscanf(line, "%31s %llx %zu%n", id, &fp, &index, &used) != 3 ||
		    strlen(id) != 12)
			continue;
		struct plan_entry *np = realloc(p, (have + 1) * sizeof(*p));
		if (!np)
			break;
		p = np;
		memcpy(p[have].id, id, 13);
		p[have].index = index;
		p[have].fingerprint = fp;
		const char *lab = line + used + (line[used] == '\t');
		p[have].label = strndup(lab, strcspn(lab, "\n"));
		have++;
	}
	free(line);
	int err = ferror(f) ? (errno ? errno : EIO) : 0;
	fclose(f);
	if (err) {
		journal_plan_free(p, have);
		return -err;
	}
	*out = p;
	*n = have;
	return 0;
}

bool journal_busy(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return false;
	/* A shared lock for a moment: a share taking its lock meanwhile retries
	 * (share_lock). */
	bool busy = flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK;
	close(fd);
	return busy;
}

int journal_append(int fd, const struct run_cell *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return -ENOMEM;
	int bad = results_cell_write_line(m, rc);
	if (fclose(m) != 0 || bad < 0) {
		free(buf);
		return -ENOMEM;
	}
	struct stat st;
	int err = fstat(fd, &st) < 0 ? errno : 0;
	for (size_t off = 0; !err && off < len;) {
		ssize_t w = write(fd, buf + off, len - off);
		if (w < 0 && errno != EINTR)
			err = errno;
		else if (w > 0)
			off += (size_t)w;
	}
	free(buf);
	if (!err && fsync(fd) != 0)
		err = errno;
	/* Half a line would hide every later line from --resume: cut it. */
	if (err && st.st_size >= 0 && ftruncate(fd, st.st_size) == 0)
		fsync(fd);
	return -err;
}
