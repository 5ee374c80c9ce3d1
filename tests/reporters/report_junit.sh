#!/usr/bin/env bash
# report_junit: `report.formats` and junit.xml on real runs (issue 30).
#  1. `check` refuses an unknown format at its file:line:col, with the
#     known ones;
#  2. a real run (exec steps that pass and fail, a cell whose command exits
#     3 with control characters, invalid UTF-8 and markup on stderr;
#     expect: rows PASS, FAIL, XFAIL, XPASS, strict XPASS, SKIP, a ratio and
#     an order) with `formats: [junit]` writes junit.xml and no other
#     report; junit.xml is valid against tests/reporters/junit.xsd
#     (xmllint) and a JUnit consumer (python3-junitparser) reads the counts
#     and verdicts this test expects, attributes and test cases agreeing;
#  3. `benchgrid report DIR` honours formats from results.json, and its
#     junit.xml stays valid with an error holding U+0001, U+FFFE, U+FFFF
#     and "]]>";
#  4. `merge` of two shares honours it too.
set -u
bg=${BENCHGRID:?} src=${BENCHGRID_SRC:?}
py=/usr/bin/python3
if ! command -v xmllint >/dev/null || ! "$py" -c 'import junitparser' 2>/dev/null; then
	echo "SKIP: needs xmllint (libxml2-utils) and python3-junitparser (scripts/setup installs them)"
	exit 77
fi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export BENCHGRID_STATE=$t/state
mkdir -p "$t/work"
failed=0
ok() { echo "ok   $*"; }
bad() {
	echo "FAIL $*"
	failed=1
}

# ---- 1: an unknown format at check ----
cat >"$t/bad.yaml" <<'YAML'
benchgrid: 1
name: bad-format
target: {kind: dir}
steps:
  - {name: e, exec: {command: "true"}}
report:
  formats: [junit, jnuit]
YAML
if "$bg" check "$t/bad.yaml" >"$t/bad.out" 2>&1; then
	bad "check accepted an unknown format"
elif grep -qF "bad.yaml:7:20: error: report.formats: unknown value 'jnuit'; did you mean 'junit'? (one of: csv, timeseries, markdown, html, expect-json, junit)" "$t/bad.out"; then
	ok "check refuses an unknown format at its position, with the known ones"
else
	bad "check's message for an unknown format:"
	cat "$t/bad.out"
fi

# ---- 2: a real run ----
cat >"$t/s.yaml" <<'YAML'
benchgrid: 1
name: 'junit <&> "demo" v1.2'
matrix:
  mode: [fast, slow, broken]
target: {kind: dir}
hooks: |
  function grab(text, result)
    local v = text:match("v=(%d+)")
    if not v then error("no v= in: " .. text) end
    result:metric("v", tonumber(v), "ms")
  end
steps:
  - name: e
    exec:
      command: 'case ${mode} in fast) echo v=10;; slow) echo v=50;; *) printf "broken \001\033[31m \377\376 ]]> & <b>\n" >&2; exit 3;; esac'
      parse: grab
  - name: w
    when: !lua "mode ~= 'slow'"
    exec: {command: "echo v=1", parse: grab}
report:
  formats: [junit]
expect:
  - {where: {mode: fast}, e.v: [10, 10%]}
  - {where: {mode: slow}, e.v: [10, 10%]}
  - {where: {mode: slow}, e.v: [10, 10%], xfail: "slow on purpose"}
  - {where: {mode: fast}, e.v: [10, 10%], xfail: true}
  - {where: {mode: fast}, e.v: [10, 10%], xfail: "fixed?", strict: true}
  - {where: {mode: broken}, e.v: [10, 10%]}
  - {where: {mode: slow}, w.v: [1, 10%]}
  - ratio: {of: e.v, where: {mode: slow}, to: {mode: fast}}
    published: 5
    tolerance: 10%
    bind: none
  - order: [{mode: fast}, "<", {mode: slow}]
    metric: e.v
    bind: none
YAML
"$bg" run -q --work-dir "$t/work" -o "$t/out" "$t/s.yaml" >"$t/run.log" 2>&1
rc=$?
[[ $rc == 1 ]] && ok "the run exits 1 (a failed cell, a strict XPASS)" || bad "the run exited $rc"
if [[ ! -s $t/out/junit.xml ]]; then
	bad "no junit.xml"
	cat "$t/run.log"
	exit 1
fi
others=$(cd "$t/out" && ls results.csv timeseries.csv report.md report.html expect.json 2>/dev/null)
[[ -z $others && -s $t/out/results.json ]] && ok "formats: [junit] writes junit.xml and results.json, no other report" ||
	bad "other reports written: $others"

