#!/usr/bin/env bash
# Results that cannot be written fail the run: the output directory on a
# small tmpfs (200 KiB) that an exec step fills. A cell whose journal line
# cannot be written says so in results.json, the journal never keeps a torn
# line, the last good results.json stays whole, no temporary file is left,
# and the run exits 1. A full file system at the start refuses the run
# (exit 2). Needs root (mount); run it under /tmp/benchgrid-heavy.lock.
set -u
bg=${BENCHGRID:?}
if [[ $(id -u) -ne 0 ]]; then
	echo "skip: needs root to mount a tmpfs"
	exit 77
fi
t=$(mktemp -d)
full=$t/full
mkdir -p "$full" "$t/w"
if ! mount -t tmpfs -o size=200k,mode=0755 benchgrid-test "$full"; then
	echo "skip: cannot mount a tmpfs"
	rm -rf "$t"
	exit 77
fi
trap 'umount "$full"; rm -rf "$t"' EXIT
export BENCHGRID_STATE=$t/state
W=(--work-dir "$t/w")
fail=0 pass=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
no_tmp() { [[ -z "$(find "$1" -name '*.tmp*')" ]]; }

# Cell 1 fills the file system, cell 2 frees it, cell 3 fills it again.
cat >"$t/s.yaml" <<Y
name: full-fs
matrix:
  x: [1, 2, 3]
steps:
  - name: fill
    exec: {command: "if [ \${x} = 2 ]; then rm -f $full/filler; else dd if=/dev/zero of=$full/filler bs=1k 2>/dev/null; true; fi"}
Y
"$bg" run "${W[@]}" -q -o "$full/o" "$t/s.yaml" >"$t/out" 2>&1
rc=$?
[[ $rc -eq 1 ]] && ok "results not written: exit 1" || { bad "results not written: exit $rc"; cat "$t/out"; }
grep -q 'No space left on device' "$t/out" && grep -q 'could not all be written' "$t/out" &&
	ok "stderr says what could not be written" || { bad "stderr message"; cat "$t/out"; }
no_tmp "$full/o" && ok "no temporary file left" || bad "temporary files left: $(find "$full/o" -name '*.tmp*')"
python3 - "$full/o" <<'PY' && ok "journal whole, results.json whole, the lost cell says so" || bad "journal/results.json"
import json, sys
d = sys.argv[1]
lines = open(f"{d}/journal.jsonl", "rb").read().split(b"\n")
assert lines[-1] == b"", "torn last line: %r" % lines[-1][:80]
cells = [json.loads(l) for l in lines[:-1]]
# Cell 3's line may still fit in the journal's last page of the full tmpfs
# (its length varies with the figures it holds): recorded or not, never torn.
assert [c["params"]["x"] for c in cells] in ([2], [2, 3]), [c["params"] for c in cells]
r = json.load(open(f"{d}/results.json"))  # the one written after cell 2
st = {c["params"]["x"]: c for c in r["cells"]}
assert sorted(st) == [1, 2], sorted(st)
assert st[2]["status"] == "ok", st[2]
assert st[1]["status"] == "failed", st[1]
assert "not recorded" in st[1]["error"] and "No space left" in st[1]["error"], st[1]["error"]
PY

# An exec step whose saved stdout does not fit: that step fails and says
# what was lost (cell 2 frees the space so that results.json can say it).
rm -rf "$full/o" "$full/filler"
dd if=/dev/zero of="$full/filler" bs=1k count=120 2>/dev/null
cat >"$t/big.yaml" <<Y
name: full-stdout
matrix:
  x: [1, 2]
steps:
  - name: big
    exec: {command: "if [ \${x} = 1 ]; then head -c 100000 /dev/zero | tr '\\\\0' a; else rm -f $full/filler; fi"}
Y
"$bg" run "${W[@]}" -q -o "$full/o" "$t/big.yaml" >"$t/out" 2>&1
rc=$?
[[ $rc -eq 1 ]] && no_tmp "$full/o" && python3 - "$full/o" <<'PY' && ok "a saved stdout that does not fit fails its cell, which says what was lost" ||
import json, sys
r = json.load(open(sys.argv[1] + "/results.json"))
st = {c["params"]["x"]: c for c in r["cells"]}
assert st[1]["status"] == "failed", st[1]["status"]
assert "stdout" in st[1]["error"] and "lost" in st[1]["error"] and "No space left" in st[1]["error"], st[1]["error"]
assert st[2]["status"] == "ok", st[2]
PY
	{ bad "saved stdout on a full file system: exit $rc"; cat "$t/out"; ls -la "$full/o"; }

# Full from the start: the run is refused before anything runs.
rm -rf "$full/o" "$full/filler"
dd if=/dev/zero of="$full/filler" bs=1k 2>/dev/null
"$bg" run "${W[@]}" -q -o "$full/o" "$t/s.yaml" >"$t/out" 2>&1
rc=$?
[[ $rc -eq 2 ]] && grep -q 'No space left on device' "$t/out" && ok "full at the start: refused (exit 2)" ||
	{ bad "full at the start: exit $rc"; cat "$t/out"; }
[[ ! -d "$full/o" ]] || no_tmp "$full/o" && ok "full at the start: no temporary file left" ||
	bad "full at the start: temporary files left: $(find "$full/o" -name '*.tmp*')"

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
