#!/bin/bash
# What a run starts can always be ended (issue #12, item 10): the commands
# of exec steps run in a cgroup-v2 directory of the run's, so a `setsid`
# grandchild cannot escape, and each process group is journalled.
#   1. kill -9 of benchgrid during an exec step whose command left a setsid
#      sleep and a child holding a file open on the loop target: `benchgrid
#      cleanup` ends them all first, then unmounts and detaches the device.
#   2. a step's timeout ends a setsid grandchild with the step.
#   3. a normal run ends what its steps left in the background, and removes
#      its cgroup.
. "$(dirname "$0")/fs_lib.sh"
BG=${BENCHGRID:-$BENCHGRID_BUILD/benchgrid}
CG=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
if [ -z "$CG" ] || ! mkdir "$CG/bg-probe-$$" 2>/dev/null; then
	echo "SKIP: no writable cgroup v2 (the fallback without one only tracks process groups)"
	exit 77
fi
rmdir "$CG/bg-probe-$$"
TAG=$$$RANDOM # sleeps of this run are "sleep 100N.$TAG"
ours() { pgrep -f "[.]$TAG" | tr '\n' ' '; }
EXTRA_CLEANUP='pkill -9 -f "[.]$TAG"'

# 1. kill -9 mid-step, then cleanup
cat >"$WORK/kill.yaml" <<YAML
name: kill9-procs
target: {kind: loop, size: 64MiB, fs: ext4}
steps:
  - name: hold
    exec:
      command: >-
        setsid sleep 1000.$TAG </dev/null >/dev/null 2>&1 &
        (exec 3>held; sleep 1001.$TAG) </dev/null >/dev/null 2>&1 &
        echo go >"$WORK/ready"; sleep 1002.$TAG
YAML
"$BG" run -q -o "$WORK/out1" --work-dir "$WORK" "$WORK/kill.yaml" >"$WORK/run1.out" 2>"$WORK/run1.err" &
RUN=$!
BGPIDS="$BGPIDS $RUN"
for i in $(seq 1 300); do
	[ -s "$WORK/ready" ] && break
	kill -0 $RUN 2>/dev/null || break
	sleep 0.1
done
[ -s "$WORK/ready" ] || { bad "the exec step did not start"; cat "$WORK/run1.err"; fs_lib_finish; }
sleep 0.3
kill -9 $RUN
wait $RUN 2>/dev/null
left=$(ours)
[ "$(echo $left | wc -w)" -ge 3 ] && ok "kill -9: the step's 3 processes outlive benchgrid" || bad "kill -9: processes before cleanup: '$left'"
setsid_pid=$(pgrep -f "^sleep 1000[.]$TAG")
grep -q "benchgrid-$RUN/" "/proc/$setsid_pid/cgroup" 2>/dev/null && ok "the setsid grandchild is in the run's cgroup" ||
	bad "setsid grandchild's cgroup: $(cat /proc/$setsid_pid/cgroup 2>&1)"
[ -n "$(own_loops)" ] && ok "kill -9: loop device bound before cleanup" || bad "kill -9: no loop device?"
"$BG" cleanup >"$WORK/cleanup.out" 2>"$WORK/cleanup.err"
expect_eq "cleanup exit status" "$?" 0
left=$(ours)
[ -z "$left" ] && ok "cleanup: no process of the run survives" || bad "cleanup: processes left: $left"
[ -z "$(own_loops)" ] && ok "cleanup: loop device detached" || bad "cleanup: loop devices left: $(own_loops)"
if grep -q "lazily" "$WORK/cleanup.err"; then bad "cleanup had to unmount lazily: $(cat "$WORK/cleanup.err")"; else ok "cleanup: the unmount was not busy"; fi
[ ! -d "$CG/benchgrid-$RUN" ] && ok "cleanup: the run's cgroup is removed" || bad "cgroup $CG/benchgrid-$RUN remains"
expect_clean "kill -9"
rm -rf "$WORK/out1" "$WORK/ready"

# 2. and 3. a timeout ends the setsid grandchild; a run ends its leftovers
cat >"$WORK/timeout.yaml" <<YAML
name: step-timeout
target: {kind: dir}
hooks: |
  function on_error(err, cell)
    bench.sh("pgrep -f 'sleep 1003[.]$TAG' >$WORK/after-timeout.txt; true")
  end
steps:
  - name: timeout
    exec: {command: "setsid sleep 1003.$TAG </dev/null & sleep 1004.$TAG", timeout: 1s}
YAML
"$BG" run -q -o "$WORK/out2" --work-dir "$WORK" "$WORK/timeout.yaml" >"$WORK/run2.out" 2>"$WORK/run2.err"
[ -f "$WORK/after-timeout.txt" ] && ok "the timeout step failed (on_error ran)" || bad "on_error did not run: $(cat "$WORK/run2.err")"
[ ! -s "$WORK/after-timeout.txt" ] && ok "the step's timeout ended its setsid grandchild" ||
	bad "setsid grandchild alive after the step's timeout: $(cat "$WORK/after-timeout.txt")"
pkill -9 -f "[.]$TAG"

cat >"$WORK/background.yaml" <<YAML
name: step-background
target: {kind: dir}
steps:
  - name: background
    exec: "setsid sleep 1005.$TAG </dev/null >/dev/null 2>&1 & (sleep 1006.$TAG) </dev/null >/dev/null 2>&1 &"
YAML
"$BG" run -q -o "$WORK/out3" --work-dir "$WORK" "$WORK/background.yaml" >"$WORK/run3.out" 2>"$WORK/run3.err" &
RUN=$!
wait $RUN
expect_eq "a run whose step leaves processes in the background: exit status" "$?" 0
left=$(ours)
[ -z "$left" ] && ok "run end: what the steps left in the background is ended" || bad "run end: processes left: $left"
# Only this run's cgroup: other tests kill -9 runs at the same time, and
# theirs stay until their cleanup.
[ ! -d "$CG/benchgrid-$RUN" ] && ok "run end: the run's cgroup is removed" || bad "cgroup $CG/benchgrid-$RUN remains"
expect_clean "steps"
fs_lib_finish
