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
#  2. The same cells on a loop device throttled by a device model (30 MiB/s
#     of writes: a device whose noise is small enough for a few runs to see
#     a slowdown; 16 MiB per write), 3 runs, then A and B unchanged: the
#     store's spread of those earlier runs is used (said so), and
#     `--fail-above 50%` exits 0. Then S with the device at 12 MiB/s, 2.5x
#     slower (2x would make a rate exactly 50% worse, on the threshold):
#     exit 1 against the store's spread; against within-run noise only
#     (--no-store) it is held (exit 0, "Not failed") unless
#     --trust-within-run-noise. With S as the baseline the 30 MiB/s runs
#     are another configuration (fingerprint): within-run only. Several
#     runs per side (H1 H2 -- A B) give
#     their own spread. A run given twice, --window 2: exit 2.
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

# ---- 2. a throttled device: the store's spread ----
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

# unchanged, 3 earlier runs in the store: their spread judges, exit 0
[ "$(status bg compare --fail-above 50% "$t/a" "$t/b")" = 0 ] || fail "unchanged with the store: exit 0"
grep -q '^- Noise: 4 of 4 metrics judged against the spread between runs: the same cell.s earlier runs on the same host in the results store' "$t/out" ||
	fail "the store's noise line"
[ "$(cnt '^- [01] `[0-9a-f]*` bs=[0-9]*[KM]iB: .* (between runs: 3 earlier runs in the store)')" = 2 ] ||
	fail "each verdict line names the store's 3 runs"
[ "$(cnt '| t (store: 3 runs) | ')" = 4 ] || fail "the table: t (store: 3 runs)"
grep -q '^- Pass: ' "$t/out" || fail "unchanged with the store: Pass"
echo "2: unchanged against the store's 3 earlier runs: exit 0"

# S: the device 2.5x slower; the earlier runs are those before A (B is not among them)
bg run --work-dir "$t/w" -q -D wbps=12MiB -o "$t/s" "$t/model.yaml"
grep -q '"model.target.write_bps": "12582912"' "$t/s/results.json" || fail "S's model"
[ "$(status bg compare --fail-above 50% "$t/a" "$t/s")" = 1 ] || fail "2.5x slower with the store: exit 1"
[ "$(cnt '^- [01] `[0-9a-f]*` bs=[0-9]*[KM]iB: \*\*slower\*\* (between runs: 3 earlier runs in the store): w\.mb_s -[5-6][0-9]\.[0-9]% (p ')" = 2 ] ||
	fail "2.5x slower: two slower verdicts on w.mb_s"
grep -q '^- \*\*Fail:\*\* [0-9]* metrics\? got worse by more than 50% with p < 0.05:$' "$t/out" || fail "Fail line"
grep -q '^  - 0 .*w\.mb_s -[5-6][0-9]\.[0-9]% .*worse (noise: store: 3 runs)$' "$t/out" || fail "the failing metric and its noise"
echo "2: 2.5x slower against the store's spread: exit 1"
# S as the baseline: its configuration (fingerprint) has no earlier run;
# the 30 MiB/s runs are not its noise
[ "$(status bg compare --fail-above 50% "$t/s" "$t/a")" = 0 ] || fail "S as the baseline: exit 0"
[ "$(cnt '^- [01] `[0-9a-f]*` bs=[0-9]*[KM]iB: \*\*faster\*\* (within-run noise only): ')" = 2 ] ||
	fail "S as the baseline: no earlier run of its configuration"

# the same slowdown against within-run noise only: held, unless trusted
[ "$(status bg compare --no-store --fail-above 50% "$t/a" "$t/s")" = 0 ] || fail "--no-store: held, exit 0"
grep -q '^- \*\*Not failed:\*\* [0-9]* metrics\? got worse by more than 50% with p < 0.05 against within-run noise only' "$t/out" ||
	fail "--no-store: the Not failed line"
grep -q "^compare: [0-9]* metrics\? over --fail-above against within-run noise only, not failed" "$t/err" ||
	fail "--no-store: the line on stderr: $(cat "$t/err")"
[ "$(status bg compare --no-store --trust-within-run-noise --fail-above 50% "$t/a" "$t/s")" = 1 ] ||
	fail "--trust-within-run-noise: exit 1"
grep -q '(noise: within run)$' "$t/out" || fail "--trust-within-run-noise: the failing metric's noise"
echo "2: within-run only: held (exit 0); with --trust-within-run-noise: exit 1"

# several runs per side, no store: their own spread
[ "$(status bg compare --no-store --fail-above 50% "$t/h1" "$t/h2" -- "$t/a" "$t/b")" = 0 ] || fail "2+2 runs: exit 0"
grep -q '^- A: 2 runs: ' "$t/out" || fail "2+2 runs: the A line"
[ "$(cnt '| t (runs: 2+2) | ')" = 4 ] || fail "2+2 runs: the table"
[ "$(cnt '(between runs: the 2+2 runs compared)')" = 2 ] || fail "2+2 runs: the verdict lines"
[ "$(status bg compare --no-store --fail-above 50% "$t/h1" "$t/h2" -- "$t/s" "$t/s")" = 2 ] ||
	fail "a run given twice: exit 2"
grep -q 'are the same run' "$t/err" || fail "a run given twice: the message"
[ "$(status bg compare --window 2 "$t/a" "$t/b")" = 2 ] || fail "--window 2: exit 2"
[ "$(status bg compare "$t/a" --)" = 2 ] || fail "an empty side: exit 2"
echo "compare_noise: ok"
