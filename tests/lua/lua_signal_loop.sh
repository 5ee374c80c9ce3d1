#!/bin/bash
# SIGTERM always ends a run with its teardown (issue 29, item 5): the second
# cell's before_cell spins inside one C call (table.move over 2^50 slots,
# budget 1 h) on a loop-device ext4 target whose first cell's step left a
# setsid sleep behind. SIGTERM stops the hook at once; the run tears down
# (no loop device, mount, process, work folder or pending journal entry
# left), keeps the first cell's results and exits 130. Before, SIGTERM was
# ignored until table.move ended (days).
. "$(dirname "$0")/../lib/fs_lib.sh"
BG=${BENCHGRID:-$BENCHGRID_BUILD/benchgrid}
. "$(dirname "$0")/timed.sh"
TAG=$$$RANDOM # the step's sleep is "sleep 1005.$TAG"
ours() { pgrep -f "[.]$TAG" | tr '\n' ' '; }
EXTRA_CLEANUP='pkill -9 -f "[.]$TAG"'

cat >"$WORK/spin.yaml" <<YAML
benchgrid: 1
name: spin-loop
lua_budget: 1h
matrix: {x: [1, 2]}
target: {kind: loop, size: 64MiB, fs: ext4}
steps:
  - name: s
    exec: {command: "setsid sleep 1005.$TAG </dev/null >/dev/null 2>&1 & echo \${x} >f"}
hooks: |
  function before_cell(cell)
    if cell.params.x == 2 then
      bench.sh("touch $WORK/spinning")
      table.move({}, 1, 2^50, 1, {})
    end
  end
YAML
# Every command ends within 60 s or is killed (a hang).
(TIMED_LIMIT=60 timed "$WORK/run.log" "$BG" run -o "$WORK/out" --work-dir "$WORK" "$WORK/spin.yaml" >"$WORK/res") &
TPID=$!
for _ in $(seq 1 900); do [ -e "$WORK/spinning" ] && break; sleep 0.1; done
[ -e "$WORK/spinning" ] && ok "the second cell's hook started" || bad "the hook did not start: $(cat "$WORK/run.log")"
RUN=$(pgrep -f "^$BG run -o $WORK/out")
BGPIDS="$BGPIDS $RUN"
[ -n "$(own_loops)" ] && ok "the loop device is bound while the hook spins" || bad "no loop device while the hook spins"
[ -n "$(ours)" ] && ok "the step's setsid sleep is running" || bad "the step's setsid sleep is not running"
sleep 0.5
[ -n "$RUN" ] && kill -TERM "$RUN"
wait $TPID
read -r rc el cpu <"$WORK/res"
expect_eq "SIGTERM: exit status" "$rc" 130
if (($(echo "$cpu < 5" | bc))); then ok "ended ${el}s after its start, ${cpu}s of CPU in all"; else bad "${cpu}s of CPU"; fi
expect_grep "the hook was stopped at its line" "spin.yaml:13:7: error: before_cell: stopped: benchgrid is stopping" "$WORK/run.log"
expect_grep "the run tore down" "interrupted: tearing down" "$WORK/run.log"
cells=$(python3 -c "import json; c = json.load(open('$WORK/out/results.json'))['cells']; print(' '.join('%s:%s' % (x['params']['x'], x['status']) for x in c))" 2>&1)
expect_eq "results: the first cell kept" "$cells" "1:ok 2:failed"
left=$(ours)
[ -z "$left" ] && ok "no process of the run is left" || bad "processes left: $left"
expect_clean "SIGTERM in a spinning hook"
fs_lib_finish
