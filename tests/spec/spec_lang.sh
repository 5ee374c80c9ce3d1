#!/usr/bin/env bash
# The scenario language end to end: include: (two levels, relative paths),
# YAML merge keys and x- keys, and a step's when: -- check and plan show
# which steps each cell runs; a real run (dir target, exec steps) records
# the step its when: skips as skipped, not failed, in results.json,
# results.csv and report.md, and goes on with the next step and cell.
set -u
bg=${BENCHGRID:?}
fail=0 pass=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
chmod 755 "$t" # included files must be readable by everyone, their folders too
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() {
	echo "FAIL $1"
	shift
	printf '%s\n' "$@" | head -30
	fail=$((fail + 1))
}
expect() { # expect NAME STATUS PATTERN -- command...
	local name=$1 want=$2 pat=$3
	shift 4
	out=$("$@" 2>&1)
	rc=$?
	if [[ $rc -eq $want ]] && grep -qE -- "$pat" <<<"$out"; then ok "$name"; else bad "$name (status $rc, want $want; /$pat/)" "$out"; fi
}

mkdir -p "$t/s/common/pg" "$t/s/sweeps"
cat >"$t/s/common/pg/settings.yaml" <<'Y'
vars: {label: pg, wal: off}
Y
cat >"$t/s/common/sweep.yaml" <<'Y'
include: pg/settings.yaml
x-quick: &quick {command: "true"}
vars: {label: common, shared: yes}
matrix:
  fs: [ext4, btrfs]
target: {kind: dir}
steps:
  - name: replaced_by_the_including_file
    exec: *quick
Y
cat >"$t/s/sweeps/main.yaml" <<'Y'
include: [../common/sweep.yaml]
name: "lang-${label}-${shared}-${wal}"
vars: {label: main}
x-step: &step {record: true, x-note: ignored}
matrix:
  n: [1, 2]
steps:
  - <<: *step
    name: always
    exec: {command: [sh, -c, "echo ${fs} ${n}"]}
  - <<: *step
    name: not_btrfs
    when: !lua "fs ~= 'btrfs'"
    exec: {command: [sh, -c, "echo not btrfs"]}
  - name: only_n2
    when: "${n == 2}"
    exec: {command: "true"}
  - name: never
    when: false
    exec: {command: "false"}
  - name: last
    exec: {command: "true"}
expect:
  - not_btrfs.exit_status: [0, 0]
    strict: true
Y
# ${n == 2} is not an expression in ${...}: use a var that is a boolean.
sed -i 's/when: "\${n == 2}"/when: !lua "n == 2"/' "$t/s/sweeps/main.yaml"
main=$t/s/sweeps/main.yaml

expect check 0 'ok, 4 cells' -- "$bg" check "$main"
expect plan-name 0 '^# lang-main-yes-off: 4 cells' -- "$bg" plan "$main"
expect plan-steps-header 0 'index +id +sets up +fs +n +steps' -- "$bg" plan "$main"
expect plan-ext4-n1 0 ' ext4 +1 +always not_btrfs -only_n2 -never last$' -- "$bg" plan "$main"
expect plan-btrfs-n2 0 ' btrfs +2 +always -not_btrfs only_n2 -never last$' -- "$bg" plan "$main"
expect plan-when-note 0 "^# -not_btrfs: skipped where its when: is false: !lua fs ~= 'btrfs' \(.*main.yaml:13:11\)" -- "$bg" plan "$main"
expect plan-json 0 '"text":\{"fs":"btrfs","n":"1"\},"skipped_steps":\["not_btrfs","only_n2","never"\]' -- "$bg" plan --format json "$main"
# check and plan write nothing next to the scenario.
[[ $(find "$t/s" -type f | wc -l) -eq 3 ]] && ok writes-nothing || bad writes-nothing "$(find "$t/s")"

