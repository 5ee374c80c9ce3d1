#!/usr/bin/env bash
# Loop targets reach the disk (issue 27, item 1): direct I/O on the image is
# the default; a default the kernel refuses falls back to buffered I/O with a
# warning and a fact, an explicit `direct_io: true` refused is an error;
# report.md says how each loop device reaches its disk and warns when a step
# asked for `direct: true` on a buffered one; compare flags cells whose loop
# device read its image one way in A and the other in B.
#
# The refusal is real: an image on ramfs, which has no O_DIRECT (tmpfs takes
# O_DIRECT since Linux 6.6, so it no longer shows the fallback).
set -u
bg=${BENCHGRID:?}
if [ "$(id -u)" != 0 ] || [ ! -c /dev/loop-control ]; then
	echo "SKIP: needs root and loop devices"
	exit 77
fi
t=$(mktemp -d /var/tmp/bg-loopdio.XXXXXX)
export BENCHGRID_STATE=$t/state BENCHGRID_STORE=$t/store.db
mkdir -p "$t/w" "$t/ram"
cleanup() {
	"$bg" cleanup >/dev/null 2>&1
	mountpoint -q "$t/ram" && umount "$t/ram"
	mountpoint -q "$t/4k" && umount "$t/4k"
	[ -n "${disk4k:-}" ] && losetup -d "$disk4k"
	rm -rf "$t"
}
trap cleanup EXIT
W=(--work-dir "$t/w")
fail=0
ok() { echo "ok   $1"; }
bad() {
	echo "FAIL $1"
	fail=1
}

# ---- the default: direct I/O (sysfs loop/dio = 1), said in facts and Devices ----
cat >"$t/def.yaml" <<'Y'
name: loopdio
target: {kind: loop, size: 320MiB, fs: ext4}
steps:
  - name: rr
    io: {rw: randread, bs: 64KiB, size: 128MiB, direct: true, iodepth: 16, runtime: 1s, time_based: true}
Y
# A step that reads the loop device's sysfs while the target is set up: it
# fails (and the run exits 1) unless loop/dio is 1.
cat >"$t/sysfs.yaml" <<'Y'
name: loopdio-sysfs
target: {kind: loop, size: 64MiB, fs: ext4}
steps:
  - name: dio
    exec: {command: "test $(cat /sys/block/$(basename $(findmnt -no SOURCE --target '${target.path}'))/loop/dio) = 1"}
Y
"$bg" run "${W[@]}" -q -o "$t/s" "$t/sysfs.yaml" && ok "default loop target: sysfs loop/dio = 1" ||
	bad "default loop target: sysfs loop/dio = 1"
"$bg" run "${W[@]}" -q -o "$t/d" "$t/def.yaml" || bad "default run exits 0"
python3 - "$t/d" <<'PY' && ok "facts: dev.loop_direct_io 1, fs.direct_io on (default); Devices says direct" || bad "default facts and Devices"
import json, sys
d = sys.argv[1]
c = json.load(open(f"{d}/results.json"))["cells"][0]
f = c["facts"]["info"]
assert f["dev.loop_direct_io"] == "1", f
assert f["fs.direct_io"] == "on (default)", f
md = open(f"{d}/report.md").read()
dev = md.split("## Devices", 1)[1].split("\n## ", 1)[0]
assert "direct I/O to the disk under it" in dev, dev
assert "## Warnings" not in md, md
PY

# ---- buffered vs direct in one run: the buffered device reads the host's page cache ----
cat >"$t/pair.yaml" <<'Y'
name: loopdio-pair
matrix:
  dio: [true, false]
repeat: 5
run_order: interleave
target: {kind: loop, size: 320MiB, fs: ext4, direct_io: "${dio}"}
steps:
  - name: rr
    io: {rw: randread, bs: 64KiB, size: 128MiB, direct: true, iodepth: 16, runtime: 1s, time_based: true}
Y
"$bg" run "${W[@]}" -q -o "$t/p" "$t/pair.yaml" 2>/dev/null || bad "pair run exits 0"
python3 - "$t/p" <<'PY' && ok "buffered / direct IOPS, median of 5 alternating pairs > 1.5" || bad "buffered reads the page cache"
import json, statistics, sys
d = sys.argv[1]
cells = {c["params"]["dio"]: c for c in json.load(open(f"{d}/results.json"))["cells"]}
def iops(c):
    return [s["metrics"]["iops"]["value"] for rep in c["reps"] for s in rep if s["name"] == "rr"]
on, off = iops(cells[True]), iops(cells[False])
assert len(on) == len(off) == 5, (on, off)
ratios = [b / a for a, b in zip(on, off)]
r = statistics.median(ratios)
print(f"     direct {on}, buffered {off}, pair ratios {[round(x, 2) for x in ratios]}, median {r:.2f}")
assert cells[True]["facts"]["info"]["dev.loop_direct_io"] == "1" and cells[False]["facts"]["info"]["dev.loop_direct_io"] == "0"
assert r > 1.5, r
md = open(f"{d}/report.md").read()
w = md.split("## Warnings", 1)[1].split("\n## ", 1)[0]
assert "reads and writes its image through the host's page cache" in w, w
assert "buffered: through the host's page cache" in md.split("## Devices", 1)[1].split("\n## ", 1)[0]
PY

