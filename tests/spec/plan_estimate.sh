#!/usr/bin/env bash
# plan's estimate: the set-ups counted over the run order, the steps'
# seconds and the total at the documented defaults; the set-ups priced from
# the last run of the scenario in the results history (a real run recorded
# into a real SQLite store, with root; else a results.json recorded through
# `benchgrid store`); plan opens nothing for writing and runs nothing
# (strace); the free-space warning against a small tmpfs work directory;
# --format json and tsv carry no estimate; a PostgreSQL URL's password is
# never printed.
set -u
bg=${BENCHGRID:?}
fail=0 pass=0
t=$(mktemp -d)
chmod 711 "$t" # a run's server runs as postgres and must pass through
cleanup() {
	mountpoint -q "$t/small" 2>/dev/null && umount "$t/small"
	rm -rf "$t"
}
trap cleanup EXIT
ok() {
	echo "ok   $1"
	pass=$((pass + 1))
}
bad() {
	echo "FAIL $1"
	fail=$((fail + 1))
}
# has NAME PATTERN FILE: a line of FILE matches the extended regex
has() {
	if grep -qE -- "$2" "$3"; then ok "$1"; else
		bad "$1: no line matches '$2' in:"
		cat "$3"
	fi
}
export BENCHGRID_STORE=$t/none.db # no history unless a test gives one

# Two filesystems x two scales, repeat 2 + warmup 1: the run order keeps
# each filesystem's cells together (2 mkfs, 2 initdb); every cell loads its
# scale (1 + 10 + 1 + 10 = 22 scale units).
cat >"$t/a.yaml" <<'Y'
name: est-a
repeat: 2
warmup: 1
matrix:
  scale: [1, 10]
  fs: [ext4, xfs]
target: {kind: loop, size: 1GiB, fs: "${fs}"}
postgres: {init: {scale: "${scale}"}}
steps:
  - name: ro
    pgbench: {builtin: select-only, duration: 5s}
  - name: tx
    pgbench: {builtin: select-only, transactions: 500, clients: 4}
  - name: w
    io: {rw: write, size: 400MiB}
  - name: x
    exec: {command: "true"}
Y
"$bg" plan --work-dir "$t" "$t/a.yaml" >"$t/a.out" 2>"$t/a.err" || bad "plan a: status $?"
has "estimate header" '^# estimate \(run order: grouped; set-ups priced from the defaults\)$' "$t/a.out"
has "set-up counts" '^set-ups: 2 filesystems made \(mkfs\), 2 clusters initialised \(initdb\), 4 data loads \(pgbench -i\)$' "$t/a.out"
has "filesystems priced" '^  filesystems  2s +2 x 1 s \(default\)$' "$t/a.out"
has "clusters priced" '^  clusters     6s +2 x 3 s \(default\)$' "$t/a.out"
has "loads priced" '^  data loads   12s +22 scale units x 0.5 s \+ 4 x 0.3 s \(default\)$' "$t/a.out"
has "runs per cell" '^steps: each cell runs them 3 times \(repeat 2 \+ warmup 1\)$' "$t/a.out"
has "duration step" '^  ro +1m00s +from duration$' "$t/a.out"        # 4 cells x 5 s x 3
has "transactions step" '^  tx +24s +from transactions at 1000 tps \(default\)$' "$t/a.out" # 4 x 2 s x 3
has "size step" '^  w +24s +from size at 200 MiB/s \(default\)$' "$t/a.out" # 4 x 2 s x 3
has "undeclared step" '^  x +0s +from nothing: no duration declared, counted as 0$' "$t/a.out"
has "total" '^total: 2m08s \(steps 1m48s, set-ups 20s\); steps that declare no duration are not in it$' "$t/a.out"
has "disk" "^disk: the largest cell \(index 0\) needs 1 GiB in the work directory $t, [0-9.]+ [KMGT]iB free$" "$t/a.out"
[[ ! -s $t/a.err ]] && ok "no warning" || bad "warnings: $(cat "$t/a.err")"

# json and tsv stay what scripts read: no estimate in them.
"$bg" plan --format json "$t/a.yaml" >"$t/a.json"
/usr/bin/python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); assert len(c)==4 and all(set(x)=={"index","id","params","text"} for x in c)' "$t/a.json" &&
	ok "json unchanged" || bad "json: $(head -c 300 "$t/a.json")"
