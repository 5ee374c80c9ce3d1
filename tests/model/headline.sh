#!/usr/bin/env bash
# One headline-metric rule everywhere (issue 27, item 3; model/headline.h):
# report.html's folded step tables, report.md's confidence intervals,
# compare's default metrics, history's default metric, run's step lines and
# live figure all show iops for 4 KiB random reads, mb_s for 128 KiB random
# reads and sequential writes, elapsed_s for an exec step, and a step's own
# `headline:`; check refuses a headline name the step's kind does not give.
# A run without `report:` (issue 31): report.md opens with the Headline
# table, then a pivot and a chart of each step's rate by each parameter that
# varies (bars: sizes and names are categories), the step
# tables are split into groups of at most 10 metric columns, and with
# `repeat: 2` values read `mean (min to max)`, never `± t-interval`.
set -u
bg=${BENCHGRID:?}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export BENCHGRID_STATE=$t/state BENCHGRID_STORE=$t/store.db
mkdir -p "$t/w"
fail=0
ok() { echo "ok   $1"; }
bad() {
	echo "FAIL $1"
	fail=1
}
cat >"$t/h.yaml" <<'Y'
name: headline-rule
matrix:
  n: [1, 2]
repeat: 2
steps:
  - name: rr
    io: {rw: randread, bs: 4KiB, size: 4MiB, runtime: 0.1s, time_based: true}
  - name: big
    io: {rw: randread, bs: 128KiB, size: 4MiB, runtime: 0.1s, time_based: true}
  - name: seq
    io: {rw: write, bs: 4KiB, size: 4MiB}
  - name: x
    exec: {command: "true"}
  - name: mine
    headline: [lat_p99_us, iops]
    io: {rw: write, bs: 64KiB, size: 4MiB}
  - name: mx
    io: {rw: randrw, mix: 70, bs: 4KiB, size: 4MiB, io_size: 2MiB}
report:
  pivot:
    - {rows: n, value: mx.read.iops}
  charts:
    - {x: n, y: mx.write.lat_p99_us}
Y
"$bg" run --work-dir "$t/w" -o "$t/o" "$t/h.yaml" 2>"$t/run.err" || bad "run exits 0"

# run's step lines: the headline first
python3 - "$t/run.err" <<'PY' && ok "step lines start with the headline" || bad "step lines"
import re, sys
text = open(sys.argv[1]).read()
first = {}
for m in re.finditer(r"^  (\w+): ok, (\w+)=", text, re.M):
    first.setdefault(m.group(1), set()).add(m.group(2))
want = {"rr": {"iops"}, "big": {"mb_s"}, "seq": {"mb_s"}, "x": {"elapsed_s"}, "mine": {"lat_p99"},
        "mx": {"iops"}}
assert first == want, (first, text)
PY

# report.html's Headline table and report.md's confidence intervals
python3 - "$t/o" <<'PY' && ok "report.html and report.md show each step's headline" || bad "reports"
import re, sys
d = sys.argv[1]
h = open(f"{d}/report.html").read()
want = {"rr": ["iops", "lat_p99_us"], "big": ["mb_s", "lat_p99_us"], "seq": ["mb_s", "lat_p99_us"],
        "mine": ["lat_p99_us", "iops"]}  # mine: in its headline:'s order
# the Headline table at the top: step.metric columns after #, the parameters
t = re.search(r'id="t-headline">\s*<thead><tr>(.*?)</tr>', h, re.S).group(1)
heads = [c.split(" ")[0] for c in re.findall(r"<th>([^<]*)</th>", t)]
assert h.index('id="t-headline"') < h.index('id="t-summary"'), "the Headline table comes first"
for step, cols in want.items():
    got = [c.split(".", 1)[1] for c in heads if c.startswith(step + ".")]
    assert got == cols, (step, got, heads)
md = open(f"{d}/report.md").read()
ci = md.split("## Confidence intervals", 1)[1].split("\n## ", 1)[0]
rows = {(m.group(1), m.group(2)) for m in re.finditer(r"\| (rr|big|seq|x|mine)\.(\w+) \(", ci)}
assert ("rr", "iops") in rows and ("rr", "mb_s") not in rows, rows
assert ("big", "mb_s") in rows and ("big", "iops") not in rows, rows
assert ("x", "elapsed_s") in rows, rows
PY

# compare's default metrics
"$bg" compare "$t/o" "$t/o" >"$t/cmp.md" 2>&1 || bad "compare exits 0"
python3 - "$t/cmp.md" <<'PY' && ok "compare's default metrics are the headline" || bad "compare"
import re, sys
text = open(sys.argv[1]).read()
got = set(re.findall(r"\| (\w+\.\w+) \(", text))
want = {"rr.iops", "rr.lat_p99_us", "big.mb_s", "big.lat_p99_us", "seq.mb_s", "seq.lat_p99_us",
        "x.elapsed_s", "mine.lat_p99_us", "mine.iops", "mx.iops", "mx.lat_p99_us"}
assert got == want, (sorted(got), text)
PY

# randrw's per-direction figures in a pivot, a chart, compare --all
python3 - "$t/o" <<'PY' && ok "mx.read.iops in the pivot, mx.write.lat_p99_us charted" || bad "per-direction pivot and chart"
import json, re, sys, os
d = sys.argv[1]
md = open(f"{d}/report.md").read()
piv = md.split("### mx.read.iops (IOPS)", 1)[1].split("\n## ", 1)[0]
vals = re.findall(r"^\| [12] \| ([0-9.]+)", piv, re.M)
assert len(vals) == 2 and all(float(v) > 0 for v in vals), piv
svg = open(f"{d}/chart-1.svg").read()
assert "mx.write.lat_p99_us" in svg, svg[:300]
r = json.load(open(f"{d}/results.json"))
m = r["cells"][0]["reps"][0][-1]["metrics"]
assert abs(m["read.iops"]["value"] + m["write.iops"]["value"] - m["iops"]["value"]) < 1e-6 * m["iops"]["value"]
PY
"$bg" compare --all "$t/o" "$t/o" 2>&1 | grep -q "| mx.read.iops (IOPS) |" && ok "compare --all has mx.read.iops" ||
	bad "compare --all lacks mx.read.iops"