# ---- compare flags cells on either side of the default's change ----
sed 's/fs: ext4}/fs: ext4, direct_io: false}/' "$t/def.yaml" >"$t/old.yaml"
"$bg" run "${W[@]}" -q -o "$t/o" "$t/old.yaml" || bad "old-default run exits 0"
out=$("$bg" compare "$t/o" "$t/d" 2>&1)
if grep -q "Warning:.* 1 of 1 shared cells read their loop image with direct I/O in one run" <<<"$out" &&
	grep -q "(loop direct I/O A off, B on)" <<<"$out"; then
	ok "compare flags a cell whose loop device changed its I/O path"
else
	bad "compare flags the loop I/O path: $out"
fi
out=$("$bg" compare "$t/d" "$t/d" 2>&1)
grep -q "loop direct I/O" <<<"$out" && bad "compare of a run with itself flags nothing" ||
	ok "compare of a run with itself flags nothing"

# ---- a refused default falls back; an explicit true refused is an error ----
if mount -t ramfs ramfs "$t/ram" 2>/dev/null; then
	cat >"$t/ram.yaml" <<Y
name: loopdio-ram
target: {kind: loop, size: 64MiB, image_dir: $t/ram}
steps:
  - name: rr
    io: {rw: randread, bs: 4KiB, size: 16MiB, iodepth: 4, runtime: 0.3s, time_based: true}
Y
	"$bg" run "${W[@]}" -o "$t/r" "$t/ram.yaml" 2>"$t/r.err"
	rc=$?
	if [ $rc -eq 0 ] && grep -q "warning: direct I/O refused, buffered instead: .*image on ramfs" "$t/r.err"; then
		ok "ramfs image: default falls back to buffered with a warning"
	else
		bad "ramfs fallback (rc $rc): $(cat "$t/r.err")"
	fi
	python3 - "$t/r" <<'PY' && ok "ramfs image: facts say so" || bad "ramfs facts"
import json, sys
f = json.load(open(f"{sys.argv[1]}/results.json"))["cells"][0]["facts"]["info"]
assert f["dev.loop_direct_io"] == "0", f
assert f["fs.direct_io"] == "off (default, not possible here)", f
assert "ramfs" in f["dev.loop_direct_io_refused"], f
PY
	sed 's/image_dir:/direct_io: true, image_dir:/' "$t/ram.yaml" >"$t/ramx.yaml"
	"$bg" run "${W[@]}" -o "$t/x" "$t/ramx.yaml" 2>"$t/x.err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q "ramx.yaml:2:.*target.direct_io: .* could not switch to direct I/O" "$t/x.err"; then
		ok "ramfs image: explicit direct_io: true is an error"
	else
		bad "explicit direct_io on ramfs (rc $rc): $(cat "$t/x.err")"
	fi
else
	echo "skip ramfs cases: cannot mount ramfs"
fi
# ---- a disk with 4096-byte logical blocks under the image ----
# A loop device with direct I/O takes the logical block size of the disk
# under its image: a 1 KiB file-system block cannot be made there. The disk
# is a loop device of ours with 4096-byte blocks, ext4 on it, mounted.
mkdir -p "$t/4k"
truncate -s 400M "$t/disk4k.img"
if disk4k=$(losetup -b 4096 -f --show "$t/disk4k.img" 2>/dev/null) && mkfs.ext4 -q "$disk4k" &&
	mount "$disk4k" "$t/4k"; then
	cat >"$t/small.yaml" <<Y
name: loopdio-4k
matrix:
  bsz: [1KiB, 4KiB]
target: {kind: loop, size: 64MiB, fs: ext4, block_size: "\${bsz}", image_dir: $t/4k}
steps:
  - name: w
    io: {rw: write, bs: 64KiB, size: 4MiB}
Y
	"$bg" run "${W[@]}" -o "$t/k" "$t/small.yaml" 2>"$t/k.err"
	rc=$?
	python3 - "$t/k" <<'PY' && [ $rc -eq 0 ] && ok "1 KiB blocks over a 4096-byte disk: buffered with a warning; 4 KiB: direct" ||
import json, sys
cells = {c["params"]["bsz"]: c for c in json.load(open(f"{sys.argv[1]}/results.json"))["cells"]}
small, big = cells["1KiB"]["facts"]["info"], cells["4KiB"]["facts"]["info"]
assert cells["1KiB"]["status"] == "ok", cells["1KiB"]["error"]
assert small["dev.loop_direct_io"] == "0" and small["fs.direct_io"] == "off (default, not possible here)", small
assert "below the logical block size 4096" in small["dev.loop_direct_io_refused"], small
assert big["dev.loop_direct_io"] == "1" and big["fs.direct_io"] == "on (default)", big
PY
		bad "4096-byte disk (rc $rc): $(cat "$t/k.err")"
	sed 's/block_size: "\${bsz}"/block_size: 1KiB, direct_io: true/; /^matrix:/,/bsz:/d' "$t/small.yaml" >"$t/smallx.yaml"
	"$bg" run "${W[@]}" -o "$t/kx" "$t/smallx.yaml" 2>"$t/kx.err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q "smallx.yaml:2:.*target.direct_io: block_size 1024 is below the logical block size 4096" "$t/kx.err"; then
		ok "1 KiB blocks over a 4096-byte disk with direct_io: true is an error"
	else
		bad "explicit direct_io over a 4096-byte disk (rc $rc): $(cat "$t/kx.err")"
	fi
else
	echo "skip 4096-byte disk cases: cannot make one"
fi

leftover=$(losetup -a | grep "$t" | grep -vc "disk4k.img" || true) # ours, not the test's disk
[ "$leftover" = 0 ] && ok "no loop device left" || bad "$leftover loop devices left"
exit $fail
