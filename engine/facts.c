/* facts: machine and device facts for every cell (see facts.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "blkdev.h"
#include "facts.h"

/* Strip trailing and leading white space in place. */
static char *facts_trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

static int facts_read(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	size_t n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return 0;
}

/* The value of `key` in a "key : value" or "key=value" file, trimmed. */
static int facts_keyed(const char *path, const char *key, char sep, char *out, size_t len)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	char line[1024];
	size_t kl = strlen(key);
	int r = -ENOENT;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, kl) != 0)
			continue;
		char *p = line + kl;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != sep)
			continue;
		p = facts_trim(p + 1);
		size_t pl = strlen(p);
		if (pl >= 2 && p[0] == '"' && p[pl - 1] == '"') { /* os-release quoting */
			p[pl - 1] = '\0';
			p++;
		}
		snprintf(out, len, "%s", p);
		r = 0;
		break;
	}
	fclose(f);
	return r;
}

void facts_machine(struct step_result *facts)
{
	struct utsname u;
	if (uname(&u) == 0) {
		result_info(facts, "machine.kernel", "%s %s", u.release, u.version);
		result_info(facts, "machine.arch", "%s", u.machine);
	}
	char buf[512];
	if (facts_keyed("/proc/cpuinfo", "model name", ':', buf, sizeof(buf)) == 0 ||
	    facts_keyed("/proc/cpuinfo", "Model", ':', buf, sizeof(buf)) == 0 ||
	    facts_keyed("/proc/cpuinfo", "cpu model", ':', buf, sizeof(buf)) == 0)
		result_info(facts, "machine.cpu_model", "%s", buf);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (cpus > 0)
		result_info(facts, "machine.cpus", "%ld", cpus);
	if (facts_keyed("/proc/meminfo", "MemTotal", ':', buf, sizeof(buf)) == 0)
		result_info(facts, "machine.memory", "%llu", strtoull(buf, NULL, 10) * 1024ULL);
	if (facts_keyed("/etc/os-release", "PRETTY_NAME", '=', buf, sizeof(buf)) == 0)
		result_info(facts, "machine.distro", "%s", buf);
}

/* Record sysfs attribute `attr` of block device `name` as fact `key`. */
static void facts_attr(struct step_result *facts, const char *name, const char *attr, const char *key)
{
	char buf[512];
	if (blkdev_attr(name, attr, buf, sizeof(buf)) == 0) {
		char *v = facts_trim(buf);
		/* virtio devices show PCI ids ("0x1af4") there, not a maker */
		if (*v && strncmp(v, "0x", 2) != 0)
			result_info(facts, key, "%s", v);
	}
}

/* SCSI/SATA disks show the serial number only in VPD page 0x80 (binary:
 * 4-byte header, byte 3 = length, then ASCII). */
static void facts_vpd_serial(struct step_result *facts, const char *disk)
{
	char path[PATH_MAX];
	unsigned char buf[260];
	snprintf(path, sizeof(path), "/sys/class/block/%s/device/vpd_pg80", disk);
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (n < 5)
		return;
	size_t len = buf[3];
	if (len > n - 4)
		len = n - 4;
	char s[260];
	memcpy(s, buf + 4, len);
	s[len] = '\0';
	char *v = facts_trim(s);
	if (*v)
		result_info(facts, "dev.serial", "%s", v);
}

static const char *facts_transport(const char *disk, const char *real)
{
	if (!strncmp(disk, "loop", 4))
		return "loop";
	if (!strncmp(disk, "dm-", 3))
		return "dm";
	if (!strncmp(disk, "md", 2))
		return "md";
	if (!strncmp(disk, "zram", 4))
		return "zram";
	if (!strncmp(disk, "nbd", 3))
		return "nbd";
	if (strstr(real, "/usb"))
		return "usb";
	if (strstr(real, "/nvme"))
		return "nvme";
	if (strstr(real, "/ata"))
		return "sata";
	if (strstr(real, "/virtio"))
		return "virtio";
	if (strstr(real, "/mmc"))
		return "mmc";
	if (strstr(real, "/host"))
		return "scsi";
	return NULL;
}

/* Walk up from the disk's sysfs directory to the USB device (the one with
 * idVendor) and record it: the bridge, not the drive, answers for model. */
