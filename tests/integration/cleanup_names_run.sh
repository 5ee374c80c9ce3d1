#!/bin/bash
# cleanup names the run that left each action (issue #27: "list each action
# (run id, pid, what)"):
#   1. a real run on a loop target, killed with kill -9 in its second cell:
#      `cleanup --dry-run` lists every action with the run's pid, id and
#      output folder and changes nothing (loop device, mount, process and
#      journal stay); `cleanup` undoes them and names the run the same way.
#      The id is the one the store gives the run (FNV-1a of the scenario's
#      name and hash, the start and the host, computed here from
#      results.json).
#   2. a journal written before runs were named (its R records removed)
#      still cleans up, naming the run by its pid only.
. "$(dirname "$0")/fs_lib.sh"
BG=${BENCHGRID:-$BENCHGRID_BUILD/benchgrid}
command -v python3 >/dev/null || { echo "SKIP: python3 (the run id oracle) is missing"; exit 77; }
TAG=$$$RANDOM # the held step's sleep is "sleep 1000.$TAG"
ours() { pgrep -f "[.]$TAG" | tr '\n' ' '; }
EXTRA_CLEANUP='pkill -9 -f "[.]$TAG"'

cat >"$WORK/kill.yaml" <<YAML
name: kill9-names-run
target: {kind: loop, size: 64MiB, fs: ext4}
matrix:
  n: [1, 2]
steps:
  - name: hold
    exec: 'if [ \${n} = 2 ]; then echo go >"$WORK/ready"; sleep 1000.$TAG; fi'
YAML

# Run kill.yaml into $WORK/$1 and kill -9 it in its second cell's step.
run_and_kill() {
	rm -f "$WORK/ready"
	"$BG" run -q -o "$WORK/$1" --work-dir "$WORK" "$WORK/kill.yaml" >"$WORK/$1.out" 2>"$WORK/$1.err" &
	RUN=$!
	BGPIDS="$BGPIDS $RUN"
	local i
	for i in $(seq 1 600); do
		[ -s "$WORK/ready" ] && break
		kill -0 $RUN 2>/dev/null || break
		sleep 0.1
	done
	[ -s "$WORK/ready" ] || { bad "$1: the second cell's step did not start"; cat "$WORK/$1.err"; fs_lib_finish; }
	sleep 0.3
	kill -9 $RUN
	wait $RUN 2>/dev/null
}

# 1. kill -9, cleanup --dry-run, cleanup
run_and_kill out1
OUT1=$(cd "$WORK/out1" && pwd -P)
ID=$(python3 - "$WORK/out1/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
h = 1469598103934665603
for p in (r["scenario"]["name"], r["scenario"]["hash"], "%.6f" % r["started"],
          r["environment"]["info"]["machine.host"]):
    for b in p.encode() + b"\0":
        h = ((h ^ b) * 1099511628211) & (2**64 - 1)
print("%016x" % h)
PY
)
[ ${#ID} = 16 ] && ok "run id from results.json: $ID" || bad "no run id from $WORK/out1/results.json: '$ID'"
loops=$(own_loops)
mounts=$(own_mounts)
[ -n "$loops" ] && [ -n "$mounts" ] && [ -n "$(ours)" ] && ok "kill -9 left a loop device, a mount and the step's process" ||
	bad "kill -9 left: loops '$loops', mounts '$mounts', processes '$(ours)'"
cp "$BENCHGRID_STATE" "$WORK/journal.before"

"$BG" cleanup --dry-run >"$WORK/dry.out" 2>"$WORK/dry.err"
expect_eq "cleanup --dry-run exit status" "$?" 0
head="run $RUN (id $ID, output $OUT1): "
n=$(grep -c '^would undo ' "$WORK/dry.out")
[ "$n" -ge 4 ] && ok "cleanup --dry-run lists $n actions" || bad "cleanup --dry-run lists $n actions"
expect_eq "every listed action names the run (pid, id, output folder)" \
	"$(grep '^would undo ' "$WORK/dry.out" | grep -cF "would undo $head")" "$n"
expect_grep "the dry run lists the unmount" "^would undo ${head//./[.]}umount " "$WORK/dry.out"
expect_grep "the dry run lists the loop device" "^would undo ${head//./[.]}losetup-d /dev/loop" "$WORK/dry.out"
expect_grep "the dry run counts them" "^cleanup --dry-run: $n actions would be undone; nothing was changed" "$WORK/dry.out"
expect_eq "cleanup --dry-run: the loop device stays" "$(own_loops)" "$loops"
expect_eq "cleanup --dry-run: the mount stays" "$(own_mounts)" "$mounts"
[ -n "$(ours)" ] && ok "cleanup --dry-run: the step's process lives" || bad "cleanup --dry-run ended the step's process"
cmp -s "$BENCHGRID_STATE" "$WORK/journal.before" && ok "cleanup --dry-run: the journal is unchanged" ||
	bad "cleanup --dry-run changed the journal"

"$BG" cleanup >"$WORK/cleanup.out" 2>"$WORK/cleanup.err"
expect_eq "cleanup exit status" "$?" 0
expect_eq "cleanup undoes what the dry run listed, naming the run" \
	"$(grep -cF "undone $head" "$WORK/cleanup.out")" "$n"
if [ "$(sed -n 's/^undone //p' "$WORK/cleanup.out")" = "$(sed -n 's/^would undo //p' "$WORK/dry.out")" ]; then
	ok "cleanup undoes the actions the dry run listed, in the same order"
else
	bad "cleanup and the dry run differ:"
	diff "$WORK/dry.out" "$WORK/cleanup.out" | sed 's/^/       /'
fi
expect_grep "cleanup counts them" "^cleanup: $n actions undone" "$WORK/cleanup.out"
[ -z "$(ours)" ] && ok "cleanup ended the step's process" || bad "processes left: $(ours)"
expect_clean "kill -9 then cleanup"
rm -rf "$WORK/out1"

# 2. a journal from before runs were named: the pid only
run_and_kill out2
grep -q '^R ' "$BENCHGRID_STATE" && ok "the journal names the run (an R record)" || bad "no R record in the journal"
sed -i '/^R /d' "$BENCHGRID_STATE"
"$BG" cleanup >"$WORK/old.out" 2>"$WORK/old.err"
expect_eq "cleanup of an old journal: exit status" "$?" 0
n=$(grep -c '^undone ' "$WORK/old.out")
[ "$n" -ge 4 ] && ok "cleanup of an old journal undoes $n actions" || bad "cleanup of an old journal undoes $n actions"
expect_eq "each named by the pid only" "$(grep -c "^undone run $RUN: " "$WORK/old.out")" "$n"
[ -z "$(ours)" ] && ok "old journal: the step's process ended" || bad "processes left: $(ours)"
expect_clean "old journal"
fs_lib_finish
