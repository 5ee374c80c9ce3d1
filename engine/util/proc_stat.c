/* proc_stat: /proc/PID/stat read and parsed (see proc_stat.h). */
#include "proc_stat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A field of decimal digits only (every field read here is a count, an id
 * or a tick total: never negative); false on anything else or overflow. */
static bool digits(const char *s, size_t n, unsigned long long *v)
{
	unsigned long long x = 0;
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		unsigned d = (unsigned)(s[i] - '0');
		if (x > (~0ULL - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*v = x;
	return true;
}

/* Field k (3 onwards, after the name) of text s..s+n into st. */
static bool field(struct proc_stat *st, int k, const char *s, size_t n)
{
	unsigned long long v = 0;
	if (k == 3) {
		st->state = s[0];
		return n == 1;
	}
	switch (k) {
	case 4:
	case 5:
	case 6:
	case 9:
	case 14:
	case 15:
	case 16:
	case 17:
	case 22:
		if (!digits(s, n, &v))
			return false;
		break;
	default: return true; /* a field not kept */
	}
	switch (k) {
	case 4: st->ppid = (long)v; break;
	case 5: st->pgrp = (long)v; break;
	case 6: st->session = (long)v; break;
	case 9: st->flags = (unsigned long)v; break;
	case 14: st->utime = v; break;
	case 15: st->stime = v; break;
	case 16: st->cutime = v; break;
	case 17: st->cstime = v; break;
	default: st->start = v;
	}
	return true;
}

bool proc_stat_parse(const char *text, struct proc_stat *st)
{
	memset(st, 0, sizeof(*st));
	/* "PID (NAME) S ...": NAME runs from the first '(' to the last ')' */
	const char *lp = strchr(text, '(');
	const char *rp = strrchr(text, ')');
	unsigned long long pid;
	if (!lp || !rp || rp < lp || lp == text || lp[-1] != ' ' ||
	    !digits(text, (size_t)(lp - 1 - text), &pid) || rp[1] != ' ')
		return false;
	st->pid = (long)pid;
	size_t cl = (size_t)(rp - lp - 1);
	if (cl >= sizeof(st->comm))
		cl = sizeof(st->comm) - 1;
	memcpy(st->comm, lp + 1, cl);
	st->comm[cl] = '\0';
	int k = 3;
	for (const char *p = rp + 2; *p && k <= 22; k++) {
		size_t n = strcspn(p, " \n");
		if (!field(st, k, p, n))
			return false;
		p += n;
		if (*p == ' ')
			p++;
		else
			break; /* the end of the line */
	}
	return k >= 22;
}

bool proc_stat_read(long pid, struct proc_stat *st)
{
	char path[64], buf[4096];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	size_t len = 0;
	for (;;) {
		ssize_t n = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		if (len == sizeof(buf) - 1)
			break;
	}
	close(fd);
	buf[len] = '\0';
	return len > 0 && proc_stat_parse(buf, st);
}
