#!/bin/bash
# A step that makes 25,000 nested folders in its target folder (issue 29,
# item 3): the run writes its results and its teardown removes the tree;
# after kill -9 of a run, `benchgrid cleanup` removes it and drains the
# journal. The recursive delete overflowed the stack here (SIGSEGV, no
# results) and made every later cleanup crash the same way. benchgrid runs
# with a 2 MiB stack (the recursion needs ~5 MiB for this depth) and
# cleanup with 32 descriptors (it held one per level).
#
# The work folder is a tmpfs mounted for the test: on ext4 with online
# discard (this machine's /var/tmp) each rmdir takes ~3 ms, 80 s per tree.
. "$(dirname "$0")/../lib/fs_lib.sh"
BG=${BENCHGRID:-$BENCHGRID_BUILD/benchgrid}
DEPTH=25000

EXTRA_CLEANUP='for m in $(own_mounts | sort -r); do umount "$m" 2>/dev/null || umount -l "$m"; done'
pending() { awk '$1=="P"{p[$2]=1} $1=="D"{delete p[$2]} END{print length(p)}' "$BENCHGRID_STATE"; }

mkdir -p "$WORK/wd"
mount -t tmpfs -o size=256m tmpfs "$WORK/wd" || { bad "mount tmpfs"; fs_lib_finish; }

# The step: DEPTH folders, each entered by a relative name (the full path
# passes PATH_MAX); then, with HOLD set, it says so and waits to be killed.
cat >"$WORK/mkdeep.py" <<'P'
import os, sys, time
fd = os.open(".", os.O_RDONLY)
for i in range(int(sys.argv[1])):
    os.mkdir("d", dir_fd=fd)
    n = os.open("d", os.O_RDONLY, dir_fd=fd)
    os.close(fd)
    fd = n
print("made", sys.argv[1])
sys.stdout.flush()
if os.environ.get("HOLD"):
    open(os.environ["HOLD"], "w").close()
    time.sleep(600)
P
cat >"$WORK/s.yaml" <<Y
name: deep-tree
steps:
  - name: mkdeep
    exec: {command: "python3 $WORK/mkdeep.py $DEPTH"}
Y

echo "# 1. a run: results written, the tree removed at teardown"
(ulimit -s 2048 && "$BG" run "$WORK/s.yaml" -o "$WORK/out1" --work-dir "$WORK/wd" --quiet) >"$WORK/run1.out" 2>"$WORK/run1.err"
rc=$?
expect_eq "run exit status" "$rc" 0
[ "$rc" = 0 ] || sed 's/^/       /' "$WORK/run1.err" | tail -5
[ -f "$WORK/out1/results.json" ] && ok "results.json written" || bad "no results.json"
grep -q '"status": *"ok"' "$WORK/out1/results.json" 2>/dev/null && ok "the cell is ok" || bad "the cell is not ok"
expect_eq "the work folder is empty" "$(ls -A "$WORK/wd")" ""
expect_eq "nothing pending in the journal" "$(pending)" 0

echo "# 2. kill -9 during the step, then cleanup"
cat >"$WORK/h.yaml" <<Y
name: deep-tree-held
steps:
  - name: mkdeep
    exec: {command: "python3 $WORK/mkdeep.py $DEPTH", env: {HOLD: "$WORK/held"}}
Y
"$BG" run "$WORK/h.yaml" -o "$WORK/out2" --work-dir "$WORK/wd" --quiet >"$WORK/run2.out" 2>"$WORK/run2.err" &
RUNPID=$!
BGPIDS="$BGPIDS $RUNPID"
for _ in $(seq 600); do
	[ -e "$WORK/held" ] && break
	kill -0 "$RUNPID" 2>/dev/null || break
	sleep 0.1
done
[ -e "$WORK/held" ] && ok "the step made the tree" || bad "the step did not get to the hold"
kill -9 "$RUNPID"
wait "$RUNPID" 2>/dev/null
[ -n "$(ls -A "$WORK/wd")" ] && ok "the killed run left its work folder" || bad "nothing left to clean"
[ "$(pending)" -gt 0 ] && ok "the journal lists what it left" || bad "the journal is empty"
(ulimit -s 2048 -n 32 && "$BG" cleanup) >"$WORK/c1.out" 2>"$WORK/c1.err"
rc=$?
expect_eq "cleanup exit status" "$rc" 0
[ "$rc" = 0 ] || sed 's/^/       /' "$WORK/c1.err" | tail -5
expect_eq "the work folder is empty" "$(ls -A "$WORK/wd")" ""
expect_eq "the journal is drained" "$(pending)" 0
pgrep -f "$WORK/mkdeep.py" >/dev/null && bad "the step's process is still running" || ok "the step's process is gone"
"$BG" cleanup >"$WORK/c2.out" 2>&1
expect_eq "a second cleanup: exit status" "$?" 0
expect_grep "a second cleanup finds nothing" "cleanup: 0 actions undone" "$WORK/c2.out"

umount "$WORK/wd"
expect_clean "deep tree"
fs_lib_finish
