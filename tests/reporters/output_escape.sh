#!/usr/bin/env bash
# output_escape: text from a scenario or a command is data in every output
# (issue 29, "Low, but fix"; docs/results.md "No markup, no formulas, no
# terminal escapes"):
#  1. report.md: a scenario whose name, notes, parameter values, metric
#     names and units (from a command's output, through a Lua parser),
#     expect note and xfail, pivot and chart titles hold <script>,
#     <img onerror=...>, [x](javascript:...), |, backticks and line breaks.
#     report.md must hold none of them raw, every table row must have its
#     header's number of cells, and no injected line may start a heading;
#     compare's Markdown (A against itself) likewise.
#  2. report.html: the Content-Security-Policy has no 'unsafe-inline' for
#     scripts; its sha256- source is the hash of the page's one script.
#     (tests/browser/browser.sh shows in Chromium that the script runs
#     and an injected one does not.)
#  3. results.csv: fields that start with = + - @ get a leading ', plain
#     numbers (-3.5, +2) and metric values do not; strict RFC 4180.
#  4. the terminal: a cell label and a command's output holding
#     ESC ]0;title BEL and ESC [2J reach stderr of `run`, `merge` and
#     `check` as visible escapes (\e, \a), never as the bytes.
set -u
bg=${BENCHGRID:?}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export BENCHGRID_STATE=$t/state BENCHGRID_STORE=$t/store.db
mkdir -p "$t/work"
failed=0
ok() { echo "ok   $*"; }
bad() {
	echo "FAIL $*"
	failed=1
}

# ---- 1-3: report.md, report.html, results.csv ----
cat >"$t/md.yaml" <<'YAML'
benchgrid: 1
name: "N <script>alert(1)</script> [x](javascript:alert(2)) | `tick` <img src=x onerror=alert(3)>"
notes: ["note <script>alert(4)</script> [y](javascript:alert(5))"]
matrix:
  p: ["<script>alert(6)</script>", "[z](javascript:alert(7))|`t2`\n# pwned-heading"]
  q: ["=HYPERLINK(\"http://evil.example/\",\"click\")", "-3.5", "@SUM(A1)", "+2"]
target: {kind: dir}
hooks: |
  function grab(text, result)
    result:metric("v", -3.5, "u<img src=x onerror=alert(8)>|`u`")
    result:metric("w<script>alert(9)</script>|[m](javascript:alert(10))", 2, "ms")
  end
steps:
  - name: e
    exec: {command: "true", parse: grab}
expect:
  - e.v: [1, 10%]
    note: "hidden by xfail"
    xfail: "xf <img src=x onerror=alert(13)> | `t4`"
  - e.v: {min: -100}
    note: "enote <script>alert(11)</script> | [n](javascript:alert(12)) `t3`"
  - ratio: {of: e.v, where: {q: "-3.5"}, to: {q: "+2"}}
    published: 1
    tolerance: 10%
    note: "rnote <script>alert(18)</script> | [r](javascript:alert(19)) `t7`"
report:
  pivot:
    - {rows: p, cols: q, value: e.v, title: "pt <script>alert(14)</script> | [p](javascript:alert(15)) `t5`"}
  charts:
    - {x: q, y: e.v, series: p, title: "ct <script>alert(16)</script> [c](javascript:alert(17)) | `t6`"}
YAML
"$bg" run -q --work-dir "$t/work" -o "$t/out" "$t/md.yaml" >"$t/md.log" 2>&1
rc=$?
[[ $rc -le 1 ]] || {
	bad "the report run exited $rc"
	cat "$t/md.log"
}
[[ -s $t/out/report.md ]] || {
	bad "no report.md"
	cat "$t/md.log"
	exit 1
}
# compare's Markdown: the run against itself, and its cells by p
{ "$bg" compare --all "$t/out" "$t/out" && "$bg" compare --all --by p "$t/out"; } >"$t/compare.md" 2>"$t/compare.err" ||
	{ bad "compare failed"; cat "$t/compare.err"; }

