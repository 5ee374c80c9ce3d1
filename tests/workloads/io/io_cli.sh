#!/usr/bin/env bash
# The io step through the CLI: a matrix over engine x rw runs, every cell has
# the documented metrics, the engine it asked for, and mb_s/iops time
# series in results.json; a bad option is reported by `check` with its
# position; a full filesystem fails the cell with the file and byte count.
#   io_cli.sh         everything but the full filesystem
#   io_cli.sh full    the full filesystem (a tmpfs: root only; exit 77,
#                     skipped, where it cannot be mounted)
set -u
part=${1:-main}
bg=${BENCHGRID:?}
t=$(mktemp -d)
mnt=""
cleanup() {
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	rm -rf "$t"
}
trap cleanup EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

full_fs() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: full filesystem: needs root (mounts a tmpfs)"; exit 77; }
	mnt=$t/small
	mkdir -p "$mnt"
	mount -t tmpfs -o size=1m tmpfs "$mnt" || { mnt=""; echo "SKIP: full filesystem: cannot mount a tmpfs"; exit 77; }
	cat >"$t/full.yaml" <<YAML
benchgrid: 1
name: io-full
target: {kind: dir, path: $mnt}
steps:
  - name: fill
    io: {rw: write, bs: 64k, size: 8MiB}
YAML
	"$bg" run "$t/full.yaml" -o "$t/out2" >"$t/full.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ] && grep -q "benchgrid-io.dat: No space left on device after [0-9]* bytes written" "$t/full.log"; then
		ok "full filesystem"
	else
		bad "full filesystem (exit $rc)"
		cat "$t/full.log"
	fi
}

if [ "$part" = full ]; then
	full_fs
	exit $fail
fi

mkdir -p "$t/work"
cat >"$t/s.yaml" <<YAML
benchgrid: 1
name: io-cli
matrix:
  engine: [io_uring, psync]
  rw: [write, randread, randrw]
target: {kind: dir, path: $t/work}
steps:
  - name: io
    io: {rw: "\${rw}", engine: "\${engine}", bs: 4k, size: 4MiB, iodepth: 8,
         runtime: 400ms, time_based: true, interval: 100ms, sync: end, direct: true}
YAML
if "$bg" run "$t/s.yaml" -o "$t/out" >"$t/run.log" 2>&1; then ok "run"; else bad "run"; cat "$t/run.log"; fi
python3 - "$t/out/results.json" <<'EOP' && ok "results.json" || bad "results.json"
import json, os, sys
d = json.load(open(sys.argv[1]))
want = {"bytes", "seconds", "mb_s", "mib_s", "iops", "lat_mean_us", "lat_min_us", "lat_p50_us",
        "lat_p90_us", "lat_p99_us", "lat_p999_us", "lat_max_us", "cpu_usr", "cpu_sys", "sync_s"}
if os.path.exists("/proc/thread-self/schedstat"):
    want.add("cpu_wait_s")
assert len(d["cells"]) == 6, len(d["cells"])
for c in d["cells"]:
    assert c["status"] == "ok", c
    s = c["reps"][0][0]
    # the io metrics exactly; the runner's system monitor adds sys_* and disk_*
    own = {m for m in s["metrics"] if not m.startswith(("sys_", "disk_"))}
    # randrw adds each direction's figures (read.*, write.*), fio's sections
    dirs = {f"{d}.{m}" for d in ("read", "write") for m in want - {"seconds", "cpu_usr", "cpu_sys", "sync_s", "cpu_wait_s"}}
    assert own == (want | dirs if c["params"]["rw"] == "randrw" else want), sorted(s["metrics"])
    assert s["info"]["engine"] == c["params"]["engine"], (s["info"], c["params"])
    # 400 ms, plus the I/Os in flight at the deadline (on a disk another
    # test is loading, one direct write can take a second: seen in CI), plus
    # the time the job threads waited for a CPU (a loaded machine can hold
    # one off after the deadline)
    m = s["metrics"]
    secs = m["seconds"]["value"]
    late = m["lat_max_us"]["value"] / 1e6 + m["sync_s"]["value"] + m.get("cpu_wait_s", {"value": 0})["value"]
    assert 0.36 <= secs <= 0.44 + late, (c["params"], secs, late)
    # one point per 100 ms interval: each due at the next multiple of 0.1 s
    # after the one before (a late sampler skips a multiple it passed), never
    # early, late by under half an interval in the lower median (of 2 or 3
    # points, one wake-up late on a loaded machine must not decide; a
    # sampler at twice the interval is late by one every time); the last
    # point is the partial interval at the end
    for name in ("mb_s", "iops"):
        ts = s["series"][name]["t"]
        assert 1 <= len(ts) <= secs / 0.1 + 1, (name, ts, secs)
        prev, lates = 0.0, []
        for x in ts[:-1]:
            due = (int(prev / 0.1 + 1e-9) + 1) * 0.1
            assert x >= due - 1e-6, (name, ts)
            lates.append(x - due)
            prev = x
        assert not lates or sorted(lates)[(len(lates) - 1) // 2] < 0.05, (name, ts)
    assert s["metrics"]["iops"]["value"] > 0
    if c["params"]["rw"] == "randread":
        assert s["metrics"]["sync_s"]["value"] == 0  # nothing written, nothing to sync
EOP

cat >"$t/bad.yaml" <<YAML
benchgrid: 1
name: io-bad
steps:
  - name: io
    io: {rw: randwrite, bs: 4k, iodeph: 8}
YAML
"$bg" check "$t/bad.yaml" >"$t/check.log" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "bad.yaml:5:33: error: io: unknown key 'iodeph'; did you mean 'iodepth'?" "$t/check.log"; then
	ok "check reports the position"
else
	bad "check (exit $rc)"
	cat "$t/check.log"
fi

exit $fail
