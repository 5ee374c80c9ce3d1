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
want = ["Plain words &amp; more.", "\\# Not a heading", "\\<script\\>alert(1)\\</script\\>",
        "\\| not \\| a table \\|", "1\\. not a list", "not code", "\\[link\\](http://x) \\*\\*bold\\*\\*"]
assert lines[:len(want)] == want, lines
import re
assert not re.search(r"(?<!\\)<script", md) and "\n# Not" not in md
PY
exit $fail
