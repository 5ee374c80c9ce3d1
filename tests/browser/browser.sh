#!/bin/bash
# browser: report.html of a small real run (a dir target, an io step at two
# block sizes and two job counts, repeat 3) opened in headless Chromium:
# through the DevTools protocol on a pipe (browser_cdp.py, Python's standard
# library only):
#   - no console message, exception, log error or warning, or failed request
#     (the page logs nothing; a script error, a missing resource or a fetch
#     refused by the page's Content-Security-Policy would each show), checked
#     on a broken page first so that the check can fail;
#   - after the scripts ran (the DOM): every chart figure holds an <svg>
#     the script measured as drawn, error bars where repeats give a CI, the
#     step table sorted by the #sort= fragment in the order results.json
#     gives, the long step table folded, pivot values linked to the cells'
#     rows, the scenario's text escaped (one <script>, ours); a click on a
#     header sorts the Summary table;
#   - every chart's series drawn: a non-empty bounding box (getBBox), lines
#     of >= 2 points, bars of non-zero size, lines and bars both seen (the
#     page's own data-rendered verdict does not look at the geometry);
#   - a screenshot in the build folder (browser/report.png);
#   - a report of fixed values (results.json rewritten, `benchgrid report`):
#     sizes (512kB..1GB) and numbers (9, 10, 100) sorted by value through
#     #sort= and by clicks on headers, where text order would differ;
# and, from the files alone, a chart of 7 series drawn as small multiples;
#   - the Content-Security-Policy (a sha256- source, no 'unsafe-inline'):
#     a <script> and an onerror= injected into a copy of the page do not
#     run, the page's own script does (and both run under 'unsafe-inline').
# Skipped (77) without /usr/bin/chromium.
set -euo pipefail
: "${BENCHGRID:?}" "${BENCHGRID_BUILD:?}" "${BENCHGRID_SRC:?}"
CHROME=/usr/bin/chromium
PY=/usr/bin/python3
if [ ! -x "$CHROME" ]; then
	echo "SKIP: $CHROME is not installed (scripts/setup installs it)"
	exit 77
fi
t=$(mktemp -d /tmp/bg-browser-XXXXXX)
trap 'rm -rf "$t"' EXIT
export BENCHGRID_STATE=$t/state BENCHGRID_STORE=$t/results.db
mkdir -p "$t/w" "$BENCHGRID_BUILD/browser"
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# The detector's own check: a page with a script error and a missing image.
cat >"$t/broken.html" <<'H'
<!DOCTYPE html><html><body><img src="missing.png"><script>undefinedFunction();</script></body></html>
H

cat >"$t/s.yaml" <<'Y'
benchgrid: 1
name: browser <b>check</b> & "quotes"
description: "A <script>document.title='pwned'</script> description & <img src=x onerror=alert(1)>"
matrix:
  bs: [4KiB, 64KiB]
  jobs: [1, 2]
repeat: 3
target: {kind: dir}
steps:
  - name: w
    io: {rw: randwrite, bs: "${bs}", size: 4MiB, runtime: 0.2s, time_based: true, jobs: "${jobs}"}
report:
  pivot:
    - {rows: bs, cols: jobs, value: w.iops}
  charts:
    - {x: bs, y: w.iops, series: jobs}
    - {x: jobs, y: w.iops, series: bs}
Y
"$BENCHGRID" run -q --work-dir "$t/w" -o "$t/out" "$t/s.yaml" || fail "the run failed"
page="$t/out/report.html"
[ -s "$page" ] || fail "no report.html"

