/* fx_fs: the `target:` fixture (see fx_fs.h).
 *
 * Setup is a short list of steps, each journalled before it acts and kept on
 * a small undo stack in struct fx_fs: teardown and a failed setup both just
 * pop that stack (state_undo_action + state_done), so the two paths cannot
 * drift apart, and `benchgrid cleanup` replays the same actions from the
 * journal after a crash.
 *
 *   loop:   rm <image>       create the image file (fallocate)
 *           losetup-d <dev>  attach it: LOOP_CTL_GET_FREE + LOOP_CONFIGURE
 *           (mkfs)
 *           rmdir <mnt>      make the mount point under work_dir
 *           umount <mnt>     mount(2)
 *   device: safety rules, (mkfs), rmdir, umount
 *   dir:    rmtree <dir>     a fresh directory (in `path:` or work_dir) */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "blkdev.h"
#include "facts.h"
#include "fx_fs.h"
#include "state.h"
#include "units.h"

enum fx_kind { FX_DIR, FX_LOOP, FX_DEVICE };
static const char *const kind_names[] = {"dir", "loop", "device", NULL};

enum fx_type { FS_EXT2, FS_EXT3, FS_EXT4, FS_XFS, FS_BTRFS, FS_F2FS, FS_NILFS2, FS_JFS };
static const char *const fs_names[] = {"ext2", "ext3", "ext4", "xfs", "btrfs", "f2fs", "nilfs2", "jfs", NULL};

/* Per file system: mkfs program, Debian package, statfs magic, block size
 * limits (bytes), the least device size its mkfs accepts. */
static const struct fs_info {
	const char *mkfs;
	const char *package;
	unsigned long magic;
	uint64_t bs_min, bs_max;
	uint64_t size_min;
} fs_info[] = {
    [FS_EXT2] = {"mke2fs", "e2fsprogs", 0xEF53, 1024, 65536, 1 << 20},
    [FS_EXT3] = {"mke2fs", "e2fsprogs", 0xEF53, 1024, 65536, 2 << 20},
    [FS_EXT4] = {"mke2fs", "e2fsprogs", 0xEF53, 1024, 65536, 2 << 20},
    [FS_XFS] = {"mkfs.xfs", "xfsprogs", 0x58465342, 1024, 65536, 300 << 20},
    [FS_BTRFS] = {"mkfs.btrfs", "btrfs-progs", 0x9123683E, 4096, 65536, 114 << 20},
    [FS_F2FS] = {"mkfs.f2fs", "f2fs-tools", 0xF2F52010, 4096, 4096, 64 << 20},
    [FS_NILFS2] = {"mkfs.nilfs2", "nilfs-tools", 0x3434, 1024, 65536, 128 << 20},
    [FS_JFS] = {"mkfs.jfs", "jfsutils", 0x3153464a, 4096, 4096, 16 << 20},
};

/* A parsed target. Strings are owned: an fx_fs outlives the cell's tree. */
struct fs_spec {
	int kind;
	int fs;              /* -1: not given */
	uint64_t block_size; /* 0: the mkfs default */
	uint64_t size;
	char *image_dir, *device, *path;
	bool destroy, direct_io;
	char **mkfs_opts;
	size_t nmkfs;
	char **mount_opts; /* split at commas */
	struct src_pos *mount_opt_pos;
	size_t nmount;
	struct src_pos pos, fs_pos, bs_pos, mkfs_pos, mount_pos, device_pos, path_pos;
};

#define FX_MAX_UNDO 8

struct fx_undo {
	const char *kind;
	char *arg1, *arg2;
	int token;
};

struct fx_fs {
	struct fs_spec spec;
	char *path;     /* where the cell's files go */
	char *mnt;      /* mount point, or NULL */
	char *blockdev; /* or NULL */
	char *image;
	char *mkfs_cmd;
	char fstype[64];
	uint64_t bsize, total;
	char mountopts[2100];
	struct fx_undo undo[FX_MAX_UNDO];
	int nundo;
};

/* ---- parsing ---- */

static void spec_free(struct fs_spec *s)
{
	free(s->image_dir);
	free(s->device);
	free(s->path);
	for (size_t i = 0; i < s->nmkfs; i++)
		free(s->mkfs_opts[i]);
	free(s->mkfs_opts);
	for (size_t i = 0; i < s->nmount; i++)
		free(s->mount_opts[i]);
	free(s->mount_opts);
	free(s->mount_opt_pos);
	memset(s, 0, sizeof(*s));
}

static bool deferred(const struct node *n)
{
	return n && n->kind == NODE_SCALAR && strstr(n->text, "${");
}

static void strv_push(char ***v, size_t *n, const char *s)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv)
		return;
	*v = nv;
	(*v)[(*n)++] = strdup(s);
}

/* A list of scalars, or one scalar: mkfs_options as argv words. */
static int parse_mkfs(const struct node *n, struct fs_spec *s, struct diag *d)
{
	if (n->kind == NODE_SCALAR) {
		for (const char *p = n->text; *p; p++) {
			if (isspace((unsigned char)*p)) {
				diag_error(
				    d, &n->pos,
				    "target.mkfs_options: a list of separate arguments is expected (it is "
				    "passed "
				    "as argv, not through a shell), e.g. [-O, ^has_journal], found '%s'",
				    n->text);
				return -EINVAL;
			}
		}
		strv_push(&s->mkfs_opts, &s->nmkfs, n->text);
		return 0;
	}
	if (n->kind != NODE_SEQ) {
		diag_error(d, &n->pos, "target.mkfs_options: expected a list of arguments, found a %s",
		           node_kind_name(n->kind));
		return -EINVAL;
	}
	for (size_t i = 0; i < n->n; i++) {
		const struct node *it = n->items[i];
		if (it->kind != NODE_SCALAR) {
			diag_error(d, &it->pos, "target.mkfs_options: expected an argument, found a %s",
			           node_kind_name(it->kind));
			return -EINVAL;
		}
		strv_push(&s->mkfs_opts, &s->nmkfs, it->text);
	}
	return 0;
}

