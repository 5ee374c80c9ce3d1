#!/usr/bin/env bash
# Device models (`model:` on loop targets) against the real kernel: block
# throttling in the root blkio cgroup (cgroup v1), loop devices, ext4,
# PostgreSQL. One part per CTest test (cmake/modules/devmodel.cmake):
#   io       write_bps met within 5% by the io step (sequential O_DIRECT writes)
#   dd       ... and by `dd conv=fdatasync` through an exec step
#   pg       ... and by PostgreSQL's WAL (pg_wal on the modelled target)
#   cache    the cache model: fast until `size`, then `then:`, back after idle
#   keep     cache.keep_state carries the cache's state to the next cell
#   setup    limits are lifted for setup (model_during: steps) and not with
#            model_during: all
#   cleanup  `benchgrid cleanup` removes a limit left by kill -9 of a run
#   v2       the cgroup-v2 io.max path (exit 77 where the io controller is
#            not available: the run must then fail with a clear error)
# Exit 77 (skipped) without root, loop devices or the backend.
set -u
part=${1:?part}
bg=${BENCHGRID:?}
[[ $(id -u) -eq 0 && -e /dev/loop-control ]] || { echo "skip: needs root and loop devices"; exit 77; }
V1=/sys/fs/cgroup/blkio
if [[ $part != v2 && ! -w $V1/blkio.throttle.write_bps_device ]]; then
	echo "skip: no cgroup-v1 blkio throttling at $V1"
	exit 77
fi
t=$(mktemp -d /var/tmp/bg-devmodel.XXXXXX)
chmod 711 "$t" # a server runs as postgres and must pass through
export BENCHGRID_STATE=$t/state
fail=0

