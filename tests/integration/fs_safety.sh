#!/bin/bash
# The device safety rules of `kind: device`, with loop devices standing in
# for disks: each rule refuses with its message (not a block device, root
# file system, mounted, a partition mounted, swap, LVM / device-mapper
# holders), and an unused device with destroy: true and --yes is formatted,
# mounted, verified and unmounted again.
#
#   fs_safety.sh [PART]
# PART is `core` (the default: the rules every machine with loop devices can
# show) or one of the rules that need something of the kernel or the
# machine: `partition`, `rootfs`, `swap`, `dm`. Each of those is its own
# CTest test (tests/CMakeLists.txt) and exits 77, shown as skipped, when the
# machine cannot show it; nothing is counted as passed that did not run.
PART=${1:-core}
case $PART in
core | partition | rootfs | swap | dm) ;;
*)
	echo "fs_safety.sh: unknown part '$PART' (core, partition, rootfs, swap, dm)" >&2
	exit 2
	;;
esac
. "$(dirname "$0")/fs_lib.sh"

# skip_part REASON: this part cannot be shown on this machine (exit 77).
skip_part() {
	echo "SKIP: $PART: $*"
	exit 77
}

DMNAME=bgtest-$$
EXTRA_CLEANUP='for l in $(own_loops); do swapoff "$l" 2>/dev/null; done; dmsetup remove "$DMNAME" 2>/dev/null'

# expect_refused WHAT DEV PATTERN
expect_refused() {
	"$DRIVER" safe "$2" >"$WORK/safe.out" 2>&1
	local rc=$?
	expect_eq "$1: refused" "$rc" 1
	expect_grep "$1: message" "$3" "$WORK/safe.out"
}

# disk1: an MBR with one partition from sector 2048 to the end.
truncate -s 64M "$WORK/disk1.img"
printf '\x00\x00\x02\x00\x83\xff\xff\xff\x00\x08\x00\x00\x00\xf8\x01\x00' |
	dd of="$WORK/disk1.img" bs=1 seek=446 conv=notrunc status=none
printf '\x55\xaa' | dd of="$WORK/disk1.img" bs=1 seek=510 conv=notrunc status=none
truncate -s 64M "$WORK/disk2.img"
L1=$(losetup -f --show -P "$WORK/disk1.img") || { bad "cannot attach disk1"; fs_lib_finish; }
L2=$(losetup -f --show "$WORK/disk2.img") || { bad "cannot attach disk2"; fs_lib_finish; }
P1=${L1}p1
# Some kernels are built without any partition table support (no
# CONFIG_MSDOS_PARTITION): then the partition rule cannot be shown here.

part_core() {
	# rule 'block device'
	expect_refused "regular file" "$WORK/disk1.img" "rule 'block device': $WORK/disk1.img is not a block device (it is a regular file)"
	expect_refused "directory" "$WORK" "rule 'block device': $WORK is not a block device (it is a directory)"
	expect_refused "character device" /dev/null "rule 'block device': /dev/null is not a block device (it is a character device)"
	expect_refused "missing" /dev/no-such-disk "rule 'block device': /dev/no-such-disk: No such file or directory"

	# unused devices are safe
	"$DRIVER" safe "$L2" >"$WORK/safe.out" 2>&1
	expect_eq "unused $L2" "$(cat "$WORK/safe.out")" "safe"
	"$DRIVER" safe "$L1" >"$WORK/safe.out" 2>&1
	expect_eq "unused $L1 with a partition" "$(cat "$WORK/safe.out")" "safe"

	# destroy: true and --yes are both needed
	cat >"$WORK/dev.yaml" <<-YAML
	target:
	  kind: device
	  device: $L2
	  destroy: true
	  fs: ext4
	  mount_options: [noatime]
	YAML
	printf 'target: {kind: device, device: %s, fs: ext4}\n' "$L2" >"$WORK/nodestroy.yaml"
	"$DRIVER" setup "$WORK/dev.yaml" "$WORK" >/dev/null 2>"$WORK/err"
	expect_eq "without --yes: exit status" "$?" 1
	expect_grep "without --yes: message" "dev.yaml:3:11: error: kind: device formats $L2 and destroys everything on it: this needs --yes on the command line" "$WORK/err"
	"$DRIVER" setup "$WORK/nodestroy.yaml" "$WORK" --yes >/dev/null 2>"$WORK/err"
	expect_eq "without destroy: exit status" "$?" 1
	expect_grep "without destroy: message" "this needs \`destroy: true\` in the target" "$WORK/err"
	if blkid "$L2" >/dev/null 2>&1; then bad "refused device was formatted"; else ok "refused device untouched"; fi

	# mkfs_options of a loop target that name another device (issue #12): a
	# bare word (mkfs.btrfs would format it too), ext4's external journal,
	# xfs's external log. Each is refused before anything runs; $L2 stays blank.
	printf 'target: {kind: loop, size: 200MiB, fs: btrfs, mkfs_options: ["%s"]}\n' "$L2" >"$WORK/bare.yaml"
	printf 'target: {kind: loop, size: 64MiB, fs: ext4, mkfs_options: [-J, "device=%s"]}\n' "$L2" >"$WORK/jdev.yaml"
	printf 'target: {kind: loop, size: 300MiB, fs: xfs, mkfs_options: [-l, "logdev=%s"]}\n' "$L2" >"$WORK/logdev.yaml"
	for y in bare jdev logdev; do
		"$DRIVER" setup "$WORK/$y.yaml" "$WORK" >/dev/null 2>"$WORK/err"
		expect_eq "mkfs_options $y: exit status" "$?" 1
		expect_grep "mkfs_options $y: refused at the word" "$y.yaml:1:[0-9]*: error: target.mkfs_options: '[^']*$L2[^']*' is not" "$WORK/err"
		if blkid "$L2" >/dev/null 2>&1; then bad "mkfs_options $y: $L2 was formatted"; else ok "mkfs_options $y: $L2 untouched"; fi
		expect_eq "mkfs_options $y: no loop device left" "$(own_loops | grep -v -x -e "$L1" -e "$L2" | wc -l)" 0
	done

	# both given, device unused: formatted, mounted, verified, unmounted
	"$DRIVER" setup "$WORK/dev.yaml" "$WORK" --yes >"$WORK/dev.out" 2>"$WORK/err"
	expect_eq "device target: exit status" "$?" 0
	expect_eq "device target: fs.type" "$(val fs.type "$WORK/dev.out")" ext4
	expect_eq "device target: fs.source" "$(val fs.source "$WORK/dev.out")" "$L2"
	expect_eq "device target: blkid" "$(blkid -o value -s TYPE "$L2")" ext4
	expect_eq "device target: not mounted after teardown" "$(findmnt -n -S "$L2" | wc -l)" 0
	ALLOW_LOOPS=1 expect_clean "device target" # our own test loops are still attached

	# kill -9 while a device target is mounted: cleanup unmounts it
	hold_start devkill "$WORK/dev.yaml" --yes || true
	kill -9 "$HOLD_PID"
	wait "$HOLD_PID" 2>/dev/null
	expect_eq "device target, kill -9: still mounted before cleanup" "$(findmnt -n -S "$L2" | wc -l)" 1
	"$DRIVER" cleanup >/dev/null 2>&1
	expect_eq "device target, kill -9: unmounted by cleanup" "$(findmnt -n -S "$L2" | wc -l)" 0
	ALLOW_LOOPS=1 expect_clean "device target, kill -9"

	# rule 'mounted': the device itself
	mkdir "$WORK/m2"
	mount "$L2" "$WORK/m2"
	expect_refused "mounted" "$L2" "rule 'mounted': $L2 is mounted on $WORK/m2 (ext4)"
	"$DRIVER" setup "$WORK/dev.yaml" "$WORK" --yes >/dev/null 2>"$WORK/err"
	expect_grep "mounted: setup refuses at the device's position" "dev.yaml:3:11: error: refusing to format $L2: rule 'mounted'" "$WORK/err"
	expect_eq "mounted: still mounted, untouched" "$(findmnt -n -o TARGET -S "$L2")" "$WORK/m2"
	umount "$WORK/m2"

	# rule 'in use': another program holds the device open exclusively
	python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("held", flush=True)
time.sleep(30)' "$L2" >"$WORK/excl.out" 2>&1 &
	excl=$!
	BGPIDS="$BGPIDS $excl"
	for i in $(seq 1 50); do grep -q held "$WORK/excl.out" && break; sleep 0.1; done
	expect_refused "exclusively open" "$L2" "rule 'in use': the kernel reports $L2 busy"
	kill "$excl"
	wait "$excl" 2>/dev/null
}