# The column of w.iops (the headline of random writes of 4 and 64 KiB) in the step table, and the
# order of the cells by their mean iops, highest first, from results.json.
read -r col expected < <("$PY" - "$page" "$t/out/results.json" <<'PY'
import html.parser, json, sys
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.in_t = False; self.in_th = False; self.heads = []; self.done = False
    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == 'table' and a.get('id') == 't-step-w-io' and not self.done: self.in_t = True
        if self.in_t and tag == 'th': self.in_th = True; self.heads.append('')
    def handle_endtag(self, tag):
        if tag == 'th': self.in_th = False
        if tag == 'table' and self.in_t: self.in_t = False; self.done = True
    def handle_data(self, d):
        if self.in_th: self.heads[-1] += d
p = P(); p.feed(open(sys.argv[1]).read())
col = next(i for i, h in enumerate(p.heads) if h.startswith('iops'))
r = json.load(open(sys.argv[2]))
mean = {}
for c in r['cells']:
    for s in c['summary']:
        if s['step'] == 'w': mean[c['index']] = s['metrics']['iops']['mean']
order = sorted(mean, key=lambda i: -mean[i])
print(col, ','.join(str(i) for i in order))
PY
)
[ -n "${col:-}" ] && [ -n "${expected:-}" ] || fail "cannot read the step table's columns"

# Sorting on fixed values (issue 17's review): a run of an exec step whose
# results.json gets a metric v of 9, 10, 100, ... per cell, reported again
# by `benchgrid report`: text order differs from numeric order in v and in
# the sizes of sb, so a comparator by text (or by the leading number: 1GB
# before 16MB) fails. A bar chart (x: fs) and a line chart (x: sb) too.
cat >"$t/f.yaml" <<'Y'
benchgrid: 1
name: fixed values
matrix:
  sb: [16MB, 128MB, 1GB, 512kB]
  fs: [ext4, xfs]
# v: a metric the step declares (check refuses a report of one no step
# writes); its values are set below
hooks: |
  function v(text, result) result:metric("v", 0) end
steps:
  - name: e
    exec: {command: "true", parse: v}
report:
  pivot:
    - {rows: sb, cols: fs, value: e.v}
  charts:
    - {x: sb, y: e.v, series: fs}
    - {x: fs, y: e.v, series: sb}
Y
"$BENCHGRID" run -q --work-dir "$t/w" -o "$t/f" "$t/f.yaml" || fail "the fixed-values run failed"
"$PY" - "$t/f/results.json" <<'PY' || fail "cannot set the fixed values"
import json, sys
run = json.load(open(sys.argv[1]))
values = [9, 10, 100, 2, 20, 200, 3, 1000]
assert len(run["cells"]) == len(values), len(run["cells"])
for cell, v in zip(run["cells"], values):
    for rep in cell["reps"]:
        for step in rep:
            step["metrics"]["v"] = {"value": v, "unit": "ops"}
    cell.pop("summary", None)  # recomputed from the repetitions
json.dump(run, open(sys.argv[1], "w"))
PY
"$BENCHGRID" report "$t/f" >/dev/null || fail "benchgrid report of the fixed values failed"
# The pivot table (its first header is "sb \ fs"): its id for #sort=.
pivot=$("$PY" - "$t/f/report.html" <<'PY'
import html.parser, sys
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.id = None; self.th = None; self.found = []
    def handle_starttag(self, tag, a):
        if tag == 'table': self.id = dict(a).get('id'); self.th = None
        if tag == 'th' and self.th is None and self.id: self.th = ''
    def handle_endtag(self, tag):
        if tag == 'th' and self.th is not None and self.id:
            if self.th.strip().startswith('sb \\'): self.found.append(self.id)
            self.id = None
    def handle_data(self, d):
        if self.th is not None and self.id: self.th += d
p = P(); p.feed(open(sys.argv[1]).read())
print(p.found[0] if p.found else '')
PY
)
[ -n "$pivot" ] || fail "no pivot table of sb in the fixed report"

# Chromium as root needs --no-sandbox; a profile of its own, removed with $t.
shot="$BENCHGRID_BUILD/browser/report.png"
rm -f "$shot"
timeout 90 "$PY" "$BENCHGRID_SRC/tests/browser/browser_cdp.py" "$CHROME" "$t/profile" \
	"file://$t/broken.html" "file://$page#sort=t-step-w-io:$col:desc" "$expected" "$shot" \
	"file://$t/f/report.html#sort=$pivot:0"
[ -s "$shot" ] || fail "no screenshot"
# Small multiples: a chart of 7 series (more than 6) becomes one small chart
# per series on one scale, in report.md (consecutive chart files) and in
# report.html (one figure of 7 charts); a numeric x axis keeps lines.
cat >"$t/m.yaml" <<'Y'
benchgrid: 1
name: multiples
matrix:
  n: [1, 2]
  tag: [a, b, c, d, e, f, g]
