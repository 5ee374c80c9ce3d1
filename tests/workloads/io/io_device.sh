#!/usr/bin/env bash
# The io step on a raw block device and trims, preconditioning and steady
# state, on loop devices this test creates (backing files in its own
# directory) and a tmpfs it mounts: reads from "@device" with no consent;
# writes refused without destroy: true and --yes, and on a mounted device;
# sizes beyond the device and direct I/O below its logical block size
# refused; randtrim on a loop device zeroes the blocks and shrinks the
# backing file, on a file punches holes; precondition writes size x
# (1 + passes) bytes and nothing beyond size; steady state reached early on a
# steady tmpfs job, not reached on one whose limit it cannot meet.
set -u
bg=${BENCHGRID:?}
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (loop devices, tmpfs)"; exit 77; }
[ -c /dev/loop-control ] || { echo "SKIP: no loop device support"; exit 77; }
command -v losetup >/dev/null || { echo "SKIP: losetup is missing"; exit 77; }
W=$(mktemp -d /var/tmp/bg-iodev.XXXXXX)
fail=0
cleanup() {
	local f m
	for m in $(awk -v w="$W/" 'index($5, w) == 1 { print $5 }' /proc/self/mountinfo | sort -r); do
		umount -l "$m" 2>/dev/null
	done
	for f in /sys/block/loop*/loop/backing_file; do
		[ -r "$f" ] || continue
		case "$(cat "$f" 2>/dev/null)" in
		"$W"/*) f=${f#/sys/block/}; losetup -d "/dev/${f%%/*}" 2>/dev/null ;;
		esac
	done
	rm -rf "$W"
}
trap cleanup EXIT
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

# new_loop NAME SIZE [losetup options]: a zeroed image attached; prints the device
new_loop() {
	truncate -s "$2" "$W/$1.img" && losetup --find --show "${@:3}" "$W/$1.img"
}
# scenario FILE TARGET STEP-LINES...
scenario() {
	local f=$1 t=$2
	shift 2
	{
		echo "benchgrid: 1"
		echo "name: io-device"
		echo "target: $t"
		echo "steps:"
		printf '%s\n' "$@"
	} >"$f"
}
# run NAME [args]: runs $W/NAME.yaml into $W/NAME.out, log in $W/NAME.log
run() {
	local n=$1
	shift
	rm -rf "$W/$n.out"
	"$bg" run "$@" -o "$W/$n.out" "$W/$n.yaml" >"$W/$n.log" 2>&1
}
# get NAME STEP metrics|info|series KEY: a value (series: the number of points)
get() {
	python3 - "$W/$1.out/results.json" "$2" "$3" "$4" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["cells"][0]["reps"][0]:
    if s["name"] == sys.argv[2]:
        v = s.get(sys.argv[3], {}).get(sys.argv[4])
        if v is None:
            print("none")
        elif sys.argv[3] == "metrics":
            print("%.17g" % v["value"])
        elif sys.argv[3] == "series":
            print(len(v["v"]))
        else:
            print(v)
PY
}
expect() { if [ "$2" = "$3" ]; then ok "$1: $2"; else bad "$1: got '$2', want '$3'"; fi; }
expect_log() {
	if grep -q -- "$2" "$W/$3.log"; then ok "$1"; else bad "$1: '$2' not in:"; sed 's/^/      /' "$W/$3.log"; fi
}

L=$(new_loop a 64M) || { echo "SKIP: cannot attach a loop device"; exit 77; }
M=64M

# reads: no consent; size defaults to the whole device
scenario "$W/read.yaml" "{kind: device, path: $L}" \
	"  - name: all" "    io: {file: \"@device\", rw: read, bs: 1m, direct: true}" \
	"  - name: rand" "    io: {file: \"@device\", rw: randread, bs: 4k, size: 8M, runtime: 1s}"
if run read; then ok "reads from @device without destroy or --yes"; else bad "reads"; cat "$W/read.log"; fi
expect "read the whole device by default" "$(get read all metrics bytes)" 67108864
expect "device.size fact" "$(get read all info device.size)" 67108864
expect "device.logical_block_size fact" "$(get read all info device.logical_block_size)" 512
expect "fs.type fact" "$(python3 -c "import json;print(json.load(open('$W/read.out/results.json'))['cells'][0]['facts']['info']['fs.type'])")" "none (raw device)"
[ -b "$L" ] && ok "the device is still there (no unlink)" || bad "the device node vanished"

# writes: destroy: true and --yes, both
w_step=("  - name: w" "    io: {file: \"@device\", rw: randwrite, bs: 64k, size: 8M, direct: true, verify: true, fsync_on_close: true}")
scenario "$W/w1.yaml" "{kind: device, path: $L}" "${w_step[@]}"
run w1 --yes && bad "a write without destroy: true ran" ||
	expect_log "write without destroy: true refused" "needs \`destroy: true\` in the target" w1
scenario "$W/w2.yaml" "{kind: device, path: $L, destroy: true}" "${w_step[@]}"
run w2 && bad "a write without --yes ran" || expect_log "write without --yes refused" "needs --yes on the command line" w2
cmp -s -n 8388608 "$L" /dev/zero && ok "nothing written by the refused runs" || bad "a refused run wrote"
if run w2 --yes; then ok "write with destroy: true and --yes"; else bad "write with consent"; cat "$W/w2.log"; fi
expect "verify errors" "$(get w2 w metrics verify_errors)" 0
cmp -s -n 8388608 "$L" /dev/zero && bad "the write left the device zeroed" || ok "the device was written"

# beyond the device, and direct I/O below the logical block size
scenario "$W/big.yaml" "{kind: device, path: $L}" "  - name: r" "    io: {file: \"@device\", rw: randread, size: 128M}"
run big && bad "size beyond the device ran" || expect_log "size beyond the device refused" "io.size: 134217728 bytes goes beyond the end of $L (67108864 bytes)" big
L4=$(new_loop b 16M --sector-size 4096)
scenario "$W/lbs.yaml" "{kind: device, path: $L4}" "  - name: r" "    io: {file: \"@device\", rw: randread, bs: 512, size: 1M, direct: true}"
run lbs && bad "bs 512 direct on a 4096-byte-sector device ran" || expect_log "direct below the logical block size refused" "must be multiples of 4096, the logical block size of $L4" lbs

# the safety rules: a mounted device is refused for writes
if command -v mkfs.ext4 >/dev/null; then
	L5=$(new_loop c 32M)
	mkfs.ext4 -q "$L5" && mkdir -p "$W/mnt" && mount "$L5" "$W/mnt"
	scenario "$W/mounted.yaml" "{kind: device, path: $L5, destroy: true}" "${w_step[@]}"
	run mounted --yes && bad "a write to a mounted device ran" || expect_log "mounted device refused" "refusing to write to $L5: rule 'mounted'" mounted
	umount "$W/mnt"
else
	echo "skip mounted device: no mkfs.ext4"
fi

# randtrim on the loop device: the blocks read back as zero, the image shrinks
before=$(du -k "$W/a.img" | cut -f1)
scenario "$W/trim.yaml" "{kind: device, path: $L, destroy: true}" \
	"  - name: t" "    io: {file: \"@device\", rw: randtrim, bs: 64k, size: 8M, fsync_on_close: true}"
run trim && bad "trim without --yes ran" || expect_log "trim without --yes refused" "needs --yes" trim
if run trim --yes; then
	expect "trimmed bytes" "$(get trim t metrics bytes)" 8388608
	cmp -s -n 8388608 "$L" /dev/zero && ok "trimmed blocks read back as zero" || bad "trimmed blocks are not zero"
	after=$(du -k "$W/a.img" | cut -f1)
	[ "$after" -le $((before - 8000)) ] && ok "the backing file shrank ($before -> $after KiB)" ||
		bad "the backing file did not shrink ($before -> $after KiB)"
else
	bad "randtrim on a loop device"
	cat "$W/trim.log"
fi

# trim on a file: holes punched (the dir target goes with the cell: stat it in an exec step)
mkdir -p "$W/files"
scenario "$W/ftrim.yaml" "{kind: dir, path: $W/files}" \
	"  - name: fill" "    io: {rw: write, bs: 64k, size: 4M, keep: true, sync: end}" \
	"  - name: before" "    exec: {command: \"stat -c %b benchgrid-io.dat >$W/fbefore.txt\"}" \
	"  - name: t" "    io: {rw: trim, bs: 64k, size: 4M, keep: true}" \
	"  - name: after" "    exec: {command: \"stat -c '%s %b' benchgrid-io.dat >$W/fstat.txt\"}"
if run ftrim; then
	read -r fsize fblocks <"$W/fstat.txt"
	expect "file size kept" "$fsize" 4194304
	# st_blocks counts the file system's own blocks for the file too: a file
	# written while other writers share /var/tmp can come out in more than
	# four extents, and ext4 then gives it an extent block (8200, not 8192,
	# in a run beside stress-ng). The data: all 8192 sectors before, all
	# gone after.
	fb=$(cat "$W/fbefore.txt")
	[ "$fb" -ge 8192 ] && ok "file blocks before trim: $fb (4 MiB of data and the fs's own)" ||
		bad "file blocks before trim: got '$fb', want at least 8192"
	[ "$fblocks" -le $((fb - 8192)) ] && ok "file blocks after trim: $fblocks (the 4 MiB of data punched out)" ||
		bad "file blocks after trim: got '$fblocks', want at most $((fb - 8192))"
	expect "trimmed bytes" "$(get ftrim t metrics bytes)" 4194304
else
	bad "trim on a file"
	cat "$W/ftrim.log"
fi

# precondition: size x (1 + passes) bytes, nothing beyond size
L6=$(new_loop d 32M)
scenario "$W/pre.yaml" "{kind: device, path: $L6, destroy: true}" \
	"  - name: p" "    io: {file: \"@device\", rw: randread, bs: 4k, size: 8M, runtime: 1s, direct: true, precondition: {passes: 2}}"
run pre && bad "precondition without --yes ran" || expect_log "precondition without --yes refused" "and precondition" pre
if run pre --yes; then
	expect "precondition_bytes" "$(get pre p metrics precondition_bytes)" 25165824
	case "$(get pre p info precondition)" in
	*"queue depth 32"*) ok "precondition at queue depth 32 (io_uring)" ;;
	*) bad "precondition depth: $(get pre p info precondition)" ;;
	esac
	[ "$(get pre p series precondition.mb_s)" -ge 1 ] && ok "precondition.mb_s series" || bad "no precondition.mb_s series"
	cmp -s -n 8388608 "$L6" /dev/zero && bad "precondition left the region zeroed" || ok "precondition wrote the region"
	cmp -s -i 8388608 -n 8388608 "$L6" /dev/zero && ok "nothing written beyond size" || bad "precondition wrote beyond size"
else
	bad "precondition"
	cat "$W/pre.log"
fi

# steady state on a tmpfs file
mkdir -p "$W/tmpfs"
if mount -t tmpfs -o size=64m tmpfs "$W/tmpfs"; then
	scenario "$W/ss.yaml" "{kind: dir, path: $W/tmpfs}" \
		"  - name: steady" \
		"    io: {rw: randread, bs: 4k, size: 16M, runtime: 60s, time_based: true, interval: 0.5s, steady_state: {metric: iops, range: 50%, duration: 2s, ramp: 1s}}" \
		"  - name: never" \
		"    io: {rw: randread, bs: 4k, size: 16M, runtime: 3s, time_based: true, interval: 0.5s, steady_state: {metric: bw, slope: 0.00001%, duration: 2s}}"
	if run ss; then
		expect "steady job: steady_state_reached" "$(get ss steady metrics steady_state_reached)" 1
		s=$(get ss steady metrics seconds)
		python3 -c "import sys; sys.exit(not (3 <= $s < 30))" && ok "steady job stopped early ($s s of 60)" || bad "steady job ran $s s"
		expect "unsteady job: steady_state_reached" "$(get ss never metrics steady_state_reached)" 0
		expect "unsteady job: no steady_state_at_s" "$(get ss never metrics steady_state_at_s)" none
		s=$(get ss never metrics seconds)
		python3 -c "import sys; sys.exit(not (2.9 <= $s < 3.5))" && ok "unsteady job ran its runtime ($s s)" || bad "unsteady job ran $s s"
	else
		bad "steady state"
		cat "$W/ss.log"
	fi
else
	echo "skip steady state: cannot mount a tmpfs"
fi
exit $fail