static int split_mount(const struct node *it, struct fs_spec *s, struct diag *d)
{
	char *dup = strdup(it->text), *save = NULL;
	if (!dup)
		return -ENOMEM;
	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		for (char *p = t; *p; p++) {
			if (isspace((unsigned char)*p)) {
				diag_error(d, &it->pos, "target.mount_options: '%s' contains white space", t);
				free(dup);
				return -EINVAL;
			}
		}
		struct src_pos *np = realloc(s->mount_opt_pos, (s->nmount + 1) * sizeof(*np));
		if (!np)
			break;
		s->mount_opt_pos = np;
		np[s->nmount] = it->pos;
		strv_push(&s->mount_opts, &s->nmount, t);
	}
	free(dup);
	return 0;
}

static int parse_mount(const struct node *n, struct fs_spec *s, struct diag *d)
{
	if (n->kind == NODE_SCALAR)
		return split_mount(n, s, d);
	if (n->kind != NODE_SEQ) {
		diag_error(d, &n->pos, "target.mount_options: expected a list of options, found a %s",
		           node_kind_name(n->kind));
		return -EINVAL;
	}
	for (size_t i = 0; i < n->n; i++) {
		if (n->items[i]->kind != NODE_SCALAR) {
			diag_error(d, &n->items[i]->pos,
			           "target.mount_options: expected an option, found a %s",
			           node_kind_name(n->items[i]->kind));
			return -EINVAL;
		}
		if (split_mount(n->items[i], s, d) < 0)
			return -EINVAL;
	}
	return 0;
}

/* Error for a key that does not apply to this kind of target. */
static int only_for(const struct node *t, const char *key, const char *kinds, struct diag *d)
{
	diag_error(d, node_key_pos(t, key), "target.%s only applies to kind: %s", key, kinds);
	return -EINVAL;
}

static const char *const target_keys[] = {
    "kind",    "fs",   "block_size",   "size",          "image_dir", "device",
    "destroy", "path", "mkfs_options", "mount_options", "direct_io", NULL};

/* Parse and validate; values still containing ${...} (known only at run
 * time) are skipped. s is filled as far as possible; free with spec_free. */
static int spec_parse(const struct node *t, struct fs_spec *s, struct diag *d)
{
	memset(s, 0, sizeof(*s));
	s->fs = -1;
	s->kind = FX_DIR;
	if (!t || t->kind == NODE_NULL)
		return 0;
	s->pos = t->pos;
	if (node_check_keys(t, "target", target_keys, d) < 0)
		return -EINVAL;
	int bad = 0;
	const struct node *n;
	if ((n = node_get(t, "kind")) && !deferred(n) &&
	    node_as_enum(n, "target.kind", kind_names, &s->kind, d) < 0)
		return -EINVAL;
	if ((n = node_get(t, "fs")) && !deferred(n)) {
		s->fs_pos = n->pos;
		if (node_as_enum(n, "target.fs", fs_names, &s->fs, d) < 0)
			bad = -EINVAL;
	}
	if ((n = node_get(t, "block_size")) && !deferred(n)) {
		s->bs_pos = n->pos;
		if (node_as_size(n, "target.block_size", false, &s->block_size, d) < 0) {
			bad = -EINVAL;
		} else if (s->block_size & (s->block_size - 1)) {
			diag_error(d, &n->pos, "target.block_size: %s is not a power of two", n->text);
			bad = -EINVAL;
		} else if (s->fs >= 0) {
			const struct fs_info *fi = &fs_info[s->fs];
			char lo[32], hi[32], bs[32];
			units_format_size(fi->bs_min, lo, sizeof(lo));
			units_format_size(fi->bs_max, hi, sizeof(hi));
			units_format_size(s->block_size, bs, sizeof(bs));
			if (s->block_size < fi->bs_min || s->block_size > fi->bs_max) {
				if (fi->bs_min == fi->bs_max)
					diag_error(d, &n->pos,
					           "target.block_size: %s supports only %s blocks, not %s",
					           fs_names[s->fs], lo, bs);
				else
					diag_error(d, &n->pos,
					           "target.block_size: %s supports block sizes from %s to "
					           "%s, not %s",
					           fs_names[s->fs], lo, hi, bs);
				bad = -EINVAL;
			}
		}
	}
	if ((n = node_get(t, "size")) && !deferred(n)) {
		if (s->kind != FX_LOOP)
			bad = only_for(t, "size", "loop", d);
		else if (node_as_size(n, "target.size", false, &s->size, d) < 0)
			bad = -EINVAL;
		else if (s->fs >= 0 && s->size < fs_info[s->fs].size_min) {
			char lo[32];
			units_format_size(fs_info[s->fs].size_min, lo, sizeof(lo));
			diag_error(d, &n->pos,
			           "target.size: %s needs at least %s (%s refuses smaller devices)",
			           fs_names[s->fs], lo, fs_info[s->fs].mkfs);
			bad = -EINVAL;
		}
	} else if (!n && s->kind == FX_LOOP) {
		diag_error(d, &t->pos, "target: kind: loop needs `size:` (the image file size, e.g. 1GiB)");
		bad = -EINVAL;
	}
	const char *str;
	if ((n = node_get(t, "image_dir"))) {
		if (s->kind != FX_LOOP)
			bad = only_for(t, "image_dir", "loop", d);
		else if (node_as_string(n, "target.image_dir", &str, d) < 0)
			bad = -EINVAL;
		else
			s->image_dir = strdup(str);
	}
	if ((n = node_get(t, "direct_io"))) {
		if (s->kind != FX_LOOP)
			bad = only_for(t, "direct_io", "loop", d);
		else if (!deferred(n) && node_as_bool(n, "target.direct_io", &s->direct_io, d) < 0)
			bad = -EINVAL;
	}
	if ((n = node_get(t, "device"))) {
		s->device_pos = n->pos;
		if (s->kind != FX_DEVICE)
			bad = only_for(t, "device", "device", d);
		else if (node_as_string(n, "target.device", &str, d) < 0)
			bad = -EINVAL;
		else
			s->device = strdup(str);
	} else if (s->kind == FX_DEVICE) {
		diag_error(d, &t->pos, "target: kind: device needs `device:` (e.g. /dev/sdb1)");
		bad = -EINVAL;
	}
	if ((n = node_get(t, "destroy"))) {
		if (s->kind != FX_DEVICE)
			bad = only_for(t, "destroy", "device", d);
		else if (!deferred(n) && node_as_bool(n, "target.destroy", &s->destroy, d) < 0)
			bad = -EINVAL;
	}
	if ((n = node_get(t, "path"))) {
		s->path_pos = n->pos;
		if (s->kind != FX_DIR)
			bad = only_for(t, "path", "dir", d);
		else if (node_as_string(n, "target.path", &str, d) < 0)
			bad = -EINVAL;
		else
			s->path = strdup(str);
	}
	if ((n = node_get(t, "mkfs_options"))) {
		s->mkfs_pos = n->pos;
		if (s->kind == FX_DIR)
			bad = only_for(t, "mkfs_options", "loop or device", d);
		else if (parse_mkfs(n, s, d) < 0)
			bad = -EINVAL;
	}
	if ((n = node_get(t, "mount_options"))) {
		s->mount_pos = n->pos;
		if (s->kind == FX_DIR)
			bad = only_for(t, "mount_options", "loop or device", d);
		else if (parse_mount(n, s, d) < 0)
			bad = -EINVAL;
	}
	if (s->kind != FX_DIR && s->fs < 0 && !node_get(t, "fs"))
		s->fs = FS_EXT4;
	return bad;
}

