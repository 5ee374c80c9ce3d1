/* selection: see selection.h. */
#include "selection.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outdir.h"
#include "results_write.h"
#include "safe_file.h"

static json_t *pairs_json(const struct defines *v)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < v->n; i++)
		json_array_append_new(a, json_pack("[ss]", v->names[i], v->values[i]));
	return a;
}

int selection_write(int dirfd, const struct defines *D, const struct defines *only)
{
	json_t *o = json_pack("{s:o,s:o}", "define", pairs_json(D), "only", pairs_json(only));
	char *json = o ? json_dumps(o, JSON_INDENT(1)) : NULL, *text = NULL;
	json_decref(o);
	int len = json ? asprintf(&text, "%s\n", json) : -1;
	free(json);
	if (len < 0)
		return -ENOMEM;
	int rc = results_file_write_changed(dirfd, SELECTION_NAME, text, (size_t)len);
	free(text);
	return rc;
}

/* The pairs of key in o into v: 0, or -EINVAL when malformed. */
static int pairs_read(const json_t *o, const char *key, struct defines *v)
{
	const json_t *a = json_object_get(o, key), *p;
	size_t i;
	if (!json_is_array(a))
		return -EINVAL;
	json_array_foreach(a, i, p)
	{
		const char *name = json_string_value(json_array_get(p, 0)),
		           *val = json_string_value(json_array_get(p, 1));
		char *arg = NULL;
		if (!name || !val || asprintf(&arg, "%s=%s", name, val) < 0 || defines_add(v, arg) < 0) {
			free(arg);
			return -EINVAL;
		}
		free(arg);
	}
	return 0;
}

/* -D: the same pairs in the same order (the last value of a name wins). */
static bool same_defines(const struct defines *a, const struct defines *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->names[i], b->names[i]) || strcmp(a->values[i], b->values[i]))
			return false;
	return true;
}

/* Does only select name=part (part: one comma-separated value)? */
static bool only_has(const struct defines *only, const char *name, const char *part, size_t plen)
{
	for (size_t i = 0; i < only->n; i++) {
		if (strcmp(only->names[i], name))
			continue;
		for (const char *p = only->values[i];; p++) {
			size_t k = strcspn(p, ",");
			if (k == plen && !strncmp(p, part, plen))
				return true;
			p += k;
			if (!*p)
				break;
		}
	}
	return false;
}

/* Every value a selects, b selects too. */
static bool only_within(const struct defines *a, const struct defines *b)
{
	for (size_t i = 0; i < a->n; i++)
		for (const char *p = a->values[i];; p++) {
			size_t k = strcspn(p, ",");
			if (!only_has(b, a->names[i], p, k))
				return false;
			p += k;
			if (!*p)
				break;
		}
	return true;
}

/* --only: the same values of the same names, however written
 * (fs=xfs,ext4 is --only fs=ext4 --only fs=xfs). */
static bool same_only(const struct defines *a, const struct defines *b)
{
	return only_within(a, b) && only_within(b, a);
}

void selection_text(const struct defines *D, const struct defines *only, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int w = 0; w < 2; w++) {
		const struct defines *v = w ? only : D;
		for (size_t i = 0; i < v->n && k < len; i++) {
			int n = snprintf(buf + k, len - k, "%s%s %s=%s", k ? " " : "", w ? "--only" : "-D",
			                 v->names[i], v->values[i]);
			k += n > 0 ? (size_t)n : 0;
		}
	}
	if (!buf[0])
		snprintf(buf, len, "no -D nor --only");
}

/* The recorded selection of outdir: 0, -ENOENT without one, or another
 * negative errno. Read without following a link, from a regular file of
 * ours, as the journal is. */
static int selection_read(const char *outdir, struct defines *D, struct defines *only)
{
	int dfd = open(outdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -ENOENT; /* the run says what is wrong with the folder */
	struct stat st, dst;
	char err[512];
	int fd = safe_file_openat(dfd, SELECTION_NAME, SAFE_FILE_PRIVATE_OK, &st, err, sizeof(err));
	int rc = fd < 0 ? fd : 0;
	/* On a root-squashed share the folder and our files belong to the
	 * squashed uid, which counts as ours only once outdir_open has probed
	 * it (after this read): a file of the folder's own owner is accepted
	 * here, and outdir_open then refuses a folder that is not ours. */
	bool dir_ok = fstat(dfd, &dst) == 0;
	close(dfd);
	if (rc == 0 &&
	    (st.st_nlink != 1 || !(outdir_owned_by_us(&st) || (dir_ok && st.st_uid == dst.st_uid))))
		rc = -EPERM;
	json_t *o = rc == 0 ? json_loadfd(fd, 0, NULL) : NULL;
	if (fd >= 0)
		close(fd);
	if (rc == 0 && (!o || pairs_read(o, "define", D) < 0 || pairs_read(o, "only", only) < 0))
		rc = -EINVAL;
	json_decref(o);
	return rc;
}

int selection_resume(const char *outdir, struct defines *D, struct defines *only, bool *reused)
{
	struct defines rd = {0}, ro = {0};
	*reused = false;
	int rc = selection_read(outdir, &rd, &ro);
	if (rc == -ENOENT) {
		rc = 0;
	} else if (rc < 0) {
		fprintf(stderr, "benchgrid run: --resume %s: cannot read its %s: %s\n", outdir,
		        SELECTION_NAME, rc == -EINVAL ? "not what benchgrid writes" : strerror(-rc));
	} else if (!D->n && !only->n) {
		*D = rd;
		*only = ro;
		*reused = rd.n || ro.n;
		return 0;
	} else if (!same_defines(D, &rd) || !same_only(only, &ro)) {
		char was[2048], now[2048];
		selection_text(&rd, &ro, was, sizeof(was));
		selection_text(D, only, now, sizeof(now));
		fprintf(stderr,
		        "benchgrid run: --resume %s: the run was started with %s, not %s: resume with no "
		        "-D and --only (the run's are reused) or the same ones, or start a new run with "
		        "-o another directory\n",
		        outdir, was, now);
		rc = -EINVAL;
	}
	defines_free(&rd);
	defines_free(&ro);
	return rc;
}
