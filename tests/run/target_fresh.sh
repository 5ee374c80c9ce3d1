#!/usr/bin/env bash
# target fresh: per-cell (issue 27): cells with the same target share its
# file system by default, and each gets its own with fresh: per-cell — in
# plan's 'sets up' column, its estimate, and the real run (a dir target: a
# new directory per cell, seen through ${target.path}).
set -u
bg=${BENCHGRID:?}
fail=0 pass=0
t=$(mktemp -d /tmp/target_fresh.XXXXXX)
trap 'rm -rf "$t"' EXIT
export BENCHGRID_STATE=$t/state/state BENCHGRID_STORE=$t/store.db
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
scenario() { # scenario FILE FRESH
	cat >"$1" <<Y
matrix:
  n: [1, 2, 3]
target: {kind: dir, path: "$t/work"$2}
steps:
  - name: where
    exec: {command: "echo \${target.path} >>$t/paths.\$BENCHGRID_N.$(basename "$1" .yaml)"}
Y
}
mkdir -p "$t/work"
scenario "$t/reuse.yaml" ""
scenario "$t/fresh.yaml" ", fresh: per-cell"

sets=$("$bg" plan "$t/reuse.yaml" | grep -cE '^ +[0-9]+ +[0-9a-f]{12} +target ')
[[ $sets == 1 ]] && ok "plan: one set-up for 3 cells sharing a target" || bad "plan reuse: $sets set-ups"
sets=$("$bg" plan "$t/fresh.yaml" | grep -cE '^ +[0-9]+ +[0-9a-f]{12} +target ')
[[ $sets == 3 ]] && ok "plan: fresh: per-cell sets up each cell" || bad "plan per-cell: $sets set-ups"
sed 's/kind: dir, path: "[^"]*"/kind: loop, size: 64MiB, fs: ext4/' "$t/fresh.yaml" >"$t/loop.yaml"
"$bg" plan "$t/loop.yaml" | grep -q '^set-ups: 3 filesystems made' &&
	ok "plan: the estimate counts 3 mkfs for 3 loop cells" || bad "plan per-cell estimate: $("$bg" plan "$t/loop.yaml" 2>&1 | grep -i 'set-ups\|error')"
sed 's/, fresh: per-cell//' "$t/loop.yaml" >"$t/loop1.yaml"
"$bg" plan "$t/loop1.yaml" | grep -q '^set-ups: 1 filesystem made' &&
	ok "plan: 1 mkfs for 3 loop cells sharing a target" || bad "plan reuse estimate: $("$bg" plan "$t/loop1.yaml" 2>&1 | grep -i 'set-ups\|error')"
out=$("$bg" check "$t/fresh.yaml" 2>&1) && ok "check: fresh: per-cell is valid" || bad "check: $out"
sed 's/per-cell/per_cell/' "$t/fresh.yaml" >"$t/typo.yaml"
out=$("$bg" check "$t/typo.yaml" 2>&1)
[[ $? == 2 && $out == *"did you mean 'per-cell'"* ]] && ok "check: a bad fresh: value" || bad "typo: $out"

for s in reuse fresh; do
	"$bg" run -q -o "$t/out-$s" "$t/$s.yaml" >"$t/log-$s" 2>&1 || bad "run $s: $(tail -3 "$t/log-$s")"
done
distinct=$(cat "$t"/paths.*.reuse | sort -u | wc -l)
[[ $distinct == 1 ]] && ok "run: the 3 cells of one target share its directory" || bad "run reuse: $distinct directories"
distinct=$(cat "$t"/paths.*.fresh | sort -u | wc -l)
[[ $distinct == 3 ]] && ok "run: fresh: per-cell gives each cell its own directory" || bad "run per-cell: $distinct directories"
[[ -z $(ls -A "$t/work") ]] && ok "run: every directory removed" || bad "left in work: $(ls "$t/work")"

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