"$bg" plan --format tsv "$t/a.yaml" | grep -qiE 'estimate|set-ups|total' && bad "tsv has the estimate" || ok "tsv unchanged"

# The history: the last run of the scenario prices the set-ups.
cat >"$t/h.yaml" <<'Y'
name: est-h
matrix:
  scale: [1, 2]
target: {kind: loop, size: 256MiB, fs: ext4}
postgres: {init: {scale: "${scale}"}}
steps:
  - name: x
    exec: {command: "true"}
  - name: tx
    pgbench: {builtin: select-only, transactions: 200}
Y
export BENCHGRID_STORE=$t/h.db
if [[ $(id -u) -eq 0 && -e /dev/loop-control ]] && command -v initdb >/dev/null; then
	# a real run records setup_seconds and the store keeps them
	"$bg" run -q -o "$t/h.out" --work-dir "$t" "$t/h.yaml" >"$t/run.log" 2>&1 || bad "run h: $(tail -5 "$t/run.log")"
	how="run"
else
	echo "note: no root, loop devices or PostgreSQL: recording a written results.json instead of a run"
	mkdir -p "$t/h.out"
	cat >"$t/h.out/results.json" <<'J'
{"format": "benchgrid-results", "version": 1, "tool": "benchgrid test",
 "scenario": {"file": "h.yaml", "name": "est-h", "description": null, "hash": "0"},
 "started": 1700000000, "finished": 1700000010, "planned_cells": 2, "repeat": 1, "warmup": 0,
 "environment": {"metrics": {}, "info": {}}, "report": null, "expect": null,
 "cells": [
  {"index": 0, "id": "aaaaaaaaaaaa", "params": {"scale": 1}, "status": "ok", "error": null,
   "started": 1700000000, "elapsed": 5, "setup_seconds": {"fs": 0.25, "pg": 3.5, "data": 0.75},
   "facts": {"metrics": {}, "info": {}}, "reps": [[]]},
  {"index": 1, "id": "bbbbbbbbbbbb", "params": {"scale": 2}, "status": "ok", "error": null,
   "started": 1700000005, "elapsed": 3, "setup_seconds": {"data": 1.25},
   "facts": {"metrics": {}, "info": {}}, "reps": [[]]}]}
J
	"$bg" store "$t/h.out" >"$t/run.log" 2>&1 || bad "store h: $(cat "$t/run.log")"
	how="store"
fi
# what the cells recorded: fs and pg in the first, data in both
read -r fs pg data < <(/usr/bin/python3 - "$t/h.out/results.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["cells"]
s = [x.get("setup_seconds", {}) for x in c]
assert set(s[0]) == {"fs", "pg", "data"} and set(s[1]) == {"data"}, s
print(s[0]["fs"], s[0]["pg"], (s[0]["data"] + s[1]["data"]) / 2)
PY
) && ok "setup_seconds recorded ($how)" || bad "setup_seconds: $(cat "$t/h.out/results.json" | head -c 600)"
g() { printf '%.3g' "$1"; }
"$bg" plan --work-dir "$t" "$t/h.yaml" >"$t/h.plan" 2>"$t/h.err" || bad "plan h: status $?"
has "history header" "^# estimate \(run order: grouped; set-ups priced from the last run of this scenario in $t/h.db\)$" "$t/h.plan"
has "history fs" "^  filesystems  [0-9]+s +1 set-up x $(g "${fs:-0}") s \(last run\)$" "$t/h.plan"
has "history pg" "^  clusters     [0-9]+s +1 x $(g "${pg:-0}") s \(last run\)$" "$t/h.plan"
has "history data" "^  data loads   [0-9]+s +2 x $(g "${data:-0}") s \(last run\)$" "$t/h.plan"
if [[ $how == run ]]; then # the pgbench step's tps in that run prices its transactions
	# the mean of the cells' tps, to the 4 digits printed
	/usr/bin/python3 - "$t/h.out/results.json" "$t/h.plan" <<'PY' && ok "history tps" || bad "history tps: $(grep '^  tx' "$t/h.plan")"
import json, re, sys
c = json.load(open(sys.argv[1]))["cells"]
want = sum(x["reps"][0][1]["metrics"]["tps"]["value"] for x in c) / len(c)
m = re.search(r"^  tx +\d+s +from transactions at ([0-9.e+]+) tps \(last run\)$", open(sys.argv[2]).read(), re.M)
assert m and abs(float(m.group(1)) - want) <= want * 1e-3, (m and m.group(1), want)
PY
else
	has "default tps" '^  tx +0s +from transactions at 1000 tps \(default\)$' "$t/h.plan"