int fx_fs_check(const struct node *target, struct diag *d)
{
	struct fs_spec s;
	int r = spec_parse(target, &s, d);
	spec_free(&s);
	return r;
}

static bool streq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

bool fx_fs_same(const struct node *a, const struct node *b)
{
	struct fs_spec x, y;
	struct diag d;
	diag_init(&d);
	int ra = spec_parse(a, &x, &d), rb = spec_parse(b, &y, &d);
	bool same = ra == 0 && rb == 0 && x.kind == y.kind && x.fs == y.fs && x.block_size == y.block_size &&
	            x.size == y.size && streq(x.image_dir, y.image_dir) && streq(x.device, y.device) &&
	            streq(x.path, y.path) && x.destroy == y.destroy && x.direct_io == y.direct_io &&
	            x.nmkfs == y.nmkfs && x.nmount == y.nmount;
	for (size_t i = 0; same && i < x.nmkfs; i++)
		same = streq(x.mkfs_opts[i], y.mkfs_opts[i]);
	for (size_t i = 0; same && i < x.nmount; i++)
		same = streq(x.mount_opts[i], y.mount_opts[i]);
	spec_free(&x);
	spec_free(&y);
	diag_free(&d);
	return same;
}

/* ---- undo stack ---- */

static int undo_push(struct fx_fs *fs, const char *kind, const char *a1, const char *a2, struct diag *d)
{
	if (fs->nundo >= FX_MAX_UNDO)
		return -ENOSPC;
	int tok = state_push(kind, a1, a2);
	if (tok < 0) {
		diag_error(d, NULL, "cannot write the state journal %s: %s", state_path() ? state_path() : "",
		           strerror(-tok));
		return tok;
	}
	struct fx_undo *u = &fs->undo[fs->nundo++];
	u->kind = kind;
	u->arg1 = strdup(a1);
	u->arg2 = a2 ? strdup(a2) : NULL;
	u->token = tok;
	return 0;
}

/* Forget the newest entry without undoing it (the action never happened). */
static void undo_drop(struct fx_fs *fs)
{
	struct fx_undo *u = &fs->undo[--fs->nundo];
	state_done(u->token);
	free(u->arg1);
	free(u->arg2);
}

static int undo_all(struct fx_fs *fs, struct diag *d)
{
	int first = 0;
	while (fs->nundo > 0) {
		struct fx_undo *u = &fs->undo[fs->nundo - 1];
		int r = state_undo_action(u->kind, u->arg1, u->arg2, d);
		if (r == 0)
			state_done(u->token);
		else if (!first)
			first = r;
		free(u->arg1);
		free(u->arg2);
		fs->nundo--;
	}
	return first;
}

/* A name nobody else uses: dir/prefix-<pid>-<counter><clock>. */
static void fresh_name(char *buf, size_t len, const char *dir, const char *prefix, const char *suffix)
{
	static unsigned counter;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(buf, len, "%s/%s-%ld-%u%05lx%s", dir, prefix, (long)getpid(), ++counter,
	         (unsigned long)(ts.tv_nsec & 0xfffff), suffix);
}

/* ---- running programs ---- */

/* Find a program in PATH or the sbin directories (root's tools live there
 * even when PATH lacks them). */