# An error two includes down names the file and line, then each include.
printf 'vars: {label: pg}\ntimeout: soon\n' >"$t/s/common/pg/settings.yaml"
expect error-chain 2 "common/pg/settings.yaml:2:10: error: timeout: 'soon'" -- "$bg" check "$main"
out=$("$bg" check "$main" 2>&1)
if grep -qE '^  included from .*sweeps/\.\./common/sweep.yaml:1:10$' <<<"$out" &&
	grep -qE '^  included from .*sweeps/main.yaml:1:11$' <<<"$out"; then ok error-chain-lines; else bad error-chain-lines "$out"; fi
printf 'vars: {label: pg, wal: off}\n' >"$t/s/common/pg/settings.yaml"
# A cycle through a relative path names the chain.
printf 'include: ../../sweeps/main.yaml\nvars: {wal: off}\n' >"$t/s/common/pg/settings.yaml"
expect cycle 2 'include cycle: .*sweeps/main.yaml -> .*common/sweep.yaml -> .*pg/settings.yaml -> .*main.yaml' -- "$bg" check "$main"
printf 'vars: {label: pg, wal: off}\n' >"$t/s/common/pg/settings.yaml"

# Only regular files are included (not /dev/zero, not a FIFO), and only
# files everyone may read, or the user's own when not root: a scenario must
# not show a private file's lines in its errors.
steps='steps: [{name: s, exec: {command: "true"}}]'
printf 'include: /dev/zero\n%s\n' "$steps" >"$t/s/zero.yaml"
expect include-dev-zero 2 'included file: /dev/zero is a character device: only regular files are read' -- "$bg" check "$t/s/zero.yaml"
mkfifo "$t/s/fifo.yaml"
printf 'include: fifo.yaml\n%s\n' "$steps" >"$t/s/fifo_user.yaml"
expect include-fifo 2 'fifo.yaml is a FIFO: only regular files are read' -- timeout 10 "$bg" check "$t/s/fifo_user.yaml"
printf 'vars: {secret: 1}\n' >"$t/s/private.yaml"
chmod 600 "$t/s/private.yaml"
printf 'include: private.yaml\n%s\n' "$steps" >"$t/s/uses_private.yaml"
if [[ $(id -u) -eq 0 ]]; then
	expect include-private-as-root 2 'private.yaml is not readable by everyone \(run as root\)' -- "$bg" check "$t/s/uses_private.yaml"
else
	expect include-own-private 0 'ok, 1 cell' -- "$bg" check "$t/s/uses_private.yaml"
fi
chmod 644 "$t/s/private.yaml"
expect include-readable 0 'ok, 1 cell' -- "$bg" check "$t/s/uses_private.yaml"

# Files included 17 levels deep: refused at the 17th.
mkdir "$t/deep"
for i in $(seq 0 17); do printf 'include: d%d.yaml\nvars: {v%d: 1}\n' $((i + 1)) $i >"$t/deep/d$i.yaml"; done
printf 'vars: {last: 1}\n' >"$t/deep/d18.yaml"
printf '%s\n' "$steps" >>"$t/deep/d0.yaml"
expect include-depth 2 'd16.yaml:1:10: error: include: files are included more than 16 levels deep' -- "$bg" check "$t/deep/d0.yaml"
rm "$t/deep/d17.yaml"
printf 'vars: {last: 1}\n' >"$t/deep/d16.yaml"
expect include-16-levels 0 'ok, 1 cell' -- "$bg" check "$t/deep/d0.yaml"

# A real run: the skipped steps are recorded as skipped, the run is ok.
expect run 0 '' -- "$bg" run -q -o "$t/out" "$main"
r=$t/out
py() { /usr/bin/python3 - "$r/results.json" "$@"; }
if py <<'P'; then ok results-json; else bad results-json "$(head -c 2000 "$r/results.json")"; fi
import json, sys
r = json.load(open(sys.argv[1]))
want = {("ext4", "1"): {"only_n2", "never"}, ("ext4", "2"): {"never"},
        ("btrfs", "1"): {"not_btrfs", "only_n2", "never"}, ("btrfs", "2"): {"not_btrfs", "never"}}
