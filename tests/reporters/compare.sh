#!/bin/bash
# compare: real runs of a tiny dir-target exec scenario (repeat 5), compared.
#  - A step that sleeps 0.05 s against the same step sleeping 0.3 s: the
#    slower run is certainly slower (Mann-Whitney U on 5 against 5 reaches
#    p = 2/252 = 0.0079 when the samples do not overlap): verdict lines,
#    the headline metric only by default and every metric with --all,
#    --fail-above exit statuses both ways.
#  - Two separate runs whose samples interleave by construction (a
#    counter, not a clock): no significant difference, p = 0.72 on any
#    machine; a run against itself: p = 1.
#  - --by within one run, its baseline and exit status; kernels flagged;
#    results.json and report.md carry the intervals.
# No earlier runs in its own store: every judgement is against within-run
# noise, said so, and --fail-above fails on it only with
# --trust-within-run-noise (compare_noise.sh has the noise between runs).
set -euo pipefail
: "${BENCHGRID:?}"
t=$(mktemp -d /tmp/bg-compare-XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$t"' EXIT
export BENCHGRID_STATE=$t/state BENCHGRID_STORE=$t/store.db
mkdir -p "$t/w"
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
bg() { "$BENCHGRID" "$@"; }
# status CMD...: the exit status of CMD, output to $t/out
status() {
	set +e
	"$@" >"$t/out" 2>"$t/err"
	local rc=$?
	set -e
	echo $rc
}

# NAP (environment) is the sleep: the cells' ids do not depend on it, so
# runs with different NAPs share their cells.
cat >"$t/nap.yaml" <<'Y'
name: nap
repeat: 5
matrix:
  k: [x, y]
steps:
  - name: nap
    exec: {command: "sleep $NAP"}
Y
NAP=0.05 bg run --work-dir "$t/w" -q -o "$t/fast" "$t/nap.yaml"
NAP=0.3 bg run --work-dir "$t/w" -q -o "$t/slow" "$t/nap.yaml"

# The intervals are in results.json (n = 5: the mean's and the median's).
python3 - "$t/fast/results.json" <<'PY' || fail "results.json intervals"
import json, sys
r = json.load(open(sys.argv[1]))
m = r["cells"][0]["summary"][0]["metrics"]["elapsed_s"]
assert m["n"] == 5 and m["ci_half"] > 0, m
assert m["median_lo"] <= m["median"] <= m["median_hi"], m
PY
grep -q "^## Confidence intervals" "$t/fast/report.md" || fail "report.md: no intervals section"
grep -q "^| 0 | x | nap.elapsed_s (s) | 5 | [0-9.]* ± [0-9.e-]* | [0-9.]* | [0-9.]* to [0-9.]* |$" "$t/fast/report.md" ||
	fail "report.md: interval row"

# fast -> slow: slower, for each cell; the default shows the headline only.
[ "$(status bg compare "$t/fast" "$t/slow")" = 0 ] || fail "compare without a threshold exits 0"
[ "$(grep -c '^- [01] `[0-9a-f]*` k=[xy]: \*\*slower\*\* (within-run noise only): nap.elapsed_s +[0-9.]*% (p = 0.0079)$' "$t/out")" = 2 ] ||
	fail "two slower verdicts: $(cat "$t/out")"
[ "$(grep -c '^| [01] | .* | nap\.' "$t/out")" = 2 ] || fail "default: one headline row per cell"
grep -q '| 0 | [0-9a-f]* | k=x | nap.elapsed_s (s) | .* | 5/5 | [0-9.]* | [0-9.]*-[0-9.]* | 0.0079 | U (within run) | slower |$' "$t/out" ||
	fail "slower row"
grep -q "^| nap.elapsed_s | 2 | [0-9.]* |$" "$t/out" || fail "geometric mean"
[ "$(status bg compare --all "$t/fast" "$t/slow")" = 0 ] || fail "compare --all"
grep -q '| nap.exit_status | ' "$t/out" || fail "--all: exit_status"
grep -q '| nap.sys_busy_pct (%) | ' "$t/out" || fail "--all: the monitor's metrics"
[ "$(grep -c '^- [01] `' "$t/out")" = 2 ] || fail "--all: still one verdict line per cell"

# A cell id with | and ` (a results.json edited by hand) is escaped in the
# verdict line and the table, as report.md escapes its cells.
mkdir -p "$t/oddA" "$t/oddB"
for x in A:fast B:slow; do
	python3 - "$t/${x#*:}/results.json" "$t/odd${x%%:*}/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["cells"][0]["id"] = "x|y`z"
json.dump(r, open(sys.argv[2], "w"))
PY
done
[ "$(status bg compare "$t/oddA" "$t/oddB")" = 0 ] || fail "compare odd ids: $(cat "$t/err")"
grep -qF -e '- 0 x\|y\`z k=x: **slower**' "$t/out" || fail "odd id: verdict line: $(cat "$t/out")"
grep -qF '| 0 | x\|y\`z | k=x | nap.elapsed_s (s) |' "$t/out" || fail "odd id: table row: $(cat "$t/out")"

# --fail-above: worse by more than 5% with significance, against within-run
# noise only: held (exit 0, "Not failed" and a line on stderr); with
# --trust-within-run-noise it exits 1; the other way round it is faster and
# exits 0; a threshold above the change passes.
[ "$(status bg compare --fail-above 5% "$t/fast" "$t/slow")" = 0 ] || fail "--fail-above 5%, within-run only: exit 0"
grep -q '^- \*\*Not failed:\*\* 2 metrics got worse by more than 5% with p < 0.05 against within-run noise only' "$t/out" ||
	fail "Not failed line"
grep -q '^compare: 2 metrics over --fail-above against within-run noise only, not failed' "$t/err" || fail "stderr line"
[ "$(status bg compare --trust-within-run-noise --fail-above 5% "$t/fast" "$t/slow")" = 1 ] ||
	fail "--fail-above 5% --trust-within-run-noise should exit 1"
grep -q '^- \*\*Fail:\*\* 2 metrics got worse by more than 5% with p < 0.05 (Holm-Bonferroni):$' "$t/out" || fail "Fail line"
grep -q '^  - 0 .*nap.elapsed_s .*worse (noise: within run)$' "$t/out" || fail "Fail list names the noise"
[ "$(status bg compare --fail-above=5 "$t/slow" "$t/fast")" = 0 ] || fail "faster: exit 0"
[ "$(grep -c '\*\*faster\*\* (within-run noise only): nap.elapsed_s -' "$t/out")" = 2 ] || fail "two faster verdicts"
grep -q '^- Pass: no metric got worse by more than 5% with p < 0.05 (Holm-Bonferroni)$' "$t/out" || fail "Pass line"
[ "$(status bg compare --trust-within-run-noise --fail-above 100000% "$t/fast" "$t/slow")" = 0 ] ||
	fail "huge threshold: exit 0"

# Two separate runs that truly do not differ: each repetition prints the
# next number of its run's sequence (A: 1 3 5 ... 15, B: 2 4 ... 16, from a
# counter file) and a Lua parser makes it the headline metric mb_s. The
# samples interleave, so Mann-Whitney's U is 36 of 64 (exact p = 0.721) whatever the
# machine does: the verdict is fixed by the numbers, not by timing, and this
# cannot flake. (Timed metrics of two runs of one command are equal only in
# law; at alpha 0.001 they would still differ once in a thousand runs.)
cat >"$t/same.yaml" <<'Y'
name: same
repeat: 8
matrix:
  k: [x]
steps:
  - name: seq
    exec:
      command: 'n=$(cat "$CTR" 2>/dev/null || echo 0); n=$((n + 1)); echo $n >"$CTR"; echo $((2 * n - OFF))'
      parse: seq_value
hooks: |
  function seq_value(text, result)
    result:metric("mb_s", tonumber(text:match("%d+")), "MB/s")
  end
Y
mkdir -p "$t/w1" "$t/w2"
CTR=$t/ctr1 OFF=1 bg run --work-dir "$t/w1" -q -o "$t/s1" "$t/same.yaml"
CTR=$t/ctr2 OFF=0 bg run --work-dir "$t/w2" -q -o "$t/s2" "$t/same.yaml"
[ "$(status bg compare --alpha 0.001 --fail-above 5% "$t/s1" "$t/s2")" = 0 ] || fail "same command: exit 0: $(cat "$t/out")"
grep -q '^- 0 `[0-9a-f]*` k=x: no significant difference (within-run noise only)$' "$t/out" ||
	fail "same command: verdict line: $(cat "$t/out")"
grep -q '| 0 | [0-9a-f]* | k=x | seq.mb_s (MB/s) | 8 | 9 | 8/8 | 1.125 | [0-9.]*-[0-9.]* | 0.72 | U (within run) | no significant difference |$' "$t/out" ||
	fail "same command: the row (medians 8 and 9, p = 0.72): $(cat "$t/out")"
grep -q "significant when p < 0.001" "$t/out" || fail "--alpha not shown"
# the same two runs at the default alpha 0.05: still no difference
[ "$(status bg compare "$t/s1" "$t/s2")" = 0 ] || fail "same command at alpha 0.05: exit 0"
grep -q '^- 0 `[0-9a-f]*` k=x: no significant difference (within-run noise only)$' "$t/out" ||
	fail "same command at alpha 0.05: $(cat "$t/out")"
[ "$(status bg compare "$t/s1" "$t/s1")" = 0 ] || fail "a run against itself"
grep -q '| 8/8 | 1.000 | [0-9.]*-[0-9.]* | 1 | U (within run) | no significant difference |$' "$t/out" || fail "itself: p = 1"
grep -q '^- 0 `[0-9a-f]*` k=x: no significant difference (within-run noise only)$' "$t/out" ||
	fail "itself: verdict line: $(cat "$t/out")"

# Fewer than 5 repetitions: Welch's t, with its note.
sed -e 's/repeat: 5/repeat: 3/' "$t/nap.yaml" >"$t/three.yaml"
NAP=0.02 bg run --work-dir "$t/w" -q -o "$t/t1" "$t/three.yaml"
[ "$(status bg compare "$t/t1" "$t/slow")" = 0 ] || fail "compare 3 against 5"
grep -q '| 3/5 | [0-9.]* | - | [0-9.e<-]* | Welch\* (within run) | slower |$' "$t/out" || fail "Welch row: $(cat "$t/out")"
grep -q "^\\\\\\* Welch's t: fewer than 5 repetitions on a side" "$t/out" || fail "Welch note"

# --by within one run: the baseline is the first value; 0.02 -> 0.3 is slower.
cat >"$t/by.yaml" <<'Y'
name: by
repeat: 5
matrix:
  nap: ["0.02", "0.3"]
  k: [x, y]
steps:
  - name: nap
    exec: {command: "sleep ${nap}"}
Y
bg run --work-dir "$t/w" -q -o "$t/by" "$t/by.yaml"
[ "$(status bg compare --by nap "$t/by")" = 0 ] || fail "--by"
grep -q "^- Baseline: nap=0.02 (the value of the run's first cell)$" "$t/out" || fail "--by baseline"
[ "$(grep -c '^- nap=0.02 -> nap=0.3 (k=[xy]) (`[0-9a-f]*` -> `[0-9a-f]*`): \*\*slower\*\*' "$t/out")" = 2 ] ||
	fail "--by verdicts: $(cat "$t/out")"
[ "$(status bg compare --by nap --fail-above 10% "$t/by")" = 0 ] || fail "--by --fail-above, within-run only: exit 0"
[ "$(status bg compare --by nap --trust-within-run-noise --fail-above 10% "$t/by")" = 1 ] ||
	fail "--by --fail-above --trust-within-run-noise: exit 1"
[ "$(status bg compare --by k --alpha 0.001 "$t/by")" = 0 ] || fail "--by k"
[ "$(grep -c '^- k=x -> k=y (nap=0\.[0-9]*)' "$t/out")" = 2 ] || fail "--by k pairs"
[ "$(status bg compare --by nosuch "$t/by")" = 2 ] || fail "--by unknown parameter: exit 2"
grep -q "no cell of .* has the parameter nosuch" "$t/err" || fail "--by unknown parameter message"

# Bad arguments exit 2.
[ "$(status bg compare --alpha 2 "$t/fast" "$t/slow")" = 2 ] || fail "--alpha 2"
[ "$(status bg compare --fail-above x "$t/fast" "$t/slow")" = 2 ] || fail "--fail-above x"
[ "$(status bg compare "$t/fast")" = 2 ] || fail "one directory"
[ "$(status bg compare "$t/fast" "$t/nonexistent")" = 2 ] || fail "missing run"

# Kernels: B's cells recorded another kernel.
python3 - "$t/slow/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["environment"]["info"]["machine.kernel"] = "9.9.9-test #1 SMP"
json.dump(r, open(sys.argv[1], "w"))
PY
bg compare "$t/fast" "$t/slow" >"$t/k.md"
grep -q "^- Kernels: A ran on Linux [^ ]*, B on 9.9.9-test: differences may be the kernel's$" "$t/k.md" ||
	fail "kernel line: $(grep -i kernel "$t/k.md")"
# one cell of B on yet another kernel (its own fact): a warning, that cell marked
python3 - "$t/slow/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["environment"]["info"].pop("machine.kernel")
r["cells"][1]["facts"]["info"]["machine.kernel"] = "9.9.9-test #1 SMP"
json.dump(r, open(sys.argv[1], "w"))
PY
bg compare "$t/fast" "$t/slow" >"$t/k.md"
grep -q "^- \*\*Warning:\*\* 1 of 2 shared cells ran on a different kernel in B than in A" "$t/k.md" || fail "kernel warning"
grep -q '^- 1 `[0-9a-f]*` k=y (kernel A [^ ]*, B 9.9.9-test): \*\*slower\*\*' "$t/k.md" || fail "kernel flag"
grep -q '^- 0 `[0-9a-f]*` k=x: \*\*slower\*\*' "$t/k.md" || fail "same kernel flagged"
echo "compare: ok"