static bool find_prog(const char *prog, char *out, size_t len)
{
	const char *path = getenv("PATH");
	char buf[4096];
	snprintf(buf, sizeof(buf), "%s:/usr/local/sbin:/usr/sbin:/sbin:/usr/bin:/bin", path ? path : "");
	char *save = NULL;
	for (char *dir = strtok_r(buf, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/%s", dir, prog);
		if (access(out, X_OK) == 0)
			return true;
	}
	return false;
}

/* Run argv (no shell), output captured; the last `len` bytes of stdout and
 * stderr go to out. Returns the exit status, or -errno. */
static int run_prog(char *const argv[], char *out, size_t len)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	pid_t pid = fork();
	if (pid < 0) {
		int e = -errno;
		close(p[0]);
		close(p[1]);
		return e;
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_RDONLY);
		if (nul >= 0)
			dup2(nul, 0);
		dup2(p[1], 1);
		dup2(p[1], 2);
		execv(argv[0], argv);
		dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	size_t used = 0;
	out[0] = '\0';
	char buf[4096];
	ssize_t n;
	while ((n = read(p[0], buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		/* keep the tail: that is where the error is */
		if ((size_t)n >= len - 1) {
			memcpy(out, buf + n - (len - 1), len - 1);
			used = len - 1;
		} else {
			if (used + (size_t)n > len - 1) {
				size_t drop = used + (size_t)n - (len - 1);
				memmove(out, out + drop, used - drop);
				used -= drop;
			}
			memcpy(out + used, buf, (size_t)n);
			used += (size_t)n;
		}
		out[used] = '\0';
	}
	close(p[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static bool kernel_has_fs(const char *name)
{
	FILE *f = fopen("/proc/filesystems", "re");
	if (!f)
		return true; /* cannot tell: let mount decide */
	char line[256];
	bool found = false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *t = strrchr(line, '\t');
		t = t ? t + 1 : line;
		t[strcspn(t, "\n")] = '\0';
		found = strcmp(t, name) == 0;
	}
	fclose(f);
	return found;
}

/* The file system's mkfs is installed and the kernel can mount it; when
 * not, one error names both the missing package and the missing module. */
static int fs_available(const struct fs_spec *s, char *mkfs, size_t len, struct diag *d)
{
	const char *name = fs_names[s->fs];
	const struct fs_info *fi = &fs_info[s->fs];
	bool tool = find_prog(fi->mkfs, mkfs, len);
	bool kernel = kernel_has_fs(name);
	if (!kernel) {
		char modprobe[PATH_MAX], out[512];
		if (find_prog("modprobe", modprobe, sizeof(modprobe))) {
			char *argv[] = {modprobe, (char *)name, NULL};
			run_prog(argv, out, sizeof(out));
			kernel = kernel_has_fs(name);
		}
	}
	if (tool && kernel)
		return 0;
	struct utsname u;
	uname(&u);
	char tmsg[256] = "", kmsg[256] = "";
	if (!tool)
		snprintf(tmsg, sizeof(tmsg), "%s is not installed (Debian package %s)", fi->mkfs,
		         fi->package);
	if (!kernel)
		snprintf(
		    kmsg, sizeof(kmsg),
		    "the running kernel (%s) cannot mount it (not in /proc/filesystems, and kernel module %s "
		    "could not be loaded)",
		    u.release, name);
	diag_error(d, s->fs_pos.line ? &s->fs_pos : &s->pos, "target.fs: %s is not available here: %s%s%s",
	           name, tmsg, tool || kernel ? "" : "; ", kmsg);
	return tool ? -ENODEV : -ENOENT;
}

/* ---- loop devices ---- */

/* Attach image to a free loop device without autoclear (detaching is
 * explicit and journalled). Another program may grab the same free device
 * between GET_FREE and CONFIGURE: then LOOP_CONFIGURE fails with EBUSY and
 * we ask again. */
static int loop_attach(struct fx_fs *fs, const char *image, bool direct_io, char *dev, size_t len,
                       struct diag *d)
{
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		int e = -errno;
		diag_error(d, &fs->spec.pos, "kind: loop: cannot open /dev/loop-control: %s",
		           strerror(errno));
		return e;
	}
	int img = open(image, O_RDWR | O_CLOEXEC);
	if (img < 0) {
		int e = -errno;
		close(ctl);
		diag_error(d, &fs->spec.pos, "cannot open image %s: %s", image, strerror(errno));
		return e;
	}
	int r = -EBUSY;
	for (int attempt = 0; attempt < 20 && r == -EBUSY; attempt++) {
		int nr = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (nr < 0) {
			r = -errno;
			diag_error(d, &fs->spec.pos, "no free loop device: %s", strerror(errno));
			break;
		}
		snprintf(dev, len, "/dev/loop%d", nr);
		if ((r = undo_push(fs, "losetup-d", dev, image, d)) < 0)
			break;
		int lfd = open(dev, O_RDWR | O_CLOEXEC);
		if (lfd < 0 && errno == ENOENT) {
			/* no devtmpfs node yet: make it from sysfs' numbers */
			char attr[64], name[32];
			unsigned ma, mi;
			snprintf(name, sizeof(name), "loop%d", nr);
			if (blkdev_attr(name, "dev", attr, sizeof(attr)) == 0 &&
			    sscanf(attr, "%u:%u", &ma, &mi) == 2 &&
			    mknod(dev, S_IFBLK | 0660, makedev(ma, mi)) == 0)
				lfd = open(dev, O_RDWR | O_CLOEXEC);
		}
		if (lfd < 0) {
			r = -errno;
			undo_drop(fs);
			diag_error(d, &fs->spec.pos, "cannot open %s: %s", dev, strerror(-r));
			break;
		}
		struct loop_config cfg;
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = (unsigned)img;
		cfg.info.lo_flags = direct_io ? LO_FLAGS_DIRECT_IO : 0;
		snprintf((char *)cfg.info.lo_file_name, sizeof(cfg.info.lo_file_name), "%s", image);
		r = 0;
		if (ioctl(lfd, LOOP_CONFIGURE, &cfg) < 0) {
			r = -errno;
			if (r == -EINVAL || r == -ENOTTY) {
				/* kernels before 5.8: the two-step way */
				r = 0;
				if (ioctl(lfd, LOOP_SET_FD, img) < 0) {
					r = -errno;
				} else if (ioctl(lfd, LOOP_SET_STATUS64, &cfg.info) < 0) {
					r = -errno;
					ioctl(lfd, LOOP_CLR_FD, 0);
				}
			}
		}
		close(lfd);
		if (r < 0) {
			undo_drop(fs); /* not ours: never detach it */
			if (r != -EBUSY)
				diag_error(d, &fs->spec.pos, "cannot attach %s to %s: %s", image, dev,
				           strerror(-r));
		}
	}
	if (r == -EBUSY)
		diag_error(d, &fs->spec.pos, "cannot attach %s: every free loop device was taken by others",
		           image);
	close(img);
	close(ctl);
	return r;
}

static int make_image(struct fx_fs *fs, const char *dir, struct diag *d)
{
	char path[PATH_MAX];
	struct stat sb;
	if (stat(dir, &sb) < 0 || !S_ISDIR(sb.st_mode)) {
		diag_error(d, &fs->spec.pos, "target.image_dir: %s is not a directory", dir);
		return -ENOTDIR;
	}
	for (int attempt = 0; attempt < 10; attempt++) {
		fresh_name(path, sizeof(path), dir, "benchgrid", ".img");
		int r = undo_push(fs, "rm", path, NULL, d);
		if (r < 0)
			return r;
		int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0 && errno == EEXIST) {
			undo_drop(fs);
			continue;
		}
		if (fd < 0) {
			r = -errno;
			undo_drop(fs);
			diag_error(d, &fs->spec.pos, "cannot create image %s: %s", path, strerror(-r));
			return r;
		}
		/* Allocate for real, so that the benchmark does not measure the
		 * image's own block allocation; fall back to a sparse file. */
		if (fallocate(fd, 0, 0, (off_t)fs->spec.size) < 0) {
			r = -errno;
			if (r == -EOPNOTSUPP && ftruncate(fd, (off_t)fs->spec.size) == 0) {
				r = 0;
			} else {
				char sz[32];
				units_format_size(fs->spec.size, sz, sizeof(sz));
				diag_error(d, &fs->spec.pos, "cannot allocate the %s image %s: %s", sz, path,
				           strerror(-r));
			}
		}
		close(fd);
		fs->image = strdup(path);
		return r;
	}
	diag_error(d, &fs->spec.pos, "cannot find a free image file name in %s", dir);
	return -EEXIST;
}

static int make_dir(struct fx_fs *fs, const char *parent, const char *prefix, const char *undo_kind,
                    char **out, struct diag *d)
{
	char path[PATH_MAX];
	for (int attempt = 0; attempt < 10; attempt++) {
		fresh_name(path, sizeof(path), parent, prefix, "");
		int r = undo_push(fs, undo_kind, path, NULL, d);
		if (r < 0)
			return r;
		if (mkdir(path, 0755) < 0) {
			r = -errno;
			undo_drop(fs);
			if (r == -EEXIST)
				continue;
			diag_error(d, &fs->spec.pos, "cannot create directory %s: %s", path, strerror(-r));
			return r;
		}
		chmod(path, 0755); /* whatever the umask: PostgreSQL runs as another user */
		*out = strdup(path);
		return 0;
	}
	return -EEXIST;
}

/* ---- mkfs and mount ---- */

static int run_mkfs(struct fx_fs *fs, const char *mkfs, const char *dev, struct diag *d)
{
	const struct fs_spec *s = &fs->spec;
	char *argv[64 + 16];
	char bsarg[48];
	int n = 0;
	argv[n++] = (char *)mkfs;
	uint64_t bs = s->block_size;
	switch (s->fs) {
	case FS_EXT2:
	case FS_EXT3:
	case FS_EXT4:
		argv[n++] = "-t";
		argv[n++] = (char *)fs_names[s->fs];
		argv[n++] = "-F";
		argv[n++] = "-q";
		/* Initialise inode tables and journal now, or ext4lazyinit
		 * writes in the background during the benchmark. */
		argv[n++] = "-E";
		argv[n++] = "lazy_itable_init=0,lazy_journal_init=0";
		if (bs) {
			snprintf(bsarg, sizeof(bsarg), "%llu", (unsigned long long)bs);
			argv[n++] = "-b";
			argv[n++] = bsarg;
		}
		break;
	case FS_XFS:
		argv[n++] = "-f";
		argv[n++] = "-q";
		if (bs) {
			snprintf(bsarg, sizeof(bsarg), "size=%llu", (unsigned long long)bs);
			argv[n++] = "-b";
			argv[n++] = bsarg;
		}
		break;
	case FS_BTRFS:
		argv[n++] = "-f";
		argv[n++] = "-q";
		if (bs) {
			snprintf(bsarg, sizeof(bsarg), "%llu", (unsigned long long)bs);
			argv[n++] = "-s";
			argv[n++] = bsarg;
			if (bs > 16384) { /* nodesize (default 16k) must be >= sectorsize */
				argv[n++] = "-n";
				argv[n++] = bsarg;
			}
		}
		break;
	case FS_F2FS:
		argv[n++] = "-f";
		argv[n++] = "-q";
		break;
	case FS_NILFS2:
		argv[n++] = "-f";
		argv[n++] = "-q";
		if (bs) {
			snprintf(bsarg, sizeof(bsarg), "%llu", (unsigned long long)bs);
			argv[n++] = "-b";
			argv[n++] = bsarg;
		}
		break;
	case FS_JFS: argv[n++] = "-q"; break;
	}
	for (size_t i = 0; i < s->nmkfs && n < 64 + 12; i++)
		argv[n++] = s->mkfs_opts[i];
	argv[n++] = (char *)dev;
	argv[n] = NULL;

	/* the command as it ran, for the record */
	size_t cl = 0;
	for (int i = 0; i < n; i++)
		cl += strlen(argv[i]) + 1;
	fs->mkfs_cmd = malloc(cl + 1);
	if (fs->mkfs_cmd) {
		fs->mkfs_cmd[0] = '\0';
		for (int i = 0; i < n; i++) {
			strcat(fs->mkfs_cmd, i ? " " : "");
			strcat(fs->mkfs_cmd, argv[i]);
		}
	}
	char out[2048];
	int st = run_prog(argv, out, sizeof(out));
	if (st != 0) {
		size_t ol = strlen(out);
		while (ol && out[ol - 1] == '\n')
			out[--ol] = '\0';
		/* the reason comes first; a usage text after it is noise */
		char *p = out;
		int lines = 0;
		while (p && lines < 6) {
			p = strchr(p, '\n');
			if (p)
				p++;
			lines++;
		}
		if (p && *p) {
			int more = 0;
			for (char *q = p; *q; q++)
				more += *q == '\n';
			snprintf(p, sizeof(out) - (size_t)(p - out), "(%d more lines)", more + 1);
		}
		const struct src_pos *pos = s->nmkfs ? &s->mkfs_pos : &s->pos;
		if (st < 0)
			diag_error(d, pos, "cannot run %s: %s", mkfs, strerror(-st));
		else
			diag_error(d, pos, "`%s` failed (exit status %d):\n%s",
			           fs->mkfs_cmd ? fs->mkfs_cmd : mkfs, st, out);
		return -EIO;
	}
	return 0;
}

/* Options mount(2) takes as flags; the rest go to the file system as data. */
static const struct mflag {
	const char *name;
	unsigned long set, clear;
} mflags[] = {
    {"ro", MS_RDONLY, 0},
    {"rw", 0, MS_RDONLY},
    {"nosuid", MS_NOSUID, 0},
    {"suid", 0, MS_NOSUID},
    {"nodev", MS_NODEV, 0},
    {"dev", 0, MS_NODEV},
    {"noexec", MS_NOEXEC, 0},
    {"exec", 0, MS_NOEXEC},
    {"sync", MS_SYNCHRONOUS, 0},
    {"async", 0, MS_SYNCHRONOUS},
    {"dirsync", MS_DIRSYNC, 0},
    {"noatime", MS_NOATIME, MS_RELATIME | MS_STRICTATIME},
    {"nodiratime", MS_NODIRATIME, 0},
    {"diratime", 0, MS_NODIRATIME},
    {"relatime", MS_RELATIME, MS_NOATIME | MS_STRICTATIME},
    {"strictatime", MS_STRICTATIME, MS_NOATIME | MS_RELATIME},
    {"atime", 0, MS_NOATIME},
    {"lazytime", MS_LAZYTIME, 0},
    {"nolazytime", 0, MS_LAZYTIME},
    {"defaults", 0, 0},
};
#define NMFLAGS (sizeof(mflags) / sizeof(mflags[0]))

static const struct mflag *find_mflag(const char *o)
{
	for (size_t i = 0; i < NMFLAGS; i++)
		if (!strcmp(mflags[i].name, o))
			return &mflags[i];
	return NULL;
}

/* Kernel log lines written since `fd` was opened (position set to the end):
 * the file system's own reason for refusing a mount. */
static void kmsg_tail(int fd, const char *dev, const char *fsname, char *out, size_t len)
{
	out[0] = '\0';
	if (fd < 0)
		return;
	char rec[2048];
	ssize_t n;
	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n <= 0)
			continue;
		rec[n] = '\0';
		char *msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		msg[strcspn(msg, "\n")] = '\0';
		/* other programs log too: keep what is about our device or fs */
		const char *base = strrchr(dev, '/');
		if (!strcasestr(msg, base ? base + 1 : dev) && !strcasestr(msg, fsname))
			continue;
		size_t ol = strlen(out);
		snprintf(out + ol, len - ol, "%s%s", ol ? "; " : "", msg);
	}
}

