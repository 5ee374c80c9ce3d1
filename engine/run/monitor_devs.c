/* monitor_devs: the devices the monitor samples and their names (see
 * monitor_devs.h). */
#include "monitor_devs.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blkdev.h"
#include "fixture_set.h"
#include "fx_fs.h"
#include "grow.h"

/* The kernel name of major:minor from /sys/dev/block/MAJ:MIN. */
static int kname_of(unsigned ma, unsigned mi, char *out, size_t len)
{
	char link[64], target[PATH_MAX];
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", ma, mi);
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	const char *base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (!*base || strlen(base) >= len)
		return -ENAMETOOLONG;
	snprintf(out, len, "%s", base);
	return 0;
}

/* A device node or a kernel name to major:minor and kernel name. */
static int resolve(const char *blockdev, struct mon_dev *d)
{
	struct stat st;
	char buf[64];
	if (!blockdev || !*blockdev)
		return -EINVAL;
	if (strchr(blockdev, '/') && stat(blockdev, &st) == 0) {
		if (!S_ISBLK(st.st_mode))
			return -ENOTBLK;
		d->major = major(st.st_rdev);
		d->minor = minor(st.st_rdev);
		return kname_of(d->major, d->minor, d->kname, sizeof(d->kname));
	}
	/* a kernel name, or /dev/NAME without a node (blkdev_of_path names
	 * devices by their sysfs name) */
	const char *name = blockdev;
	if (strchr(blockdev, '/')) {
		if (strncmp(blockdev, "/dev/", 5) != 0 || strchr(blockdev + 5, '/'))
			return -ENOENT;
		name = blockdev + 5;
	}
	if (strlen(name) >= sizeof(d->kname) || blkdev_attr(name, "dev", buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "%u:%u", &d->major, &d->minor) != 2)
		return name == blockdev ? -ENODEV : -ENOENT;
	snprintf(d->kname, sizeof(d->kname), "%s", name);
	return 0;
}

static struct mon_dev *push(struct mon_devs *L)
{
	if (GROW(L->v, L->cap, L->n + 1, 8) < 0)
		return NULL;
	struct mon_dev *d = &L->v[L->n];
	memset(d, 0, sizeof(*d));
	return d;
}

int mon_devs_add_target(struct mon_devs *L, const char *target, const char *blockdev, const char *what)
{
	struct mon_dev *d = push(L);
	if (!d)
		return -ENOMEM;
	int r = resolve(blockdev, d);
	if (r < 0)
		return r;
	if (target)
		snprintf(d->prefix, sizeof(d->prefix), "disk.%.150s", target);
	else
		snprintf(d->prefix, sizeof(d->prefix), "disk");
	snprintf(d->target, sizeof(d->target), "%s", target ? target : "main");
	snprintf(d->desc, sizeof(d->desc), "/dev/%s (target %s%s%.800s)", d->kname, d->target,
	         what && *what ? ": " : "", what ? what : "");
	L->n++;
	return 0;
}

/* The device holding the image of loop device `kname` (st_dev of the file,
 * or the mount's source where st_dev is anonymous, as on btrfs). */
static int under_of(const char *kname, struct mon_dev *u)
{
	char file[PATH_MAX], dev[PATH_MAX];
	if (blkdev_attr(kname, "loop/backing_file", file, sizeof(file)) < 0)
		return -ENOENT;
	char *del = strstr(file, " (deleted)");
	if (del && del[10] == '\0')
		*del = '\0';
	int r = blkdev_of_path(file, dev, sizeof(dev));
	return r < 0 ? r : resolve(dev, u);
}

void mon_devs_add_under(struct mon_devs *L)
{
	size_t ntargets = L->n;
	for (size_t i = 0; i < ntargets; i++) {
		struct mon_dev u;
		memset(&u, 0, sizeof(u));
		if (under_of(L->v[i].kname, &u) < 0)
			continue;
		struct mon_dev *have = NULL;
		for (size_t k = ntargets; k < L->n && !have; k++)
			if (L->v[k].major == u.major && L->v[k].minor == u.minor)
				have = &L->v[k];
		if (have) {
			/* "...images of main)" becomes "...images of main, wal)" */
			size_t len = strlen(have->desc);
			if (len > 0 && have->desc[len - 1] == ')')
				snprintf(have->desc + len - 1, sizeof(have->desc) - (len - 1), ", %s)",
				         L->v[i].target);
			continue;
		}
		struct mon_dev *d = push(L);
		if (!d)
			return;
		*d = u;
		snprintf(d->prefix, sizeof(d->prefix), "disk.under.%s", d->kname);
		snprintf(d->desc, sizeof(d->desc), "/dev/%s (under the loop images of %s)", d->kname,
		         L->v[i].target);
		L->n++;
	}
}

static void add_fs(struct mon_devs *L, const char *target, const struct fx_fs *fs)
{
	const char *dev = fx_fs_blockdev(fs);
	char what[1024];
	if (!dev)
		return;                         /* tmpfs, overlay: nothing to sample */
	fx_fs_describe(fs, what, sizeof(what)); /* as its kind says: target_ops.h */
	mon_devs_add_target(L, target, dev, what);
}

void mon_devs_of_fixtures(struct mon_devs *L, const struct fixture_set *fx)
{
	if (fx->fs)
		add_fs(L, NULL, fx->fs);
	for (size_t i = 0; i < fx->nnamed; i++)
		add_fs(L, fx->named[i].name, fx->named[i].fs);
	mon_devs_add_under(L);
}

void mon_devs_free(struct mon_devs *L)
{
	free(L->v);
	L->v = NULL;
	L->n = L->cap = 0;
}

void mon_devs_column(const struct mon_dev *d, const char *q, char *out, size_t len)
{
	if (!strcmp(d->prefix, "disk"))
		snprintf(out, len, "disk_%s", q);
	else
		snprintf(out, len, "%s.%s", d->prefix, q);
}

void mon_devs_facts(const struct mon_devs *L, struct step_result *facts)
{
	for (size_t i = 0; i < L->n; i++) {
		char key[200];
		snprintf(key, sizeof(key), "devices.%s", L->v[i].prefix);
		result_info(facts, key, "%s", L->v[i].desc);
	}
}