assert len(r["cells"]) == 4, len(r["cells"])
for c in r["cells"]:
    assert c["status"] == "ok", c["status"]
    key = (c["params"]["fs"], str(c["params"]["n"]))
    steps = c["reps"][0]
    names = [s["name"] for s in steps]
    assert names == ["always", "not_btrfs", "only_n2", "never", "last"], names
    skipped = {s["name"] for s in steps if s.get("skipped")}
    assert skipped == want[key], (key, skipped)
    for s in steps:
        assert not s["failed"], s
        if s.get("skipped"):
            assert s["skip_reason"].startswith("when: "), s
            assert not s["metrics"], s
        else:
            assert "skip_reason" not in s, s
    summ = {s["step"]: s for s in c["summary"]}
    assert summ["never"]["skipped"] and summ["never"]["skip_reason"] == "when: false", summ["never"]
    assert summ["last"]["metrics"]["exit_status"]["value"] == 0
P
csv=$(tr -d '\r' <"$r/results.csv") # RFC 4180 lines end in CRLF
grep -q "^[0-9],[0-9a-f]*,btrfs,1,not_btrfs,skipped,.*,when: fs ~= 'btrfs'$" <<<"$csv" &&
	grep -q '^[0-9],[0-9a-f]*,ext4,2,never,skipped,.*,when: false$' <<<"$csv" &&
	grep -q '^[0-9],[0-9a-f]*,ext4,2,last,ok,' <<<"$csv" && ok results-csv || bad results-csv "$csv"
grep -qE '^\| [0-9] \| btrfs \| 1 \| skipped \|' "$r/report.md" &&
	grep -q "^Skipped (not run, not failed) in cells\? [0-9, ]*: when: fs \\\\~= 'btrfs'\.$" "$r/report.md" &&
	grep -q 'Cells: 4 recorded of 4 planned (4 ok, 0 failed' "$r/report.md" && ok report-md || bad report-md "$(cat "$r/report.md")"
# expect: on a skipped step is a SKIP, not a FAIL (strict: the run was ok).
# (report.md escapes Markdown in text from the scenario: ~ as \~)
grep -qE "\| not_btrfs.exit_status \| .*\| SKIP \| step 'not_btrfs' skipped: when: fs \\\\~= 'btrfs' \|" "$r/report.md" &&
	grep -qE "\| not_btrfs.exit_status \| .*\| PASS \|" "$r/report.md" && ok expect-skip || bad expect-skip "$(grep -n 'not_btrfs' "$r/report.md")"
# report DIR reads results.json back: the same skipped steps.
rm "$r/report.md"
expect report-again 0 '' -- "$bg" report "$r"
grep -q "^Skipped (not run, not failed) in cells\? [0-9, ]*: when: false\.$" "$r/report.md" && ok report-again-md || bad report-again-md "$(cat "$r/report.md")"

# ratio and order entries on a step its when: skips: SKIP, not FAIL
# (strict: the run is ok).
cat >"$t/rat.yaml" <<'Y'
name: rat
target: {kind: dir}
matrix: {n: [1, 2]}
steps:
  - {name: a, exec: {command: [sh, -c, "echo ok"]}}
  - {name: b, when: !lua "n == 1", exec: {command: [sh, -c, "echo ok"]}}
expect:
  - order: [a.exit_status, "<", b.exit_status]
    where: {n: 2}
    strict: true
  - ratio: {of: b.exit_status, where: {n: 2}, to: {n: 1}}
    published: 1
    tolerance: 10%
    strict: true
Y
expect rel-skip-run 0 '' -- "$bg" run -q -o "$t/rat" "$t/rat.yaml"
[[ $(grep -cE "^\| [12] \| .*\| SKIP \| cell 1: step 'b' skipped: when: n == 1 \| headline \|$" "$t/rat/report.md") -eq 2 ]] &&
	ok rel-skip || bad rel-skip "$(grep -n 'exit_status' "$t/rat/report.md")"

# A step its when: skips is not recorded when it says record: false.
cat >"$t/norec.yaml" <<'Y'
name: norec
target: {kind: dir}
matrix: {n: [1, 2]}
steps:
  - {name: prep, record: false, when: !lua "n == 1", exec: {command: "true"}}
  - {name: main, exec: {command: "true"}}
