/* blkdev: block devices as sysfs and /proc see them (see blkdev.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blkdev.h"

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void mi_unescape(char *s)
{
	char *o = s;
	for (char *p = s; *p; p++) {
		if (p[0] == '\\' && p[1] >= '0' && p[1] <= '7' && p[2] >= '0' && p[2] <= '7' && p[3] >= '0' &&
		    p[3] <= '7') {
			*o++ = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
			p += 3;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
}

static void mi_copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
	mi_unescape(dst);
}

/* Parse one mountinfo line into e. 0 or -EINVAL. */
static int mi_parse(char *line, struct mountinfo_ent *e)
{
	char *save = NULL, *f[7];
	int n = 0;
	line[strcspn(line, "\n")] = '\0';
	char *sep = strstr(line, " - ");
	if (!sep)
		return -EINVAL;
	*sep = '\0';
	char *tail = sep + 3;
	for (char *t = strtok_r(line, " ", &save); t && n < 7; t = strtok_r(NULL, " ", &save))
		f[n++] = t;
	if (n < 6)
		return -EINVAL;
	if (sscanf(f[2], "%u:%u", &e->major, &e->minor) != 2)
		return -EINVAL;
	mi_copy(e->mnt, sizeof(e->mnt), f[4]);
	mi_copy(e->opts, sizeof(e->opts), f[5]);
	char *fstype = strtok_r(tail, " ", &save);
	char *source = strtok_r(NULL, " ", &save);
	char *super = strtok_r(NULL, " ", &save);
	mi_copy(e->fstype, sizeof(e->fstype), fstype);
	mi_copy(e->source, sizeof(e->source), source);
	mi_copy(e->superopts, sizeof(e->superopts), super);
	return 0;
}

/* Call fn for every mountinfo entry until it returns nonzero. */
static int mi_each(int (*fn)(const struct mountinfo_ent *e, void *arg), void *arg)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	char *line = NULL;
	size_t cap = 0;
	int r = 0;
	struct mountinfo_ent *e = malloc(sizeof(*e));
	if (!e) {
		fclose(f);
		return -ENOMEM;
	}
	while (getline(&line, &cap, f) > 0) {
		if (mi_parse(line, e) < 0)
			continue;
		r = fn(e, arg);
		if (r)
			break;
	}
	free(e);
	free(line);
	fclose(f);
	return r;
}

struct mi_find_arg {
	const char *mnt;
	struct mountinfo_ent *out;
	bool found;
};

static int mi_find_cb(const struct mountinfo_ent *e, void *arg)
{
	struct mi_find_arg *a = arg;
	if (strcmp(e->mnt, a->mnt) == 0) {
		*a->out = *e; /* keep going: the last one is on top */
		a->found = true;
	}
	return 0;
}

int mountinfo_find(const char *mnt, struct mountinfo_ent *out)
{
	char real[PATH_MAX];
	if (!realpath(mnt, real))
		return -errno;
	struct mi_find_arg a = {real, out, false};
	int r = mi_each(mi_find_cb, &a);
	if (r < 0)
		return r;
	return a.found ? 0 : -ENOENT;
}

int blkdev_attr(const char *name, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "/sys/class/block/%s/%s", name, attr);
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int sysname_of_devt(dev_t rdev, char *name, size_t len)
{
	char path[64], real[PATH_MAX];
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	if (!realpath(path, real))
		return -errno;
	const char *b = strrchr(real, '/');
	snprintf(name, len, "%s", b ? b + 1 : real);
	return 0;
}

int blkdev_sysname(const char *dev, char *name, size_t len)
{
	struct stat sb;
	if (stat(dev, &sb) < 0)
		return -errno;
	if (!S_ISBLK(sb.st_mode))
		return -ENOTBLK;
	return sysname_of_devt(sb.st_rdev, name, len);
}

int blkdev_disk_of(const char *name, char *disk, size_t len)
{
	char path[PATH_MAX], real[PATH_MAX];
	snprintf(path, sizeof(path), "/sys/class/block/%s/partition", name);
	if (access(path, F_OK) < 0) {
		snprintf(disk, len, "%s", name);
		return 0;
	}
	/* A partition's sysfs directory lives inside its disk's. */
	snprintf(path, sizeof(path), "/sys/class/block/%s/..", name);
	if (!realpath(path, real))
		return -errno;
	const char *b = strrchr(real, '/');
	snprintf(disk, len, "%s", b ? b + 1 : real);
	return 0;
}

int blkdev_queue_dir(const char *dev, char *out, size_t len)
{
	char name[256], disk[256];
	int r = blkdev_sysname(dev, name, sizeof(name));
	if (r < 0)
		return r;
	r = blkdev_disk_of(name, disk, sizeof(disk));
	if (r < 0)
		return r;
	snprintf(out, len, "/sys/block/%s/queue", disk);
	return access(out, F_OK) < 0 ? -errno : 0;
}

struct of_path_arg {
	dev_t dev;
	char mnt[PATH_MAX];
	struct mountinfo_ent best;
	size_t bestlen;
	bool found;
};

