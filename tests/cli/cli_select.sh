#!/usr/bin/env bash
# Choosing cells and folders from the command line (issue 27 items 7, 8, 10):
# --only with several values of one parameter, an unknown --only parameter,
# plan --only; --resume reusing the run's -D and --only, and refusing
# others; --dry-run -o refusing what the real run refuses.
set -u
bg=${BENCHGRID:?}
fail=0 pass=0
t=$(mktemp -d /tmp/cli_select.XXXXXX)
trap 'rm -rf "$t"' EXIT
export BENCHGRID_STATE=$t/state/state BENCHGRID_STORE=$t/store.db
check() { # check NAME EXPECTED_STATUS PATTERN -- command...
	local name=$1 want=$2 pat=$3
	shift 4
	out=$("$@" 2>&1)
	rc=$?
	if [[ $rc -ne $want ]] || ! grep -qE -- "$pat" <<<"$out"; then
		echo "FAIL $name: status $rc (want $want), output:"
		echo "$out" | head -20
		fail=$((fail + 1))
	else
		echo "ok   $name"
		pass=$((pass + 1))
	fi
}
cells() { # the number of cells plan prints for its arguments
	"$bg" plan --format tsv "$@" 2>/dev/null | tail -n +2 | wc -l
}
cat >"$t/s.yaml" <<'Y'
vars: {msg: hi}
matrix:
  fs: [ext4, xfs, btrfs]
  bs: [4k, 64k]
steps:
  - name: w
    exec: {command: "echo ${msg}"}
Y

# 7: two values of one parameter select both; names must exist; plan previews.
n=$(cells --only fs=xfs,ext4 "$t/s.yaml")
[[ $n == 4 ]] && { echo "ok   only-list"; pass=$((pass + 1)); } || { echo "FAIL only-list: $n cells, want 4"; fail=$((fail + 1)); }
n=$(cells --only fs=xfs --only fs=ext4 --only bs=64k "$t/s.yaml")
[[ $n == 2 ]] && { echo "ok   only-repeated"; pass=$((pass + 1)); } || { echo "FAIL only-repeated: $n cells, want 2"; fail=$((fail + 1)); }
check only-unknown 2 "--only fss: not a parameter of the matrix \(parameters: fs, bs\); did you mean 'fs'\?" -- \
	"$bg" plan --only fss=xfs "$t/s.yaml"
check only-unknown-run 2 "did you mean 'bs'\?" -- "$bg" run -q --only bss=4k -o "$t/never" "$t/s.yaml"
[[ ! -e $t/never ]] && { echo "ok   only-unknown-writes-nothing"; pass=$((pass + 1)); } ||
	{ echo "FAIL only-unknown-writes-nothing"; fail=$((fail + 1)); }
check only-nomatch-plan 2 'no cell matches' -- "$bg" plan --only fs=zfs "$t/s.yaml"
check only-dry-run 0 'would run 4 cells' -- "$bg" run --dry-run --only fs=xfs,ext4 "$t/s.yaml"

# 8: --resume runs with the run's own -D and --only.
check resume-first 0 '4 cells finished' -- "$bg" run -o "$t/r" -D msg=yo --only fs=xfs,ext4 "$t/s.yaml"
check resume-reuse 0 "resuming with the run's -D msg=yo --only fs=xfs,ext4" -- "$bg" run --resume "$t/r" "$t/s.yaml"
check resume-reuse-cells 0 '4 of 4 cells finished, 0 to run' -- "$bg" run --resume "$t/r" "$t/s.yaml"
check resume-same 0 '4 of 4 cells finished' -- "$bg" run --resume "$t/r" -D msg=yo --only fs=ext4,xfs "$t/s.yaml"
check resume-other-define 2 'the run was started with -D msg=yo --only fs=xfs,ext4, not -D msg=other' -- \
	"$bg" run --resume "$t/r" -D msg=other "$t/s.yaml"
check resume-other-only 2 'resume with no -D and --only' -- "$bg" run --resume "$t/r" --only fs=btrfs "$t/s.yaml"

# 10: --dry-run -o applies the real run's rules to the folder, and writes nothing.
check dry-run-holds-run 2 'already holds a run; use --resume' -- "$bg" run --dry-run -o "$t/r" "$t/s.yaml"
mkdir -m 0777 "$t/open" && chmod 0777 "$t/open"
check dry-run-writable 2 'writable by its group or by others' -- "$bg" run --dry-run -o "$t/open" "$t/s.yaml"
touch "$t/file"
check dry-run-under-file 2 'cannot create output directory .*: Not a directory' -- \
	"$bg" run --dry-run -o "$t/file/out" "$t/s.yaml"
ln -s "$t/r" "$t/link"
check dry-run-link 2 'output directory: .*link is not a directory' -- "$bg" run --dry-run -o "$t/link" "$t/s.yaml"
check dry-run-resume-missing 2 'no such directory \(nothing to resume' -- \
	"$bg" run --dry-run --resume "$t/nothere" "$t/s.yaml"
check dry-run-new 0 'would run 6 cells' -- "$bg" run --dry-run -o "$t/new/deeper" "$t/s.yaml"
[[ ! -e $t/new ]] && { echo "ok   dry-run-creates-nothing"; pass=$((pass + 1)); } ||
	{ echo "FAIL dry-run-creates-nothing"; fail=$((fail + 1)); }

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
