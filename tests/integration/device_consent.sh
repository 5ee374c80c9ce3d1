#!/usr/bin/env bash
# Consent before a run changes a disk benchgrid did not create (issue 29,
# item 2), with real loop devices this test attaches itself (so, to
# benchgrid, devices it did not create; backing files in the test's own
# directory, detached on exit):
#   - a device model (`model:`, throttling) on a raw device target: refused
#     at check without `tune_disk: true` (or `destroy: true`) in the target,
#     refused at run time without --yes; with both it is applied;
#   - `queue:` on a raw device target: the same, and the queue setting is
#     unchanged after a refusal, set during the step and restored after it;
#   - `queue:` with a dir target on a disk this test mounted: refused at check
#     without tune_disk, at run time without --yes; with both applied and
#     restored;
#   - the device safety rules for those changes, at check (a literal device
#     path, with its file:line:col) and at setup (fx_driver, past check):
#     'mounted', 'loop backing'; with the argument `partition` (its own CTest
#     test, skipped where the kernel reads no partition table on a loop
#     device), a partition's disk: the throttle and the queue act on the
#     whole disk, so a mounted sibling partition refuses;
#   - a loop target benchgrid makes stays free to throttle and tune: no
#     tune_disk, no --yes.
# The check-time refusals of the root disk are in device_consent_check.sh.
set -u
PART=${1:-core}
case $PART in
core | partition) ;;
*) echo "device_consent.sh: unknown part '$PART' (core, partition)" >&2; exit 2 ;;
esac
bg=${BENCHGRID:?}
DRIVER=${BENCHGRID_BUILD:?}/fx_driver
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (loop devices, mkfs, mount)"; exit 77; }
[ -c /dev/loop-control ] || { echo "SKIP: no loop device support"; exit 77; }
command -v losetup >/dev/null || { echo "SKIP: losetup is missing"; exit 77; }
command -v mkfs.ext4 >/dev/null || { echo "SKIP: mkfs.ext4 is missing"; exit 77; }
W=$(mktemp -d /var/tmp/bg-consent.XXXXXX)
export BENCHGRID_STATE=$W/state
fail=0
OURS="" # every loop device this test attached, in order
cleanup() {
	local d m list=""
	"$DRIVER" cleanup >/dev/null 2>&1
	for m in $(awk -v w="$W/" 'index($5, w) == 1 { print $5 }' /proc/self/mountinfo | sort -r); do
		umount -l "$m" 2>/dev/null
	done
	for d in $OURS; do list="$d $list"; done # newest first: $L2 sits on $L
	for d in $list; do
		# still ours (backed by a file here, or by our $L), not a number reused since
		case "$(cat "/sys/block/${d#/dev/}/loop/backing_file" 2>/dev/null)" in
		"$W"/* | "${L:-none}") losetup -d "$d" 2>/dev/null ;;
		esac
	done
	rm -rf "$W"
}
trap cleanup EXIT
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
expect() { if [ "$2" = "$3" ]; then ok "$1: $2"; else bad "$1: got '$2', want '$3'"; fi; }
# expect_in WHAT PATTERN FILE
expect_in() {
	if grep -q -- "$2" "$3"; then ok "$1"; else bad "$1: '$2' not in:"; sed 's/^/      /' "$3"; fi
}

# new_loop VAR NAME SIZE [losetup options]: a zeroed image attached, its
# device in VAR (not a subshell: OURS must see it, for cleanup)
new_loop() {
	local d
	truncate -s "$3" "$W/$2.img" && d=$(losetup --find --show "${@:4}" "$W/$2.img") || return 1
	OURS="$OURS $d"
	printf -v "$1" %s "$d"
}
# run NAME [args]: runs $W/NAME.yaml into $W/NAME.out, output in $W/NAME.log
run() {
	local n=$1
	shift
	rm -rf "$W/$n.out"
	"$bg" run -q "$@" -o "$W/$n.out" "$W/$n.yaml" >"$W/$n.log" 2>&1
}
check() { "$bg" check "$W/$1.yaml" >"$W/$1.log" 2>&1; }
ra() { cat "/sys/block/${1#/dev/}/queue/read_ahead_kb"; }
# fact NAME KEY: an information entry of the first cell in results.json
fact() {
	python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["cells"][0]["facts"]["info"].get(sys.argv[2], "none"))' \
		"$W/$1.out/results.json" "$2" 2>/dev/null || echo "no results"
}
# throttled DEV: does any blkio throttle file or io.max line name DEV's MAJ:MIN?
throttled() {
	local mm
	mm=$(cat "/sys/block/${1#/dev/}/dev")
	grep -rqs "^$mm " /sys/fs/cgroup/blkio/blkio.throttle.*_device /sys/fs/cgroup/*/io.max \
		/sys/fs/cgroup/io.max 2>/dev/null && echo yes || echo no
}

# PART partition: the throttle and the queue act on a partition's disk, so
# a mounted sibling partition refuses (not so for formatting the partition
# itself). An MBR by hand: p1 at sector 2048 (15 MiB), p2 at 32768 to the end.
part_partition() {
	truncate -s 64M "$W/parts.img"
	printf '\x00\x00\x02\x00\x83\xff\xff\xff\x00\x08\x00\x00\x00\x78\x00\x00\x00\x00\x02\x00\x83\xff\xff\xff\x00\x80\x00\x00\x00\x80\x01\x00' |
		dd of="$W/parts.img" bs=1 seek=446 conv=notrunc status=none
	printf '\x55\xaa' | dd of="$W/parts.img" bs=1 seek=510 conv=notrunc status=none
	P=$(losetup --find --show -P "$W/parts.img") && OURS="$OURS $P" || { bad "cannot attach a loop device"; return; }
	for i in $(seq 1 50); do [ -b "${P}p2" ] && break; sleep 0.1; done
	if [ ! -b "${P}p2" ]; then
		echo "SKIP: partition: the kernel reads no partition table on a loop device here"
		exit 77
	fi
	mkfs.ext4 -q "${P}p2" && mkdir "$W/p2" && mount "${P}p2" "$W/p2" || { bad "cannot mount ${P}p2"; return; }
	cat >"$W/part.yaml" <<-YAML
		benchgrid: 1
		name: consent
		target: {kind: device, path: ${P}p1, fs: none, tune_disk: true, model: {read_bps: 1MB}}
		steps:
		  - {name: r, io: {file: "@device", rw: read, bs: 4KiB, size: 64KiB}}
	YAML
	check part
	expect "partition: check exit status" "$?" 2
	expect_in "partition: its disk is checked, the sibling named" \
		"refusing to throttle $P (the disk of ${P}p1: throttling and queue settings act on the whole disk): rule 'mounted': ${P}p2 is mounted on $W/p2" "$W/part.log"
	umount "$W/p2"
	check part
	expect "partition, sibling unmounted: check passes" "$?" 0
}
finish() {
	[ "$fail" -eq 0 ] && echo "all checks passed" || echo "some checks failed"
	exit "$fail"
}
if [ "$PART" = partition ]; then
	part_partition
	finish
fi

new_loop L raw 32M || { bad "cannot attach a loop device"; exit 1; }
# a step that records the device's read-ahead while the cell runs
cat >"$W/probe.sh" <<EOF
#!/bin/sh
cat /sys/block/${L#/dev/}/queue/read_ahead_kb >"\$1"
EOF
chmod +x "$W/probe.sh"

# 1. model: on a raw device.
raw_model() { # NAME EXTRA-TARGET-LINES
	cat >"$W/$1.yaml" <<-YAML
		benchgrid: 1
		name: consent
		target:
		  kind: device
		  path: $L
		  fs: none
		$2
		  model: {read_bps: 1MB, write_iops: 20}
		steps:
		  - name: probe
		    exec: "touch $W/$1.ran"
	YAML
}
raw_model m_none ""
check m_none
expect "model, no consent: check exit status" "$?" 2
expect_in "model, no consent: check names the model's position" \
	"m_none.yaml:8:3: error: target.model: throttling $L, a device benchgrid did not create, slows everything on it: this needs \`tune_disk: true\` (or \`destroy: true\`) in the target and --yes" "$W/m_none.log"
run m_none --yes
expect "model, no consent, --yes: run refused" "$?" 2
[ ! -e "$W/m_none.ran" ] && ok "model, no consent: no step ran" || bad "model, no consent: the step ran"

raw_model m_noyes "  tune_disk: true"
check m_noyes
expect "model, tune_disk: check passes" "$?" 0
run m_noyes
rc=$?
[ "$rc" -ne 0 ] && ok "model, no --yes: run fails (exit $rc)" || bad "model, no --yes: run exit 0"
expect_in "model, no --yes: refused at the model's position" \
	"m_noyes.yaml:8:3: error: target.model: refusing to throttle $L, a device benchgrid did not create: this needs --yes on the command line" "$W/m_noyes.log"
[ ! -e "$W/m_noyes.ran" ] && ok "model, no --yes: no step ran" || bad "model, no --yes: the step ran"
expect "model, no --yes: $L not throttled" "$(throttled "$L")" no

run m_noyes --yes
expect "model, tune_disk and --yes: run exit status" "$?" 0
[ -e "$W/m_noyes.ran" ] && ok "model, consent: the step ran" || bad "model, consent: no step ran"
expect "model, consent: applied on $L" "$(fact m_noyes model.target.device | cut -d' ' -f1)" "$L"
expect "model, consent: lifted after the run" "$(throttled "$L")" no

raw_model m_destroy "  destroy: true"
run m_destroy --yes
expect "model, destroy: true and --yes: run exit status" "$?" 0
expect "model, destroy: applied on $L" "$(fact m_destroy model.target.device | cut -d' ' -f1)" "$L"

# 2. queue: on a raw device (used raw through its "@device" step).
ra0=$(ra "$L")
raw_queue() { # NAME EXTRA-TARGET
	cat >"$W/$1.yaml" <<-YAML
		benchgrid: 1
		name: consent
		target: {kind: device, path: $L $2}
		queue: {read_ahead_kb: 4}
		steps:
		  - name: r
		    io: {file: "@device", rw: read, bs: 4KiB, size: 64KiB}
		  - name: probe
		    exec: "$W/probe.sh $W/$1.ra"
	YAML
}
raw_queue q_none ""
check q_none
expect "queue, no consent: check exit status" "$?" 2
expect_in "queue, no consent: check names the queue's position" \
	"q_none.yaml:4:8: error: queue: changing the queue settings of $L, a device benchgrid did not create, affects everything on it" "$W/q_none.log"
raw_queue q_noyes ", tune_disk: true"
run q_noyes
rc=$?
[ "$rc" -ne 0 ] && ok "queue, no --yes: run fails (exit $rc)" || bad "queue, no --yes: run exit 0"
expect_in "queue, no --yes: refused at the queue's position" \
	"q_noyes.yaml:4:8: error: queue: refusing to change the queue settings of $L, a device benchgrid did not create: this needs --yes on the command line" "$W/q_noyes.log"
expect "queue, no --yes: read_ahead_kb unchanged" "$(ra "$L")" "$ra0"
[ ! -e "$W/q_noyes.ra" ] && ok "queue, no --yes: no step ran" || bad "queue, no --yes: the step ran"
run q_noyes --yes
expect "queue, consent: run exit status" "$?" 0
expect "queue, consent: read_ahead_kb during the cell" "$(cat "$W/q_noyes.ra" 2>/dev/null)" 4
expect "queue, consent: read_ahead_kb restored" "$(ra "$L")" "$ra0"

# 3. queue: with a dir target on a disk this test made and mounted.
new_loop D dirdisk 32M || { bad "cannot attach a loop device"; exit 1; }
mkfs.ext4 -q "$D" && mkdir "$W/d" && mount "$D" "$W/d" || { bad "cannot mount $D"; exit 1; }
dra0=$(ra "$D")
dir_queue() { # NAME EXTRA-TARGET
	cat >"$W/$1.yaml" <<-YAML
		benchgrid: 1
		name: consent
		target: {kind: dir, path: $W/d $2}
		queue: {read_ahead_kb: 8}
		steps:
		  - name: probe
		    exec: "cat /sys/block/${D#/dev/}/queue/read_ahead_kb >$W/$1.ra"
	YAML
}
dir_queue dq_none ""
check dq_none
expect "dir queue, no tune_disk: check exit status" "$?" 2
expect_in "dir queue, no tune_disk: check names the queue's position" \
	"dq_none.yaml:4:8: error: queue: changing the queue settings of the disk under the directory target, a disk benchgrid did not create, affects everything on it: this needs \`tune_disk: true\` in the target and --yes" "$W/dq_none.log"
run dq_none --yes
expect "dir queue, no tune_disk, --yes: run refused" "$?" 2
dir_queue dq_noyes ", tune_disk: true"
run dq_noyes
rc=$?
[ "$rc" -ne 0 ] && ok "dir queue, no --yes: run fails (exit $rc)" || bad "dir queue, no --yes: run exit 0"
expect_in "dir queue, no --yes: the message names the disk" \
	"queue: refusing to change the queue settings of $D, the disk under the directory target (benchgrid did not create it, and everything on it shares it): this needs --yes on the command line" "$W/dq_noyes.log"
expect "dir queue, no --yes: read_ahead_kb unchanged" "$(ra "$D")" "$dra0"
run dq_noyes --yes
expect "dir queue, consent: run exit status" "$?" 0
expect "dir queue, consent: read_ahead_kb during the cell" "$(cat "$W/dq_noyes.ra" 2>/dev/null)" 8
expect "dir queue, consent: read_ahead_kb restored" "$(ra "$D")" "$dra0"

# 4. The safety rules, at check (literal paths) and at setup (fx_driver has
#    no check: the run-time half alone).
cat >"$W/mounted.yaml" <<YAML
benchgrid: 1
name: consent
target:
  kind: device
  path: $D
  fs: none
  tune_disk: true
  model: {read_bps: 1MB}
steps:
  - {name: probe, exec: "true"}
YAML
check mounted
expect "mounted: check exit status" "$?" 2
expect_in "mounted: rule named at the device's position" \
	"mounted.yaml:5:9: error: target.path: refusing to throttle $D: rule 'mounted': $D is mounted on $W/d (ext4)" "$W/mounted.log"
cat >"$W/mounted_q.yaml" <<YAML
target: {kind: device, path: $D, fs: none, tune_disk: true}
queue: {read_ahead_kb: 16}
YAML
"$DRIVER" setup "$W/mounted_q.yaml" "$W" --yes >"$W/mq.out" 2>"$W/mq.err"
expect "mounted, setup: refused" "$?" 1
expect_in "mounted, setup: rule named" \
	"mounted_q.yaml:2:8: error: queue: refusing to change the queue settings of $D: rule 'mounted': $D is mounted on $W/d (ext4)" "$W/mq.err"
expect "mounted, setup: read_ahead_kb unchanged" "$(ra "$D")" "$dra0"
umount "$W/d"

# a loop device backed by $L: the loop driver shows no holder for it
L2=$(losetup --find --show "$L") && OURS="$OURS $L2" || bad "cannot attach a loop device on $L"
cat >"$W/backing.yaml" <<YAML
benchgrid: 1
name: consent
target: {kind: device, path: $L, tune_disk: true}
queue: {read_ahead_kb: 16}
steps:
  - {name: r, io: {file: "@device", rw: read, bs: 4KiB, size: 64KiB}}
YAML
check backing
expect "loop backing: check exit status" "$?" 2
expect_in "loop backing: rule named at the device's position" \
	"backing.yaml:3:30: error: target.path: refusing to change the queue settings of $L: rule 'loop backing': $L is the backing device of $L2" "$W/backing.log"
losetup -d "$L2"

# 5. A loop target benchgrid makes is its own: throttle and tune freely.
cat >"$W/loop.yaml" <<YAML
benchgrid: 1
name: consent
target: {kind: loop, size: 64MiB, fs: ext4, model: {write_bps: 100MB}}
queue: {read_ahead_kb: 16}
steps:
  - {name: w, io: {rw: write, bs: 64KiB, size: 1MiB}}
YAML
run loop
expect "loop target, no consent, no --yes: run exit status" "$?" 0
[ "$(fact loop model.target.device)" != none ] && ok "loop target: model applied" ||
	bad "loop target: no model fact ($(cat "$W/loop.log"))"

finish
