#!/bin/bash
# Lifecycle of targets and knobs on real loop devices: after a normal run, a
# failing setup, SIGINT, SIGTERM, and kill -9 followed by `cleanup`, no loop
# device, mount, image file, directory or knob change may remain. Knobs: a
# sysctl (vm.stat_interval, harmless) and the loop device's queue settings.
. "$(dirname "$0")/fs_lib.sh"

SYSCTL=vm.stat_interval
orig_sysctl=$(cat /proc/sys/vm/stat_interval)
new_sysctl=$((orig_sysctl + 2))

# The loop device's queue before we touch it: a fresh loop device has the
# kernel defaults, and cleanup must bring back exactly these. The scheduler
# is the selected one (the list offered depends on the kernel: bfq may be
# missing).
selected() { sed 's/.*\[\(.*\)\].*/\1/'; }
queue_state() { # DEV -> "scheduler read_ahead_kb write_cache nr_requests"
	local q=/sys/block/${1#/dev/}/queue
	echo "$(selected <$q/scheduler)|$(cat $q/read_ahead_kb)|$(cat $q/write_cache)|$(cat $q/nr_requests)"
}
# The same, as the driver saw it before applying the knobs.
queue_before() { # OUTFILE
	echo "$(val pre.queue.scheduler "$1" | selected)|$(val pre.queue.read_ahead_kb "$1")|$(val pre.queue.write_cache "$1")|$(val pre.queue.nr_requests "$1")"
}

write_yaml() { # NAME FS [extra target keys]
	cat >"$WORK/$1.yaml" <<-YAML
		target: {kind: loop, size: 300MiB, fs: $2 ${3:-}}
		sysctl: {$SYSCTL: $new_sysctl}
		queue: {scheduler: mq-deadline, read_ahead_kb: 64, write_cache: write through, nr_requests: 32}
	YAML
}

expect_knobs_restored() {
	expect_eq "$1: sysctl $SYSCTL restored" "$(cat /proc/sys/vm/stat_interval)" "$orig_sysctl"
}

# 1. normal run: knobs applied while held, restored after.
write_yaml normal xfs ", mount_options: [noatime]"
hold_start normal "$WORK/normal.yaml" || exit 1
dev=$(val blockdev "$WORK/normal.out")
expect_eq "normal: sysctl applied" "$(cat /proc/sys/vm/stat_interval)" "$new_sysctl"
expect_eq "normal: queue applied" "$(queue_state "$dev")" "mq-deadline|64|write through|32"
kill -INT "$HOLD_PID"
wait "$HOLD_PID"
expect_eq "normal: exit status" "$?" 0
expect_knobs_restored normal
expect_eq "normal: queue restored" "$(queue_state "$dev")" "$(queue_before "$WORK/normal.out")"
expect_clean normal

# 2. SIGTERM, on ext4.
write_yaml q ext4
hold_start q "$WORK/q.yaml" || exit 1
dev=$(val blockdev "$WORK/q.out")
kill -TERM "$HOLD_PID"
wait "$HOLD_PID"
expect_eq "SIGTERM: exit status" "$?" 0
expect_knobs_restored SIGTERM
expect_eq "SIGTERM: queue restored" "$(queue_state "$dev")" "$(queue_before "$WORK/q.out")"
expect_clean SIGTERM

# 3. failing setups: a mkfs option value mkfs refuses (the option itself is
# allowed), a mount option the fs refuses, a mount option that is silently
# not applied. Each leaves nothing behind.
write_yaml badmkfs xfs ", mkfs_options: [-i, size=3]"
"$DRIVER" setup "$WORK/badmkfs.yaml" "$WORK" >/dev/null 2>"$WORK/badmkfs.err"
expect_eq "bad mkfs option: exit status" "$?" 1
expect_grep "bad mkfs option: error names the command" "mkfs.xfs -f -q -i size=3 /dev/loop" "$WORK/badmkfs.err"
expect_grep "bad mkfs option: position" "badmkfs.yaml:1:[0-9]*: error" "$WORK/badmkfs.err"
expect_knobs_restored "bad mkfs option"
expect_clean "bad mkfs option"

write_yaml badmount xfs ", mount_options: [nobarrier]"
"$DRIVER" setup "$WORK/badmount.yaml" "$WORK" >/dev/null 2>"$WORK/badmount.err"
expect_eq "refused mount option: exit status" "$?" 1
expect_grep "refused mount option: kernel reason" "Unknown parameter 'nobarrier'" "$WORK/badmount.err"
expect_clean "refused mount option"

write_yaml notapplied ext4 ", mount_options: [data=journal, dioread_nolock]"
"$DRIVER" setup "$WORK/notapplied.yaml" "$WORK" >/dev/null 2>"$WORK/notapplied.err"
expect_eq "option not applied: exit status" "$?" 1
expect_grep "option not applied: error" "'dioread_nolock' was not applied" "$WORK/notapplied.err"
expect_clean "option not applied"

# a knob the kernel refuses: the target is torn down, earlier knobs restored
cat >"$WORK/badknob.yaml" <<YAML
target: {kind: loop, size: 64MiB, fs: ext4}
sysctl: {$SYSCTL: $new_sysctl}
queue: {scheduler: no-such-scheduler}
YAML
"$DRIVER" setup "$WORK/badknob.yaml" "$WORK" >/dev/null 2>"$WORK/badknob.err"
expect_eq "refused knob: exit status" "$?" 1
expect_grep "refused knob: error" "queue.scheduler: the kernel refused 'no-such-scheduler'" "$WORK/badknob.err"
expect_knobs_restored "refused knob"
expect_clean "refused knob"

# 4. kill -9: everything stays (that is the point), then cleanup undoes it.
for fs in ext4 btrfs; do
	write_yaml kill9-$fs $fs
	hold_start kill9-$fs "$WORK/kill9-$fs.yaml" || continue
	dev=$(val blockdev "$WORK/kill9-$fs.out")
	dir=$(val path "$WORK/kill9-$fs.out")
	# a process that keeps a file open on the mount: cleanup must still get it off
	sleep 300 >"$dir/busy" &
	busy=$!
	BGPIDS="$BGPIDS $busy"
	kill -9 "$HOLD_PID"
	wait "$HOLD_PID" 2>/dev/null
	[ -n "$(own_loops)" ] && ok "kill -9 $fs: loop device still there before cleanup" || bad "kill -9 $fs: loop gone?"
	expect_eq "kill -9 $fs: sysctl still changed" "$(cat /proc/sys/vm/stat_interval)" "$new_sysctl"
	"$DRIVER" cleanup >"$WORK/cleanup.out" 2>"$WORK/cleanup.err"
	expect_eq "kill -9 $fs: cleanup exit status" "$?" 0
	expect_grep "kill -9 $fs: cleanup undid the actions" "^undone=[1-9]" "$WORK/cleanup.out"
	kill "$busy" 2>/dev/null
	wait "$busy" 2>/dev/null
	# a lazily detached mount lets go of the loop device when the last file closes
	for i in $(seq 1 50); do [ -z "$(own_loops)" ] && break; sleep 0.1; done
	expect_knobs_restored "kill -9 $fs"
	expect_eq "kill -9 $fs: queue restored" "$(queue_state "$dev")" "$(queue_before "$WORK/kill9-$fs.out")"
	expect_clean "kill -9 $fs"
	"$DRIVER" cleanup >"$WORK/cleanup2.out" 2>&1
	expect_grep "kill -9 $fs: second cleanup has nothing to do" "^undone=0" "$WORK/cleanup2.out"
done

# 5. kill -9 of a dir target: the directory with the cell's files goes.
printf 'target: {kind: dir}\n' >"$WORK/dir.yaml"
hold_start dir "$WORK/dir.yaml" || exit 1
dir=$(val path "$WORK/dir.out")
mkdir -p "$dir/pgdata/base" && echo x >"$dir/pgdata/base/file"
kill -9 "$HOLD_PID"
wait "$HOLD_PID" 2>/dev/null
[ -d "$dir" ] && ok "kill -9 dir: directory left before cleanup" || bad "kill -9 dir: directory gone?"
"$DRIVER" cleanup >/dev/null 2>&1
[ ! -e "$dir" ] && ok "kill -9 dir: cleanup removed $dir" || bad "kill -9 dir: $dir remains"
expect_clean "kill -9 dir"

# 6. cleanup leaves a live run alone.
write_yaml live ext4
hold_start live "$WORK/live.yaml" || exit 1
"$DRIVER" cleanup >"$WORK/live-cleanup.out" 2>"$WORK/live-cleanup.err"
expect_grep "live run: cleanup says it is active" "still active" "$WORK/live-cleanup.err"
dir=$(val path "$WORK/live.out")
expect_eq "live run: still mounted" "$(findmnt -n -o TARGET --target "$dir")" "$dir"
kill -INT "$HOLD_PID"
wait "$HOLD_PID"
expect_eq "live run: exit status" "$?" 0
expect_knobs_restored "live run"
expect_clean "live run"

fs_lib_finish
