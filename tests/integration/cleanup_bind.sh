#!/bin/bash
# Removing a work directory never deletes through a bind mount inside it
# (issue #12, item 12): a bind mount of the same file system has the same
# device number, so only a mount-point check (openat2 RESOLVE_NO_XDEV) sees
# it. The journal's rmtree action must then fail with a reason and stay
# pending, and a cleanup after the unmount must finish the job.
. "$(dirname "$0")/fs_lib.sh"
BG=${BENCHGRID:-$BENCHGRID_BUILD/benchgrid}

mkdir -p "$WORK/src/deep" "$WORK/work/a/b" "$WORK/work/c"
echo precious >"$WORK/src/keep"
echo precious >"$WORK/src/deep/keep2"
echo scratch >"$WORK/work/c/tmp"
mount --bind "$WORK/src" "$WORK/work/a/b" || { echo "FAIL: mount --bind"; exit 1; }
printf 'P 1 1 0 rmtree %s -\n' "$WORK/work" >"$BENCHGRID_STATE"
chmod 600 "$BENCHGRID_STATE"

"$BG" cleanup >"$WORK/c1.out" 2>"$WORK/c1.err"
rc=$?
[ "$rc" != 0 ] && ok "cleanup with a bind mount inside fails (exit $rc)" || bad "cleanup exit status 0"
expect_grep "the error names the mount point" "$WORK/work/a/b is a mount point" "$WORK/c1.err"
[ -f "$WORK/src/keep" ] && [ -f "$WORK/src/deep/keep2" ] && ok "the bind mount's source files survive" ||
	bad "files of the bind mount's source were deleted"
[ -f "$WORK/work/a/b/keep" ] && ok "the bind mount still shows them" || bad "bind mount emptied"
[ ! -e "$WORK/work/c" ] && ok "the rest of the tree is removed" || bad "$WORK/work/c remains"
pending=$(awk '$1=="P"{p[$2]=1} $1=="D"{delete p[$2]} END{print length(p)}' "$BENCHGRID_STATE")
expect_eq "the failed removal stays pending in the journal" "$pending" 1

umount "$WORK/work/a/b"
"$BG" cleanup >"$WORK/c2.out" 2>"$WORK/c2.err"
expect_eq "cleanup after the unmount: exit status" "$?" 0
[ ! -e "$WORK/work" ] && ok "cleanup after the unmount removes the directory" || bad "$WORK/work remains"
[ -f "$WORK/src/keep" ] && ok "the former source is untouched" || bad "source deleted"
expect_clean "bind mount"
fs_lib_finish
