#!/bin/bash
# `run --work-dir DIR` with a relative DIR: the loop target is set up and
# torn down (the kernel keeps the image's absolute path as the loop device's
# backing file; teardown used to compare it with the relative one and leave
# the device attached), and ${target.path} is absolute in the steps.
. "$(dirname "$0")/fs_lib.sh"
BG=${BENCHGRID:-$BENCHGRID_BUILD/benchgrid}

mkdir -p "$WORK/rel"
cat >"$WORK/s.yaml" <<'Y'
name: work-dir-relative
target: {kind: loop, size: 64MiB, fs: ext4}
steps:
  - name: where
    exec: {command: "echo path=${target.path}"}
Y
(cd "$WORK" && "$BG" run s.yaml -o out --work-dir rel --quiet) >"$WORK/run.out" 2>&1
rc=$?
[ "$rc" = 0 ] && ok "run with a relative --work-dir" || { bad "run exit $rc"; cat "$WORK/run.out"; }
expect_clean "relative --work-dir"
grep -rq "path=$WORK/rel/" "$WORK/out" && ok "target.path is absolute" || bad "target.path not under $WORK/rel"
if (cd "$WORK" && "$BG" run s.yaml -o out2 --work-dir nosuch --quiet) 2>"$WORK/err"; then
	bad "a missing --work-dir accepted"
else
	grep -q "work-dir nosuch: No such file or directory" "$WORK/err" && ok "a missing --work-dir is refused" ||
		bad "unclear error: $(cat "$WORK/err")"
fi
fs_lib_finish
