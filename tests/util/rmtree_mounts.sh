#!/bin/bash
# A mount ON the folder a teardown removes (issue 29, item 4), with real
# bind mounts: the top is checked like every folder below it, so the mount's
# source keeps its files; the error reaches the exit status of `run` and of
# `cleanup`; the work folder stays journalled until the folder inside it is
# removed, so that the cleanup after the unmount leaves nothing (it used to
# mark the work folder done while it was not empty, and leave it for good).
# Also a bind mount inside, at depth (the walk is iterative now).
. "$(dirname "$0")/../lib/fs_lib.sh"
BG=${BENCHGRID:-$BENCHGRID_BUILD/benchgrid}

# Our bind mounts go before the library's cleanup (its rm -rf).
EXTRA_CLEANUP='for m in $(own_mounts | sort -r); do umount "$m" 2>/dev/null || umount -l "$m"; done'

pending() { awk '$1=="P"{p[$2]=1} $1=="D"{delete p[$2]} END{print length(p)}' "$BENCHGRID_STATE"; }
precious() { # DIR: its files are all there
	[ -f "$1/keep" ] && [ -f "$1/deep/keep2" ]
}
make_src() {
	mkdir -p "$1/deep"
	echo precious >"$1/keep"
	echo precious >"$1/deep/keep2"
}

echo "# 1. cleanup: a bind mount on the journalled folder itself"
make_src "$WORK/src1"
mkdir -p "$WORK/w1/tgt"
mount --bind "$WORK/src1" "$WORK/w1/tgt" || { bad "mount --bind"; fs_lib_finish; }
printf 'P 1 1 0 rmdir %s -\nP 2 1 0 rmtree %s -\n' "$WORK/w1" "$WORK/w1/tgt" >"$BENCHGRID_STATE"
chmod 600 "$BENCHGRID_STATE"
"$BG" cleanup >"$WORK/c1.out" 2>"$WORK/c1.err"
rc=$?
[ "$rc" != 0 ] && ok "cleanup fails (exit $rc)" || bad "cleanup exit status 0"
expect_grep "the error names the mount on the top" "$WORK/w1/tgt: it is a mount point; nothing in it was touched" "$WORK/c1.err"
expect_grep "and says the work folder waits for it" "cannot remove $WORK/w1: .*could not be undone" "$WORK/c1.err"
expect_grep "and how to finish" "run \`benchgrid cleanup\` again" "$WORK/c1.err"
precious "$WORK/src1" && ok "the bind mount's source keeps its files" || bad "the source's files were deleted"
expect_eq "both actions stay pending" "$(pending)" 2
umount "$WORK/w1/tgt"
"$BG" cleanup >"$WORK/c2.out" 2>"$WORK/c2.err"
expect_eq "cleanup after the unmount: exit status" "$?" 0
[ ! -e "$WORK/w1" ] && ok "the work folder is gone too" || bad "$WORK/w1 remains: $(ls -A "$WORK/w1")"
expect_eq "nothing pending" "$(pending)" 0
precious "$WORK/src1" && ok "the former source is untouched" || bad "source deleted"

echo "# 2. cleanup: a bind mount 1,500 folders down (the path stays within PATH_MAX for mount(8))"
make_src "$WORK/src2"
mkdir -p "$WORK/w2"
python3 -c '
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
for i in range(1500):
    os.mkdir("d", dir_fd=fd)
    n = os.open("d", os.O_RDONLY, dir_fd=fd); os.close(fd); fd = n
os.mkdir("mnt", dir_fd=fd)
' "$WORK/w2" || bad "deep tree not made"
deepmnt=$WORK/w2$(printf '/d%.0s' $(seq 1500))/mnt
mount --bind "$WORK/src2" "$deepmnt" || bad "deep bind mount"
printf 'P 1 1 0 rmtree %s -\n' "$WORK/w2" >"$BENCHGRID_STATE"
"$BG" cleanup >"$WORK/c3.out" 2>"$WORK/c3.err"
rc=$?
[ "$rc" != 0 ] && ok "cleanup fails (exit $rc)" || bad "cleanup exit status 0"
expect_grep "the error names the deep mount point" "$deepmnt is a mount point; it and what lies below it were left alone" "$WORK/c3.err"
precious "$WORK/src2" && ok "the deep bind mount's source keeps its files" || bad "the source's files were deleted"
mountpoint -q "$deepmnt" && ok "the deep mount is still there" || bad "the deep mount is gone"
umount "$deepmnt"
"$BG" cleanup >"$WORK/c4.out" 2>"$WORK/c4.err"
expect_eq "cleanup after the unmount: exit status" "$?" 0
[ ! -e "$WORK/w2" ] && ok "the deep tree is gone" || bad "$WORK/w2 remains"

echo "# 3. run: a step bind-mounts a folder on \$BENCHGRID_TARGET_DIR"
: >"$BENCHGRID_STATE"
make_src "$WORK/src3"
mkdir -p "$WORK/wd"
cat >"$WORK/s.yaml" <<Y
name: mount-on-target
steps:
  - name: mount
    exec: {command: "mount --bind $WORK/src3 \"\$BENCHGRID_TARGET_DIR\""}
Y
"$BG" run "$WORK/s.yaml" -o "$WORK/out" --work-dir "$WORK/wd" --quiet >"$WORK/run.out" 2>"$WORK/run.err"
rc=$?
expect_eq "run exit status" "$rc" 1
expect_grep "run: the error names the mount on the target folder" "it is a mount point; nothing in it was touched" "$WORK/run.err"
expect_grep "run: says the teardown failed" "teardown did not undo everything" "$WORK/run.err"
[ -f "$WORK/out/results.json" ] && ok "run: the results are written" || bad "no results.json"
precious "$WORK/src3" && ok "run: the bind mount's source keeps its files" || bad "run: the source's files were deleted"
"$BG" cleanup >"$WORK/c5.out" 2>"$WORK/c5.err"
rc=$?
[ "$rc" != 0 ] && ok "cleanup while mounted fails (exit $rc)" || bad "cleanup while mounted: exit 0"
precious "$WORK/src3" && ok "cleanup: the source keeps its files" || bad "cleanup: the source's files were deleted"
for x in $(own_mounts | sort -r); do umount "$x"; done
"$BG" cleanup >"$WORK/c6.out" 2>"$WORK/c6.err"
expect_eq "cleanup after the unmount: exit status" "$?" 0
left=$(ls -A "$WORK/wd")
expect_eq "cleanup after the unmount: the work folder is gone" "$left" ""
expect_eq "nothing pending" "$(pending)" 0
precious "$WORK/src3" && ok "the former source is untouched" || bad "source deleted"
expect_clean "mounts on and in removed folders"
fs_lib_finish
