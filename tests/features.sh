#!/usr/bin/env bash
# The features of this machine that tests need, probed by scripts/test before
# the tests run. One line per feature on stdout: NAME<TAB>yes|no<TAB>what was
# found. tests/expected-skips.txt names, for each test allowed to skip, the
# feature whose absence allows it; a test that skips while its feature is
# here fails the run (docs/testing.md, "Expected skips").
#   tests/features.sh            every feature
#   tests/features.sh NAME...    only these
# The probes read /proc, /sys and PATH; only `partitions` sets something up
# (a 4 MiB loop device with an MBR, detached and removed before it returns).
set -u
export PATH=$PATH:/usr/sbin:/sbin

say() { printf '%s\t%s\t%s\n' "$1" "$2" "$3"; }
# has NAME DETAIL CMD...: NAME is present when CMD succeeds.
has() {
	local name=$1 detail=$2
	shift 2
	if "$@" >/dev/null 2>&1; then say "$name" yes "$detail"; else say "$name" no "$detail"; fi
}
fs_known() { grep -qw "$1" /proc/filesystems && command -v "mkfs.$1"; }
# cgroup2_has CONTROLLER: a cgroup2 mount lists it in cgroup.controllers.
cgroup2_has() {
	local m
	for m in $(awk '$3 == "cgroup2" {print $2}' /proc/mounts); do
		grep -qw "$1" "$m/cgroup.controllers" 2>/dev/null && return 0
	done
	return 1
}
nfs_here() {
	{ grep -qw nfs4 /proc/filesystems || grep -qw nfs /proc/filesystems; } && grep -qw nfsd /proc/filesystems &&
		command -v exportfs rpc.nfsd rpc.mountd mount.nfs4
}
# partitions: the kernel reads an MBR on a loop device (losetup -P).
partitions_here() {
	[[ $(id -u) -eq 0 && -e /dev/loop-control ]] || return 1
	local img dev rc=1
	img=$(mktemp /tmp/bg-features-part.XXXXXX) || return 1
	truncate -s 4M "$img"
	# one Linux partition from sector 2048 (as tests/fixtures/fs/fs_safety.sh)
	printf '\x00\x00\x02\x00\x83\xff\xff\xff\x00\x08\x00\x00\x00\x18\x00\x00' |
		dd of="$img" bs=1 seek=446 conv=notrunc status=none &&
		printf '\x55\xaa' | dd of="$img" bs=1 seek=510 conv=notrunc status=none &&
		dev=$(losetup -f --show -P "$img" 2>/dev/null) && {
		for _ in $(seq 20); do
			[[ -e /sys/block/${dev#/dev/}/${dev#/dev/}p1 ]] && { rc=0 && break; }
			sleep 0.1
		done
		losetup -d "$dev"
	}
	rm -f "$img"
	return $rc
}

# root-blockdev: / is mounted from a block device (not a container's overlay).
root_blockdev_here() {
	local src
	src=$(awk '$5 == "/" { s = $(NF - 1) } END { print s }' /proc/self/mountinfo)
	[[ $src == /dev/* && -b $src ]]
}

probe() {
	case $1 in
	root) has root "uid $(id -u)" test "$(id -u)" -eq 0 ;;
	loop) has loop "/dev/loop-control" test -e /dev/loop-control ;;
	zram) has zram "/sys/class/zram-control/hot_add" test -w /sys/class/zram-control/hot_add ;;
	ext4 | xfs | btrfs) has "$1" "/proc/filesystems and mkfs.$1" fs_known "$1" ;;
	io_uring) has io_uring "io_uring_setup in /proc/kallsyms, kernel.io_uring_disabled != 2" \
		sh -c 'grep -qw __x64_sys_io_uring_setup /proc/kallsyms || grep -qw io_uring_setup /proc/kallsyms; r=$?; [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" != 2 ] && [ $r = 0 ]' ;;
	cgroup1-blkio) has cgroup1-blkio "/sys/fs/cgroup/blkio/blkio.throttle.write_bps_device" \
		test -w /sys/fs/cgroup/blkio/blkio.throttle.write_bps_device ;;
	cgroup1-memory) has cgroup1-memory "/sys/fs/cgroup/memory/memory.limit_in_bytes" \
		test -e /sys/fs/cgroup/memory/memory.limit_in_bytes ;;
	cgroup2-io | cgroup2-memory) has "$1" "a cgroup2 mount whose cgroup.controllers has ${1#cgroup2-}" \
		cgroup2_has "${1#cgroup2-}" ;;
	postgresql-15) has postgresql-15 "/usr/lib/postgresql/15/bin/postgres and the user postgres" \
		sh -c 'test -x /usr/lib/postgresql/15/bin/postgres && id postgres' ;;
	fio) has fio "fio in PATH" command -v fio ;;
	fio-genzipf) has fio-genzipf "/usr/bin/fio-genzipf" test -x /usr/bin/fio-genzipf ;;
	slurm) has slurm "munged, slurmctld, slurmd, sbatch" command -v munged slurmctld slurmd sbatch squeue sinfo scancel ;;
	chromium) has chromium "/usr/bin/chromium" test -x /usr/bin/chromium ;;
	fuse) has fuse "/dev/fuse and bindfs" sh -c 'test -c /dev/fuse && command -v bindfs' ;;
	nfs) has nfs "nfs and nfsd in /proc/filesystems, nfs-kernel-server's tools" nfs_here ;;
	device-mapper) has device-mapper "dmsetup version (the kernel's dm driver)" dmsetup version ;;
	partitions) has partitions "an MBR read on a loop device (losetup -P)" partitions_here ;;
	root-blockdev) has root-blockdev "/ mounted from a block device (/proc/self/mountinfo)" root_blockdev_here ;;
	stress-ng) has stress-ng "stress-ng in PATH" command -v stress-ng ;;
	clang-fuzzer) has clang-fuzzer "clang and libFuzzer" sh -c 'command -v clang && ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a' ;;
	*)
		echo "features.sh: unknown feature '$1'" >&2
		return 2
		;;
	esac
}

all=(root loop zram ext4 xfs btrfs io_uring cgroup1-blkio cgroup1-memory cgroup2-io cgroup2-memory postgresql-15
	fio fio-genzipf slurm chromium fuse nfs device-mapper partitions root-blockdev stress-ng clang-fuzzer)
(($#)) || set -- "${all[@]}"
rc=0
for f in "$@"; do probe "$f" || rc=2; done
exit $rc
