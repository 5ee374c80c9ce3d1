/* tail: see tail.h. */
#include "tail.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *tail_text(const char *text, size_t len, size_t max)
{
	if (!text)
		return "";
	if (len <= max)
		return text;
	const char *p = text + len - max;
	const char *nl = memchr(p, '\n', max);
	if (nl && nl + 1 < text + len)
		return nl + 1;
	return p;
}

char *tail_file(const char *path, off_t since, int lines, size_t max_bytes)
{
	if (!path || max_bytes == 0)
		return NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return NULL;
	off_t end = lseek(fd, 0, SEEK_END);
	off_t from = end - since > (off_t)max_bytes ? end - (off_t)max_bytes : since;
	if (from < 0)
		from = 0;
	char *buf = malloc(max_bytes + 1);
	ssize_t n = buf ? pread(fd, buf, max_bytes, from) : -1;
	close(fd);
	if (n <= 0) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	n = (ssize_t)strlen(buf); /* a NUL in a log ends the text there */
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = 0;
	char *p = buf + n;
	int seen = 0;
	while (p > buf && seen < lines) {
		p--;
		if (*p == '\n')
			seen++;
	}
	if (*p == '\n')
		p++;
	memmove(buf, p, strlen(p) + 1);
	return buf;
}

char *tail_indent(const char *text, const char *prefix)
{
	if (!text)
		return NULL;
	size_t lines = 1, plen = strlen(prefix);
	for (const char *q = text; *q; q++)
		lines += *q == '\n';
	char *out = malloc(strlen(text) + lines * plen + 1), *o = out;
	if (!out)
		return NULL;
	memcpy(o, prefix, plen);
	o += plen;
	for (const char *q = text; *q; q++) {
		*o++ = *q;
		if (*q == '\n') {
			memcpy(o, prefix, plen);
			o += plen;
		}
	}
	*o = 0;
	return out;
}
