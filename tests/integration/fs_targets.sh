#!/bin/bash
# fs [ext4, xfs, btrfs] x block_size [1KiB (not btrfs), 4KiB] on real loop
# devices: each cell is set up, gets a little real I/O, reports the file
# system type and block size that were really applied, and is torn down on
# SIGINT without leaving anything behind. Also: a directory target, and the
# btrfs 1 KiB error with its position.
. "$(dirname "$0")/fs_lib.sh"

for fs in ext4 xfs btrfs; do
	for bs in 1KiB 4KiB; do
		[ "$fs" = btrfs ] && [ "$bs" = 1KiB ] && continue
		want=1024
		[ "$bs" = 4KiB ] && want=4096
		name=$fs-$bs
		cat >"$WORK/$name.yaml" <<-YAML
			target: {kind: loop, size: 300MiB, fs: $fs, block_size: $bs, mount_options: [noatime]}
		YAML
		hold_start "$name" "$WORK/$name.yaml" || continue
		out=$WORK/$name.out
		expect_eq "$name fs.type" "$(val fs.type "$out")" "$fs"
		expect_eq "$name fs.block_size" "$(val fs.block_size "$out")" "$want"
		expect_grep "$name noatime applied" "^fs.mount_options=.*noatime" "$out"
		dir=$(val path "$out")
		dev=$(val blockdev "$out")
		# what the kernel says, independently of the driver
		expect_eq "$name findmnt fstype" "$(findmnt -n -o FSTYPE --target "$dir")" "$fs"
		expect_eq "$name stat -f block size" "$(stat -f -c %S "$dir")" "$want"
		expect_eq "$name mounted from" "$(findmnt -n -o SOURCE --target "$dir")" "$dev"
		if dd if=/dev/zero of="$dir/f" bs=64k count=64 conv=fsync status=none; then
			ok "$name: 4 MiB written and fsync'd"
		else
			bad "$name: write failed"
		fi
		kill -INT "$HOLD_PID"
		wait "$HOLD_PID"
		expect_eq "$name exit status after SIGINT" "$?" 0
		expect_clean "$name"
	done
done

# A directory target: a fresh directory, its fs and block size recorded.
cat >"$WORK/dir.yaml" <<YAML
target: {kind: dir}
YAML
"$DRIVER" setup "$WORK/dir.yaml" "$WORK" >"$WORK/dir.out" 2>"$WORK/dir.err"
expect_eq "dir target exit status" "$?" 0
expect_eq "dir fs.type" "$(val fs.type "$WORK/dir.out")" "$(findmnt -n -o FSTYPE --target "$WORK")"
expect_eq "dir fs.block_size" "$(val fs.block_size "$WORK/dir.out")" "$(stat -f -c %S "$WORK")"
expect_clean "dir"

# A work directory with a space: mountinfo escapes it (\040), the lookup
# after mounting must still find the mount.
mkdir "$WORK/a b"
printf 'target: {kind: loop, size: 64MiB, fs: ext4, block_size: 4k, image_dir: "%s"}\n' "$WORK/a b" >"$WORK/space.yaml"
"$DRIVER" setup "$WORK/space.yaml" "$WORK/a b" >"$WORK/space.out" 2>"$WORK/space.err"
expect_eq "work dir with a space: exit status" "$?" 0
expect_eq "work dir with a space: fs.type" "$(val fs.type "$WORK/space.out")" ext4
expect_eq "work dir with a space: nothing left" "$(ls -A "$WORK/a b")" ""
expect_eq "work dir with a space: no mount left" "$(grep -c 'a\\040b' /proc/self/mountinfo)" 0

# btrfs has no 1 KiB blocks: an error at the value's position, nothing done.
printf 'target:\n  kind: loop\n  size: 300MiB\n  fs: btrfs\n  block_size: 1KiB\n' >"$WORK/b1k.yaml"
"$DRIVER" check "$WORK/b1k.yaml" 2>"$WORK/b1k.err"
expect_eq "btrfs 1KiB check exit status" "$?" 1
expect_grep "btrfs 1KiB error with position" "b1k.yaml:5:15: error: target.block_size: btrfs supports block sizes from 4 KiB" "$WORK/b1k.err"
"$DRIVER" setup "$WORK/b1k.yaml" "$WORK" >/dev/null 2>&1
expect_clean "btrfs 1KiB setup"

fs_lib_finish
