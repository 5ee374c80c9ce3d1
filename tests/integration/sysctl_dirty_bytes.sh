#!/bin/bash
# vm.dirty_bytes and vm.dirty_background_bytes (specs/usb-nvme-slc-cache.yaml
# scales the page cache's dirty limits with them): the kernel keeps each
# *_bytes setting and its *_ratio as alternatives (writing one zeroes the
# other) and refuses to have 0 written to a *_bytes one, so restoring the
# old "0" failed and left both at 0. Now the ratio is journalled first and
# restored last, after a normal run and by `cleanup` after kill -9.
set -u
BG=${BENCHGRID:?}
if [[ $(id -u) -ne 0 ]]; then echo "skip: needs root"; exit 77; fi
WORK=$(mktemp -d /var/tmp/sysctl-dirty.XXXXXX)
r0=$(cat /proc/sys/vm/dirty_ratio) b0=$(cat /proc/sys/vm/dirty_background_ratio)
B0=$(cat /proc/sys/vm/dirty_bytes) BB0=$(cat /proc/sys/vm/dirty_background_bytes)
if [[ $B0 != 0 || $BB0 != 0 ]]; then echo "skip: this machine uses vm.dirty_bytes already"; exit 77; fi
trap 'sysctl -q vm.dirty_ratio=$r0 vm.dirty_background_ratio=$b0; rm -rf "$WORK"' EXIT
fail=0
expect_eq() { if [[ $2 == "$3" ]]; then echo "ok   $1"; else echo "FAIL $1: '$2' != '$3'"; fail=1; fi; }
now() { echo "$(cat /proc/sys/vm/dirty_bytes) $(cat /proc/sys/vm/dirty_ratio) $(cat /proc/sys/vm/dirty_background_bytes) $(cat /proc/sys/vm/dirty_background_ratio)"; }
cat >"$WORK/s.yaml" <<YAML
benchgrid: 1
target: {kind: dir, path: $WORK}
sysctl: {vm.dirty_bytes: 67108864, vm.dirty_background_bytes: 16777216}
steps:
  - {name: show, exec: "echo \$(cat /proc/sys/vm/dirty_bytes) \$(cat /proc/sys/vm/dirty_background_bytes) >$WORK/seen; sleep \${hold}"}
vars: {hold: 0}
YAML
"$BG" run -q -o "$WORK/o1" "$WORK/s.yaml" >"$WORK/log1" 2>&1
expect_eq "run exit status" "$?" 0
expect_eq "applied during the step" "$(cat "$WORK/seen")" "67108864 16777216"
expect_eq "restored after the run (bytes ratio bg_bytes bg_ratio)" "$(now)" "0 $r0 0 $b0"
grep -q "cannot restore" "$WORK/log1" && { echo "FAIL: $(grep 'cannot restore' "$WORK/log1")"; fail=1; }
# kill -9 during the step, then cleanup
rm -f "$WORK/seen"
"$BG" run -q -o "$WORK/o2" -D hold=30 "$WORK/s.yaml" >"$WORK/log2" 2>&1 &
pid=$!
for _ in $(seq 1 100); do [[ -s $WORK/seen ]] && break; sleep 0.1; done
kill -9 $pid; wait $pid 2>/dev/null
expect_eq "still changed after kill -9" "$(now)" "67108864 0 16777216 0"
"$BG" cleanup >"$WORK/log3" 2>&1
expect_eq "cleanup exit status" "$?" 0
expect_eq "restored by cleanup" "$(now)" "0 $r0 0 $b0"
exit $fail
