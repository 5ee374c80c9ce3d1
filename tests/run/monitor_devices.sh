#!/usr/bin/env bash
# The system monitor samples every device of a cell: a real cell with two
# loop targets (main and wal), driven by `benchgrid run`, writes only to the
# wal target; its figures must show in disk.wal.*, not in the main target's
# disk_*, the disk under both images must be sampled as disk.under.KNAME.*,
# the cell facts devices.* must name the devices, and report.md must carry
# the Devices legend. Afterwards no loop device or mount of ours remains.
set -u
bg=${BENCHGRID:?}
[[ $(id -u) -eq 0 && -e /dev/loop-control ]] || { echo "skip: needs root and loop devices"; exit 77; }
t=$(mktemp -d /var/tmp/bg-monitor-devices.XXXXXX)
trap 'rm -rf "$t"' EXIT
# 8 rounds of 16 MiB direct writes with fsync, 0.3 s apart: about 3 s, so
# the 1 s series has points
cat >"$t/s.yaml" <<'Y'
name: monitor-devices
target: {kind: loop, size: 96MiB, fs: ext4}
targets:
  wal: {kind: loop, size: 96MiB, fs: ext4}
steps:
  - name: walwrite
    exec: {command: "for i in 1 2 3 4 5 6 7 8; do dd if=/dev/zero of=${targets.wal.path}/f bs=1M count=16 oflag=direct conv=fsync status=none || exit 1; sleep 0.3; done"}
Y
"$bg" run -q -o "$t/out" --work-dir "$t" "$t/s.yaml"
rc=$?
fail=0
python3 - "$t/out" <<'PY' || fail=1
import csv, json, os, sys
out = sys.argv[1]
r = json.load(open(os.path.join(out, "results.json")))
c = r["cells"][0]
assert c["status"] == "ok", c.get("error")
facts = c["facts"]["info"]
dev = {k: v for k, v in facts.items() if k.startswith("devices.")}
print("facts:", json.dumps(dev, indent=1))
assert facts["devices.disk"].startswith("/dev/loop"), dev
assert "(target main: ext4 on loop image " in facts["devices.disk"], dev
assert facts["devices.disk.wal"].startswith("/dev/loop"), dev
assert "(target wal: ext4 on loop image " in facts["devices.disk.wal"], dev
assert facts["devices.disk"].split()[0] != facts["devices.disk.wal"].split()[0]
under = [k for k in dev if k.startswith("devices.disk.under.")]
assert len(under) == 1, dev  # both images are in one directory: one disk
kname = under[0][len("devices.disk.under."):]
assert dev[under[0]] == "/dev/%s (under the loop images of main, wal)" % kname, dev
step = {s["name"]: s for s in c["reps"][0]}["walwrite"]
m = step["metrics"]
el = step["elapsed"]
wal_mb = m["disk.wal.write_mb_s"]["value"]
main_mb = m["disk_write_mb_s"]["value"]
und_mb = m["disk.under.%s.write_mb_s" % kname]["value"]
print("elapsed %.2f s: disk.wal.write_mb_s %.2f, disk_write_mb_s %.3f, disk.under.%s.write_mb_s %.2f, "
      "disk.wal.util_pct %.1f, disk_util_pct %.1f" % (el, wal_mb, main_mb, kname, und_mb,
      m["disk.wal.util_pct"]["value"], m["disk_util_pct"]["value"]))
# 128 MiB went to the wal device during the step (a little more: ext4 metadata)
assert wal_mb * el * 1e6 > 0.95 * 128 * 2**20, wal_mb
assert main_mb * el * 1e6 < 1e6, main_mb  # under 1 MB on the idle main target
assert m["disk.wal.w_iops"]["value"] > 0
for q in ["util_pct", "await_ms", "r_await_ms", "w_await_ms", "aqu_sz", "read_mb_s", "write_mb_s",
          "r_iops", "w_iops"]:
    for col in ["disk_" + q, "disk.wal." + q, "disk.under.%s.%s" % (kname, q)]:
        assert col in m, col
        assert col in step["series"], col
# the loop devices' writes reach the disk under them (fsync on the images)
assert und_mb * el * 1e6 > 0.5 * 128 * 2**20, und_mb
info = step["info"]
assert info["monitor.device"].startswith(facts["devices.disk"].split()[0][5:] + " ("), info
assert info["monitor.disk.wal"].startswith(facts["devices.disk.wal"].split()[0][5:] + " ("), info
assert "warning" not in info, info
# timeseries.csv has the new columns
rows = list(csv.DictReader(open(os.path.join(out, "timeseries.csv"))))
cols = set(rows[0].keys()) if rows else set()
print("timeseries.csv:", len(rows), "rows")
wal_pts = [float(x["disk.wal.write_mb_s"]) for x in rows if x["step"] == "walwrite" and x.get("disk.wal.write_mb_s")]
assert wal_pts and max(wal_pts) > 0, sorted(cols)
# report.md: the Devices legend
md = open(os.path.join(out, "report.md")).read()
assert "## Devices" in md
legend = md[md.index("## Devices"):md.index("## Steps")]
print(legend)
for prefix, fact in [("`disk_*`", "devices.disk"), ("`disk.wal.*`", "devices.disk.wal"),
                     ("`disk.under.%s.*`" % kname, under[0])]:
    row = "| %s | %s | %s |" % (prefix, dev[fact].split(" (")[0], dev[fact].split(" (", 1)[1][:-1])
    assert row in legend, row
print("ok: wal I/O in disk.wal.*, none in disk_*, disk.under.%s sampled, facts and legend" % kname)
PY
[[ $rc -eq 0 ]] || { echo "run exit status $rc"; fail=1; }
# Only our own images count: other tests may hold loop devices meanwhile.
if losetup -a | grep -F "$t/"; then echo "loop devices left"; fail=1; fi
if grep -q " $t" /proc/self/mountinfo; then echo "mounts left"; fail=1; fi
[[ $fail -eq 0 ]] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $fail
