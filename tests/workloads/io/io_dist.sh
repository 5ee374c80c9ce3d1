#!/usr/bin/env bash
# random_distribution and bssplit through the CLI, on real files: a zipf
# randread and a normal randrw (io_uring), a bssplit sequential write and a
# zoned randwrite with a split (psync); every cell ok with its metrics, and
# the bytes and I/O counts of a two-size split match its shares (chi-square,
# 1 degree of freedom, p = 0.001). With fio installed, the same zipf:1.2
# randread on fio for comparison is not needed: the generators are checked
# against fio-genzipf in tests/workloads/io/test_io_dist.c.
set -u
bg=${BENCHGRID:?}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

mkdir -p "$t/work"
cat >"$t/s.yaml" <<YAML
benchgrid: 1
name: io-dist
target: {kind: dir, path: $t/work}
steps:
  - name: zipf
    io: {rw: randread, random_distribution: "zipf:1.2", bs: 4k, size: 16MiB, io_size: 32MiB,
         iodepth: 16, direct: true}
  - name: normal
    io: {rw: randrw, mix: 70, random_distribution: "normal:5%", bs: 4k, size: 16MiB,
         io_size: 16MiB, iodepth: 8}
  - name: split
    io: {rw: write, bssplit: 4k/70:64k/30, size: 16MiB, io_size: 64MiB, iodepth: 8,
         direct: true, sync: end}
  - name: zoned
    io: {rw: randwrite, engine: psync, bssplit: 4k/50:16k/50,
         random_distribution: "zoned:60/10:30/20:10/70", size: 16MiB, io_size: 16MiB}
YAML
if "$bg" check "$t/s.yaml" >"$t/check.log" 2>&1; then ok "check"; else bad "check"; cat "$t/check.log"; fi
if "$bg" run "$t/s.yaml" -o "$t/out" >"$t/run.log" 2>&1; then ok "run"; else bad "run"; cat "$t/run.log"; fi
python3 - "$t/out/results.json" <<'EOP' && ok "results: metrics, and the split's bytes and I/Os" || bad "results"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["cells"][0]
assert c["status"] == "ok", c
steps = {s["step"] if "step" in s else s["name"]: s for s in c["reps"][0]}
for name in ("zipf", "normal", "split", "zoned"):
    m = steps[name]["metrics"]
    for k in ("bytes", "iops", "lat_p50_us", "lat_p99_us", "mb_s"):
        assert m[k]["value"] > 0, (name, k, m[k])
z = steps["zipf"]["metrics"]
assert z["bytes"]["value"] == 32 << 20, z["bytes"]
assert round(z["iops"]["value"] * z["seconds"]["value"]) == 8192
for name, small, large, share in (("split", 4096, 65536, 0.3), ("zoned", 4096, 16384, 0.5)):
    m = steps[name]["metrics"]
    b = m["bytes"]["value"]
    n = round(m["iops"]["value"] * m["seconds"]["value"])
    nl = (b - small * n) / (large - small)
    assert abs(nl - round(nl)) < 1e-6 and 0 <= nl <= n, (name, b, n, nl)
    e = share * n
    chi = (nl - e) ** 2 / e + (nl - e) ** 2 / (n - e)
    print(f"{name}: {n} I/Os, {nl:.0f} of {large} bytes ({100 * nl / n:.1f}%, want {100 * share:.0f}%), chi2 {chi:.2f}")
    assert chi < 10.83, chi
EOP

cat >"$t/bad.yaml" <<YAML
benchgrid: 1
name: io-bad
steps:
  - name: io
    io: {rw: randread, random_distribution: "zipf:0", bssplit: 4k/50:8k/40}
YAML
"$bg" check "$t/bad.yaml" >"$t/bad.log" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "bad.yaml:5:45: error: io.random_distribution: zipf theta must be > 0" "$t/bad.log" &&
	grep -q "error: io.bssplit: the percentages add up to 90, not 100" "$t/bad.log"; then
	ok "check reports both with positions"
else
	bad "check (exit $rc)"
	cat "$t/bad.log"
fi
exit $fail