/* The mount whose mount point is the longest prefix of the path holds it
 * (only used when st_dev is anonymous, e.g. btrfs). */
static int of_path_cb(const struct mountinfo_ent *e, void *arg)
{
	struct of_path_arg *a = arg;
	size_t ml = strlen(e->mnt);
	bool prefix = strcmp(e->mnt, "/") == 0 ||
	              (strncmp(a->mnt, e->mnt, ml) == 0 && (a->mnt[ml] == '/' || a->mnt[ml] == '\0'));
	if (!prefix || ml < a->bestlen)
		return 0;
	a->best = *e;
	a->bestlen = ml;
	a->found = true;
	return 0;
}

int blkdev_of_path(const char *path, char *dev, size_t len)
{
	struct of_path_arg *a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	struct stat sb;
	int r = 0;
	if (stat(path, &sb) < 0 || !realpath(path, a->mnt)) {
		r = -errno;
		goto out;
	}
	a->dev = sb.st_dev;
	/* A real block device number: ask sysfs directly. */
	char name[256];
	if (major(sb.st_dev) != 0 && sysname_of_devt(sb.st_dev, name, sizeof(name)) == 0) {
		snprintf(dev, len, "/dev/%s", name);
		goto out;
	}
	r = mi_each(of_path_cb, a);
	if (r < 0)
		goto out;
	struct stat db;
	if (!a->found || a->best.source[0] != '/' || stat(a->best.source, &db) < 0 || !S_ISBLK(db.st_mode)) {
		r = -ENODEV;
		goto out;
	}
	if (sysname_of_devt(db.st_rdev, name, sizeof(name)) == 0)
		snprintf(dev, len, "/dev/%s", name);
	else
		snprintf(dev, len, "%s", a->best.source);
out:
	free(a);
	return r;
}

/* ---- safety rules ---- */

#define SAFE_MAX 128

struct safe_set {
	size_t n;
	char name[SAFE_MAX][64];
	dev_t devt[SAFE_MAX];
};

static void set_add(struct safe_set *s, const char *name)
{
	if (s->n >= SAFE_MAX)
		return;
	char buf[64];
	unsigned ma, mi;
	if (blkdev_attr(name, "dev", buf, sizeof(buf)) < 0 || sscanf(buf, "%u:%u", &ma, &mi) != 2)
		return;
	snprintf(s->name[s->n], sizeof(s->name[0]), "%s", name);
	s->devt[s->n] = makedev(ma, mi);
	s->n++;
}

/* Index of the member whose device number or /dev name matches, or -1. */
static int set_match(const struct safe_set *s, dev_t devt, const char *path)
{
	struct stat sb;
	if (path && path[0] == '/' && stat(path, &sb) == 0 && S_ISBLK(sb.st_mode))
		devt = sb.st_rdev;
	for (size_t i = 0; i < s->n; i++)
		if (devt && s->devt[i] == devt)
			return (int)i;
	return -1;
}

struct safe_mnt_arg {
	const struct safe_set *set;
	char *why;
	size_t len;
	bool root_only;
};

static int safe_mnt_cb(const struct mountinfo_ent *e, void *arg)
{
	struct safe_mnt_arg *a = arg;
	if (a->root_only && strcmp(e->mnt, "/") != 0)
		return 0;
	int i = set_match(a->set, makedev(e->major, e->minor), e->source);
	if (i < 0)
		return 0;
	if (a->root_only)
		snprintf(a->why, a->len, "rule 'root filesystem': /dev/%s holds the root file system (/)",
		         a->set->name[i]);
	else
		snprintf(a->why, a->len, "rule 'mounted': /dev/%s is mounted on %s (%s)", a->set->name[i],
		         e->mnt, e->fstype);
	return 1;
}

static int safe_holders(const struct safe_set *s, char *why, size_t len)
{
	for (size_t i = 0; i < s->n; i++) {
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "/sys/class/block/%s/holders", s->name[i]);
		DIR *d = opendir(path);
		if (!d)
			continue;
		struct dirent *de;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			char uuid[256] = "", dmname[256] = "";
			const char *rule = "holder", *what = "a holder device";
			if (strncmp(de->d_name, "md", 2) == 0) {
				rule = "RAID";
				what = "a software RAID array";
			} else if (strncmp(de->d_name, "dm-", 3) == 0) {
				blkdev_attr(de->d_name, "dm/uuid", uuid, sizeof(uuid));
				blkdev_attr(de->d_name, "dm/name", dmname, sizeof(dmname));
				if (strncmp(uuid, "LVM-", 4) == 0) {
					rule = "LVM";
					what = "an LVM logical volume";
				} else if (strncmp(uuid, "CRYPT-", 6) == 0) {
					rule = "dm-crypt";
					what = "an encrypted volume";
				} else {
					rule = "device-mapper";
					what = "a device-mapper device";
				}
			}
			snprintf(why, len, "rule '%s': /dev/%s is used by %s%s%s%s (/dev/%s)", rule,
			         s->name[i], what, dmname[0] ? " '" : "", dmname, dmname[0] ? "'" : "",
			         de->d_name);
			closedir(d);
			return -EBUSY;
		}
		closedir(d);
	}
	return 0;
}

