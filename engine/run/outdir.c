/* outdir: the run's output directory (see outdir.h). */
#include "outdir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

char *outdir_default(const char *scenario_name)
{
	char stamp[32];
	time_t t = time(NULL);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&t));
	char *name = strdup(scenario_name);
	for (char *p = name; *p; p++)
		if (*p == '/' || *p == ' ')
			*p = '_';
	char *dot = strstr(name, ".yaml");
	if (dot)
		*dot = 0;
	char *out;
	if (asprintf(&out, "benchgrid-out/%s-%s", name, stamp) < 0)
		out = NULL;
	free(name);
	return out;
}

int outdir_mkdir_p(const char *path, mode_t mode)
{
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, mode) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, mode) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int outdir_write_atomic(const char *path, const char *text, size_t len)
{
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	size_t off = 0;
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);
		if (w < 0) {
			int e = errno;
			close(fd);
			return -e;
		}
		off += (size_t)w;
	}
	fsync(fd);
	close(fd);
	if (rename(tmp, path) < 0)
		return -errno;
	return 0;
}

void outdir_copy_scenario(const char *outdir, const char *scenario_file)
{
	char sp[4200];
	snprintf(sp, sizeof(sp), "%s/scenario.yaml", outdir);
	FILE *in = fopen(scenario_file, "rb");
	if (!in)
		return;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	char chunk[8192];
	size_t r;
	while ((r = fread(chunk, 1, sizeof(chunk), in)) > 0)
		fwrite(chunk, 1, r, m);
	fclose(m);
	fclose(in);
	outdir_write_atomic(sp, buf, len);
	free(buf);
}
