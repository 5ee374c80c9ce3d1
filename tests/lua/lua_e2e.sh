#!/usr/bin/env bash
# Lua and exec end to end through the CLI: a !lua filter drops cells, !lua
# values reach options, an exec step's output is parsed (shipped dd parser and
# a hook function), after_step's derived metric reaches results.json,
# results.csv and report.md, finish() writes a file, and a hook error names
# the scenario's line.
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
name: lua-e2e
matrix:
  bs: [4k, 64k]
  count: [8, 16, 100000]
  filter: !lua "bs * count <= 1024 * 1024"
target: {kind: dir, path: $t/work}
steps:
  - name: dd
    exec:
      command: "dd if=/dev/zero of=f bs=\${bs} count=\${count} conv=fdatasync"
      parse: dd
      timeout: !lua "count / 4 + 5"
  - name: words
    exec: {command: "echo a b c \$BENCHGRID_BS", parse: count_words}
hooks: |
  function count_words(text, result)
    local n = 0
    for _ in text:gmatch("%S+") do n = n + 1 end
    result:metric("words", n, "")
  end
  function after_step(step, result, cell)
    if step.name == "dd" then
      result:metric("mb_s_per_kib", result.mb_s / (cell.bs / 1024), "MB/s")
    end
  end
  function setup(ctx) started = ctx.scenario end
  function finish(run)
    run:write("hello.txt", started .. " finished " .. run.scenario .. "\n")
  end
YAML
if "$bg" run -q -o "$t/out" "$t/s.yaml" >"$t/log" 2>&1; then ok run; else bad run; cat "$t/log"; fi
python3 - "$t/out/results.json" <<'PY' && ok results.json || bad results.json
import json, sys
d = json.load(open(sys.argv[1]))
cells = d["cells"]
assert len(cells) == 4, len(cells)                      # the filter dropped 2 of 6
for c in cells:
    assert c["status"] == "ok", c
    s = {x["step"]: x["metrics"] for x in c["summary"]}
    bs = 4096 if c["params"]["bs"] in ("4k", 4096) else 65536
    dd = s["dd"]
    assert dd["bytes"]["value"] == bs * int(c["params"]["count"]), dd["bytes"]
    want = dd["mb_s"]["value"] / (bs / 1024)
    assert abs(dd["mb_s_per_kib"]["value"] - want) < 1e-9 * want, (dd["mb_s_per_kib"], want)
    assert dd["mb_s_per_kib"]["unit"] == "MB/s"
    assert s["words"]["words"]["value"] == 4
PY
head -1 "$t/out/results.csv" | grep -q mb_s_per_kib && ok results.csv || bad results.csv
grep -q 'mb_s_per_kib' "$t/out/report.md" && ok report.md || bad report.md
grep -qx 'lua-e2e finished lua-e2e' "$t/out/hello.txt" && ok finish || bad finish

# An error on line 3 of the hooks block is reported at the YAML's line 10.
cat >"$t/e.yaml" <<YAML
benchgrid: 1
name: lua-err
target: {kind: dir, path: $t/work}
steps:
  - name: x
    exec: {command: "true"}
hooks: |
  function before_cell(cell)
    local t = {}
    return t.missing.field
  end
YAML
"$bg" run -q -o "$t/out2" "$t/e.yaml" >"$t/log2" 2>&1
python3 - "$t/out2/results.json" "$t/e.yaml" <<'PY' && ok error-line || { bad error-line; cat "$t/log2"; }
import json, sys
d = json.load(open(sys.argv[1]))
err = d["cells"][0]["error"]
assert sys.argv[2] + ":10:5: error: before_cell: attempt to index a nil value" in err, err
PY
# check and plan never run a process or write a file: bench.sh in the hooks'
# top level, a filter or a !lua value is refused with its position, and no
# file appears; in a hook function during run it works.
mk() { # mk NAME HOOKS FILTER VALUE
	cat >"$t/$1.yaml" <<YAML
benchgrid: 1
name: no-effects
matrix:
  n: [1]
  filter: $3
target: {kind: dir, path: $t/work}
hooks: '$2'
steps:
  - name: x
    exec: {command: "true", timeout: $4}
YAML
}
mk top "bench.sh(\"id > $t/made\")" 'true' '5s'
mk filt 'function setup() end' '!lua "bench.sh(\"id > '"$t"'/made\") == 0"' '5s'
mk val 'function setup() end' 'true' '!lua "bench.sh(\"id > '"$t"'/made\") and \"5s\""'
for f in top:7 filt:5 val:10; do
	for cmd in check plan; do
		"$bg" $cmd "$t/${f%:*}.yaml" >"$t/log3" 2>&1
		rc=$?
		if [[ $rc -eq 2 && ! -e $t/made ]] && grep -q "${f%:*}.yaml:${f#*:}:[0-9]*: error: .*bench.sh is not allowed here" "$t/log3"; then
			ok "$cmd ${f%:*}: no side effect"
		else
			bad "$cmd ${f%:*}: rc $rc"; cat "$t/log3"; ls -l "$t/made" 2>/dev/null; rm -f "$t/made"
		fi
	done