static int do_mount(struct fx_fs *fs, const char *dev, struct diag *d)
{
	const struct fs_spec *s = &fs->spec;
	unsigned long flags = 0;
	char data[2048] = "";
	for (size_t i = 0; i < s->nmount; i++) {
		const struct mflag *m = find_mflag(s->mount_opts[i]);
		if (m) {
			flags = (flags & ~m->clear) | m->set;
			continue;
		}
		size_t l = strlen(data);
		snprintf(data + l, sizeof(data) - l, "%s%s", l ? "," : "", s->mount_opts[i]);
	}
	int r = undo_push(fs, "umount", fs->mnt, NULL, d);
	if (r < 0)
		return r;
	int kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kfd >= 0)
		lseek(kfd, 0, SEEK_END);
	if (mount(dev, fs->mnt, fs_names[s->fs], flags, data[0] ? data : NULL) < 0) {
		r = -errno;
		char why[1024];
		struct timespec ts = {0, 20 * 1000 * 1000};
		nanosleep(&ts, NULL);
		kmsg_tail(kfd, dev, fs_names[s->fs], why, sizeof(why));
		undo_drop(fs);
		diag_error(d, s->nmount ? &s->mount_pos : &s->pos, "cannot mount %s (%s) on %s: %s%s%s%s",
		           dev, fs_names[s->fs], fs->mnt, strerror(-r), why[0] ? " (kernel: " : "", why,
		           why[0] ? ")" : "");
	}
	if (kfd >= 0)
		close(kfd);
	return r;
}

