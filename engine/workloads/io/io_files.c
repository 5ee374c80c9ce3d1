/* io_files: many files per job and the options of the metadata workloads
 * (see io_files.h). */
#include "io_files.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io_job.h"
#include "io_opts.h"
#include "io_opts_table.h"
#include "units.h"

#define IO_FILES_MAX 1000000u

struct io_file {
	uint64_t size, nblocks, seq_off;
	uint64_t perm_ctr, perm_key, perm_mask;
	unsigned perm_shift;
	uint64_t last_use;  /* for the openfiles eviction (least recently used) */
	uint64_t visit_ios; /* file_service: sequential, I/Os in this visit */
	int fd;
	bool prepared, created, written;
};

struct io_files {
	unsigned n, nopen, open_max, cur;
	int reopen_flags;
	uint64_t tick;
	int *pending; /* evicted fds, closed at the next io_files_flush */
	unsigned npending, cap;
	char prefix[PATH_MAX - 16]; /* "DIR/FILE.JOB." */
	struct io_file f[];
};

/* filesize: SIZE or MIN-MAX */
static bool parse_filesize(const struct node *n, struct io_opts *o, struct diag *d)
{
	const char *s;
	if (node_as_string(n, "io.filesize", &s, d))
		return false;
	char buf[128], err[160];
	snprintf(buf, sizeof(buf), "%s", s);
	char *dash = strchr(buf + 1, '-');
	if (dash)
		*dash = 0;
	if (units_parse_size(buf, &o->filesize_min, err, sizeof(err)) ||
	    (dash && units_parse_size(dash + 1, &o->filesize_max, err, sizeof(err)))) {
		diag_error(d, &n->pos, "io.filesize: expected a size or a range MIN-MAX (e.g. 4k-64k): %s",
		           err);
		return false;
	}
	if (!dash)
		o->filesize_max = o->filesize_min;
	if (!o->filesize_min || o->filesize_min > o->filesize_max) {
		diag_error(d, &n->pos,
		           "io.filesize: '%s' is not a range of positive sizes MIN-MAX with MIN <= MAX", s);
		return false;
	}
	if (!o->bs)
		return false; /* io.bs: 0 is an error of its own */
	if (o->filesize_min < o->bs) {
		diag_error(d, &n->pos, "io.filesize: %llu bytes is less than one block (io.bs = %llu)",
		           (unsigned long long)o->filesize_min, (unsigned long long)o->bs);
		return false;
	}
	if (!dash && o->filesize_min % o->bs) {
		diag_error(d, &n->pos, "io.filesize: %llu bytes is not a multiple of io.bs (%llu bytes)",
		           (unsigned long long)o->filesize_min, (unsigned long long)o->bs);
		return false;
	}
	return true;
}

uint64_t io_files_size(const struct io_opts *o, unsigned k)
{
	if (!o->bs)
		return 0; /* refused by check (io.bs: 0) */
	if (!o->filesize_min)
		return o->size / (o->nrfiles ? o->nrfiles : 1) / o->bs * o->bs;
	uint64_t lo = (o->filesize_min + o->bs - 1) / o->bs, hi = o->filesize_max / o->bs;
	if (hi <= lo)
		return lo * o->bs;
	return (lo + io_mix64_seed(o->seed ^ 0x66696c6573ull, k) % (hi - lo + 1)) * o->bs;
}

