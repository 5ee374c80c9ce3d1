#!/bin/bash
# compare_noise: `compare` must not cry wolf (issue 31). Real runs of one
# unchanged 2-cell scenario (repeat 5, 64 MiB direct writes) were called
# "slower" because the repetitions inside one run vary less than runs do;
# a real slowdown must still fail the gate.
#  1. Two runs of a 2-cell scenario (bs 1 MiB and 256 KiB, repeat 5, 64 MiB
#     direct writes) on a directory of the real disk (/var/tmp, not a
#     tmpfs), with an empty results store: only within-run noise is known,
#     the output says so in the noise line, each verdict line and the table,
#     and `--fail-above 50%` exits 0 whatever the two runs measured.
#  2. The verdicts, on fixed results: copies of run 1's results.json whose
#     metric values are rewritten (python3) to fixed multiples of its first
#     repetition's, recorded in a store of their own with `benchgrid
#     store`, so that every p and ratio is the same on a busy machine as
#     on an idle one: 3 earlier runs (1.00, 1.04, 0.97), A (1.01), two runs
#     of a changed code 2.5x slower made after A (X1, X2), B (0.99), S
#     (0.40) and T (0.40, another configuration: fingerprint). A B exits 0
#     against the store's spread; A S exits 1, and its spread is the 3 runs
#     before A (X1, X2 and B are not A's noise); within-run only
#     (--no-store) it is held (exit 0, "Not failed") unless
#     --trust-within-run-noise (exit 1); T as the baseline has no earlier
#     run of its configuration: within-run only. Several runs per side
#     (F1 F2 -- A B) give their own spread.
#  3. The wiring on real runs: the same cells on a loop device throttled
#     by a device model (30 MiB/s of writes, 16 MiB per write), 3 runs,
#     then A and B unchanged: `benchgrid run` records them, and compare
#     uses the store's spread of the 3 earlier runs (said so in the noise
#     line, the verdict lines and the table). Its verdict is not asserted:
#     a busy host moves throttled rates (review D3). A run given twice,
#     --window 2, an empty side: exit 2.
# Own store in the work folder (CTest's per-test store would keep earlier
# test runs). Exit 77 without root, loop devices or blkio throttling.
set -euo pipefail
: "${BENCHGRID:?}"
[[ $(id -u) -eq 0 && -e /dev/loop-control ]] || { echo "skip: needs root and loop devices"; exit 77; }
if [[ ! -w /sys/fs/cgroup/blkio/blkio.throttle.write_bps_device ]] &&
	! grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	echo "skip: no block throttling (cgroup-v1 blkio or cgroup-v2 io)"
	exit 77
