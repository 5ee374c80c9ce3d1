#!/usr/bin/env bash
# The runner: a failing cell leaves the others reported; repeat gives
# statistics; kill -9 at random moments never loses a finished cell nor leaves
# a half-written file, and --resume runs exactly the missing cells; SIGINT
# exits 130 and keeps finished cells; a changed scenario is refused on resume.
set -u
bg=${BENCHGRID:?}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# Our own state journal and work directory: cleanup after kill -9 is checked
# below without touching what other tests run meanwhile.
export BENCHGRID_STATE=$t/state
mkdir -p "$t/w"
W=(--work-dir "$t/w")
fail=0 pass=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

# ---- a failing cell in the middle ----
cat >"$t/fail.yaml" <<'Y'
name: fail-middle
matrix:
  x: [1, 2, 3]
repeat: 3
steps:
  - name: probe
    exec: {command: "test ${x} != 2 && echo 'bytes 42'"}
Y
"$bg" run "${W[@]}" -q -o "$t/f" "$t/fail.yaml"
rc=$?
[[ $rc -eq 1 ]] && ok "failing cell gives exit 1" || bad "failing cell gives exit 1 (got $rc)"
python3 - "$t/f" <<'PY' && ok "others reported, failure recorded, repeat statistics" || bad "failing cell results"
import csv, json, sys
d = sys.argv[1]
r = json.load(open(f"{d}/results.json"))
st = {c["params"]["x"]: c["status"] for c in r["cells"]}
assert st == {1: "ok", 2: "failed", 3: "ok"}, st
failed = [c for c in r["cells"] if c["status"] == "failed"][0]
assert "probe" in failed["error"] and "exit" in failed["error"].lower(), failed["error"]
okc = [c for c in r["cells"] if c["status"] == "ok"][0]
assert len(okc["reps"]) == 3, len(okc["reps"])
m = okc["summary"][0]["metrics"]["exit_status"]
assert m["n"] == 3 and m["mean"] == 0, m
rows = list(csv.DictReader(open(f"{d}/results.csv", newline="")))
assert {"index", "id", "x", "step", "status"} <= set(rows[0]), rows[0].keys()
assert sorted(r["status"] for r in rows) == ["failed", "ok", "ok"], rows
PY

# ---- kill -9 at random moments, then resume ----
cat >"$t/long.yaml" <<'Y'
name: kill-resume
matrix:
  n: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
steps:
  - name: work
    exec: {command: "sleep 0.5; echo done ${n}"}
  - name: io
    io: {rw: write, bs: 64k, size: 2MiB}
Y
out="$t/k"
first=1
for i in $(seq 1 6); do
	# A run killed before it created the directory has nothing to resume
	# (--resume refuses a missing directory): start it again.
	if ((first)) || [[ ! -d $out ]]; then
		"$bg" run "${W[@]}" -q -o "$out" "$t/long.yaml" 2>/dev/null &
		first=0
	else
		"$bg" run "${W[@]}" -q --resume "$out" "$t/long.yaml" 2>/dev/null &
	fi
	pid=$!
	sleep "$((RANDOM % 2)).$((RANDOM % 8 + 2))"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	# Whatever is on disk must be valid: results.json whole, journal lines whole.
	python3 - "$out" <<'PY' || { bad "valid files after kill -9 #$i"; break; }
import json, os, sys
d = sys.argv[1]
if os.path.exists(f"{d}/results.json"):
    json.load(open(f"{d}/results.json"))
if os.path.exists(f"{d}/journal.jsonl"):
    data = open(f"{d}/journal.jsonl").read()
    for line in data.splitlines()[:-1]:
        json.loads(line)
