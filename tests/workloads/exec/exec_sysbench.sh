#!/usr/bin/env bash
# parse: sysbench on real sysbench runs through an exec step (`benchgrid
# run`): cpu and fileio for a second or two each; the metrics in
# results.json must be the numbers sysbench itself printed in the step's
# saved stdout (read here with awk, independently of the Lua parser).
# sysbench comes from scripts/setup; without it the test is skipped (77).
set -u
bg=${BENCHGRID:?}
command -v sysbench >/dev/null || { echo "SKIP: no sysbench (scripts/setup installs it)"; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/work"
chmod 777 "$t/work"
cat >"$t/s.yaml" <<YAML
benchgrid: 1
name: exec-sysbench
target: {kind: dir, path: $t/work}
steps:
  - name: cpu
    exec: {command: "sysbench cpu --threads=2 --time=2 --percentile=99 run", parse: sysbench}
  - name: prep
    exec: {command: "sysbench fileio --file-total-size=16M --file-num=2 prepare"}
  - name: fileio
    exec:
      command: "sysbench fileio --file-total-size=16M --file-num=2 --file-test-mode=rndrw --time=2 run"
      parse: sysbench
  - name: clean
    exec: {command: "sysbench fileio --file-total-size=16M --file-num=2 cleanup"}
YAML
if ! "$bg" run -q -o "$t/out" "$t/s.yaml" >"$t/log" 2>&1; then
	echo "FAIL: benchgrid run"; cat "$t/log"; exit 1
fi
cell=$(ls -d "$t"/out/cells/*/ | head -1)
# sysbench's own numbers: "name value" lines, from its printed report
own() {
	awk '
	/events per second:/ {print "events_s", $4}
	/total number of events:/ {print "events", $5}
	/^ *min:/ {print "lat_min_ms", $2}
	/^ *avg:/ {print "lat_mean_ms", $2}
	/^ *max:/ {print "lat_max_ms", $2}
	/th percentile:/ {sub("th", "", $1); print "lat_p" $1 "_ms", $3}
	/^ *reads\/s:/ {print "reads_s", $2}
	/^ *writes\/s:/ {print "writes_s", $2}
	/^ *fsyncs\/s:/ {print "fsyncs_s", $2}
	/read, MiB\/s:/ {print "read_mib_s", $3}
	/written, MiB\/s:/ {print "write_mib_s", $3}
	/total time:/ {sub("s$", "", $3); print "total_time_s", $3}' "$1"
}
own "$cell/cpu.stdout" >"$t/cpu.own"
own "$cell/fileio.stdout" >"$t/fileio.own"
python3 - "$t/out/results.json" "$t/cpu.own" "$t/fileio.own" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
c = d["cells"][0]
assert c["status"] == "ok", c
s = {x["step"]: x["metrics"] for x in c["summary"]}
need = {"cpu": ["events_s", "events", "lat_p99_ms", "lat_mean_ms", "total_time_s"],
        "fileio": ["reads_s", "writes_s", "fsyncs_s", "read_mib_s", "write_mib_s", "lat_p95_ms", "events"]}
for step, path in (("cpu", sys.argv[2]), ("fileio", sys.argv[3])):
    own = dict(l.split() for l in open(path))
    for k in need[step]:
        assert k in own, (step, k, "sysbench printed no such number")
    for k, v in own.items():
        got = s[step][k]["value"]
        assert abs(got - float(v)) <= 1e-9 * max(1, abs(float(v))), (step, k, got, v)
    print("ok", step, len(own), "numbers as sysbench printed them")
f = s["fileio"]
assert abs(f["iops"]["value"] - (f["reads_s"]["value"] + f["writes_s"]["value"])) < 1e-6
assert f["reads_s"]["value"] > 0 and s["cpu"]["events_s"]["value"] > 0
PY
echo PASS