/* The rules of the metadata options (io_meta.c). */
static void check_meta(const struct node *opts, struct io_opts *o, struct diag *d)
{
	const struct node *n;
	static const char *const data_keys[] = {"nrfiles", "filesize", "file_service", "openfiles",
	                                        "verify",  "iodepth",  "direct",       NULL};
	if (o->op == IO_OP_NONE) {
		for (const char *const *k = (const char *const[]){"dirs", "files_per_dir", NULL}; *k; k++)
			if ((n = node_get(opts, *k)) && !diag_error_at(d, &n->pos))
				diag_error(d, &n->pos,
				           "io.%s: only applies to metadata operations (op: create, ...)",
				           *k);
		return;
	}
	for (const char *const *k = data_keys; *k; k++)
		if ((n = node_get(opts, *k)))
			diag_error(d, &n->pos, "io.%s: does not apply to op: %s (no data I/O)", *k,
			           io_op_values[o->op]);
	if (o->time_based && o->op != IO_OP_STAT && o->op != IO_OP_OPEN_CLOSE &&
	    (n = node_get(opts, "time_based")))
		diag_error(d, &n->pos,
		           "io.time_based: op: %s makes one pass over the tree; only stat and "
		           "open-close can loop",
		           io_op_values[o->op]);
}

static void io_files_parse(const struct node *opts, struct io_opts *o, struct diag *d)
{
	const struct node *n;
	int64_t v;
	int e;
	o->nrfiles = 1;
	o->dirs = 1;
	o->files_per_dir = 1000;
	if ((n = node_get(opts, "nrfiles")) && !node_as_int(n, "io.nrfiles", 1, IO_FILES_MAX, &v, d))
		o->nrfiles = (unsigned)v;
	bool fs_ok = (n = node_get(opts, "filesize")) && parse_filesize(n, o, d);
	if ((n = node_get(opts, "file_service")) &&
	    !node_as_enum(n, "io.file_service", io_file_service_values, &e, d))
		o->file_service = (enum io_fservice)e;
	o->openfiles = o->nrfiles;
	if ((n = node_get(opts, "openfiles")) && !node_as_int(n, "io.openfiles", 1, IO_FILES_MAX, &v, d)) {
		if ((unsigned)v > o->nrfiles)
			diag_error(d, &n->pos, "io.openfiles: %lld is more than io.nrfiles (%u)",
			           (long long)v, o->nrfiles);
		else
			o->openfiles = (unsigned)v;
	}
	if ((n = node_get(opts, "op"))) {
		if (node_as_enum(n, "io.op", io_op_values, &e, d))
			return; /* no follow-up errors about what applies to which op */
		o->op = (enum io_meta_op)e;
	}
	if ((n = node_get(opts, "dirs")) && !node_as_int(n, "io.dirs", 1, IO_FILES_MAX, &v, d))
		o->dirs = (unsigned)v;
	if ((n = node_get(opts, "files_per_dir")) &&
	    !node_as_int(n, "io.files_per_dir", 1, IO_FILES_MAX, &v, d))
		o->files_per_dir = (unsigned)v;
	check_meta(opts, o, d);
	o->many_files = o->op == IO_OP_NONE && (o->nrfiles > 1 || fs_ok);
	if (!o->many_files) {
		if ((n = node_get(opts, "file_service")) || (n = node_get(opts, "openfiles")))
			if (o->op == IO_OP_NONE && o->nrfiles == 1 && !node_get(opts, "filesize") &&
			    !diag_error_at(d, &n->pos))
				diag_error(d, &n->pos, "%s: only applies to several files (nrfiles > 1)",
				           node_get(opts, "file_service") ? "io.file_service"
				                                          : "io.openfiles");
		return;
	}
	if (o->verify && (n = node_get(opts, "verify")))
		diag_error(d, &n->pos, "io.verify: not supported with several files per job (nrfiles)");
	if (!o->filesize_min && o->size / o->nrfiles < o->bs) {
		n = node_get(opts, "nrfiles");
		diag_error(d, &n->pos,
		           "io.nrfiles: io.size / %u = %llu bytes per file is less than one block "
		           "(io.bs = %llu)",
		           o->nrfiles, (unsigned long long)(o->size / o->nrfiles), (unsigned long long)o->bs);
	}
	if (o->filesize_min && !node_get(opts, "size")) {
		/* fio: size is then the files' total, the default io_size */
		uint64_t total = 0;
		for (unsigned k = 0; k < o->nrfiles; k++)
			total += io_files_size(o, k);
		o->size = total;
		if (!node_get(opts, "io_size"))
			o->io_size = total;
	}
}