PY
done
ok "valid files after 6 kill -9"
before=$(python3 -c "
import json,sys
ids=set()
for l in open('$out/journal.jsonl'):
    try: ids.add(json.loads(l)['id'])
    except Exception: pass
print(len(ids))")
# A writer killed a moment ago leaves a fresh temporary file: a resume of a
# run that is not a sweep's shares removes it whatever its age.
touch "$out/.results.json.Ab12Cd.tmp"
msg=$("$bg" run "${W[@]}" --resume "$out" "$t/long.yaml" 2>&1 >/dev/null)
rc=$?
want=$((16 - before))
if [[ $rc -eq 0 && $want -gt 0 ]] && grep -q "$want to run" <<<"$msg"; then ok "resume runs only the $want missing cells"; else bad "resume (rc $rc, want $want): $msg"; fi
python3 - "$out" <<'PY' && ok "all 16 cells once after resume" || bad "cells after resume"
import json, sys
r = json.load(open(sys.argv[1] + "/results.json"))
ids = [c["id"] for c in r["cells"]]
assert len(ids) == 16 and len(set(ids)) == 16, ids
assert all(c["status"] == "ok" for c in r["cells"])
assert [c["index"] for c in r["cells"]] == list(range(16))
PY
# The temporary files the kills left (.NAME.XXXXXX.tmp) are gone after the resume.
left=$(find "$out" -maxdepth 1 -name '*.tmp*')
[[ -z $left ]] && ok "no temporary files left after resume" || bad "temporary files left: $left"

# ---- cleanup after the kills leaves no work directory behind ----
"$bg" cleanup "$BENCHGRID_STATE" >/dev/null 2>&1
if [[ -z $(ls -A "$t/w") ]]; then ok "cleanup removed the killed runs' work directories"; else bad "left in work dir: $(ls "$t/w")"; fi

# ---- a changed scenario is refused ----
sed 's/sleep 0.5/sleep 0.1/' "$t/long.yaml" >"$t/long2.yaml"
"$bg" run "${W[@]}" -q --resume "$out" "$t/long2.yaml" >/dev/null 2>"$t/err"
rc=$?
if [[ $rc -eq 2 ]] && grep -q "scenario changed for finished cell" "$t/err"; then ok "changed scenario refused"; else bad "changed scenario (rc $rc): $(cat "$t/err")"; fi
"$bg" run "${W[@]}" -q -o "$out" "$t/long.yaml" >/dev/null 2>"$t/err"
[[ $? -eq 2 ]] && grep -q "already holds a run" "$t/err" && ok "existing output refused" || bad "existing output"

# ---- SIGINT ----
"$bg" run "${W[@]}" -q -o "$t/s" "$t/long.yaml" 2>/dev/null &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
n=$(python3 -c "import json; print(len(json.load(open('$t/s/results.json'))['cells']))")
if [[ $rc -eq 130 && $n -ge 1 && $n -lt 16 ]]; then ok "SIGINT exits 130 with $n cells kept"; else bad "SIGINT (rc $rc, $n cells)"; fi

# ---- report and compare on two runs ----
"$bg" report "$t/s" >/dev/null && [[ -s $t/s/report.md ]] && ok "report rebuilds" || bad "report"
"$bg" compare "$t/k" "$t/s" >"$t/cmp.md" && grep -q '|' "$t/cmp.md" && ok "compare prints a table" || bad "compare"

# ---- expect: notes, and skipped cells are SKIP, not FAIL ----
cat >"$t/expect.yaml" <<'Y'
name: expect-note
matrix: {x: [1, 2]}
hooks: |
  function before_cell(cell)
    if cell.params.x == 2 then cell:skip("not on this machine") end
  end
steps: [{name: e, exec: "echo hi"}]
expect:
  - {e.exit_status: [0, 0, 0], note: "published in the paper"}
Y
"$bg" run "${W[@]}" -q -o "$t/e" "$t/expect.yaml"
rc=$?
if [[ $rc -eq 0 ]] && grep -E '\| *PASS *\|.*published in the paper' "$t/e/report.md" >/dev/null &&
	grep -E '\| *SKIP *\|.*not on this machine' "$t/e/report.md" >/dev/null; then
	ok "expect notes and SKIP for a skipped cell"
else
	bad "expect notes/skip (rc $rc)"
	grep -E 'PASS|SKIP|FAIL' "$t/e/report.md"
fi

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