# a run without report: (issue 31)
cat >"$t/d.yaml" <<'Y'
name: no-report-block
matrix:
  bs: [4KiB, 16KiB, 64KiB]
  rw: [randread, randwrite]
repeat: 2
steps:
  - name: w
    io: {rw: "${rw}", bs: "${bs}", size: 2MiB, runtime: 0.05s, time_based: true}
Y
"$bg" run -q --work-dir "$t/w" -o "$t/d" "$t/d.yaml" >"$t/d.log" 2>&1 || bad "the run without report: exits 0: $(cat "$t/d.log")"
python3 - "$t/d" <<'PY' && ok "without report: Headline first, default pivots and charts, grouped tables, ranges for 2 repeats" || bad "the default report"
import json, os, re, sys
d = sys.argv[1]
md = open(f"{d}/report.md").read()
heads = re.findall(r"^## (.*)$", md, re.M)
assert heads[:4] == ["Headline", "Environment", "Summary", "Pivot tables"], heads
hl = md.split("## Headline", 1)[1].split("\n## ", 1)[0]
rows = re.findall(r"^\| (\d) \| (\w+) \| (\w+) \| (.*) \|$", hl, re.M)
assert len(rows) == 6, hl
assert "| # | bs | rw | w.iops (IOPS) | w.lat_p99_us (us) |" in hl, hl
r = json.load(open(f"{d}/results.json"))
for c in r["cells"]:
    s = [x for x in c["summary"] if x["step"] == "w"][0]["metrics"]["iops"]
    row = [x for x in rows if int(x[0]) == c["index"]][0]
    assert re.match(r"[0-9.]+ \([0-9.]+ to [0-9.]+\) \| ", row[3]), row  # mean (min to max)
# the workload names what its latency histograms count (review C1)
infos = [st.get("info", {}) for c in r["cells"] for rep in c["reps"] for st in rep]
kept = [i for i in infos if "read.lat_hist" in i or "write.lat_hist" in i]
assert kept and all(i.get("lat_hist_of") == "I/Os" for i in kept), infos[:1]
assert "No `report:` block" in hl, hl
assert " ± " not in md.split("## Confidence intervals")[0], "a t interval of 2 samples"
piv = re.findall(r"^### (w\.iops \(IOPS\).*)$", md.split("## Pivot tables", 1)[1].split("\n## ", 1)[0], re.M)
assert len(piv) == 2, piv  # by bs (columns rw), by rw (columns bs)
assert "| bs \\ rw | randread | randwrite |" in md and "| rw \\ bs | 4KiB | 16KiB | 64KiB |" in md, md
charts = re.findall(r"!\[(w\.iops by [^]]*)\]\((chart-\d+\.svg)\)", md)
assert [c[0] for c in charts] == ["w.iops by bs and rw", "w.iops by rw and bs"], charts
by_bs, by_rw = (open(os.path.join(d, c[1])).read() for c in charts)
# every chart has a frame <path>: lines are <polyline>, bars rect class="bar"
# (review D1). Sizes (4KiB...) are settings picked from a few, so bars, as
# docs/reports.md "Lines or bars" says; names too.
assert 'class="bar"' in by_bs and "<polyline" not in by_bs, "three sizes: bars, no lines"
assert 'class="bar"' in by_rw and "<polyline" not in by_rw, "two text values: bars, no lines"
steps = md.split("### Step `w`", 1)[1].split("\n## ", 1)[0]
groups = re.findall(r"^\*\*(.*)\*\*$", steps, re.M)
assert groups[:2] == ["Throughput and latency", "Throughput and latency (continued)"] and "CPU and system" in groups and "Device" in groups, groups
for head in re.findall(r"^\| # \|.*$", steps, re.M):
    cols = head.strip("|").split("|")
    assert len(cols) - 4 <= 10, (len(cols), head)  # #, bs, rw, status + metrics
html = open(f"{d}/report.html").read()
assert html.index('id="t-headline"') < html.index('id="t-summary"') and "<details" in html
PY

# history's default metric: the first step's headline
"$bg" history headline-rule >"$t/hist.txt" 2>&1 || bad "history exits 0"
grep -q "rr.iops (IOPS)" "$t/hist.txt" && ok "history's default metric is rr.iops" ||
	bad "history's default: $(head -2 "$t/hist.txt")"

# check: a headline name the step's kind does not give
cat >"$t/bad.yaml" <<'Y'
name: bad-headline
steps:
  - name: rr
    headline: [IOPS, lat_p99_us]
    io: {rw: randread, bs: 4KiB, size: 4MiB}
  - name: x
    headline: [anything]
    exec: {command: "true", parse: dd}
  - name: e
    headline: []
    io: {rw: read, bs: 4KiB, size: 4MiB}
Y
out=$("$bg" check "$t/bad.yaml" 2>&1)
rc=$?
if [ $rc -ne 0 ] && grep -q "bad.yaml:4:16: error: step.headline: 'IOPS' is not a metric of io steps (did you mean iops?)" <<<"$out" &&
	grep -q "bad.yaml:10:15: error: step.headline: expected a non-empty list" <<<"$out" &&
	! grep -q "anything" <<<"$out"; then
	ok "check: unknown headline names are errors with positions (an exec parser's are free)"
else
	bad "check of headline (rc $rc): $out"
fi
exit $fail