/* ---- the files of one job ---- */

static void file_path(const struct io_files *m, unsigned k, char *buf, size_t len)
{
	snprintf(buf, len, "%s%u", m->prefix, k);
}

static void file_init(struct io_job *j, struct io_file *f, uint64_t size, uint64_t bs)
{
	f->size = size;
	f->nblocks = size / bs;
	f->fd = -1;
	f->perm_key = io_xorshift(&j->rng);
	unsigned bits = 0;
	while (bits < 64 && (1ull << bits) < f->nblocks)
		bits++;
	f->perm_mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
	f->perm_shift = bits / 2 ? bits / 2 : 1;
}

static void io_files_flush(struct io_job *j)
{
	struct io_files *m = j->mf;
	for (unsigned i = 0; i < m->npending; i++)
		close(m->pending[i]);
	m->npending = 0;
}

/* Make file k open, evicting the least recently used open file when
 * openfiles are open. 0, or -errno after io_job_fail. */
static int file_open(struct io_job *j, struct io_files *m, unsigned k)
{
	if (m->nopen >= m->open_max) {
		unsigned victim = UINT_MAX;
		for (unsigned i = 0; i < m->n; i++)
			if (m->f[i].fd >= 0 && i != k &&
			    (victim == UINT_MAX || m->f[i].last_use < m->f[victim].last_use))
				victim = i;
		if (victim != UINT_MAX) {
			if (m->npending == m->cap)
				io_files_flush(j);
			m->pending[m->npending++] = m->f[victim].fd;
			m->f[victim].fd = -1;
			m->nopen--;
		}
	}
	char path[PATH_MAX];
	file_path(m, k, path, sizeof(path));
	int fd = open(path, m->reopen_flags);
	if (fd < 0) {
		int e = errno;
		io_job_fail(j, -e, "cannot open %s: %s", path, strerror(e));
		return -e;
	}
	m->f[k].fd = fd;
	m->nopen++;
	return 0;
}

static unsigned pick_file(struct io_job *j, struct io_files *m)
{
	const struct io_opts *o = j->sh->o;
	unsigned k;
	switch (o->file_service) {
	case IO_FSERVICE_RANDOM: return (unsigned)(io_xorshift(&j->rng) % m->n);
	case IO_FSERVICE_SEQUENTIAL:
		if (m->f[m->cur].visit_ios >= m->f[m->cur].nblocks) {
			m->f[m->cur].visit_ios = 0;
			m->cur = m->cur + 1 == m->n ? 0 : m->cur + 1;
		}
		return m->cur;
	default:
		k = m->cur;
		m->cur = m->cur + 1 == m->n ? 0 : m->cur + 1;
		return k;
	}
}

static bool io_files_next(struct io_job *j, uint64_t *off, uint64_t *len)
{
	struct io_files *m = j->mf;
	unsigned k = pick_file(j, m);
	struct io_file *f = &m->f[k];
	if (f->fd < 0 && file_open(j, m, k) < 0) {
		j->fd = -1; /* the I/O fails with EBADF; the job has failed already */
		*off = 0;
		*len = j->sh->o->bs;
		return true;
	}
	j->fd = f->fd;
	j->fsize = f->size;
	j->nblocks = f->nblocks;
	j->seq_off = f->seq_off;
	j->perm_ctr = f->perm_ctr;
	j->perm_key = f->perm_key;
	j->perm_mask = f->perm_mask;
	j->perm_shift = f->perm_shift;
	bool rd = io_next_one(j, off, len);
	f->seq_off = j->seq_off;
	f->perm_ctr = j->perm_ctr;
	f->perm_key = j->perm_key;
	f->visit_ios++;
	f->last_use = ++m->tick;
	if (!rd)
		f->written = true;
	return rd;
}

