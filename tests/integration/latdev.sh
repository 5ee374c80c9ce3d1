#!/usr/bin/env bash
# The latency element of device models (model: {latency: ...}) for real:
# loop targets whose image is served by benchgrid-latdev over FUSE, ext4,
# O_DIRECT io steps. One part per CTest test (tests/CMakeLists.txt, latdev):
#   accuracy  QD1, write_us 5ms, 4k O_DIRECT writes one at a time: no
#             write completes in less than 5 ms, the fastest within 5.5 ms
#             and the server late by < 0.5 ms on average (the stated
#             error, 10 %); the client's p50 with and
#             without the model (interleaved pairs) and the server's
#             lateness are printed (how much the kernel's path adds depends
#             on the machine's load: qd checks the model's rate exactly)
#   qd        a backlog at queue_depth 1 gives 1/write_us IO/s while the
#             slots are busy (IO/s over latency_util), queue_depth 2 and 32
#             twice and 32 times that; reads likewise at read_us
#   cache     write_cache: 512 KiB of writes complete at once, the flush
#             after them waits for the drain (128 x 5 ms); then 2 MiB
#             through a 1 MiB cache: the second half at the service time
#             (the model's busy time exact, the step's time at least that)
#   cleanup   without the server program: a clear error, nothing left;
#             kill -9 of a run with a latency model, then `benchgrid
#             cleanup`: the server is ended, the FUSE mount and the loop
#             device are gone
# Exit 77 (skipped) without root, loop devices, /dev/fuse or the server.
set -u
part=${1:?part}
bg=${BENCHGRID:?}
[[ $(id -u) -eq 0 && -e /dev/loop-control ]] || { echo "skip: needs root and loop devices"; exit 77; }
[[ -c /dev/fuse ]] || { echo "skip: no /dev/fuse (this kernel or container has no FUSE)"; exit 77; }
grep -qw fuse /proc/filesystems || { echo "skip: the kernel has no fuse file system"; exit 77; }
[[ -x $(dirname "$bg")/benchgrid-latdev ]] || { echo "skip: no benchgrid-latdev beside $bg"; exit 77; }
t=$(mktemp -d /var/tmp/bg-latdev.XXXXXX)
export BENCHGRID_STATE=$t/state
fail=0

# Loop devices on an image in $t, FUSE mounts in $t, servers serving $t.
# (a loop device left on a served image whose server is gone reads "/image":
# the latdev tests hold the timing lock, so no other run's is there)
own_loops() { grep -l -e "^$t/" -e "^/image\$" /sys/block/loop*/loop/backing_file 2>/dev/null; }
own_mounts() { awk -v t="$t/" 'index($2, t) == 1 { print $2 }' /proc/self/mounts; }
own_servers() { pgrep -f "benchgrid-latdev $t/" ; }
finish() {
	"$bg" cleanup >/dev/null 2>&1
	rm -rf "$t"
}
trap finish EXIT

run() {
	cat >"$t/$1.yaml"
	"$bg" run -q -o "$t/$1.out" --work-dir "$t" "$t/$1.yaml" >"$t/$1.log" 2>&1
	rc=$?
	[[ $rc -eq 0 ]] || { echo "run $1: exit status $rc"; cat "$t/$1.log"; fail=1; }
}

# check NAME: python over results.json given on stdin, with r (results),
# cells (ok ones), m(cell, rep, step, metric).
check() {
	python3 - "$t/$1.out/results.json" <<PY || fail=1
import json, statistics, sys
r = json.load(open(sys.argv[1]))
cells = r["cells"]
assert all(c["status"] == "ok" for c in cells), [c.get("error") for c in cells]
def m(c, rep, step, metric):
    s = [s for s in c["reps"][rep] if s["name"] == step][0]
    return s["metrics"][metric]["value"]
def within(what, got, lo, hi):
    ok = lo <= got <= hi
    print("%s %s: %.4g (bounds %.4g .. %.4g)" % ("ok  " if ok else "FAIL", what, got, lo, hi))
    return ok
$(cat)
PY
}