/* Is option o shown in the comma list `list` (exactly, or as o=... / o:...)? */
static bool opt_shown(const char *list, const char *o, const char **val)
{
	size_t ol = strlen(o);
	for (const char *p = list; p && *p;) {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		if (l >= ol && strncmp(p, o, ol) == 0 && (l == ol || p[ol] == '=')) {
			if (val)
				*val = l == ol ? NULL : p + ol + 1;
			return true;
		}
		p = e ? e + 1 : NULL;
	}
	return false;
}

/* Compare what the scenario asked for with what mountinfo shows. An option
 * is a mismatch when the kernel shows a different value for it, shows its
 * opposite, or (for the VFS flags it always shows) does not show it. */
static int verify_mount_opts(struct fx_fs *fs, const struct mountinfo_ent *mi, struct diag *d)
{
	const struct fs_spec *s = &fs->spec;
	char all[2100];
	snprintf(all, sizeof(all), "%s,%s", mi->opts, mi->superopts);
	int bad = 0;
	static const char *const always_shown[] = {"ro",    "noatime", "relatime",   "nosuid",
	                                           "nodev", "noexec",  "nodiratime", NULL};
	for (size_t i = 0; i < s->nmount; i++) {
		const char *o = s->mount_opts[i];
		const char *eq = strchr(o, '=');
		bool ok = true;
		if (eq) {
			char key[256];
			snprintf(key, sizeof(key), "%.*s", (int)(eq - o), o);
			const char *v;
			if (opt_shown(all, key, &v) && v) {
				size_t wl = strlen(eq + 1);
				ok = strncmp(v, eq + 1, wl) == 0 &&
				     (v[wl] == '\0' || v[wl] == ',' || v[wl] == ':');
			}
		} else if (!strcmp(o, "strictatime")) {
			ok = !opt_shown(mi->opts, "noatime", NULL) && !opt_shown(mi->opts, "relatime", NULL);
		} else if (!strcmp(o, "rw") || !strcmp(o, "defaults")) {
			ok = true;
		} else {
			bool must = false;
			for (int k = 0; always_shown[k]; k++)
				must = must || !strcmp(always_shown[k], o);
			char neg[256];
			if (!strncmp(o, "no", 2))
				snprintf(neg, sizeof(neg), "%s", o + 2);
			else
				snprintf(neg, sizeof(neg), "no%s", o);
			if (opt_shown(all, o, NULL))
				ok = true;
			else if (must || opt_shown(all, neg, NULL))
				ok = false;
		}
		if (!ok) {
			diag_error(
			    d, &s->mount_opt_pos[i],
			    "target.mount_options: '%s' was not applied: /proc/self/mountinfo shows %s", o,
			    fs->mountopts);
			bad = -EINVAL;
		}
	}
	return bad;
}