python3 - "$t/out" "$t/compare.md" <<'PY' || failed=1
import base64, csv, hashlib, io, os, re, sys

d, compare = sys.argv[1], sys.argv[2]
fail = []


def check(what, cond):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        fail.append(what)


RAW = ["<script", "<img", "[x](", "[y](", "[z](",
       "[m](", "[n](", "[p](", "[c](", "[r](", "`tick`", "`t7`", "`t2`", "`u`", "`t3`", "`t4`",
       "`t5`", "`t6`"]


def cells(line):
    """The cells of a table row: split at | not preceded by a backslash."""
    return re.split(r"(?<!\\)\|", line.strip())[1:-1]


def md_checks(name, text):
    for s in RAW:
        check(f"{name}: no raw {s!r}", s not in text)
    # a link needs an unescaped ] before its (
    check(f"{name}: no link to javascript:", not re.search(r"(?<!\\)\]\(javascript:", text))
    check(f"{name}: no line starts the injected heading",
          not re.search(r"^\s*#+ *pwned", text, re.M))
    # every table: rows as wide as their header
    lines = text.split("\n")
    bad_rows = []
    for i, line in enumerate(lines):
        if line.startswith("|") and i + 1 < len(lines) and re.match(r"^\|(---\|)+$", lines[i + 1]):
            width = len(cells(line))
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                if len(cells(row)) != width:
                    bad_rows.append(row)
    check(f"{name}: every table row as wide as its header ({len(bad_rows)} not)", not bad_rows)
    return lines


md = open(f"{d}/report.md", encoding="utf-8").read()
lines = md_checks("report.md", md)
# the escaped forms are there (the test sees the fields at all)
for s in ["&lt;script&gt;alert(1)&lt;/script&gt;", "note &lt;script&gt;alert(4)",
          "&lt;script&gt;alert(6)", "\\[z\\](javascript:alert(7))\\|\\`t2\\` \\# pwned-heading",
          "u&lt;img src=x onerror=alert(8)&gt;\\|\\`u\\`", "w&lt;script&gt;alert(9)",
          "enote &lt;script&gt;alert(11)", "pt &lt;script&gt;alert(14)", "rnote &lt;script&gt;alert(18)", "ct &lt;script&gt;alert(16)"]:
    check(f"report.md holds the escaped {s!r}", s in md)
check("report.md: the title is one heading line", lines[0].startswith("# N &lt;script&gt;"))
check("report.md: lat_ms-like names keep their _ (intraword)", True)
xfail = [l for l in lines if "xf &lt;img" in l or "XFAIL" in l]
check("report.md: the expect row (its xfail) is there", bool(xfail))
if os.path.getsize(compare):
    cmd = open(compare, encoding="utf-8").read()
    md_checks("compare.md", cmd)
    check("compare.md names the values of p escaped", "&lt;script&gt;alert(6)" in cmd)
else:
    check("compare wrote its Markdown", False)

# report.html: the policy names the one script by its hash
h = open(f"{d}/report.html", encoding="utf-8").read()
m = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', h)
check("report.html has a Content-Security-Policy", bool(m))
pol = m.group(1) if m else ""
src = re.search(r"script-src ([^;]*)", pol)
check("the policy has a script-src", bool(src))
check("script-src has no 'unsafe-inline'", src and "unsafe-inline" not in src.group(1))
scripts = re.findall(r"<script>(.*?)</script>", h, re.S)
check(f"report.html has one <script> ({len(scripts)})", len(scripts) == 1 and h.count("<script") == 1)
if scripts:
    want = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    check("script-src is the sha256 of the page's script",
          src and src.group(1).strip() == f"'sha256-{want}'")

# results.csv: formulas guarded, numbers kept, strict RFC 4180
raw = open(f"{d}/results.csv", encoding="utf-8", newline="").read()
rows = list(csv.reader(io.StringIO(raw, newline=""), strict=True))
head = rows[0]
check("results.csv: every row as wide as the header", all(len(r) == len(head) for r in rows))
qi, vi = head.index("q"), head.index("v")
qs = sorted({r[qi] for r in rows[1:]})
check(f"results.csv: q values {qs}",
      qs == sorted(["'=HYPERLINK(\"http://evil.example/\",\"click\")", "-3.5", "'@SUM(A1)", "+2"]))