nothing_left() {
	local left
	left="$(own_servers) $(own_mounts) $(own_loops)"
	[[ -z ${left// /} ]] || { echo "FAIL: left behind: $left"; fail=1; }
}

case $part in
accuracy)
	# Interleaved pairs of cells on one target (one server, re-armed per
	# cell): write_us 5ms and 0 (the same path without the model).
	run acc <<'Y'
name: latdev-accuracy
matrix: {wus: [5ms, "0"]}
repeat: 5
run_order: interleave
target: {kind: loop, size: 128MiB, fs: ext4, model: {latency: {write_us: "${wus}", queue_depth: 1}}}
steps:
  - name: w
    io: {rw: randwrite, bs: 4k, size: 8MiB, direct: true, engine: psync, runtime: 1s, time_based: true}
Y
	check acc <<'PY'
by = {c["params"]["wus"]: c for c in cells}
model, zero = by["5ms"], by["0"]
n = min(len(model["reps"]), len(zero["reps"]))
p50 = [m(model, i, "w", "lat_p50_us") for i in range(n)]
print("write p50 with the model (us):", ["%.0f" % x for x in p50])
print("write p50 without (us):       ", ["%.0f" % m(zero, i, "w", "lat_p50_us") for i in range(n)])
print("IO/s with the model:          ", ["%.1f" % m(model, i, "w", "iops") for i in range(n)])
f = model["facts"]["info"]
print("server:", f["model.target.latency.server"])
# the model's own error: how late the server answered against its times
# (the kernel's wake-up of a real-time thread: printed, not judged)
print("server's answers late by %s us on average, at most %s us" % (
    f["model.target.latency.late_mean_us"], f["model.target.latency.late_max_us"]))
# The model's stated error (docs/sections/target.md, "Accuracy"): 10 % of
# the service time. The model never answers early; a write that waited for
# no other request in the one slot (the fastest) completes within 5 ms plus
# the error, and the server's answers are late by less than it on average.
# The median write may also wait for the file system's own writes (its
# journal, a neighbour's sync()), which share the slot as on a real
# one-queue disk: printed, and bounded below only.
err = 500
ok = within("lat_min with the model (us)", min(m(model, i, "w", "lat_min_us") for i in range(n)), 5000, 5000 + err)
ok &= within("server's mean lateness (us)", float(f["model.target.latency.late_mean_us"]), 0, err)
ok &= within("median write p50 with the model (us)", statistics.median(p50), 5000, 1e9)
sys.exit(0 if ok else 1)
PY
	;;
qd)
	run qd <<'Y'
name: latdev-qd
matrix:
  zip: {qd: [1, 2, 32], iod: [8, 8, 64]}
target: {kind: loop, size: 128MiB, fs: ext4, mount_options: [noatime, lazytime],
         model: {latency: {write_us: 5ms, read_us: 10ms, queue_depth: "${qd}"}}}
steps:
  # the file first (its layout would take the model's time inside w), and
  # everything of the file system written out: its allocation's metadata,
  # dirty in the page cache, would otherwise be written back during w
  - name: fill
    io: {rw: write, bs: 1MiB, size: 8MiB, direct: true, sync: end, file: q.dat, keep: true}
  - name: syncfs
    exec: "sync -f ${target.path}"
  - name: w
    io: {rw: randwrite, bs: 4k, size: 8MiB, direct: true, iodepth: "${iod}", runtime: 2s, time_based: true,
         file: q.dat, prepare: none, keep: true}
  - name: r
    io: {rw: randread, bs: 4k, size: 8MiB, direct: true, iodepth: "${iod}", runtime: 2s, time_based: true,
         file: q.dat, prepare: none}
Y
	check qd <<'PY'
by = {str(c["params"]["qd"]): c for c in cells}
# the requests the loop device completed (its /sys stat, over the step):
# the step's own and the file system's, all of which the model served
i = {q: m(by[q], 0, "w", "disk_w_iops") for q in ("1", "2", "32")}
u = {q: m(by[q], 0, "w", "model.target.latency_util") for q in ("1", "2", "32")}
print("IO/s %s, latency_util %s" % (i, u))
print("the step's own IO/s: %s" % {q: round(m(by[q], 0, "w", "iops"), 1) for q in ("1", "2", "32")})
# While its slots are busy the model completes queue_depth requests per
# write_us, whatever the machine's load: the rate over the busy fraction
# (latency_util, the server's busy slot-time over the same seconds). A
# loaded machine may starve the loop worker so that the slots idle now and
# then: that lowers latency_util, not the rate while busy.
ok = within("IO/s while busy at queue_depth 1 (model 200)", i["1"] / u["1"], 200 * 0.97, 200 * 1.03)
ok &= within("IO/s while busy at queue_depth 2 / queue_depth 1", (i["2"] / u["2"]) / (i["1"] / u["1"]), 1.94, 2.06)
# above FUSE's default of 12 background requests (the server raises it)
ok &= within("IO/s while busy at queue_depth 32 / queue_depth 1", (i["32"] / u["32"]) / (i["1"] / u["1"]), 31, 33)
# reads reach the server too (no page cache on either side): read_us 10ms
for q in ("1", "32"):
    ri, ru = m(by[q], 0, "r", "disk_r_iops"), m(by[q], 0, "r", "model.target.latency_util")
    ok &= within("reads: IO/s while busy at queue_depth %s (model %d)" % (q, 100 * int(q)), ri / ru, 97 * int(q), 103 * int(q))
# latency_util itself depends on the load (printed above); at most 1
for q in ("1", "2", "32"):
    ok &= within("latency_util at queue_depth " + q, u[q], 0, 1.01)
if ok and min(u.values()) < 0.25:
    print("skip: the machine kept the model's slots busy only %.0f%% of the time" % (100 * min(u.values())))
    open(sys.argv[1] + ".skip", "w").close()
sys.exit(0 if ok else 1)
PY
	[[ -e $t/qd.out/results.json.skip ]] && exit 77
	;;
cache)
	# fill: the file written and flushed (the cache is empty after);
	# burst: 128 4k writes into the 1 MiB cache, then fdatasync: the
	# flush waits for the drain, 128 x 5 ms; over: 512 writes (8 in
	# flight), the last 256 of them wait for room, one service time each.
	run cache <<'Y'