fi
t=$(mktemp -d /var/tmp/bg-cmpnoise-XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$t"' EXIT
[ "$(stat -f -c %T "$t")" != tmpfs ] || { echo "skip: /var/tmp is a tmpfs"; exit 77; }
export BENCHGRID_STATE=$t/state BENCHGRID_STORE=$t/store.db
fail() {
	echo "FAIL: $*" >&2
	[ ! -f "$t/out" ] || sed 's/^/  | /' "$t/out" >&2
	exit 1
}
bg() { "$BENCHGRID" "$@"; }
# status CMD...: the exit status of CMD, output to $t/out and $t/err
status() {
	set +e
	"$@" >"$t/out" 2>"$t/err"
	local rc=$?
	set -e
	echo $rc
}
cnt() { grep -c -e "$1" "$t/out" || true; }

# ---- 1. the real disk, no earlier run: within-run noise only ----
cat >"$t/disk.yaml" <<'Y'
name: crywolf
repeat: 5
matrix:
  bs: [1MiB, 256KiB]
target: {kind: dir}
steps:
  - name: w
    io: {rw: write, bs: "${bs}", size: 64MiB, direct: true}
Y
mkdir -p "$t/w"
bg run --work-dir "$t/w" -q -o "$t/d1" "$t/disk.yaml"
bg run --work-dir "$t/w" -q -o "$t/d2" "$t/disk.yaml"
[ "$(status bg compare --fail-above 50% "$t/d1" "$t/d2")" = 0 ] || fail "unchanged, within-run only: exit 0"
grep -q '^- Noise: \*\*within-run only\*\* for 4 of 4 metrics' "$t/out" || fail "the within-run noise line"
[ "$(cnt '^- [01] `[0-9a-f]*` bs=[0-9]*[KM]iB: .* (within-run noise only)')" = 2 ] ||
	fail "each verdict line names the within-run noise"
[ "$(cnt '| w\.[a-z_0-9]* ([^)]*) | .* | \(U\|Welch\*\) (within run) | ')" = 4 ] || fail "the table's noise column"
grep -q '^- Pass: ' "$t/out" || fail "Pass line"
grep -q 'store: [0-9]* runs' "$t/out" && fail "no store spread without earlier runs"
echo "1: two unchanged runs on the real disk: exit 0 (within-run noise only, not gated)"

# ---- 2. fixed results: the verdicts ----
# fixrun SRC DST START FACTOR [FINGERPRINT]: SRC's results.json with every
# metric of every repetition set to its first repetition's value times
# FACTOR (a rate; a duration divided by it) times a fixed within-run
# jitter, the run (and its cells) started at START.
fixrun() {
	mkdir -p "$2"
	python3 - "$@" <<'PY'
import json, sys
src, dst, start, f = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
fp = sys.argv[5] if len(sys.argv) > 5 else None
r = json.load(open(src + "/results.json"))
jit = [0.0, 0.002, -0.002, 0.001, -0.001]
dur = {"s", "ms", "us", "ns"}
shift = start - r["started"]
r["started"], r["finished"] = start, r["finished"] + shift
for c in r["cells"]:
    c["started"] += shift
    if fp:
        c["facts"]["info"]["fingerprint"] = fp
    base = {}
    for i, rep in enumerate(c["reps"]):
        for st in rep:
            if isinstance(st.get("started"), (int, float)):
                st["started"] += shift
            for k, m in st["metrics"].items():
                b = base.setdefault((st["name"], k), m["value"])
                if isinstance(b, (int, float)) and not isinstance(b, bool):
                    g = 1 / f if m.get("unit") in dur else f
                    m["value"] = b * g * (1 + jit[i % len(jit)])
    c.pop("summary", None)
json.dump(r, open(dst + "/results.json", "w"), indent=1)
PY
}
f=$t/fixed
fdb=$t/fixed.db
T0=1700000000
fixrun "$t/d1" "$f/f1" $((T0 + 0)) 1.00
fixrun "$t/d1" "$f/f2" $((T0 + 100)) 1.04
fixrun "$t/d1" "$f/f3" $((T0 + 200)) 0.97
fixrun "$t/d1" "$f/a" $((T0 + 300)) 1.01
fixrun "$t/d1" "$f/x1" $((T0 + 400)) 0.40
fixrun "$t/d1" "$f/x2" $((T0 + 500)) 0.40
fixrun "$t/d1" "$f/b" $((T0 + 600)) 0.99
fixrun "$t/d1" "$f/s" $((T0 + 700)) 0.40
fixrun "$t/d1" "$f/t" $((T0 + 800)) 0.40 0123456789abcdef
bg store --store "$fdb" "$f"/{f1,f2,f3,a,x1,x2,b,s,t} >/dev/null
fc() { bg compare --store "$fdb" "$@"; }

# unchanged: A B against the 3 earlier runs, exit 0
[ "$(status fc --fail-above 50% "$f/a" "$f/b")" = 0 ] || fail "fixed: unchanged with the store: exit 0"
grep -q '^- Noise: 4 of 4 metrics judged against the spread between runs: the same cell.s earlier runs on the same host in the results store' "$t/out" ||
	fail "fixed: the store's noise line"
[ "$(cnt '^- [01] `[0-9a-f]*` bs=[0-9]*[KM]iB: no significant difference (between runs: 3 earlier runs in the store)')" = 2 ] ||
	fail "fixed: unchanged, two verdict lines on the store's 3 runs"
[ "$(cnt '| t (store: 3 runs) | ')" = 4 ] || fail "fixed: the table: t (store: 3 runs)"
grep -q '^- Pass: ' "$t/out" || fail "fixed: unchanged: Pass"
echo "2: fixed: unchanged against the store's 3 earlier runs: exit 0"

# S 2.5x slower: exit 1; A's noise is the 3 runs before A, not X1, X2, B
[ "$(status fc --fail-above 50% "$f/a" "$f/s")" = 1 ] || fail "fixed: 2.5x slower with the store: exit 1"
[ "$(cnt '^- [01] `[0-9a-f]*` bs=[0-9]*[KM]iB: \*\*slower\*\* (between runs: 3 earlier runs in the store): w\.mb_s -60\.4% (p ')" = 2 ] ||
	fail "fixed: 2.5x slower: two slower verdicts on w.mb_s -60.4%"
grep -q '^- \*\*Fail:\*\* 4 metrics got worse by more than 50% with p < 0.05 (Holm-Bonferroni):$' "$t/out" || fail "fixed: Fail line"
grep -q '^  - 0 .*w\.mb_s -60\.4% .*worse (noise: store: 3 runs)$' "$t/out" || fail "fixed: the failing metric and its noise"
echo "2: fixed: 2.5x slower against the 3 runs before A: exit 1"

# the same slowdown against within-run noise only: held, unless trusted
[ "$(status bg compare --no-store --fail-above 50% "$f/a" "$f/s")" = 0 ] || fail "fixed: --no-store: held, exit 0"
grep -q '^- \*\*Not failed:\*\* 4 metrics got worse by more than 50% with p < 0.05 against within-run noise only' "$t/out" ||
	fail "fixed: --no-store: the Not failed line"
grep -q "^compare: 4 metrics over --fail-above against within-run noise only, not failed" "$t/err" ||
	fail "fixed: --no-store: the line on stderr: $(cat "$t/err")"
[ "$(status bg compare --no-store --trust-within-run-noise --fail-above 50% "$f/a" "$f/s")" = 1 ] ||
	fail "fixed: --trust-within-run-noise: exit 1"
grep -q '(noise: within run)$' "$t/out" || fail "fixed: --trust-within-run-noise: the failing metric's noise"
echo "2: fixed: within-run only: held (exit 0); with --trust-within-run-noise: exit 1"

# T as the baseline: no earlier run of its configuration
[ "$(status fc --fail-above 50% "$f/t" "$f/a")" = 0 ] || fail "fixed: T as the baseline: exit 0"
[ "$(cnt '^- [01] `[0-9a-f]*` bs=[0-9]*[KM]iB: \*\*faster\*\* (within-run noise only): ')" = 2 ] ||
	fail "fixed: T as the baseline: no earlier run of its configuration"

# several runs per side, no store: their own spread
[ "$(status bg compare --no-store --fail-above 50% "$f/f1" "$f/f2" -- "$f/a" "$f/b")" = 0 ] || fail "fixed: 2+2 runs: exit 0"
grep -q '^- A: 2 runs: ' "$t/out" || fail "fixed: 2+2 runs: the A line"
[ "$(cnt '| t (runs: 2+2) | ')" = 4 ] || fail "fixed: 2+2 runs: the table"
[ "$(cnt 'no significant difference (between runs: the 2+2 runs compared)')" = 2 ] || fail "fixed: 2+2 runs: the verdict lines"
echo "2: fixed: 2+2 runs: exit 0"

# ---- 3. a throttled device, real runs: the store's wiring ----
cat >"$t/model.yaml" <<'Y'
name: crywolf-model
repeat: 5
vars: {wbps: 30MiB}
matrix:
  bs: [1MiB, 256KiB]
target:
  kind: loop
  size: 96MiB
  fs: ext4
  model: {write_bps: "${wbps}"}
steps:
  - name: w
    io: {rw: write, bs: "${bs}", size: 16MiB, direct: true}
Y
for r in h1 h2 h3 a b; do
	bg run --work-dir "$t/w" -q -o "$t/$r" "$t/model.yaml"
done
grep -q '"model.target.write_bps": "31457280"' "$t/a/results.json" || fail "the model was not applied"

# unchanged, 3 earlier runs recorded by `run`: their spread judges. The
# verdict (exit 0 or 1) is the measured rates': not asserted.
rc=$(status bg compare --fail-above 50% "$t/a" "$t/b")
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "real: exit 0 or 1, not $rc"
grep -q '^- Noise: 4 of 4 metrics judged against the spread between runs: the same cell.s earlier runs on the same host in the results store' "$t/out" ||
	fail "real: the store's noise line"
[ "$(cnt '^- [01] `[0-9a-f]*` bs=[0-9]*[KM]iB: .* (between runs: 3 earlier runs in the store)')" = 2 ] ||
	fail "real: each verdict line names the store's 3 runs"
[ "$(cnt '| t (store: 3 runs) | ')" = 4 ] || fail "real: the table: t (store: 3 runs)"
grep -q '^- \(Pass: \|\*\*Fail:\*\* \)' "$t/out" || fail "real: the Threshold section"
echo "3: real runs: the store's 3 earlier runs judge (exit $rc)"

[ "$(status bg compare --no-store --fail-above 50% "$t/h1" "$t/h2" -- "$t/a" "$t/a")" = 2 ] ||
	fail "a run given twice: exit 2"
grep -q 'are the same run' "$t/err" || fail "a run given twice: the message"
[ "$(status bg compare --window 2 "$t/a" "$t/b")" = 2 ] || fail "--window 2: exit 2"
[ "$(status bg compare "$t/a" --)" = 2 ] || fail "an empty side: exit 2"
echo "compare_noise: ok"