static void facts_usb(struct step_result *facts, const char *real)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	snprintf(dir, sizeof(dir), "%s", real);
	for (char *slash; (slash = strrchr(dir, '/')) && slash != dir;) {
		*slash = '\0';
		snprintf(path, sizeof(path), "%s/idVendor", dir);
		if (access(path, F_OK) != 0)
			continue;
		char vid[16] = "", pid[16] = "", maker[128] = "", prod[128] = "";
		snprintf(path, sizeof(path), "%s/idVendor", dir);
		facts_read(path, vid, sizeof(vid));
		snprintf(path, sizeof(path), "%s/idProduct", dir);
		facts_read(path, pid, sizeof(pid));
		snprintf(path, sizeof(path), "%s/manufacturer", dir);
		facts_read(path, maker, sizeof(maker));
		snprintf(path, sizeof(path), "%s/product", dir);
		facts_read(path, prod, sizeof(prod));
		result_info(facts, "dev.usb_bridge", "%s:%s %s %s", facts_trim(vid), facts_trim(pid),
		            facts_trim(maker), facts_trim(prod));
		result_info(
		    facts, "dev.note",
		    "behind a USB bridge: model, vendor and serial are what the bridge reports and may hide "
		    "the drive; its write cache and flush behaviour are the bridge's too");
		return;
	}
}

void facts_blockdev(const char *dev_or_path, struct step_result *facts)
{
	if (!dev_or_path)
		return;
	char dev[PATH_MAX], name[256], disk[256];
	struct stat sb;
	if (stat(dev_or_path, &sb) < 0)
		return;
	if (S_ISBLK(sb.st_mode))
		snprintf(dev, sizeof(dev), "%s", dev_or_path);
	else if (blkdev_of_path(dev_or_path, dev, sizeof(dev)) < 0)
		return;
	if (blkdev_sysname(dev, name, sizeof(name)) < 0 || blkdev_disk_of(name, disk, sizeof(disk)) < 0)
		return;
	result_info(facts, "dev.name", "%s", name);
	result_info(facts, "dev.disk", "%s", disk);
	char buf[512];
	if (blkdev_attr(name, "size", buf, sizeof(buf)) == 0)
		result_info(facts, "dev.size", "%llu", strtoull(buf, NULL, 10) * 512ULL);
	facts_attr(facts, disk, "device/model", "dev.model");
	facts_attr(facts, disk, "device/vendor", "dev.vendor");
	facts_attr(facts, disk, "device/rev", "dev.firmware");
	facts_attr(facts, disk, "device/firmware_rev", "dev.firmware");
	if (blkdev_attr(disk, "device/serial", buf, sizeof(buf)) == 0 && *facts_trim(buf))
		result_info(facts, "dev.serial", "%s", facts_trim(buf));
	else if (blkdev_attr(disk, "serial", buf, sizeof(buf)) == 0 && *facts_trim(buf))
		result_info(facts, "dev.serial", "%s", facts_trim(buf)); /* virtio-blk */
	else
		facts_vpd_serial(facts, disk);
	facts_attr(facts, disk, "queue/rotational", "dev.rotational");
	facts_attr(facts, disk, "queue/logical_block_size", "dev.logical_block_size");
	facts_attr(facts, disk, "queue/physical_block_size", "dev.physical_block_size");
	facts_attr(facts, disk, "queue/write_cache", "dev.write_cache");
	facts_attr(facts, disk, "queue/read_ahead_kb", "dev.read_ahead_kb");
	if (blkdev_attr(disk, "queue/scheduler", buf, sizeof(buf)) == 0) {
		char *o = strchr(buf, '['), *c = o ? strchr(o, ']') : NULL;
		if (o && c) {
			*c = '\0';
			result_info(facts, "dev.scheduler", "%s", o + 1);
		} else {
			result_info(facts, "dev.scheduler", "%s", facts_trim(buf));
		}
	}
	char path[PATH_MAX], real[PATH_MAX];
	snprintf(path, sizeof(path), "/sys/class/block/%s", disk);
	if (!realpath(path, real))
		real[0] = '\0';
	const char *tr = facts_transport(disk, real);
	if (tr)
		result_info(facts, "dev.transport", "%s", tr);
	if (tr && !strcmp(tr, "usb"))
		facts_usb(facts, real);
	if (tr && !strcmp(tr, "loop") && blkdev_attr(disk, "loop/backing_file", buf, sizeof(buf)) == 0) {
		result_info(facts, "dev.loop_backing", "%s", buf);
		facts_attr(facts, disk, "loop/dio", "dev.loop_direct_io");
		char bdev[PATH_MAX];
		if (blkdev_of_path(buf, bdev, sizeof(bdev)) == 0)
			result_info(facts, "dev.backing_device", "%s", bdev);
	}
}