static int safe_swap(const struct safe_set *s, char *why, size_t len)
{
	FILE *f = fopen("/proc/swaps", "re");
	if (!f)
		return 0;
	char line[4096];
	int r = 0;
	if (!fgets(line, sizeof(line), f)) { /* header */
		fclose(f);
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		char file[4096];
		if (sscanf(line, "%4095s", file) != 1)
			continue;
		mi_unescape(file);
		int i = set_match(s, 0, file);
		if (i >= 0) {
			snprintf(why, len, "rule 'swap': /dev/%s is active swap (%s in /proc/swaps)",
			         s->name[i], file);
			r = -EBUSY;
			break;
		}
	}
	fclose(f);
	return r;
}

static int safe_mdstat(const struct safe_set *s, char *why, size_t len)
{
	FILE *f = fopen("/proc/mdstat", "re");
	if (!f)
		return 0;
	char line[4096];
	int r = 0;
	while (!r && fgets(line, sizeof(line), f)) {
		char md[64];
		if (sscanf(line, "%63s :", md) != 1 || strncmp(md, "md", 2) != 0 || !strstr(line, " : "))
			continue;
		char *save = NULL;
		for (char *t = strtok_r(strstr(line, " : ") + 3, " \n", &save); t;
		     t = strtok_r(NULL, " \n", &save)) {
			char member[64];
			snprintf(member, sizeof(member), "%s", t);
			member[strcspn(member, "[")] = '\0';
			for (size_t i = 0; i < s->n; i++) {
				if (strcmp(member, s->name[i]) == 0) {
					snprintf(why, len,
					         "rule 'RAID': /dev/%s is a member of %s (/proc/mdstat)",
					         s->name[i], md);
					r = -EBUSY;
				}
			}
		}
	}
	fclose(f);
	return r;
}

int blkdev_check_safe(const char *dev, char *why, size_t len)
{
	struct stat sb;
	if (stat(dev, &sb) < 0) {
		int e = -errno;
		snprintf(why, len, "rule 'block device': %s: %s", dev, strerror(errno));
		return e;
	}
	if (!S_ISBLK(sb.st_mode)) {
		const char *what = S_ISREG(sb.st_mode)   ? "a regular file"
		                   : S_ISDIR(sb.st_mode) ? "a directory"
		                   : S_ISCHR(sb.st_mode) ? "a character device"
		                                         : "not a device";
		snprintf(why, len, "rule 'block device': %s is not a block device (it is %s)", dev, what);
		return -ENOTBLK;
	}
	struct safe_set *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	char name[256];
	int r = sysname_of_devt(sb.st_rdev, name, sizeof(name));
	if (r < 0) {
		snprintf(why, len, "rule 'block device': %s is not known to sysfs: %s", dev, strerror(-r));
		goto out;
	}
	set_add(s, name);
	/* A whole disk: its partitions are subdirectories with a "partition" file. */
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "/sys/class/block/%s", name);
	DIR *d = opendir(path);
	if (d) {
		struct dirent *de;
		while ((de = readdir(d))) {
			char pf[PATH_MAX + 300];
			snprintf(pf, sizeof(pf), "%s/%s/partition", path, de->d_name);
			if (de->d_name[0] != '.' && access(pf, F_OK) == 0)
				set_add(s, de->d_name);
		}
		closedir(d);
	}
	/* root file system first: it is the most important rule to name */
	struct stat rs;
	if (stat("/", &rs) == 0) {
		for (size_t i = 0; i < s->n; i++) {
			if (s->devt[i] == rs.st_dev) {
				snprintf(why, len,
				         "rule 'root filesystem': /dev/%s holds the root file system (/)",
				         s->name[i]);
				r = -EBUSY;
				goto out;
			}
		}
	}
	struct safe_mnt_arg ma = {s, why, len, true};
	if (mi_each(safe_mnt_cb, &ma) > 0) {
		r = -EBUSY;
		goto out;
	}
	ma.root_only = false;
	if (mi_each(safe_mnt_cb, &ma) > 0) {
		r = -EBUSY;
		goto out;
	}
	if ((r = safe_swap(s, why, len)) < 0)
		goto out;
	if ((r = safe_holders(s, why, len)) < 0)
		goto out;
	if ((r = safe_mdstat(s, why, len)) < 0)
		goto out;
	/* Last word from the kernel: anything else holding it exclusively. */
	for (size_t i = 0; i < s->n; i++) {
		snprintf(path, sizeof(path), "/dev/%s", s->name[i]);
		const char *p = i == 0 ? dev : path;
		int fd = open(p, O_RDONLY | O_EXCL | O_CLOEXEC);
		if (fd < 0 && errno == EBUSY) {
			snprintf(why, len,
			         "rule 'in use': the kernel reports %s busy (exclusive open failed)", p);
			r = -EBUSY;
			goto out;
		}
		if (fd >= 0)
			close(fd);
	}
	r = 0;
out:
	free(s);
	return r;
}
