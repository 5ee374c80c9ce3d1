#!/usr/bin/env bash
# Mixed I/O per direction against fio (issue 27, item 2): a 70/30 randrw in
# both tools, in alternating pairs (fio, benchgrid, fio, benchgrid, ...) on
# the same file system with the same options; each direction's IOPS ratio
# benchgrid/fio is taken per pair and the median of the pair ratios must be
# near 1, so a busy machine moves both of a pair alike. The read share of
# each run must be the mix (70%). Skipped without fio.
set -u
bg=${BENCHGRID:?}
command -v fio >/dev/null || {
	echo "SKIP: fio is not installed"
	exit 77
}
t=$(mktemp -d /var/tmp/bg-rwfio.XXXXXX) # a disk file system: O_DIRECT
trap 'rm -rf "$t"' EXIT
export BENCHGRID_STATE=$t/state BENCHGRID_STORE=$t/store.db
mkdir -p "$t/w" "$t/data"
cat >"$t/rw.yaml" <<Y
name: rw-split
target: {kind: dir, path: $t/data}
steps:
  - name: rw
    io: {rw: randrw, mix: 70, bs: 4KiB, size: 32MiB, direct: true, engine: psync, runtime: 1s, time_based: true}
Y
pairs=5
for i in $(seq 1 $pairs); do
	fio --name=rw --filename="$t/data/fio.dat" --size=32M --rw=randrw --rwmixread=70 --bs=4k \
		--direct=1 --ioengine=psync --runtime=1 --time_based --output-format=json \
		--output="$t/fio.$i.json" >/dev/null 2>&1 || {
		echo "FAIL fio run $i"
		exit 1
	}
	"$bg" run -q --work-dir "$t/w" -o "$t/bg.$i" "$t/rw.yaml" || {
		echo "FAIL benchgrid run $i"
		exit 1
	}
done
python3 - "$t" "$pairs" <<'PY'
import json, statistics, sys
t, n = sys.argv[1], int(sys.argv[2])
ratios = {"read": [], "write": []}
for i in range(1, n + 1):
    job = json.load(open(f"{t}/fio.{i}.json"))["jobs"][0]
    m = json.load(open(f"{t}/bg.{i}/results.json"))["cells"][0]["reps"][0][0]["metrics"]
    share = m["read.iops"]["value"] / m["iops"]["value"]
    fshare = job["read"]["iops"] / (job["read"]["iops"] + job["write"]["iops"])
    assert 0.66 < share < 0.74 and 0.66 < fshare < 0.74, (share, fshare)
    for d in ratios:
        ratios[d].append(m[f"{d}.iops"]["value"] / job[d]["iops"])
    print(f"     pair {i}: fio read {job['read']['iops']:.0f} write {job['write']['iops']:.0f}, "
          f"benchgrid read {m['read.iops']['value']:.0f} write {m['write.iops']['value']:.0f}")
ok = True
for d, r in ratios.items():
    med = statistics.median(r)
    print(f"{'ok  ' if 0.67 < med < 1.5 else 'FAIL'} {d}.iops benchgrid/fio: pair ratios "
          f"{[round(x, 2) for x in r]}, median {med:.2f} (bounds 0.67..1.5)")
    ok &= 0.67 < med < 1.5
print("ok   read share 70% +- 4 in every run of both tools")
sys.exit(0 if ok else 1)
PY