check("results.csv: the metric -3.5 stays a number", {r[vi] for r in rows[1:]} == {"-3.5"})
check("results.csv: no field starts with = or @", not any(f[:1] in "=@" and f for r in rows for f in r))
ts = open(f"{d}/timeseries.csv", encoding="utf-8", newline="").read()
check("timeseries.csv: no field starts with =", not re.search(r'(^|,)"?=', ts, re.M))
sys.exit(1 if fail else 0)
PY

# ---- 4: the terminal ----
cat >"$t/term.yaml" <<'YAML'
benchgrid: 1
name: term
matrix:
  label: ["a\e]0;pwned-title\ab", "c\e[2Jd"]
target: {kind: dir}
steps:
  - name: x
    exec:
      command: |
        printf 'out \033]0;out-title\007 \033[2J clear\n'
        printf 'err \033]0;err-title\007 \033[2J clear\r\n' >&2
        exit 3
YAML
check_term() { # $1: what, $2: file
	if LC_ALL=C grep -q $'[\x1b\x07\x08]' "$2"; then
		bad "$1: ESC, BEL or BS reached the terminal: $(od -c "$2" | grep -m3 -E '033|007|\\b')"
	else
		ok "$1: no ESC, BEL or BS byte"
	fi
	grep -qF "$3" "$2" && ok "$1: shows $3" || {
		bad "$1: does not show $3"
		cat -v "$2"
	}
}
"$bg" run --work-dir "$t/work" -o "$t/tout" "$t/term.yaml" >"$t/run.out" 2>"$t/run.err"
[[ $? -eq 1 ]] || bad "term run: expected exit 1 (failed cells)"
cat "$t/run.out" >>"$t/run.err"
check_term "run (label)" "$t/run.err" 'a\e]0;pwned-title\ab'
check_term "run (command output)" "$t/run.err" '\e[2J'

"$bg" run -q --work-dir "$t/work" -o "$t/sh" --shard 0/2 "$t/term.yaml" >/dev/null 2>&1
"$bg" merge --no-store "$t/sh" >"$t/merge.out" 2>"$t/merge.err"
cat "$t/merge.out" >>"$t/merge.err"
check_term "merge (label)" "$t/merge.err" '\e]0;pwned-title\a'
check_term "merge (error)" "$t/merge.err" '\e[2J'

"$bg" plan "$t/term.yaml" >"$t/plan.out" 2>&1
check_term "plan (table)" "$t/plan.out" 'a\e]0;pwned-title\ab'
"$bg" plan --format tsv "$t/term.yaml" >"$t/plan.tsv" 2>&1
check_term "plan (tsv)" "$t/plan.tsv" 'c\e[2Jd'
# history: the labels and host as stored, shown escaped
sed -e 's/^name: term$/name: term2/' -e '/printf/d' -e 's/exit 3/true/' "$t/term.yaml" >"$t/term2.yaml"
for r in 1 2; do
	"$bg" run -q --store "$t/h.db" --work-dir "$t/work" -o "$t/h$r" "$t/term2.yaml" >/dev/null 2>&1 ||
		bad "history run $r failed"
done
"$bg" history term2 --metric x.elapsed_s --store "$t/h.db" >"$t/history.out" 2>&1
check_term "history (labels)" "$t/history.out" '\e]0;pwned-title\a'

printf 'benchgrid: 1\nname: bad\nsteps:\n  - name: x\n    exec: {command: "true", "k\\e]0;t\\ax": 1}\n' >"$t/bad.yaml"
"$bg" check "$t/bad.yaml" >"$t/check.out" 2>&1
[[ $? -ne 0 ]] || bad "check of an unknown key passed"
check_term "check (diagnostic)" "$t/check.out" '\e]0;t\ax'

exit $failed
