/* facts: what the machine and the device under test are, recorded with every
 * cell so that results can be compared across machines and read years later.
 *
 * Everything comes from /proc, /sys, uname and /etc/os-release; nothing is
 * changed and nothing fails: a fact that cannot be read is left out.
 *
 * machine.kernel        "6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian ..."
 * machine.arch          "x86_64"
 * machine.cpu_model     "AMD EPYC 7B13" (/proc/cpuinfo "model name")
 * machine.cpus          online CPUs
 * machine.memory        MemTotal in bytes
 * machine.distro        PRETTY_NAME from /etc/os-release
 *
 * dev.name              sysfs name of the device given ("sda1", "loop3")
 * dev.disk              whole disk holding it ("sda")
 * dev.model / dev.vendor / dev.serial / dev.firmware   where sysfs shows them
 * dev.size              bytes
 * dev.rotational        0 or 1
 * dev.logical_block_size / dev.physical_block_size     bytes
 * dev.scheduler         active I/O scheduler
 * dev.write_cache       "write back" / "write through"
 * dev.read_ahead_kb     KiB
 * dev.transport         nvme, sata, scsi, usb, virtio, mmc, loop, dm, md, ...
 * dev.loop_backing      image file behind a loop device
 * dev.loop_direct_io    0/1 for a loop device
 * dev.backing_device    the disk holding that image file
 * dev.usb_bridge        USB id, maker and product of the bridge
 * dev.note              caveats, e.g. that a USB bridge hides the drive */
#ifndef BENCHGRID_FACTS_H
#define BENCHGRID_FACTS_H

#include "result.h"

void facts_machine(struct step_result *facts);
/* dev_or_path: a block device node, or any path (the device holding it). */
void facts_blockdev(const char *dev_or_path, struct step_result *facts);

#endif