Y
expect norec-run 0 '' -- "$bg" run -q -o "$t/norec" "$t/norec.yaml"
! grep -q ',prep,' "$t/norec/results.csv" && ! grep -q 'Step `prep`' "$t/norec/report.md" &&
	! grep -q '"prep"' "$t/norec/results.json" && grep -q ',main,ok,' "$t/norec/results.csv" &&
	ok norec || bad norec "$(cat "$t/norec/results.csv")"

# plan with more than 64 steps: when: on the 66th; a step's name from the
# cell's own tree (name: "w${bs}").
{
	printf 'name: many\ntarget: {kind: dir}\nmatrix: {bs: [4k, 8k]}\nsteps:\n'
	printf '  - {name: s1, when: false, exec: {command: "true"}}\n'
	for i in $(seq 2 70); do
		w=
		[[ $i -eq 66 ]] && w='when: !lua "bs == 4096", '
		printf '  - {name: s%d, %sexec: {command: "true"}}\n' "$i" "$w"
	done
	printf '  - {name: "w${bs}", exec: {command: "true"}}\n'
} >"$t/many.yaml"
expect plan-65-bs4k 0 ' 4k +-s1 s2 .* s65 s66 s67 .* s70 w4k$' -- "$bg" plan "$t/many.yaml"
expect plan-65-bs8k 0 ' 8k +-s1 s2 .* s65 -s66 s67 .* s70 w8k$' -- "$bg" plan "$t/many.yaml"
expect plan-65-json 0 '"text":\{"bs":"8k"\},"skipped_steps":\["s1","s66"\]' -- "$bg" plan --format json "$t/many.yaml"

# A !lua when: must give a Lua boolean: 0 and 1 are numbers, not false
# and true, and "yes" is a string.
cat >"$t/num.yaml" <<'Y'
name: num
target: {kind: dir}
matrix: {n: [0, 1]}
steps:
  - {name: a, when: !lua "n", exec: {command: "true"}}
Y
expect when-number 2 'num.yaml:5:15: error: step.when: !lua "n" gave 0: a number is not a predicate' -- "$bg" check "$t/num.yaml"
sed -i 's/!lua "n"/!lua "\x27yes\x27"/' "$t/num.yaml"
expect when-string 2 "step.when: !lua \"'yes'\" gave 'yes': a string is not a predicate" -- "$bg" check "$t/num.yaml"
sed -i "s/!lua \"'yes'\"/!lua \"n ~= 0\"/" "$t/num.yaml"
expect when-boolean 0 ' 0 +-a$' -- "$bg" plan "$t/num.yaml"

# The scenario itself is read only from a regular file: not /dev/zero
# (it would be read until memory runs out), not a FIFO (it would block).
expect scenario-dev-zero 2 '^/dev/zero: error: is not a regular file' -- timeout 10 "$bg" check /dev/zero
expect scenario-fifo 2 'fifo.yaml: error: is not a regular file' -- timeout 10 "$bg" check "$t/s/fifo.yaml"
expect scenario-dir 2 ': error: is a directory, not a scenario file' -- timeout 10 "$bg" check "$t/s"

# As root, a file everyone may read in a folder not everyone may enter is
# not readable by everyone: refused too.
if [[ $(id -u) -eq 0 ]]; then
	mkdir -m 700 "$t/s/closed"
	printf 'vars: {secret: 1}\n' >"$t/s/closed/inside.yaml"
	chmod 644 "$t/s/closed/inside.yaml"
	printf 'include: closed/inside.yaml\n%s\n' "$steps" >"$t/s/uses_closed.yaml"
	expect include-closed-dir-as-root 2 "closed/inside.yaml is not readable by everyone \(run as root\): not everyone may enter $t/s/closed;" -- "$bg" check "$t/s/uses_closed.yaml"
	chmod 711 "$t/s/closed"
	expect include-open-dir 0 'ok, 1 cell' -- "$bg" check "$t/s/uses_closed.yaml"
fi

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