/* Read back type, block size and options of the mounted file system. */
static int verify(struct fx_fs *fs, const char *dir, bool mounted, struct diag *d)
{
	const struct fs_spec *s = &fs->spec;
	struct statfs sf;
	if (statfs(dir, &sf) < 0) {
		int e = -errno;
		diag_error(d, &s->pos, "cannot statfs %s: %s", dir, strerror(errno));
		return e;
	}
	fs->bsize = (uint64_t)sf.f_bsize;
	fs->total = (uint64_t)sf.f_blocks * (uint64_t)sf.f_bsize;
	struct mountinfo_ent *mi = malloc(sizeof(*mi));
	if (!mi)
		return -ENOMEM;
	int r;
	if (mounted) {
		r = mountinfo_find(dir, mi);
	} else {
		/* a dir target: the mount holding the directory */
		char cur[PATH_MAX];
		r = realpath(dir, cur) ? -ENOENT : -errno;
		while (r == -ENOENT) {
			r = mountinfo_find(cur, mi);
			if (r != -ENOENT || !strcmp(cur, "/"))
				break;
			char *sl = strrchr(cur, '/');
			if (sl == cur)
				sl[1] = '\0';
			else
				*sl = '\0';
		}
	}
	if (r < 0) {
		diag_error(d, &s->pos, "%s is not in /proc/self/mountinfo: %s", dir, strerror(-r));
		free(mi);
		return r;
	}
	snprintf(fs->fstype, sizeof(fs->fstype), "%s", mi->fstype);
	snprintf(fs->mountopts, sizeof(fs->mountopts), "%s %s", mi->opts, mi->superopts);
	int bad = 0;
	if (s->fs >= 0) {
		const char *want = fs_names[s->fs];
		if (strcmp(mi->fstype, want) != 0 || (unsigned long)sf.f_type != fs_info[s->fs].magic) {
			diag_error(d, s->fs_pos.line ? &s->fs_pos : &s->pos,
			           "target.fs: %s is %s, not %s (statfs type 0x%lx)", dir, mi->fstype, want,
			           (unsigned long)sf.f_type);
			bad = -EINVAL;
		}
	}
	if (s->block_size && fs->bsize != s->block_size) {
		char want[32], have[32];
		units_format_size(s->block_size, want, sizeof(want));
		units_format_size(fs->bsize, have, sizeof(have));
		diag_error(d, s->bs_pos.line ? &s->bs_pos : &s->pos,
		           "target.block_size: the file system at %s has %s blocks, not %s", dir, have, want);
		bad = -EINVAL;
	}
	if (mounted && verify_mount_opts(fs, mi, d) < 0)
		bad = -EINVAL;
	free(mi);
	return bad;
}