fi
# --store names the store too; another scenario's history is not used
"$bg" plan --store "$t/h.db" "$t/a.yaml" 2>&1 | grep -q 'priced from the defaults' && ok "other scenario: defaults" ||
	bad "another scenario's history was used"

# a PostgreSQL URL's password is never printed (the store cannot be reached)
"$bg" plan --store 'postgresql://u:s3cret@127.0.0.1:1/x' "$t/a.yaml" >"$t/pw.out" 2>&1
has "pg url: named" 'cannot read the results history the PostgreSQL store' "$t/pw.out"
if grep -q s3cret "$t/pw.out"; then bad "pg url: the password was printed: $(grep s3cret "$t/pw.out")"; else
	ok "pg url: no password"
fi
# plan writes nothing and runs nothing, with the history and a work
# directory that does not exist yet (the nearest parent's free space).
if command -v strace >/dev/null; then
	strace -f -qq -e trace=%file,%process -o "$t/strace" "$bg" plan --store "$t/h.db" --work-dir "$t/not/yet" "$t/h.yaml" >"$t/s.out" 2>&1
	writes=$(grep -E 'open(at)?\(.*O_(WRONLY|RDWR|CREAT)' "$t/strace" | grep -vE '"/dev/' || true)
	[[ -z $writes ]] && ok "plan opens nothing for writing" || bad "plan opened for writing: $writes"
	changes=$(grep -E '^[0-9]+ +(mkdir|mkdirat|unlink|unlinkat|rename|renameat2?|creat|link|linkat|symlink|symlinkat|truncate|chmod|fchmodat|chown|fchownat)\(' "$t/strace" || true)
	[[ -z $changes ]] && ok "plan changes no file" || bad "plan changed files: $changes"
	execs=$(grep -cE '^[0-9]+ +execve\(' "$t/strace")
	[[ $execs -eq 1 ]] && ok "plan runs nothing" || bad "plan ran $((execs - 1)) program(s): $(grep execve "$t/strace")"
	[[ ! -e $t/not ]] && ok "work directory not created" || bad "plan created $t/not"
	has "nearest parent" "^disk: .* in the work directory $t/not/yet \(not there yet: free space of $t\), " "$t/s.out"
else
	bad "strace is not installed (scripts/setup installs it)"
fi

# A step its when: skips in a cell costs nothing there.
cat >"$t/when.yaml" <<'YAML'
name: west
target: {kind: dir}
matrix: {n: [1, 2]}
steps:
  - {name: a, io: {rw: read, bs: 4k, size: 1MiB, runtime: 10s}}
  - {name: b, when: !lua "n == 1", io: {rw: read, bs: 4k, size: 1MiB, runtime: 20s}}
YAML
"$bg" plan "$t/when.yaml" >"$t/when.out" 2>&1
has "when: a runs in both cells" "^  a +20s +from runtime$" "$t/when.out"
has "when: b only where n == 1" "^  b +20s +from runtime$" "$t/when.out"
has "when: total" "^total: 40s \(steps 40s, set-ups 0s\)$" "$t/when.out"

# The largest cell against a small work directory: a warning.
if [[ $(id -u) -eq 0 ]]; then
	mkdir "$t/small"
	mount -t tmpfs -o size=16m benchgrid-test-small "$t/small"
	printf 'name: small\ntarget: {kind: loop, size: 64MiB, fs: ext4}\nsteps:\n  - name: x\n    exec: {command: "true"}\n' >"$t/small.yaml"
	"$bg" plan --work-dir "$t/small/w" "$t/small.yaml" >"$t/w.out" 2>"$t/w.err"
	has "not enough" "^disk: the largest cell \(index 0\) needs 64 MiB in the work directory $t/small/w \(not there yet: free space of $t/small\), 16 MiB free: NOT ENOUGH$" "$t/w.out"
	has "warning" "^warning: the largest cell \(index 0\) needs 64 MiB, more than the 16 MiB free in $t/small/w" "$t/w.err"
	umount "$t/small"
else
	echo "skip: the free-space warning needs root (a tmpfs)"
fi

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