name: latdev-cache
target: {kind: loop, size: 128MiB, fs: ext4, mount_options: [lazytime],
         model: {latency: {write_us: 5ms, queue_depth: 1, write_cache: 1MiB}}}
steps:
  - name: fill
    io: {rw: write, bs: 1MiB, size: 8MiB, direct: true, sync: end, file: f.dat, keep: true}
  - name: burst
    io: {rw: randwrite, bs: 4k, size: 8MiB, io_size: 512KiB, direct: true, sync: end, engine: psync, file: f.dat, prepare: none, keep: true}
  - name: over
    io: {rw: randwrite, bs: 4k, size: 8MiB, io_size: 2MiB, direct: true, iodepth: 8, file: f.dat, prepare: none, keep: true}
Y
	check cache <<'PY'
c = cells[0]
def busy(step):  # seconds the model's slot was busy during the step
    return m(c, 0, step, "seconds") * m(c, 0, step, "model.target.latency_util")
# a write into the cache waits for no service time (only the kernel's path)
ok = within("burst: write latency p50 into the cache (us)", m(c, 0, "burst", "lat_p50_us"), 0, 5000)
# the drain starts with the first write: the step (writes + fdatasync)
# lasts at least 128 x 5 ms, and the slot was busy exactly that long
ok &= within("burst: the step, writes + fdatasync (s)", m(c, 0, "burst", "seconds"), 0.640, 1e9)
# (the model also serves what else reaches the device in the step: the
# file system's journal, a neighbour's sync(); the monitor counts them)
other = max(0.0, m(c, 0, "burst", "disk_w_iops") * m(c, 0, "burst", "seconds") - 128)
ok &= within("burst: busy draining (s)", busy("burst"), 0.640 * 0.97, (0.640 + other * 0.005) * 1.03)
# the flush waits for what the writes left in the cache: at least the
# drain's 0.640 s less the time the writes themselves took (a starved
# writer leaves less)
wrote = m(c, 0, "burst", "seconds") - m(c, 0, "burst", "sync_s")
ok &= within("burst: of which the fdatasync (s)", m(c, 0, "burst", "sync_s"), (0.640 - wrote) * 0.97, 1e9)
# 512 writes: the first 256 fill the cache, each of the others waits for
# one write to drain; 256 are still cached when the step ends
ok &= within("over: the step (s)", m(c, 0, "over", "seconds"), 1.28, 1e9)
# busy draining: 256 x 5 ms when the writes keep up with the drain; a
# starved writer lets more drain within the step (up to all 512)
ok &= within("over: busy draining (s)", busy("over"), 1.28 * 0.97, 2.56 * 1.03)
print("over: the step took %.3f s (model 1.28 s when the writes keep up)" % m(c, 0, "over", "seconds"))
sys.exit(0 if ok else 1)
PY
	;;
cleanup)
	# without its server: a clear error, nothing left behind
	cat >"$t/nos.yaml" <<'Y'
name: latdev-noserver
target: {kind: loop, size: 64MiB, fs: ext4, model: {latency: {write_us: 1ms}}}
steps:
  - {name: w, exec: "true"}
Y
	BENCHGRID_LATDEV=$t/no-such-server "$bg" run -q -o "$t/nos.out" --work-dir "$t" "$t/nos.yaml" >"$t/nos.log" 2>&1
	if grep -q "latency model: its server $t/no-such-server is missing" "$t/nos.log" "$t/nos.out/results.json" 2>/dev/null; then
		echo "ok   without the server: a clear error"
	else
		echo "FAIL: no clear error without the server: $(tail -3 "$t/nos.log")"
		fail=1
	fi
	nothing_left
	cat >"$t/k.yaml" <<'Y'
name: latdev-kill
target: {kind: loop, size: 64MiB, fs: ext4, model: {latency: {write_us: 1ms}}}
steps:
  - name: wait
    exec: "sleep 60"
Y
	"$bg" run -q -o "$t/k.out" --work-dir "$t" "$t/k.yaml" >"$t/k.log" 2>&1 &
	pid=$!
	for _ in $(seq 300); do
		[[ -n $(own_servers) && -n $(own_loops) ]] && pgrep -f "sleep 60" >/dev/null && break
		sleep 0.1
	done
	[[ -n $(own_servers) ]] || { echo "FAIL: no server started"; cat "$t/k.log"; fail=1; }
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	[[ -n $(own_servers) && -n $(own_mounts) ]] || { echo "FAIL: the server died with benchgrid"; fail=1; }
	"$bg" cleanup >"$t/cleanup.log" 2>&1 || { echo "FAIL: cleanup: $(cat "$t/cleanup.log")"; fail=1; }
	sleep 0.2
	nothing_left
	[[ $fail -eq 0 ]] && echo "ok   kill -9 + cleanup: server ended, FUSE mount and loop device gone"
	;;
*)
	echo "unknown part $part"
	exit 2
	;;
esac
[[ $part == cleanup ]] || nothing_left
exit $fail
