#!/usr/bin/env bash
# The command line: help, version, exit statuses, and the scenario-file errors
# that golden files cannot express (missing file, a directory).
set -u
bg=${BENCHGRID:?}
fail=0 pass=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
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
check help 0 'usage: benchgrid' -- "$bg" --help
check help-tutorial 0 'TUTORIAL: FROM THE QUICKSTART TO YOUR OWN SWEEP' -- "$bg" help tutorial
check version 0 '^benchgrid [0-9]+\.[0-9]+' -- "$bg" --version
check no-args 2 'usage' -- "$bg"
check unknown-command 2 "unknown command 'frobnicate'" -- "$bg" frobnicate
for c in check plan run report compare cleanup; do
	check "$c-help" 0 'usage: benchgrid '"$c" -- "$bg" "$c" --help
done
check missing-file 2 "nope.yaml: error: cannot open scenario: No such file or directory" -- "$bg" check "$t/nope.yaml"
mkdir "$t/dir.yaml"
check directory 2 "dir.yaml: error: is a directory" -- "$bg" check "$t/dir.yaml"
check bad-format 2 'format must be table, tsv or json' -- "$bg" plan --format xml "$t/x.yaml"
check bad-define 2 '-D expects name=value' -- "$bg" plan -D novalue "$t/x.yaml"
check two-files 2 'expected one scenario file' -- "$bg" check a.yaml b.yaml
printf 'name: ok\nmatrix:\n  a: [1, 2]\nsteps:\n  - name: s\n    exec: {command: "true"}\n' >"$t/ok.yaml"
check check-ok 0 'ok, 2 cells' -- "$bg" check "$t/ok.yaml"
check plan-tsv 0 $'^index\tid\ta' -- "$bg" plan --format tsv "$t/ok.yaml"
check plan-table 0 'index +id +sets up +a' -- "$bg" plan "$t/ok.yaml"
# the second cell loads pgbench's tables again: its 'sets up' says so, as the total counts it
check plan-data-loads 0 '^ +1 +[0-9a-f]{12} +data +4' -- "$bg" plan "${BENCHGRID_SRC:?}/examples/pgbench-script.yaml"
check only-nomatch 2 'no cell matches' -- "$bg" run -q --only a=9 -o "$t/o1" "$t/ok.yaml"
check dry-run 0 'would run 1 cell' -- "$bg" run --dry-run --only a=2 "$t/ok.yaml"
# benchgrid slurm without Slurm: its arguments, and the script it prints (tests/slurm/slurm.sh submits it).
check slurm-help 0 'usage: benchgrid slurm' -- "$bg" slurm --help
check slurm-no-o 2 '-o DIR is required' -- "$bg" slurm "$t/ok.yaml"
check slurm-bad-time 2 "'1:2:3:4' is not a Slurm time limit" -- "$bg" slurm -o "$t/s" --time 1:2:3:4 "$t/ok.yaml"
check slurm-bad-arg 2 'expects an sbatch option' -- "$bg" slurm -o "$t/s" --sbatch-arg account=x "$t/ok.yaml"
check slurm-no-sbatch 1 'sbatch not found in PATH' -- env PATH=/nonexistent "$bg" slurm -o "$t/s" --submit "$t/ok.yaml"
check slurm-script 0 '--array=0-1%1 .*--exclusive .*--time=0:05:00 ' -- bash -c '"$1" slurm -o "$2" --parallel 1 "$3" | tr "\n" " "' - "$bg" "$t/s" "$t/ok.yaml"
[[ ! -e $t/s ]] || { echo "FAIL slurm wrote $t/s"; fail=$((fail + 1)); }
check slurm-time-guess 0 'declare no duration .* give --time' -- "$bg" slurm -o "$t/s" "$t/ok.yaml"
check merge-help 0 'usage: benchgrid merge' -- "$bg" merge --help
check plan-shards 0 'share 1/2: 1 cell: cells' -- "$bg" plan --shards 2 "$t/ok.yaml"
check check-no-shards 2 'usage: benchgrid check' -- "$bg" check --shards 2 "$t/ok.yaml"

# The printed script against hostile values: a stub sbatch keeps what it is
# given; nothing may run but sbatch, and both job bodies must be valid bash.
mkdir -p "$t/stub" "$t/evil"
cat >"$t/stub/sbatch" <<'STUB'
#!/bin/bash
n=$(ls "$STUB_OUT" | grep -c '^args')
printf '%s\n' "$@" >"$STUB_OUT/args.$n"
cat >"$STUB_OUT/body.$n"
echo "$((100 + n));cluster"
STUB
chmod +x "$t/stub/sbatch"
mkdir -p "$t/sb"
printf 'name: evil\nvars: {x: ""}\nmatrix:\n  a: ["1;touch %s/PWNED4", "2"]\nsteps:\n  - name: s\n    exec: {command: "true"}\n' "$t" >"$t/evil.yaml"
evil_dir="$t/evil/o'\$(touch $t/PWNED1)\`touch $t/PWNED2\`%x"
"$bg" slurm -o "$evil_dir" -D "x=\$(touch $t/PWNED3)" --only "a=1;touch $t/PWNED4" \
	--sbatch-arg="--comment=\$(touch $t/PWNED5)" "$t/evil.yaml" >"$t/evil.sh" 2>/dev/null
out=$(cd "$t" && PATH="$t/stub:$PATH" STUB_OUT="$t/sb" bash "$t/evil.sh" 2>&1)
rc=$?
bodies_ok=1
for b in "$t"/sb/body.*; do bash -n "$b" || bodies_ok=0; done
if [[ $rc == 0 && $out == *"array job 100"* && $out == *"merge job 101"* && $bodies_ok == 1 && -z "$(ls "$t" | grep PWNED)" ]] &&
	grep -q -- "--dependency=afterany:100" "$t/sb/args.1" && grep -qF -- "--output=$t/evil/o'\$(touch $t/PWNED1)\`touch $t/PWNED2\`%%x/slurm/%A_%a.out" "$t/sb/args.0"; then
	echo "ok   slurm-quoting"
	pass=$((pass + 1))
else
	echo "FAIL slurm-quoting: exit $rc: $out; $(ls "$t" | grep PWNED); $(cat "$t"/sb/args.* 2>/dev/null)"
	fail=$((fail + 1))
fi
check slurm-bad-partition 2 'expects a partition name' -- "$bg" slurm -o "$t/s3" --partition "p\$(touch $t/PWNED6)" "$t/ok.yaml"
[[ -z "$(ls "$t" | grep PWNED)" ]] || { echo "FAIL a value ran a command"; fail=$((fail + 1)); }
nl_dir="$t/a
touch $t/PWNED7"
mkdir -p "$nl_dir"
cp "$t/ok.yaml" "$nl_dir/ok.yaml"
check slurm-newline-path 2 'must not contain a line break' -- bash -c 'cd "$1" && "$2" slurm -o "$3" ok.yaml' - "$nl_dir" "$bg" "$t/s2"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
