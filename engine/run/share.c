/* share: one share's files in a shared output directory (see share.h). */
#include "share.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "journal.h"
#include "jsonio.h"
#include "outdir.h"
#include "safe_file.h"

int share_open(struct share *sh, int outfd, const char *outdir, size_t i, size_t n, struct diag *d)
{
	memset(sh, 0, sizeof(*sh));
	sh->i = i;
	sh->n = n;
	snprintf(sh->journal, sizeof(sh->journal), "%zu-of-%zu.jsonl", i, n);
	snprintf(sh->meta, sizeof(sh->meta), "%zu-of-%zu.json", i, n);
	snprintf(sh->results, sizeof(sh->results), "%zu-of-%zu.results.json", i, n);
	snprintf(sh->shown, sizeof(sh->shown), "%s/%s/%s", outdir, SHARES_DIR, sh->journal);
	if (gethostname(sh->host, sizeof(sh->host) - 1) < 0)
		snprintf(sh->host, sizeof(sh->host), "unknown");
	char path[4200], err[4600];
	snprintf(path, sizeof(path), "%s/%s", outdir, SHARES_DIR);
	if ((sh->dirfd = outdir_subdir(outfd, SHARES_DIR, path, err, sizeof(err))) < 0) {
		diag_error(d, NULL, "output directory: %s", err);
		return -EINVAL;
	}
	outdir_remove_leftovers(sh->dirfd, OUTDIR_LEFTOVER_AGE);
	return 0;
}

void share_close(struct share *sh)
{
	if (sh->dirfd > 0)
		close(sh->dirfd);
	sh->dirfd = -1;
}

/* Who holds the share, from its json file: "pid P on HOST" or "", and
 * whether that is another host. */
static bool holder_of(const struct share *sh, char *buf, size_t len)
{
	buf[0] = 0;
	struct stat st;
	char err[512];
	size_t n;
	int fd = safe_file_openat(sh->dirfd, sh->meta, SAFE_FILE_PRIVATE_OK, &st, err, sizeof(err));
	if (fd < 0)
		return false;
	char *text = safe_file_read_fd(fd, sh->meta, SAFE_FILE_TEXT_MAX, &n, err, sizeof(err));
	json_t *v = text ? json_loadb(text, n, 0, NULL) : NULL;
	free(text);
	const char *host = v ? jsonio_get_str(v, "host", "?") : "?";
	bool elsewhere = v && strcmp(host, sh->host) != 0;
	if (v)
		snprintf(buf, len, " (pid %.0f on %s)", jsonio_get_num(v, "pid", 0), host);
	json_decref(v);
	return elsewhere;
}

int share_lock(const struct share *sh, int journal_fd, struct diag *d)
{
	/* flock works across NFS clients on NFSv4 (and v3 with lockd):
	 * docs/scale-out.md says which mounts do not give it. */
	int e = 0;
	for (int try = 0; try < 20; try++) {
		if (flock(journal_fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if ((e = errno) != EWOULDBLOCK)
			break;
		usleep(100 * 1000);
	}
	char who[512];
	bool elsewhere = holder_of(sh, who, sizeof(who));
	if (e == EWOULDBLOCK)
		diag_error(d, NULL, "share %zu/%zu is already running into this directory%s: %s is locked%s",
		           sh->i, sh->n, who, sh->shown,
		           elsewhere ? "; if that host died, the file server keeps its lock until it lets "
		                       "it go (an NFSv4 lease: about 90 s; NFSv3: until that host is back)"
		                     : "");
	else
		diag_error(d, NULL, "cannot lock %s: %s", sh->shown, strerror(e));
	return -EINVAL;
}

bool share_is_journal(const char *name, size_t *i, size_t *n)
{
	char tail[16];
	return name[0] >= '0' && name[0] <= '9' && sscanf(name, "%zu-of-%zu.%15s", i, n, tail) == 3 &&
	       !strcmp(tail, "jsonl");
}

int share_load_others(const struct share *sh, int outfd, const char *outdir, struct run *done, struct diag *d)
{
	char shown[4300];
	snprintf(shown, sizeof(shown), "%s/%s", outdir, JOURNAL_NAME);
	if (journal_load(done, outfd, JOURNAL_NAME, shown, false, d) < 0)
		return -EINVAL;
	int fd = dup(sh->dirfd);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		diag_error(d, NULL, "cannot read %s/%s: %s", outdir, SHARES_DIR, strerror(errno));
		return -EINVAL;
	}
	rewinddir(dir);
	struct dirent *e;
	int rc = 0;
	while ((e = readdir(dir)) && rc == 0) {
		size_t i, n;
		if (!share_is_journal(e->d_name, &i, &n) || !strcmp(e->d_name, sh->journal))
			continue;
		if (n != sh->n && journal_busy(sh->dirfd, e->d_name)) {
			diag_error(d, NULL,
			           "share %zu/%zu of another split of this sweep is still running into %s: "
			           "shares running at once must agree on n (wait for it, or scancel it)",
			           i, n, outdir);
			rc = -EINVAL;
			break;
		}
		snprintf(shown, sizeof(shown), "%s/%s/%s", outdir, SHARES_DIR, e->d_name);
		if (journal_load(done, sh->dirfd, e->d_name, shown, false, d) < 0)
			rc = -EINVAL;
	}
	closedir(dir);
	return rc;
}

int share_write_meta(const struct share *sh, const struct cell *cells, size_t n, const size_t *share_of,
                     double started, double finished)
{
	json_t *o = json_object(), *ids = json_array();
	char name[64];
	snprintf(name, sizeof(name), "%zu/%zu", sh->i, sh->n);
	jsonio_set(o, "share", jsonio_str(name));
	jsonio_set(o, "host", jsonio_str(sh->host));
	jsonio_set(o, "pid", json_integer(getpid()));
	jsonio_set(o, "started", jsonio_num(started));
	jsonio_set(o, "finished", jsonio_num(finished));
	for (size_t k = 0; k < n; k++)
		if (share_of[k] == sh->i)
			jsonio_push(ids, jsonio_str(cells[k].id));
	jsonio_set(o, "cells", ids);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc = m ? 0 : -ENOMEM;
	if (m) {
		jsonio_dump(o, m, true);
		fputc('\n', m);
		fclose(m);
		rc = results_file_write(sh->dirfd, sh->meta, buf, len);
	}
	free(buf);
	json_decref(o);
	return rc;
}
