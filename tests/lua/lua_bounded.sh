#!/usr/bin/env bash
# The Lua budget holds in the library calls that loop in C, and no finalizer
# can hang benchgrid (issue 29, item 5), through the CLI:
#   - `check` with table.move({}, 1, 2e8, 1, {}) in a !lua value (7.6 s with
#     Lua's own against a 2 s budget) stops at the budget with the position;
#   - table.insert and table.remove on a table whose __len says 2^40,
#     likewise (in the hooks' top level; load() of 100 MiB of code, which
#     takes Lua's parser 1.5-4 s here, is in test_lb with a budget of 0.5 s);
#   - string.rep('', 2^62) is "" at once (Lua's own copies 0 bytes 2^62
#     times);
#   - a __gc that loops: refused by setmetatable with its position, in
#     `check` and in a `run` hook (the cell fails, the run ends, exit 1);
#     before, `check` hung in lua_close and `run` spun after its results;
#   - SIGTERM ends a `run` whose hook spins in table.move (budget 1 h):
#     teardown, results of the finished cell kept, exit 130.
# Bounds are on CPU time after the budget (timed.sh); every command is killed
# after 60 s (TIMED_LIMIT), which only a hang reaches.
set -u
bg=${BENCHGRID:?}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export BENCHGRID_STATE=$t/state
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
. "$(dirname "$0")/timed.sh"
export TIMED_LIMIT=60
mkdir -p "$t/work"

# expect_check_stop NAME YAML LOC: `check` exits 2 with the budget's error at
# LOC (file:line:col), using under 0.5 s of CPU after the 1 s budget.
expect_check_stop() {
	local name=$1 yaml=$2 loc=$3 rc el cpu
	read -r rc el cpu <<<"$(timed "$t/log" --mark 1 "$bg" check "$yaml")"
	if [[ $rc -eq 2 ]] && (($(echo "$cpu < 0.5" | bc))) &&
		grep -q "^$loc: error: .*stopped after the Lua time budget of 1 s" "$t/log"; then
		ok "check: $name stops at the budget (${el}s, ${cpu}s of CPU after it)"
	else
		bad "check: $name: rc $rc, ${el}s and ${cpu}s of CPU after the budget"
		cat "$t/log"
	fi
}

cat >"$t/move.yaml" <<YAML
benchgrid: 1
name: move
lua_budget: 1s
target: {kind: dir, path: $t/work}
steps:
  - name: x
    exec: {command: "true", timeout: !lua 'table.move({}, 1, 2e8, 1, {}) and "5s"'}
YAML
expect_check_stop "table.move({}, 1, 2e8, 1, {})" "$t/move.yaml" "$t/move.yaml:7:38"

hooks_case() { # NAME LUA: a scenario whose hooks' top level runs LUA on line 9
	cat >"$t/$1.yaml" <<YAML
benchgrid: 1
name: $1
lua_budget: 1s
target: {kind: dir, path: $t/work}
steps:
  - name: x
    exec: {command: "true"}
hooks: |
  $2
YAML
}
hooks_case insert "table.insert(setmetatable({}, {__len = function() return 2^40 end}), 1, 'x')"
expect_check_stop "table.insert at 1 of 2^40" "$t/insert.yaml" "$t/insert.yaml:9:3"
hooks_case remove "table.remove(setmetatable({}, {__len = function() return 2^40 end}), 1)"
expect_check_stop "table.remove at 1 of 2^40" "$t/remove.yaml" "$t/remove.yaml:9:3"

hooks_case rep "assert(#string.rep('', 2^62) + #(''):rep(2^40, '') == 0)"
read -r rc el cpu <<<"$(timed "$t/log" "$bg" check "$t/rep.yaml")"
if [[ $rc -eq 0 ]] && (($(echo "$cpu < 1" | bc))); then
	ok "check: string.rep('', 2^62) is '' at once (${cpu}s of CPU)"
else
	bad "check: string.rep of '': rc $rc after ${el}s, ${cpu}s of CPU"; cat "$t/log"
fi

# A finalizer that loops: refused where it is set, and `check` ends.
hooks_case gc "t = setmetatable({}, {__gc = function() while true do end end})"
read -r rc el cpu <<<"$(timed "$t/log" "$bg" check "$t/gc.yaml")"
if [[ $rc -eq 2 ]] && grep -q "^$t/gc.yaml:9:3: error: hooks: setmetatable: a metatable with __gc is not allowed" "$t/log"; then
	ok "check: a looping __gc is refused at its line, check ends (${el}s)"
else
	bad "check __gc: rc $rc after ${el}s"; cat "$t/log"
fi

# In `run`, set in a hook: the cell fails with the error, the run ends.
cat >"$t/gcrun.yaml" <<YAML
benchgrid: 1
name: gcrun
lua_budget: 1s
target: {kind: dir, path: $t/work}
steps:
  - name: x
    exec: {command: "true"}
hooks: |
  function before_cell(cell)
    keep = setmetatable({}, {__gc = function() while true do end end})
  end
YAML
read -r rc el cpu <<<"$(timed "$t/log" "$bg" run -q -o "$t/outgc" --work-dir "$t/work" "$t/gcrun.yaml")"
if [[ $rc -eq 1 ]] && grep -q "gcrun.yaml:10:5: error: before_cell: setmetatable: a metatable with __gc is not allowed" "$t/outgc/results.json"; then
	ok "run: a looping __gc set in a hook fails the cell, the run ends with exit 1 (${el}s)"
else
	bad "run __gc: rc $rc after ${el}s"; cat "$t/log"; grep -o '"error": *"[^"]*"' "$t/outgc/results.json"
fi

# SIGTERM during a hook that spins in table.move (budget 1 h): the second
# cell's before_cell spins; the first cell's results are kept, the second
# is failed with the stop at the line of the call.
mkdir -p "$t/wd"
cat >"$t/spin.yaml" <<YAML
benchgrid: 1
name: spin
lua_budget: 1h
matrix: {x: [1, 2]}
target: {kind: dir, path: $t/work}
steps:
  - name: s
    exec: {command: "echo \${x}"}
hooks: |
  function before_cell(cell)
    if cell.params.x == 2 then
      bench.sh("touch $t/spinning")
      table.move({}, 1, 2^50, 1, {})
    end
  end
YAML
(timed "$t/log7" "$bg" run -o "$t/out7" --work-dir "$t/wd" "$t/spin.yaml" >"$t/res7") &
tpid=$!
for _ in $(seq 1 600); do [[ -e $t/spinning ]] && break; sleep 0.1; done
sleep 0.5
bgpid=$(pgrep -f "^$bg run -o $t/out7")
[[ -n $bgpid ]] && kill -TERM "$bgpid"
wait $tpid
read -r rc el cpu <"$t/res7"
cells=$(python3 -c "import json; c = json.load(open('$t/out7/results.json'))['cells']; print(' '.join('%s:%s' % (x['params']['x'], x['status']) for x in c))" 2>&1)
if [[ -n $bgpid && $rc -eq 130 ]] && grep -q "interrupted: tearing down" "$t/log7" && [[ -z $(ls -A "$t/wd") ]] &&
	[[ $cells == "1:ok 2:failed" ]] &&
	grep -q "spin.yaml:13:7: error: before_cell: stopped: benchgrid is stopping" "$t/log7"; then
	ok "SIGTERM ends a hook spinning in table.move: teardown, cell 1 kept, exit 130 (${el}s after the start)"
else
	bad "SIGTERM in table.move: pid '$bgpid', rc $rc after ${el}s, cells '$cells', work dir: $(ls -A "$t/wd")"
	cat "$t/log7"
fi
exit $fail