/* ---- setup and teardown ---- */

static int setup_dir(struct fx_fs *fs, const char *work_dir, struct diag *d)
{
	const struct fs_spec *s = &fs->spec;
	const char *parent = s->path ? s->path : work_dir;
	struct stat sb;
	if (stat(parent, &sb) < 0 || !S_ISDIR(sb.st_mode)) {
		diag_error(d, s->path ? &s->path_pos : &s->pos,
		           "target.path: %s is not an existing directory", parent);
		return -ENOTDIR;
	}
	int r = make_dir(fs, parent, "benchgrid", "rmtree", &fs->path, d);
	if (r < 0)
		return r;
	char dev[PATH_MAX];
	if (blkdev_of_path(fs->path, dev, sizeof(dev)) == 0)
		fs->blockdev = strdup(dev);
	return verify(fs, fs->path, false, d);
}

static int setup_blockfs(struct fx_fs *fs, const char *work_dir, bool allow_destroy, struct diag *d)
{
	struct fs_spec *s = &fs->spec;
	char mkfs[PATH_MAX], dev[PATH_MAX];
	int r;
	if (s->kind == FX_DEVICE) {
		if (!s->destroy || !allow_destroy) {
			diag_error(
			    d, &s->device_pos,
			    "kind: device formats %s and destroys everything on it: this needs %s", s->device,
			    !s->destroy && !allow_destroy ? "`destroy: true` in the target and --yes on the "
			                                    "command line"
			    : !s->destroy                 ? "`destroy: true` in the target"
			                                  : "--yes on the command line");
			return -EPERM;
		}
		char why[1024];
		if ((r = blkdev_check_safe(s->device, why, sizeof(why))) < 0) {
			diag_error(d, &s->device_pos, "refusing to format %s: %s", s->device, why);
			return r;
		}
	}
	if ((r = fs_available(s, mkfs, sizeof(mkfs), d)) < 0)
		return r;
	if (s->kind == FX_LOOP) {
		if ((r = make_image(fs, s->image_dir ? s->image_dir : work_dir, d)) < 0)
			return r;
		if ((r = loop_attach(fs, fs->image, s->direct_io, dev, sizeof(dev), d)) < 0)
			return r;
		char dio[16] = "";
		if (s->direct_io &&
		    (blkdev_attr(dev + 5, "loop/dio", dio, sizeof(dio)) < 0 || strcmp(dio, "1"))) {
			diag_error(d, &s->pos, "target.direct_io: %s could not switch to direct I/O on %s",
			           dev, fs->image);
			return -EOPNOTSUPP;
		}
	} else {
		snprintf(dev, sizeof(dev), "%s", s->device);
	}
	fs->blockdev = strdup(dev);
	if ((r = run_mkfs(fs, mkfs, dev, d)) < 0)
		return r;
	if ((r = make_dir(fs, work_dir, "mnt", "rmdir", &fs->mnt, d)) < 0)
		return r;
	if ((r = do_mount(fs, dev, d)) < 0)
		return r;
	fs->path = strdup(fs->mnt);
	return verify(fs, fs->mnt, true, d);
}

struct fx_fs *fx_fs_setup(const struct node *target, const char *work_dir, bool allow_destroy, struct diag *d)
{
	struct fx_fs *fs = calloc(1, sizeof(*fs));
	if (!fs)
		return NULL;
	if (spec_parse(target, &fs->spec, d) < 0) {
		spec_free(&fs->spec);
		free(fs);
		return NULL;
	}
	int r;
	if (fs->spec.kind == FX_DIR)
		r = setup_dir(fs, work_dir, d);
	else
		r = setup_blockfs(fs, work_dir, allow_destroy, d);
	if (r < 0) {
		fx_fs_teardown(fs, d);
		return NULL;
	}
	return fs;
}

const char *fx_fs_path(const struct fx_fs *fs)
{
	return fs ? fs->path : NULL;
}

const char *fx_fs_blockdev(const struct fx_fs *fs)
{
	return fs ? fs->blockdev : NULL;
}

void fx_fs_facts(const struct fx_fs *fs, struct step_result *facts)
{
	if (!fs)
		return;
	result_info(facts, "fs.kind", "%s", kind_names[fs->spec.kind]);
	if (fs->fstype[0])
		result_info(facts, "fs.type", "%s", fs->fstype);
	if (fs->bsize)
		result_info(facts, "fs.block_size", "%llu", (unsigned long long)fs->bsize);
	if (fs->total)
		result_info(facts, "fs.size", "%llu", (unsigned long long)fs->total);
	if (fs->mountopts[0])
		result_info(facts, "fs.mount_options", "%s", fs->mountopts);
	if (fs->path)
		result_info(facts, "fs.path", "%s", fs->path);
	if (fs->blockdev)
		result_info(facts, "fs.source", "%s", fs->blockdev);
	if (fs->mkfs_cmd)
		result_info(facts, "fs.mkfs", "%s", fs->mkfs_cmd);
	if (fs->image)
		result_info(facts, "fs.image", "%s", fs->image);
	facts_blockdev(fs->blockdev ? fs->blockdev : fs->path, facts);
}

int fx_fs_teardown(struct fx_fs *fs, struct diag *d)
{
	if (!fs)
		return 0;
	int r = undo_all(fs, d);
	spec_free(&fs->spec);
	free(fs->path);
	free(fs->mnt);
	free(fs->blockdev);
	free(fs->image);
	free(fs->mkfs_cmd);
	free(fs);
	return r;
}
