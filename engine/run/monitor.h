/* monitor: a system monitor sampled around a step, like `iostat -x` and
 * `vmstat` running beside the benchmark.
 *
 * monitor_start() snapshots /proc/stat (CPU time of the whole machine) and,
 * when block devices are given, their lines of /proc/diskstats (one read of
 * the file for all of them), then samples both every interval in a
 * background thread. monitor_stop() takes a last snapshot and adds to a step
 * result:
 *
 *   - whole-step averages (start to stop) as metrics: sys_usr_pct,
 *     sys_sys_pct, sys_iowait_pct, sys_idle_pct, sys_steal_pct,
 *     sys_busy_pct, and for the device disk_util_pct, disk_await_ms,
 *     disk_r_await_ms, disk_w_await_ms, disk_aqu_sz, disk_read_mb_s,
 *     disk_write_mb_s, disk_r_iops, disk_w_iops;
 *     (the main target's device; every other device of monitor_devs.h has
 *     the same quantities as PREFIX.util_pct, PREFIX.await_ms, ...,
 *     PREFIX.w_iops, e.g. disk.wal.write_mb_s, disk.under.vda.util_pct);
 *   - the same quantities per interval as time series of the same names;
 *   - with monitor_start_devs, the noise.* info of noise.h (load, steal,
 *     foreign CPU, memory pressure), sampled at the same times.
 *
 * CPU shares are of all CPUs together, over user+nice+system+idle+iowait+
 * irq+softirq+steal (guest time is already inside user and nice):
 *   usr = user+nice, sys = system+irq+softirq, iowait, idle, steal;
 *   they sum to 100. busy = 100 - idle - iowait (= usr + sys + steal): time
 *   the CPUs really worked. "100 - idle", the figure Vondra's iostat charts
 *   show, is busy + iowait.
 * Disk figures follow iostat -x: util = io_ticks delta / elapsed; await =
 *   (read_ticks + write_ticks delta) / (reads + writes delta), 0 without
 *   I/O; aqu_sz = weighted-ticks delta / elapsed; MB/s are 10^6 bytes/s of
 *   512-byte sectors. */
#ifndef BENCHGRID_MONITOR_H
#define BENCHGRID_MONITOR_H

#include <stdbool.h>

#include "monitor_devs.h"
#include "result.h"

struct monitor;

/* Start sampling /proc/diskstats for `blockdev` (a device node such as
 * "/dev/loop3", "/dev/vda", "/dev/mapper/vg-lv", or a kernel name such as
 * "vda1"; a partition is sampled on its own line; NULL = CPU only), under
 * the main target's names (disk_util_pct, ...), and /proc/stat every
 * interval_s seconds in a background thread.
 * NULL on failure (unknown device, interval <= 0, no /proc, no thread);
 * errno tells why. */
struct monitor *monitor_start(const char *blockdev, double interval_s);

/* The same for every device of devs (NULL or empty = CPU only), each under
 * its prefix. A device missing from /proc/diskstats is left out with a
 * warning in the result; NULL only when the CPU figures cannot be read,
 * the interval is bad or there is no thread. */
struct monitor *monitor_start_devs(const struct mon_devs *devs, double interval_s);

/* Stop, join, add the metrics and series above to res, free m.
 * m == NULL does nothing; res == NULL only frees. */
void monitor_stop(struct monitor *m, struct step_result *res);

/* The fields of a /proc/diskstats line that iostat -x uses. */
struct monitor_diskstat {
	unsigned int major, minor;
	char name[64];
	unsigned long long rd, rsec, rticks;
	unsigned long long wr, wsec, wticks;
	unsigned long long io_ticks, weighted;
};
/* Parse one line of /proc/diskstats; false when it is not one. */
bool monitor_parse_diskstats(const char *line, struct monitor_diskstat *d);

#endif
