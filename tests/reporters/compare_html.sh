#!/bin/bash
# compare.html (issue 31): `benchgrid compare` writes the page beside its
# Markdown. Real runs of a tiny exec scenario (repeat 5, two cells); B is
# then made from A's results.json with each cell's samples scaled by a
# fixed factor (cell 0 x3, cell 1 x1.25), so the ratios, their order and
# the verdicts are fixed by the numbers, not by the machine's load.
#  - default: compare.html in the current directory; --html FILE; --no-html
#    writes none; the Markdown on stdout is the same either way;
#  - the page: one self-contained file (one <script>, the one the CSP names
#    by its hash; no src= or href= that leaves the file), the verdict lines
#    of the Markdown ("slower (within-run noise only)"), a forest plot with
#    one mark per metric row of the Markdown table with a ratio, sorted by
#    effect, each mark's ratio the table's B/A; bars of A and B per metric;
#  - --by PARAM within one run writes the page too;
#  - file safety: a link planted at the page's path is replaced, its
#    target untouched; --html into a missing folder is a clear error with
#    exit 2, the Markdown still printed; the default page in a folder it
#    cannot write is a warning and changes no exit status.
set -euo pipefail
: "${BENCHGRID:?}"
t=$(mktemp -d /tmp/bg-cmphtml-XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$t"' EXIT
export BENCHGRID_STATE=$t/state BENCHGRID_STORE=$t/store.db
mkdir -p "$t/w" "$t/cwd"
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
bg() { "$BENCHGRID" "$@"; }

cat >"$t/s.yaml" <<'Y'
name: page
repeat: 5
matrix:
  k: [x, y]
steps:
  - name: nap
    exec: {command: "sleep 0.01"}
Y
bg run --work-dir "$t/w" -q -o "$t/a" "$t/s.yaml"
mkdir -p "$t/b"
python3 - "$t/a/results.json" "$t/b/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for cell, f in zip(r["cells"], (3.0, 1.25)):
    for rep in cell["reps"]:
        for step in rep:
            m = step["metrics"]["elapsed_s"]
            m["value"] = m["value"] * f
    cell.pop("summary", None)
r["started"] = r.get("started", 0) + 10
json.dump(r, open(sys.argv[2], "w"))
PY

(cd "$t/cwd" && bg compare "$t/a" "$t/b" >"$t/cmp.md" 2>"$t/err") || fail "compare: $(cat "$t/err")"
[ -s "$t/cwd/compare.html" ] || fail "no compare.html in the current directory"
bg compare --no-html "$t/a" "$t/b" >"$t/nohtml.md" 2>"$t/err" || fail "compare --no-html"
cmp -s "$t/cmp.md" "$t/nohtml.md" || fail "the Markdown differs with and without the page"
bg compare --html "$t/page.html" "$t/a" "$t/b" >/dev/null || fail "--html FILE"
cmp -s "$t/page.html" "$t/cwd/compare.html" || fail "--html FILE: not the same page"
bg compare --all --html="$t/all.html" "$t/a" "$t/b" >"$t/all.md" || fail "--all --html=FILE"

# check PAGE MARKDOWN ROWS: the page against the Markdown it came from.
check() {
	python3 - "$@" <<'PY'
import base64, hashlib, html, math, re, sys
page, md, want = open(sys.argv[1]).read(), open(sys.argv[2]).read(), int(sys.argv[3])
# self-contained: one script, the one the policy names by its hash
scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
assert len(scripts) == 1, len(scripts)
h = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
assert "script-src 'sha256-%s'" % h in page, "CSP hash"
assert "default-src 'none'" in page
assert not re.search(r"\b(src|href)=\"(?!#)", page), re.findall(r"\b(?:src|href)=\"[^\"]*\"", page)[:3]
assert "<link" not in page and "@import" not in page
# the verdict lines as the Markdown gives them
for line in re.findall(r"^- (\d+ .*)$", md.split("## Verdicts")[1].split("##")[0], re.M):
    text = re.sub(r"\*\*|`", "", line)
    assert text in html.unescape(re.sub(r"<[^>]+>", "", page)), text
# the forest: one mark per metric with a ratio, largest |log B/A| first
forest = re.search(r'<svg class="forest".*?</svg>', page, re.S).group(0)
ratios = [float(x) for x in re.findall(r'<g class="series"[^>]* data-ratio="([^"]+)"', forest)]
marks = forest.count('<rect class="ratio"')
table = [l for l in md.split("## Metrics")[1].split("\n\n")[1].splitlines()[2:]]
tab = [float(c) for c in (l.split(" | ")[7] for l in table) if c != "-"]
assert len(ratios) == marks == len(tab) == want, (len(ratios), marks, len(tab), want)
eff = [abs(math.log(r)) for r in ratios]
assert eff == sorted(eff, reverse=True), ratios
assert sorted(round(r, 3) for r in ratios) == sorted(tab), (ratios, tab)
# bars: one chart per metric, A and B bars for every pair
metrics = {l.split(" | ")[3].split(" (")[0] for l in table}
assert page.count('<svg class="cmp-bars"') == len(metrics), (page.count("cmp-bars"), metrics)
print("%d marks sorted by effect: %s" % (marks, ", ".join("%.3f" % r for r in ratios[:4])))
PY
}
check "$t/page.html" "$t/cmp.md" 2 || fail "compare.html"
grep -q 'data-verdict="slower"' "$t/page.html" || fail "no slower mark"
grep -q '(within-run noise only)' "$t/page.html" || fail "the noise of the verdict"
grep -q '^- 0 `[0-9a-f]*` k=x: \*\*slower\*\* (within-run noise only): nap.elapsed_s +200.0% (p = 0.0079)$' "$t/cmp.md" ||
	fail "the fixed verdict: $(grep -A3 Verdicts "$t/cmp.md")"
python3 - "$t/page.html" <<'PY' || fail "the first mark is cell 0's (x3)"
import re, sys
p = open(sys.argv[1]).read()
first = re.search(r'<svg class="forest".*?<g class="series" data-label="([^"]*)" data-ratio="([^"]+)"', p, re.S)
assert first.group(1).startswith("0 k=x") and abs(float(first.group(2)) - 3) < 1e-9, first.groups()
PY
n=$(python3 -c 'import sys; t=open(sys.argv[1]).read().split("## Metrics")[1].split("\n\n")[1].splitlines()[2:]; print(sum(1 for l in t if l.split(" | ")[7] != "-"))' "$t/all.md")
check "$t/all.html" "$t/all.md" "$n" || fail "compare --all: compare.html"

# --by within one run: the same page, the pair of cells labelled 0->1
bg compare --by k --html "$t/by.html" "$t/b" >"$t/by.md" || fail "--by k"
check "$t/by.html" "$t/by.md" 1 || fail "--by: compare.html"
grep -q 'data-label="0-&gt;1 k=y' "$t/by.html" || fail "--by: the pair's label"

# A link at the page's path is replaced, never written through.
echo keep >"$t/victim"
ln -s "$t/victim" "$t/link.html"
bg compare --html "$t/link.html" "$t/a" "$t/b" >/dev/null || fail "--html over a link"
[ "$(cat "$t/victim")" = keep ] || fail "the link's target was written"
[ -f "$t/link.html" ] && [ ! -L "$t/link.html" ] || fail "the link was not replaced by the page"
# A folder that does not exist: exit 2, a clear error, the Markdown printed.
set +e
bg compare --html "$t/nope/c.html" "$t/a" "$t/b" >"$t/out" 2>"$t/err"
rc=$?
set -e
[ "$rc" = 2 ] || fail "missing folder: exit $rc"
grep -q "cannot write $t/nope/c.html" "$t/err" || fail "missing folder: $(cat "$t/err")"
grep -q '^## Verdicts' "$t/out" || fail "missing folder: the Markdown"
for bad in "--html" "--html="; do
	set +e
	bg compare $bad "$t/a" "$t/b" >/dev/null 2>"$t/err"
	rc=$?
	set -e
	[ "$rc" = 2 ] || fail "$bad: exit $rc"
done
grep -q "compare: --html expects a file name" "$t/err" || fail "--html= message: $(cat "$t/err")"
# The default page in a folder it cannot write (as nobody: root writes
# anywhere): a warning, the comparison and its exit status stand.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	mkdir -p "$t/ro"
	chmod 755 "$t" "$t/a" "$t/b"
	chmod 644 "$t/a/results.json" "$t/b/results.json"
	chmod 555 "$t/ro"
	set +e
	(cd "$t/ro" && setpriv --reuid=65534 --regid=65534 --clear-groups "$BENCHGRID" compare --no-store \
		"$t/a" "$t/b" >"$t/out" 2>"$t/err")
	rc=$?
	set -e
	[ "$rc" = 0 ] || fail "unwritable current directory: exit $rc: $(cat "$t/err")"
	grep -q "warning: compare: compare.html not written; the comparison above stands" "$t/err" ||
		fail "unwritable current directory: $(cat "$t/err")"
	grep -q '^## Verdicts' "$t/out" || fail "unwritable current directory: no Markdown"
fi
echo "compare.html: ok"