done
mk setup "function setup() bench.sh(\"id > $t/made\") end" 'true' '5s'
"$bg" check "$t/setup.yaml" >"$t/log3" 2>&1 && [[ ! -e $t/made ]] && ok "check: setup() not called" || bad "check setup"
"$bg" run -q -o "$t/out3" "$t/setup.yaml" >"$t/log3" 2>&1 && [[ -s $t/made ]] && ok "run: setup() runs bench.sh" || { bad "run setup"; cat "$t/log3"; cat "$t/setup.yaml"; }
# description: with newlines, HTML and Markdown syntax stays text in report.md.
cat >"$t/desc.yaml" <<YAML
benchgrid: 1
name: "desc \${fs}"
vars: {fs: ext4}
description: |
  Plain words & more.
  # Not a heading
  <script>alert(1)</script>
  | not | a table |
  1. not a list
      not code
  [link](http://x) **bold**
target: {kind: dir, path: $t/work}
steps:
  - name: x
    exec: {command: "true"}
YAML
"$bg" run -q -o "$t/out4" "$t/desc.yaml" >"$t/log4" 2>&1 || { bad "run desc"; cat "$t/log4"; }
python3 - "$t/out4/report.md" <<'PY' && ok "report.md: description escaped, name interpolated" || { bad "report.md description"; head -20 "$t/out4/report.md"; }
import sys
md = open(sys.argv[1]).read()
head = md.split("- Scenario:")[0]
assert head.startswith("# desc ext4\n\n"), head
lines = head.splitlines()[2:]
want = ["Plain words &amp; more.", "\\# Not a heading", "&lt;script&gt;alert(1)&lt;/script&gt;",
        "\\| not \\| a table \\|", "1\\. not a list", "not code", "\\[link\\](http://x) \\*\\*bold\\*\\*"]
assert lines[:len(want)] == want, lines
import re
assert not re.search(r"(?<!\\)<script", md) and "\n# Not" not in md
PY
# The Lua time budget holds inside C functions: a backtracking pattern (hours
# with Lua's own string.find) is stopped at the budget, in `check` (a !lua
# value) and in `run` (a hook), with the budget and the position named.
# The bounds are on the CPU time used after the budget (timed.sh says why).
# After the budget, `check` only reports (0.5 s of CPU at most), `run` also
# writes its results and reports (1 s).
. "$(dirname "$0")/timed.sh"
bt="(\"a\"):rep(40):find(\".-.-.-.-.-.-.-.-.-.-b\")"
cat >"$t/bt.yaml" <<YAML
benchgrid: 1
name: backtrack
lua_budget: 2s
target: {kind: dir, path: $t/work}
steps:
  - name: x
    exec: {command: "true", timeout: !lua '$bt and "5s" or "6s"'}
YAML
read -r rc el cpu <<<"$(timed "$t/log5" --mark 2 "$bg" check "$t/bt.yaml")"
if [[ $rc -eq 2 ]] && (($(echo "$cpu < 0.5" | bc))) &&
	grep -q "bt.yaml:7:38: error: .*stopped after the Lua time budget of 2 s" "$t/log5"; then
	ok "check: a backtracking pattern stops at the budget (${el}s, ${cpu}s of CPU after it)"
else
	bad "check backtracking: rc $rc, ${el}s and ${cpu}s of CPU after the budget"; cat "$t/log5"
fi
cat >"$t/bt2.yaml" <<YAML
benchgrid: 1
name: backtrack-hook
lua_budget: 2s
target: {kind: dir, path: $t/work}
steps:
  - name: x
    exec: {command: "true"}
hooks: |
  function after_step(step, result)
    result:metric("found", $bt and 1 or 0)
  end
YAML
read -r rc el cpu <<<"$(timed "$t/log5" --mark 2 "$bg" run -q -o "$t/out5" "$t/bt2.yaml")"
if [[ $rc -eq 1 ]] && (($(echo "$cpu < 1" | bc))) &&
	grep -q "bt2.yaml:10:5: error: after_step: stopped after the Lua time budget of 2 s" "$t/out5/results.json"; then
	ok "run: a backtracking pattern in a hook stops at the budget (${el}s, ${cpu}s of CPU after it)"
else
	bad "run backtracking: rc $rc, ${el}s and ${cpu}s of CPU after the budget"; cat "$t/log5"; grep -o '"error": *"[^"]*"' "$t/out5/results.json"
fi
# SIGINT and SIGTERM end such a hook at once (the budget is 2 minutes): the
# run tears down (its work directory is removed) and exits 130.
for sig in INT TERM; do
	sed 's/lua_budget: 2s/lua_budget: 120s/' "$t/bt2.yaml" >"$t/bt3.yaml"
	rm -rf "$t/wd" && mkdir "$t/wd"
	read -r rc el cpu <<<"$(timed "$t/log6" --kill $sig 1.5 "$bg" run -o "$t/out6$sig" --work-dir "$t/wd" "$t/bt3.yaml")"
	if [[ $rc -eq 130 ]] && (($(echo "$cpu < 2" | bc))) && grep -q "interrupted: tearing down" "$t/log6" &&
		[[ -z $(ls -A "$t/wd") ]]; then
		ok "SIG$sig ends a backtracking hook, teardown, exit 130 (${el}s, ${cpu}s of CPU after the signal)"
	else
		bad "SIG$sig: rc $rc after ${el}s, ${cpu}s of CPU after the signal"; cat "$t/log6"; ls -A "$t/wd"
	fi
done
exit $fail