# The JUnit consumer's view: suites, counts, and each test case's verdict.
check_junit() { # FILE LABEL EXTRA...
	"$py" - "$@" <<'P'
import sys
from junitparser import JUnitXml, TestSuite, Failure, Error, Skipped
path, label, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
xml = JUnitXml.fromfile(path)
bad = []
def want(cond, what):
    if not cond:
        bad.append(what)
scen = 'junit <&> "demo" v1.2'
suites = {s.name: s for s in xml}
want(set(suites) == {scen + ": expect", scen + ": cells"}, f"suites {sorted(suites)}")
def verdict(case):
    r = case.result
    if not r:
        return "pass"
    r = r[0]
    return {Failure: "failure", Error: "error", Skipped: "skipped"}[type(r)]
cases = {}
tot = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
for s in xml:
    n = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for c in s:
        v = verdict(c)
        cases[c.name] = (c, v)
        n["tests"] += 1
        for k, name in (("failures", "failure"), ("errors", "error"), ("skipped", "skipped")):
            n[k] += v == name
    for k in n:
        want(getattr(s, k) == n[k], f"suite {s.name}: {k}={getattr(s, k)} but {n[k]} test cases")
        tot[k] += n[k]
for k in tot:
    want(int(xml._elem.get(k)) == tot[k], f"testsuites {k}={xml._elem.get(k)} but {tot[k]}")
want(tot == {"tests": 10, "failures": 3, "errors": 1, "skipped": 2}, f"counts {tot}")
expect = {
    "#1 e.v, cell 0 (mode=fast)": "pass",
    "#2 e.v, cell 1 (mode=slow)": "failure",
    "#3 e.v, cell 1 (mode=slow)": "skipped",
    "#4 e.v, cell 0 (mode=fast)": "pass",
    "#5 e.v, cell 0 (mode=fast)": "failure",
    "#6 e.v, cell 2 (mode=broken)": "failure",
    "#7 w.v, cell 1 (mode=slow)": "skipped",
    "#8 ratio of e.v: {mode: slow} / {mode: fast}": "pass",
    "#9 order of e.v: {mode: fast} < {mode: slow}": "pass",
    "cell 2 (mode=broken)": "error",
}
for name, v in expect.items():
    got = cases.get(name)
    want(got and got[1] == v, f"{name}: {got[1] if got else 'missing'}, want {v}")
for name, (c, v) in cases.items():
    want(c.classname == "junit <&> \"demo\" v1_2." + ("cells" if name.startswith("cell") else "expect"),
         f"{name}: classname {c.classname}")
def result(name):
    return cases[name][0].result[0]
want(result("#3 e.v, cell 1 (mode=slow)").message == "XFAIL: slow on purpose", "#3's reason")
want(result("#7 w.v, cell 1 (mode=slow)").message.startswith("SKIP: step 'w' skipped: when:"), "#7's reason")
want(result("#2 e.v, cell 1 (mode=slow)").message == "FAIL: measured 50 ms, expected 10, bounds [9, 11]",
     f"#2's message: {result('#2 e.v, cell 1 (mode=slow)').message}")
want(result("#5 e.v, cell 0 (mode=fast)").type == "XPASS", "#5 is a strict XPASS")
err = result("cell 2 (mode=broken)")
want(err.message.startswith("step e: exec: exit status 3"), f"the cell's message: {err.message!r}")
text = err.text or ""
want("]]> & <b>" in text, f"the cell's error text: {text!r}")
want(float(cases["cell 2 (mode=broken)"][0].time) > 0, "the failed cell's time")
for ch in extra:  # text that must appear in the error (Python escapes)
    ch = ch.encode("ascii").decode("unicode_escape")
    want(ch in text, f"{ch!r} not in the error text {text!r}")
want(not any(ord(ch) < 0x20 and ch not in "\t\n\r" or ch in "\ufffe\uffff" for ch in text),
     f"a character XML does not allow: {text!r}")
if bad:
    print(f"FAIL {label}: " + "; ".join(bad))
    sys.exit(1)
print(f"ok   {label}: 10 test cases read by junitparser, counts and verdicts as expected")
P
}
validate() { # FILE LABEL
	if xmllint --noout --schema "$src/tests/reporters/junit.xsd" "$1" 2>"$t/xmllint.err"; then
		ok "$2: junit.xml is valid against junit.xsd (xmllint)"
	else
		bad "$2: xmllint:"
		cat "$t/xmllint.err"
	fi
}
validate "$t/out/junit.xml" run
check_junit "$t/out/junit.xml" run '\ufffd' || failed=1

# ---- 3: benchgrid report DIR honours formats; odd text stays valid XML ----
"$py" - "$t/out/results.json" <<'P'
import json, sys
p = sys.argv[1]
r = json.load(open(p))
r["report"]["formats"] = ["junit", "csv"]
for c in r["cells"]:
    if c.get("status") == "failed":
        c["error"] = "step e: exec: exit status 3: \u0001 \ufffe \uffff ]]> & <b> \u00fc\r\ntwo"
json.dump(r, open(p, "w"))
P
rm -f "$t/out/junit.xml"
if "$bg" report "$t/out" >"$t/report.log" 2>&1 && [[ -s $t/out/junit.xml && -s $t/out/results.csv && ! -e $t/out/report.md ]]; then
	ok "report DIR writes what results.json's formats names (junit, csv), nothing else"
else
	bad "report DIR and formats:"
	cat "$t/report.log"
	ls "$t/out"
fi
validate "$t/out/junit.xml" report
check_junit "$t/out/junit.xml" report '\ufffd \ufffd \ufffd ]]> & <b> \u00fc\r\ntwo' || failed=1

# ---- 4: merge of two shares ----
"$bg" run -q --work-dir "$t/work" -o "$t/sh" --shard 0/2 "$t/s.yaml" >"$t/sh0.log" 2>&1
"$bg" run -q --work-dir "$t/work" -o "$t/sh" --shard 1/2 "$t/s.yaml" >"$t/sh1.log" 2>&1
rm -f "$t/sh/junit.xml"
"$bg" merge -q "$t/sh" >"$t/merge.log" 2>&1
if [[ -s $t/sh/junit.xml && ! -e $t/sh/report.md && ! -e $t/sh/results.csv ]]; then
	ok "merge writes junit.xml alone, as formats says"
	check_junit "$t/sh/junit.xml" merge || failed=1
else
	bad "merge and formats:"
	cat "$t/merge.log"
	ls "$t/sh"
fi

if ((failed)); then
	echo "report_junit: FAILED"
	exit 1
fi
echo "report_junit: ok"