part_partition() {
	# rule 'mounted': a partition of the device
	for i in $(seq 1 50); do [ -b "$P1" ] && break; sleep 0.1; done
	[ -b "$P1" ] || skip_part "the kernel made no partition from the MBR on $L1 (no partition table support?)"
	ok "partition $P1 appeared"
	mkfs.ext4 -q -F "$P1" >/dev/null
	mkdir "$WORK/m1"
	mount "$P1" "$WORK/m1"
	expect_refused "partition mounted" "$L1" "rule 'mounted': $P1 is mounted on $WORK/m1"
	umount "$WORK/m1"
	"$DRIVER" safe "$L1" >"$WORK/safe.out" 2>&1
	expect_eq "partition unmounted again" "$(cat "$WORK/safe.out")" "safe"
}

part_rootfs() {
	# rule 'root filesystem' (read only: nothing is done to it)
	root=$(findmnt -n -o SOURCE /)
	if [ -b "$root" ]; then
		expect_refused "root fs" "$root" "rule 'root filesystem': /dev/.* holds the root file system (/)"
	else
		skip_part "/ is on $root, not a block device"
	fi
}

part_swap() {
	# rule 'swap'
	mkswap -q "$L2" >/dev/null 2>&1 || mkswap "$L2" >/dev/null
	if swapon "$L2" 2>"$WORK/err"; then
		expect_refused "swap" "$L2" "rule 'swap': $L2 is active swap"
		swapoff "$L2"
	else
		skip_part "swapon failed: $(cat "$WORK/err")"
	fi
}

part_dm() {
	# rules 'LVM' and 'device-mapper': a dm device on top of the disk is a holder
	sectors=$(cat /sys/block/${L2#/dev/}/size)
	if dmsetup create "$DMNAME" --uuid "LVM-benchgridtest$$" --table "0 $sectors linear $L2 0" 2>"$WORK/err"; then
		expect_refused "LVM" "$L2" "rule 'LVM': $L2 is used by an LVM logical volume '$DMNAME'"
		dmsetup remove "$DMNAME"
		dmsetup create "$DMNAME" --table "0 $sectors linear $L2 0"
		expect_refused "device-mapper" "$L2" "rule 'device-mapper': $L2 is used by a device-mapper device '$DMNAME'"
		dmsetup remove "$DMNAME"
	else
		skip_part "no device-mapper here ($(head -1 "$WORK/err"))"
	fi
}

part_"$PART"

"$DRIVER" safe "$L2" >"$WORK/safe.out" 2>&1
expect_eq "all rules released again" "$(cat "$WORK/safe.out")" "safe"

losetup -d "$L1" "$L2"
expect_clean "safety"
fs_lib_finish