static void io_files_sync(struct io_job *j)
{
	struct io_files *m = j->mf;
	for (unsigned k = 0; k < m->n && !j->err; k++) {
		struct io_file *f = &m->f[k];
		if (!f->written)
			continue;
		int fd = f->fd >= 0 ? f->fd : -1;
		if (fd < 0) {
			char path[PATH_MAX];
			file_path(m, k, path, sizeof(path));
			fd = open(path, O_WRONLY | O_CLOEXEC);
		}
		if (fd < 0 || fdatasync(fd) < 0) {
			int e = errno;
			char path[PATH_MAX];
			file_path(m, k, path, sizeof(path));
			io_job_fail(j, -e, "%s: fdatasync failed: %s", path, strerror(e));
		}
		if (fd >= 0 && fd != f->fd)
			close(fd);
	}
}

static const struct io_files_hooks io_files_hooks = {
    .next = io_files_next,
    .flush = io_files_flush,
    .sync = io_files_sync,
};

int io_files_prepare(struct io_job *j, const char *dir, io_files_open_fn open_one, void *ud)
{
	const struct io_opts *o = j->sh->o;
	struct io_files *m = calloc(1, sizeof(*m) + (size_t)o->nrfiles * sizeof(struct io_file));
	int *pending = calloc((size_t)j->nslots + 2, sizeof(int));
	if (!m || !pending) {
		free(m);
		free(pending);
		io_job_fail(j, -ENOMEM, "io: out of memory for %u files", o->nrfiles);
		return -ENOMEM;
	}
	m->n = o->nrfiles;
	m->open_max = o->openfiles ? o->openfiles : o->nrfiles;
	m->pending = pending;
	m->cap = j->nslots + 2;
	j->mf = m;
	j->mf_hooks = &io_files_hooks;
	if (snprintf(m->prefix, sizeof(m->prefix), "%s/%s.%u.", dir, o->file, j->idx) >=
	    (int)sizeof(m->prefix)) {
		io_job_fail(j, -ENAMETOOLONG, "io: the path of the files in %s is too long", dir);
		return -ENAMETOOLONG;
	}
	for (unsigned k = 0; k < m->n; k++) {
		struct io_file *f = &m->f[k];
		file_init(j, f, io_files_size(o, k), o->bs);
		file_path(m, k, j->path, sizeof(j->path));
		j->fsize = f->size;
		j->fd = -1;
		f->prepared = true;
		int ret = open_one(ud, j, &f->created);
		f->fd = j->fd;
		if (ret)
			return ret;
		if (!m->reopen_flags)
			m->reopen_flags = (fcntl(f->fd, F_GETFL) & ~(O_CREAT | O_TRUNC | O_EXCL)) | O_CLOEXEC;
		if (k < m->open_max) {
			m->nopen++;
		} else {
			close(f->fd);
			f->fd = -1;
		}
	}
	/* errors name the job's files as a pattern: the file of an I/O is not tracked */
	snprintf(j->path, sizeof(j->path), "%s*", m->prefix);
	j->fd = m->f[0].fd;
	return 0;
}

void io_files_free(struct io_job *j, bool keep, bool prepare_none)
{
	struct io_files *m = j->mf;
	if (!m)
		return;
	io_files_flush(j);
	for (unsigned k = 0; k < m->n; k++) {
		struct io_file *f = &m->f[k];
		if (f->fd >= 0)
			close(f->fd);
		/* a file that was there and that we did not touch (prepare: none) stays */
		if (f->prepared && !keep && (f->created || !prepare_none)) {
			char path[PATH_MAX];
			file_path(m, k, path, sizeof(path));
			unlink(path);
		}
	}
	j->fd = -1;
	j->path[0] = 0;
	free(m->pending);
	free(m);
	j->mf = NULL;
}

const struct io_opts_ext io_files_opts = {.parse = io_files_parse};