# Loop devices backed by an image in $t, as MAJ:MIN.
own_devs() {
	local f
	for f in /sys/block/loop*/loop/backing_file; do
		case "$(cat "$f" 2>/dev/null)" in
		"$t"/*) cat "${f%/loop/backing_file}/dev" ;;
		esac
	done
}
# Throttling rules of our loop devices still in place.
own_rules() {
	local mm
	for mm in $( (own_devs; cat "$t/devs" 2>/dev/null) | sort -u); do
		grep -h "^$mm " $V1/blkio.throttle.*_device 2>/dev/null
	done
}
finish() {
	local mm f
	for mm in $(own_devs) $(cat "$t/devs" 2>/dev/null); do
		for f in $V1/blkio.throttle.*_device; do echo "$mm 0" >"$f" 2>/dev/null; done
	done
	"$bg" cleanup >/dev/null 2>&1
	rm -rf "$t"
}
trap finish EXIT

# run NAME YAML...: benchgrid run of a scenario given on stdin; status in $rc.
run() {
	cat >"$t/$1.yaml"
	"$bg" run -q -o "$t/$1.out" --work-dir "$t" "$t/$1.yaml" >"$t/$1.log" 2>&1
	rc=$?
	[[ $rc -eq 0 ]] || { echo "run $1: exit status $rc"; cat "$t/$1.log"; fail=1; }
}

# check NAME: python over results.json ($t/NAME.out) given on stdin, with
# r (results), c (first cell), steps (name -> step of the first rep), LIMIT().
check() {
	python3 - "$t/$1.out/results.json" <<PY || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
c = r["cells"][0]
assert c["status"] == "ok", c.get("error")
steps = {s["name"]: s for s in c["reps"][0]}
facts = c["facts"]["info"]
def within(what, got, want, tol=0.05):
    ok = abs(got - want) <= tol * want
    print("%s %s: %.0f B/s vs the limit %.0f (%+.1f%%)" % ("ok  " if ok else "FAIL", what, got, want, 100.0 * (got / want - 1)))
    assert ok
$(cat)
PY
}

left_behind() {
	if [[ -n $(own_rules) ]]; then echo "FAIL: limits left: $(own_rules)"; fail=1; fi
	if [[ -s $BENCHGRID_STATE ]] && grep -q '^P' "$BENCHGRID_STATE"; then
		# every pushed action must be marked done
		python3 - "$BENCHGRID_STATE" <<'PY' || fail=1
import sys
p, d = {}, set()
for l in open(sys.argv[1]):
    w = l.split()
    if w[0] == "P": p[w[1]] = l.strip()
    elif w[0] == "D": d.add(w[1])
left = [v for k, v in p.items() if k not in d]
assert not left, "journal entries left: %s" % left
PY
	fi
}

case $part in
io)
	run io <<'Y'
name: devmodel-io
target: {kind: loop, size: 256MiB, fs: ext4, model: {write_bps: 10MB}}
steps:
  - name: w
    io: {rw: write, bs: 1MiB, size: 80MiB, direct: true}
Y
	check io <<'PY'
within("io step, O_DIRECT 1 MiB writes", steps["w"]["metrics"]["mb_s"]["value"] * 1e6, 10 * 2**20)
assert facts["model.target.write_bps"] == str(10 * 2**20), facts
assert facts["model.target.backend"].startswith("cgroup1-blkio"), facts
assert facts["model.target.during"] == "steps"
PY
	;;
dd)
	run dd <<'Y'
name: devmodel-dd
target: {kind: loop, size: 256MiB, fs: ext4, model: {write_bps: 10MB}}
steps:
  - name: dd
    exec: {command: [dd, if=/dev/zero, of=dd.dat, bs=1M, count=80, conv=fdatasync], parse: dd}
Y
	check dd <<'PY'
within("dd conv=fdatasync", steps["dd"]["metrics"]["mb_s"]["value"] * 1e6, 10 * 2**20)
PY
	;;
pg)
	command -v pg_config >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 ||
		{ echo "skip: no PostgreSQL"; exit 77; }
	id postgres >/dev/null 2>&1 || { echo "skip: no postgres user"; exit 77; }
	# The WAL on a 4 MB/s device; the data on an unmodelled one. Bulk inserts
	# (~0.3 MB of WAL each, 4 clients) ask for far more than 4 MB/s, so the
	# WAL writes saturate the limit; the device's own write counters between
	# two exec steps give the rate. No checkpoint in 15 s (max_wal_size).
	# On a loaded machine the clients may not make WAL that fast: the share
	# of the backends' sampled waits that are waits for the WAL to reach the
	# device (pg_wait.*: WALWrite, WALSync, ...; never above the chance that
	# some backend waits, i.e. that the throttle has a queue) bounds the
	# rate from below; it is 1 when the limit binds.
	run pg <<'Y'
name: devmodel-pg
targets:
  wal: {kind: loop, size: 1GiB, fs: ext4, model: {write_bps: 4MB}}
postgres:
  wal_dir: wal
  settings: {shared_buffers: 64MB, max_wal_size: 2GB, checkpoint_timeout: 30min, wal_compression: "off"}
steps:
  - name: table
    pgbench: {script: "CREATE TABLE IF NOT EXISTS bulk (a int, b text);", transactions: 1}
  - name: before
    exec: "d=$(basename $(findmnt -no SOURCE ${targets.wal.path})); echo $(date +%s.%N) $(awk '{print $7}' /sys/class/block/$d/stat) > ${cell.dir}/before"
  - name: load
    pgbench: {script: "INSERT INTO bulk SELECT g, repeat('x', 100) FROM generate_series(1, 2000) g;", clients: 4, duration: 15s}
  - name: after
    exec: "d=$(basename $(findmnt -no SOURCE ${targets.wal.path})); echo $(date +%s.%N) $(awk '{print $7}' /sys/class/block/$d/stat) > ${cell.dir}/after"
Y
	check pg <<'PY'
import os
cd = os.path.join(os.path.dirname(sys.argv[1]), "cells", c["id"])
t0, s0 = map(float, open(os.path.join(cd, "before")).read().split())
t1, s1 = map(float, open(os.path.join(cd, "after")).read().split())
load = steps["load"]["metrics"]
# The WAL is written during the load step only (its 15 s and the drain of
# the throttled commits): over the step's own seconds, not the markers',
# whose interval also holds the step's start and end (1.8 s once in CI).
dt = steps["load"]["elapsed"]
print("     load: %.1f tps, WAL %.0f bytes by pg_stat_wal in %.2f s (markers %.2f s apart)" % (load["tps"]["value"], load.get("wal_bytes", {}).get("value", 0), dt, t1 - t0))
rate, limit = (s1 - s0) * 512 / dt, 4 * 2**20
waits = {k[len("pg_wait."):]: v["value"] for k, v in load.items() if k.startswith("pg_wait.")}
busy = [n for k, n in waits.items() if not k.startswith("Activity.")]
wal = [n for k, n in waits.items() if k.split(".")[0] in ("IO", "LWLock") and "WAL" in k and k != "LWLock.WALInsert"]
share = sum(wal) / sum(busy) if busy else 0
print("     backends' waits: %s; for the WAL device %.0f%%" % (waits, 100 * share))
if share >= 0.95:
    within("WAL device writes during the load", rate, limit)
else:
    # never above the limit; below it by no more than the share of time
    # nothing waited on the device
    ok = limit * share * 0.95 <= rate <= limit * 1.05
    print("%s WAL device writes during the load: %.0f B/s vs the limit %.0f, the WAL device waited on %.0f%% "
          "of the time: allowed %.0f..%.0f" % ("ok  " if ok else "FAIL", rate, limit, 100 * share,
                                               limit * share * 0.95, limit * 1.05))
    assert ok
if "wal_bytes" in load:
    print("     pg_stat_wal: %.0f B/s" % (load["wal_bytes"]["value"] / dt))
PY
	;;
cache)
	# 64 MiB of cache at 100 MB/s, then 10 MB/s; after 3 s of idle (refill
	# 50 MB/s) the next writes are fast again.
	run cache <<'Y'
name: devmodel-cache
target:
  kind: loop
  size: 512MiB
  fs: ext4
  model: {write_bps: 100MB, cache: {size: 64MiB, then: {write_bps: 10MB}, refill_bps: 50MB}}
steps:
  - name: fill
    io: {rw: write, bs: 1MiB, size: 128MiB, direct: true}
  - name: idle
    exec: "sleep 3"
  - name: again
    io: {rw: write, bs: 1MiB, size: 32MiB, direct: true, file: again.dat}
Y
	check cache <<'PY'
MiB = 2**20
fill, idle, again = steps["fill"], steps["idle"], steps["again"]
s = fill["series"]["model.target.cache_full"]
t, v = s["t"], s["v"]
print("     fill: cache_full series t=%s v=%s" % ([round(x, 2) for x in t], v))
assert v[0] == 0 and v[-1] == 1, v
t_sw = t[v.index(1)]
el = fill["elapsed"]
# The bytes written at the fast limits until the switch: the cache's 64 MiB
# plus what the last poll period wrote past it, at most 100 MB/s over that
# period (+ 1 MiB in flight); a loaded machine makes the period longer.
fm = fill["metrics"]
fast, gap = fm["model.target.cache_fill_mib"]["value"] * MiB, fm["model.target.cache_fill_poll_s"]["value"]
print("     fill: switch after %.2f s, %.1f MiB written fast (cache 64 MiB; poll period %.3f s), %.1f MB/s overall"
      % (t_sw, fast / MiB, gap, fm["mb_s"]["value"]))
assert 64 * MiB <= fast <= 64 * MiB + 100e6 * gap * 1.05 + MiB, (fast, gap)
# After the switch the device writes at the `then:` limit: what it wrote
# (the monitor's series, intervals that began after the switch) is the
# throttle's rate. The step gets that less what the file system writes
# beside it (its journal: ~8 % idle, ~11 % when a neighbour's sync() commits
# it more often), so the step's own rate is bounded above only.
dw = fill["series"]["disk_write_mb_s"]
after = [v for t0, v in zip([0] + dw["t"][:-1], dw["v"]) if t0 >= t_sw]
assert len(after) >= 2, dw
device = sum(after) / len(after) * 1e6
within("the device after the cache ran out", device, 10 * MiB, 0.05)
own = (128 * MiB - fast) / (el - t_sw)
print("     fill: the step's own writes after the switch %.0f B/s (%.0f%% of the device's)" % (own, 100 * own / device))
assert own <= 10 * MiB * 1.05, own
assert fill["metrics"]["model.target.cache_switches"]["value"] == 1
si = idle["series"]["model.target.cache_full"]
print("     idle: cache_full v=%s" % si["v"])
assert si["v"][0] == 1 and si["v"][-1] == 0, si
mb = again["metrics"]["mb_s"]["value"]
print("     again: %.1f MB/s (fast again)" % mb)
assert mb > 30, mb
assert facts["model.target.cache.size"] == str(64 * MiB)
assert facts["model.target.cache.then.write_bps"] == str(10 * MiB)
assert int(facts["model.target.cache_switches"]) >= 2
PY
	;;
keep)
	# Two cells on one target: the first (64 MiB) fills the 32 MiB cache (no
	# refill); with keep_state the second (16 MiB) starts full (20 MB/s),
	# without it empty again (100 MB/s).
	for keep in true false; do
		run "keep-$keep" <<Y
name: devmodel-keep-$keep
matrix: {mib: [64, 16]}
target:
  kind: loop
  size: 256MiB
  fs: ext4
  model: {write_bps: 100MB, cache: {size: 32MiB, then: {write_bps: 20MB}, keep_state: $keep}}
steps:
  - name: w
    io: {rw: write, bs: 1MiB, size: "\${mib}MiB", direct: true, file: "w\${mib}.dat"}
Y
		python3 - "$t/keep-$keep.out/results.json" "$keep" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
keep = sys.argv[2] == "true"
c1, c2 = r["cells"]
assert c1["params"]["mib"] in (64, "64"), c1["params"]
w2 = c2["reps"][0][0]
mb = w2["metrics"]["mb_s"]["value"]
full0 = w2["series"]["model.target.cache_full"]["v"][0]
print("     keep_state %s: cell 2 starts %s, %.1f MB/s" % (keep, "full" if full0 else "empty", mb))
if keep:
    assert full0 == 1 and mb < 30, (full0, mb)
else:
    assert full0 == 0 and mb > 50, (full0, mb)
PY
	done
	;;
setup)
	command -v pg_config >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 ||
		{ echo "skip: no PostgreSQL"; exit 77; }
	# The target holding the server, limited: initdb and a scale-1 load
	# (~60 MB to the device, WAL flushes) take about a second unshaped.
	# model_during: steps (1 MB/s) must set up as fast; model_during: all
	# (4 MB/s) must be shaped from the start (about 15 s here).
	for during in steps all; do
		bw=1MB
		[[ $during == all ]] && bw=4MB
		s=$(date +%s.%N)
		run "setup-$during" <<Y
name: devmodel-setup-$during
target: {kind: loop, size: 256MiB, fs: ext4, model: {write_bps: $bw}, model_during: $during}
postgres: {settings: {shared_buffers: 16MB}, init: {scale: 1}, initdb_options: [--no-sync]}
steps:
  - name: nothing
    exec: "true"
Y
		e=$(python3 -c "import time; print(round(time.time() - $s, 1))")
		echo "     model_during: $during ($bw): the run took $e s"
		eval "took_$during=$e"
	done
	python3 - "$took_steps" "$took_all" <<'PY' || fail=1
import sys
steps, all_ = map(float, sys.argv[1:])
# Shaped at 1 MB/s the set-up's ~60 MB would take about 60 s: half of that
# tells a lifted limit from an applied one whatever the machine's load (the
# bound was 10 s of wall time, which a busy neighbour can break).
assert steps < 30, "setup with model_during: steps took %.1f s: the limit was not lifted" % steps
assert all_ > steps + 5, "model_during: all (%.1f s) not slower than steps (%.1f s)" % (all_, steps)
print("ok   setup lifted (%.1f s) vs shaped (%.1f s)" % (steps, all_))
PY
	;;
cleanup)
	cat >"$t/k.yaml" <<'Y'
name: devmodel-kill
target: {kind: loop, size: 64MiB, fs: ext4, model: {write_bps: 5MB, read_iops: 500}}
steps:
  - name: wait
    exec: "sleep 60"
Y
	"$bg" run -q -o "$t/k.out" --work-dir "$t" "$t/k.yaml" >"$t/k.log" 2>&1 &
	pid=$!
	for _ in $(seq 100); do [[ -n $(own_rules) ]] && break; sleep 0.2; done
	own_devs >"$t/devs"
	before=$(own_rules)
	echo "     limits while running: $(echo $before)"
	[[ $(echo "$before" | wc -l) -eq 2 ]] || { echo "FAIL: expected 2 limits"; fail=1; }
	kill -9 $pid
	wait $pid 2>/dev/null
	[[ -n $(own_rules) ]] || { echo "FAIL: the kill -9 left no limit (nothing to test)"; fail=1; }
	"$bg" cleanup >"$t/c.log" 2>&1 || { echo "FAIL: cleanup exit $?"; cat "$t/c.log"; fail=1; }
	if [[ -n $(own_rules) ]]; then echo "FAIL: cleanup left $(own_rules)"; fail=1; else echo "ok   cleanup removed them"; fi
	;;
v2)
	# With v1 hidden (BENCHGRID_BLKIO_ROOT=""), the run must use io.max in
	# its cgroup or fail saying why.
	BENCHGRID_BLKIO_ROOT="" run v2 <<'Y'
name: devmodel-v2
target: {kind: loop, size: 256MiB, fs: ext4, model: {write_bps: 10MB}}
steps:
  - name: dd
    exec: {command: [dd, if=/dev/zero, of=dd.dat, bs=1M, count=80, conv=fdatasync], parse: dd}
Y
	if grep -q "cgroup-v2 io controller is not enabled\|no cgroup v2 for this run" "$t/v2.log"; then
		echo "skip: $(grep -o 'no block throttling.*' "$t/v2.log" | head -1)"
		rm -rf "$t/devs"
		exit 77
	fi
	check v2 <<'PY'
within("dd conv=fdatasync under io.max", steps["dd"]["metrics"]["mb_s"]["value"] * 1e6, 10 * 2**20)
assert facts["model.target.backend"].startswith("cgroup2-io.max"), facts
PY
	;;
*)
	echo "unknown part $part"
	exit 2
	;;
esac
left_behind
[[ $fail -eq 0 ]] && echo "devmodel $part: ok"
exit $fail
