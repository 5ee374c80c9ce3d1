#!/bin/bash
# Two runs and one setting (issue #12, item 11): a run holds a lock per
# setting from saving its old value until it wrote it back, so a second
# concurrent run that wants the same sysctl or queue setting is refused,
# naming the setting and the run (pid) holding it, and the value ends as it
# began. Before the lock, run B saved A's value and wrote it back after A had
# restored the original: the setting ended changed. Also: a run killed with
# -9 leaves a record; the next run is refused until `cleanup` wrote the old
# value back. Real sysctl (vm.stat_interval, harmless), real loop device,
# real processes: fx_driver (the fixtures as the runner drives them) and two
# `benchgrid run`s.
. "$(dirname "$0")/fs_lib.sh"

BG=${BENCHGRID:?}
SYSCTL=vm.stat_interval
orig=$(cat /proc/sys/vm/stat_interval)
a_val=$((orig + 2))
b_val=$((orig + 3))
now() { cat /proc/sys/vm/stat_interval; }
EXTRA_CLEANUP='echo "$orig" >/proc/sys/vm/stat_interval'

cat >"$WORK/a.yaml" <<YAML
target: {kind: dir, path: $WORK}
sysctl: {$SYSCTL: $a_val}
YAML
cat >"$WORK/b.yaml" <<YAML
target: {kind: dir, path: $WORK}
sysctl: {$SYSCTL: $b_val}
YAML

# 1. A holds the sysctl; B (another process, which would hold it too) is
#    refused and changes nothing. A ends first, then B: without the lock B
#    would write back A's value and the setting would end changed.
hold_start a "$WORK/a.yaml" || exit 1
A=$HOLD_PID
expect_eq "A applied" "$(now)" "$a_val"
"$DRIVER" setup "$WORK/b.yaml" "$WORK" --hold >"$WORK/b.out" 2>"$WORK/b.err" &
B=$!
BGPIDS="$BGPIDS $B"
for i in $(seq 1 100); do
	grep -q '^READY' "$WORK/b.out" 2>/dev/null && break
	kill -0 "$B" 2>/dev/null || break
	sleep 0.1
done
expect_eq "B changed nothing" "$(now)" "$a_val"
kill -INT "$A"
wait "$A"
expect_eq "A: exit status" "$?" 0
kill -INT "$B" 2>/dev/null
wait "$B"
expect_eq "B refused: exit status" "$?" 1
expect_grep "B refused: names the setting and A's pid" \
	"sysctl $SYSCTL: another benchgrid run (pid $A) is changing this setting" "$WORK/b.err"
expect_grep "B refused: points at the key" "b.yaml:2:10: error" "$WORK/b.err"
expect_eq "value ends as it began" "$(now)" "$orig"

# 2. Once A is gone, B runs.
"$DRIVER" setup "$WORK/b.yaml" "$WORK" >"$WORK/b2.out" 2>"$WORK/b2.err"
expect_eq "B after A: exit status" "$?" 0
expect_eq "B after A: restored" "$(now)" "$orig"

# 3. Two real `benchgrid run`s at once: the second is refused with the
#    message, the first finishes, the value ends as it began.
mkdir -p "$WORK/w"
cat >"$WORK/ra.yaml" <<YAML
name: knob-a
sysctl: {$SYSCTL: $a_val}
steps:
  - name: hold
    exec: {command: "echo held >$WORK/ra.held; sleep 3"}
YAML
sed "s/knob-a/knob-b/; s/: $a_val}/: $b_val}/; s/sleep 3/true/; s/ra.held/rb.held/" "$WORK/ra.yaml" >"$WORK/rb.yaml"
"$BG" run -q --work-dir "$WORK/w" -o "$WORK/ra" "$WORK/ra.yaml" >"$WORK/ra.log" 2>&1 &
RA=$!
BGPIDS="$BGPIDS $RA"
for i in $(seq 1 100); do [ -e "$WORK/ra.held" ] && break; sleep 0.1; done
expect_eq "run A applied" "$(now)" "$a_val"
"$BG" run -q --work-dir "$WORK/w" -o "$WORK/rb" "$WORK/rb.yaml" >"$WORK/rb.log" 2>&1
rc=$?
[ "$rc" -ne 0 ] && ok "run B fails (exit $rc)" || bad "run B exit status 0"
expect_grep "run B: the message names the setting and the other run" \
	"sysctl $SYSCTL: another benchgrid run (pid $RA)" "$WORK/rb.log"
[ ! -e "$WORK/rb.held" ] && ok "run B ran no step" || bad "run B ran its step"
wait "$RA"
expect_eq "run A: exit status" "$?" 0
expect_eq "two runs: value ends as it began" "$(now)" "$orig"

# 4. A queue setting: B's dir target lies on A's loop file system, so both
#    want the loop device's read_ahead_kb (B's consent given: tune_disk and
#    --yes, since that loop device is not B's own).
cat >"$WORK/qa.yaml" <<YAML
target: {kind: loop, size: 64MiB, fs: ext4}
queue: {read_ahead_kb: 64}
YAML
hold_start qa "$WORK/qa.yaml" || exit 1
dev=$(val blockdev "$WORK/qa.out")
mnt=$(val path "$WORK/qa.out")
ra_before=$(val pre.queue.read_ahead_kb "$WORK/qa.out")
cat >"$WORK/qb.yaml" <<YAML
target: {kind: dir, path: $mnt, tune_disk: true}
queue: {read_ahead_kb: 32}
YAML
"$DRIVER" setup "$WORK/qb.yaml" "$WORK" --yes >"$WORK/qb.out" 2>"$WORK/qb.err"
expect_eq "queue: B refused" "$?" 1
expect_grep "queue: the message names it and A's pid" \
	"queue.read_ahead_kb: another benchgrid run (pid $HOLD_PID)" "$WORK/qb.err"
expect_eq "queue: B changed nothing" "$(cat /sys/block/${dev#/dev/}/queue/read_ahead_kb)" 64
kill -INT "$HOLD_PID"
wait "$HOLD_PID"
expect_eq "queue: A exit status" "$?" 0
expect_clean "queue"

# 5. kill -9: the kernel drops the lock, but the setting is still A's value:
#    B is refused until cleanup wrote the old value back; then B runs.
hold_start k "$WORK/a.yaml" || exit 1
kill -9 "$HOLD_PID"
wait "$HOLD_PID" 2>/dev/null
expect_eq "kill -9: still changed" "$(now)" "$a_val"
"$DRIVER" setup "$WORK/b.yaml" "$WORK" >"$WORK/bk.out" 2>"$WORK/bk.err"
expect_eq "kill -9: B refused" "$?" 1
expect_grep "kill -9: B says to run cleanup" \
	"run $HOLD_PID set it to '$a_val' and ended without writing back '$orig'; run \`benchgrid cleanup\` first" \
	"$WORK/bk.err"
expect_eq "kill -9: B changed nothing" "$(now)" "$a_val"
"$DRIVER" cleanup >/dev/null 2>&1
expect_eq "kill -9: cleanup restored" "$(now)" "$orig"
"$DRIVER" setup "$WORK/b.yaml" "$WORK" >"$WORK/bk2.out" 2>"$WORK/bk2.err"
expect_eq "kill -9: B after cleanup" "$?" 0
expect_eq "kill -9: value ends as it began" "$(now)" "$orig"
expect_clean "kill -9"

fs_lib_finish