steps:
  - name: e
    exec: {command: "true"}
report:
  charts:
    - {x: n, y: e.elapsed_s, series: tag}
Y
"$BENCHGRID" run -q --work-dir "$t/w" -o "$t/m" "$t/m.yaml" || fail "the multiples run failed"
grep -q '^\*e.elapsed_s by n and tag, one chart per value of tag:\*$' "$t/m/report.md" || fail "report.md: no small multiples line"
[ -e "$t/m/chart-7.svg" ] && [ ! -e "$t/m/chart-8.svg" ] || fail "report.md: not 7 chart files: $(ls "$t/m")"
"$PY" - "$t/m/report.html" <<'PY' || fail "report.html: small multiples"
import html.parser, sys
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.depth = 0; self.inside = []; self.lines = 0
    def handle_starttag(self, tag, a):
        cls = (dict(a).get('class') or '').split()
        if tag == 'figure' and 'multiples' in cls: self.depth = 1
        elif tag == 'figure' and 'chart' in cls and self.depth: self.inside.append(0)
        if tag == 'polyline' and self.inside: self.inside[-1] += 1
p = P(); p.feed(open(sys.argv[1]).read())
assert len(p.inside) == 7 and all(k == 1 for k in p.inside), p.inside
PY
# The policy runs the page's own script by its hash, and nothing injected
# (issue 29): a copy of report.html with a <script> and an <img onerror=>
# added to its body, the DOM after load. The page's script must have run
# (data-charts on <body>) and neither injected one; the same page with
# 'unsafe-inline' in its policy (the control) does run them, so the check
# can fail.
"$PY" - "$page" "$t/inj.html" "$t/inj-open.html" <<'PY' || fail "cannot make the injected pages"
import re, sys
h = open(sys.argv[1], encoding="utf-8").read()
inj = ('<script>document.body.setAttribute("data-pwned","script")</script>'
       '<img src="x" onerror="document.body.setAttribute(\'data-pwned-handler\',\'1\')">')
h = h.replace("<main>", "<main>" + inj, 1)
open(sys.argv[2], "w", encoding="utf-8").write(h)
o = re.sub(r"script-src [^;\"]*", "script-src 'unsafe-inline'", h, count=1)
open(sys.argv[3], "w", encoding="utf-8").write(o)
PY
dom() {
	timeout 60 "$CHROME" --headless=new --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$t/profile-dom" --virtual-time-budget=3000 --dump-dom "file://$1" 2>/dev/null
}
# the <body> tag after the scripts ran: the attributes they set
body() { dom "$1" | grep -o '<body[^>]*>' | head -1; }
b=$(body "$t/inj-open.html")
[[ $b == *data-pwned=\"script\"* && $b == *data-pwned-handler=\"1\"* ]] ||
	fail "control: with 'unsafe-inline' the injected script and handler did not run (the check cannot see them): $b"
b=$(body "$t/inj.html")
[[ $b == *data-charts=* ]] || fail "with the hashed policy the page's own script did not run: $b"
[[ $b != *data-pwned* ]] || fail "an injected script or event handler ran under the page's policy: $b"
echo "browser: the page's script runs by its hash; an injected script and onerror= do not"

# The latency charts (issue 31): a real run of examples/latency-charts.yaml
# (about 12 s), each kind (cdf, histogram, heatmap, percentiles, a second y
# axis) in its report.html with marks of non-zero size and no console
# message; each chart's screenshot in the build folder (browser/latency-*.png,
# the pictures of docs/reports.md).
"$BENCHGRID" run "$BENCHGRID_SRC/examples/latency-charts.yaml" -o "$t/lat" >"$t/lat.log" 2>&1 ||
	fail "the latency-charts example failed: $(tail -5 "$t/lat.log")"
timeout 90 "$PY" "$BENCHGRID_SRC/tests/browser/browser_cdp.py" --latency "$CHROME" "$t/profile-lat" \
	"file://$t/lat/report.html" "$BENCHGRID_BUILD/browser" ||
	fail "latency charts in report.html"
echo "browser: ok"
