#!/usr/bin/env bash
# The order of repetitions and the noise watch, with real processes:
#  - run_order: interleave runs repetition 1 of every cell, then 2, ...;
#    random shuffles them, the same again for the same (recorded) seed;
#    grouped (the default) stays as before; interleave within a share;
#  - repeat: {min, max, until}: a constant metric converges at min, a noisy
#    one stops at max; results.json and report.md say which;
#  - kill -9 in the middle of an interleaved run: --resume keeps every
#    finished repetition and runs only the rest;
#  - every step records the noise facts; a busy loop started beside the run
#    is flagged in report.md, a busy step of the run itself is not foreign.
set -u
bg=${BENCHGRID:?}
py=/usr/bin/python3
t=$(mktemp -d)
loops=()
cleanup() {
	for p in "${loops[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$t"
}
trap cleanup EXIT
export BENCHGRID_STATE=$t/state
mkdir -p "$t/w" "$t/work"
W=(--work-dir "$t/w")
fail=0 pass=0 s=
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

# A scenario whose step appends "x" of its cell to $t/seq.* when it starts.
scenario() { # name order repeat [extra lines]
	cat <<Y
name: $1
target: {kind: dir, path: $t/work}
matrix:
  x: [a, b, c]
repeat: $3
run_order: $2
${4:-}
steps:
  - name: probe
    exec: {command: "echo \${x} >> $t/seq.$1; echo 'v 7'", parse: grab}
hooks: |
  function grab(text, result)
    result:metric("v", tonumber(text:match("v (%d+)")), "")
  end
Y
}
seq_of() { tr '\n' ' ' <"$t/seq.$1" | sed 's/ $//'; }

# ---- interleave: the exact order ----
scenario inter interleave 3 >"$t/inter.yaml"
"$bg" run "${W[@]}" -q -o "$t/o-inter" "$t/inter.yaml" && s=$(seq_of inter) &&
	[[ $s == "a b c a b c a b c" ]] && ok "interleave: a b c a b c a b c" || bad "interleave order: '$s'"
$py - "$t/o-inter" <<'PY' && ok "interleave: results grouped per cell, 3 reps each, no partial mark" || bad "interleave results"
import json, sys
r = json.load(open(sys.argv[1] + "/results.json"))
assert r["environment"]["info"]["run.order"] == "interleave"
assert [c["params"]["x"] for c in r["cells"]] == ["a", "b", "c"]
for c in r["cells"]:
    assert len(c["reps"]) == 3 and c["status"] == "ok", c
    assert "repeat.partial" not in c["facts"]["info"], c["facts"]["info"]
PY

# ---- grouped stays as before ----
scenario grp grouped 2 >"$t/grp.yaml"
"$bg" run "${W[@]}" -q -o "$t/o-grp" "$t/grp.yaml" && s=$(seq_of grp) &&
	[[ $s == "a a b b c c" ]] && ok "grouped: a a b b c c" || bad "grouped order: '$s'"

# ---- random: a shuffle, reproducible from the recorded seed ----
scenario rnd random 4 >"$t/rnd.yaml"
"$bg" run "${W[@]}" -q -o "$t/o-rnd1" "$t/rnd.yaml" || bad "random run"
seed=$($py -c "import json,sys; print(json.load(open(sys.argv[1]))['environment']['info']['run.order_seed'])" \
	"$t/o-rnd1/results.json")
first=$(seq_of rnd)
rm "$t/seq.rnd"
scenario rnd random 4 "run_order_seed: $seed" >"$t/rnd2.yaml"
"$bg" run "${W[@]}" -q -o "$t/o-rnd2" "$t/rnd2.yaml" || bad "random run with the seed"
again=$(seq_of rnd)
[[ -n $seed && $first == "$again" ]] && ok "random: seed $seed recorded, the same order again with it" ||
	bad "random with seed $seed: '$first' then '$again'"
$py - "$first" <<'PY' && ok "random: every slot once, not grouped nor interleaved" || bad "random order: $first"
import sys
s = sys.argv[1].split()
assert sorted(s) == sorted("abc" * 4), s
assert s != sorted(s) and s != list("abc" * 4), s
PY
# Pinned seeds: two seeds give different orders (12 slots: 369600 orders).
rm -f "$t/seq.rnd"
scenario rnd random 4 "run_order_seed: 1" >"$t/rnd3.yaml"
"$bg" run "${W[@]}" -q -o "$t/o-rnd3" "$t/rnd3.yaml" && s1=$(seq_of rnd) && rm "$t/seq.rnd"
scenario rnd random 4 "run_order_seed: 2" >"$t/rnd4.yaml"
"$bg" run "${W[@]}" -q -o "$t/o-rnd4" "$t/rnd4.yaml" && s2=$(seq_of rnd)
[[ -n ${s1:-} && ${s1:-} != "${s2:-}" ]] && ok "random: seeds 1 and 2 give different orders" ||
	bad "seeds 1 and 2: '${s1:-}' '${s2:-}'"

# ---- repeat until converged ----
cat >"$t/until.yaml" <<Y
name: until
target: {kind: dir, path: $t/work}
matrix:
  kind: [const, noisy]
repeat: {min: 3, max: 8, until: 2%}
run_order: interleave
steps:
  - name: probe
    exec: {command: "if [ \${kind} = const ]; then echo 'v 100'; else echo v \$(od -An -N2 -tu2 /dev/urandom); fi", parse: grab}
hooks: |
  function grab(text, result)
    result:metric("v", tonumber(text:match("v (%d+)")), "")
  end
Y
"$bg" run "${W[@]}" -q -o "$t/o-until" "$t/until.yaml" || bad "until run"
$py - "$t/o-until" <<'PY' && ok "until: constant converged at min 3, noisy stopped at max 8" || bad "repeat until"
import json, sys
r = json.load(open(sys.argv[1] + "/results.json"))
c = {c["params"]["kind"]: c for c in r["cells"]}
ci, ni = c["const"]["facts"]["info"], c["noisy"]["facts"]["info"]
assert len(c["const"]["reps"]) == 3 and ci["repeat.runs"] == "3" and ci["repeat.stopped"] == "converged", ci
assert len(c["noisy"]["reps"]) == 8 and ni["repeat.runs"] == "8" and ni["repeat.stopped"] == "max", ni
assert ni["repeat.ci_pct"].endswith("probe.v") and float(ni["repeat.ci_pct"].split()[0]) >= 2, ni
md = open(sys.argv[1] + "/report.md").read()
sec = md.split("## Repetitions")[1].split("\n## ")[0]
assert "converged" in sec and "| 8 | max |" in sec, sec
PY
# a changed goal is another scenario for --resume
sed -i 's/until: 2%/until: 3%/' "$t/until.yaml"
"$bg" run "${W[@]}" -q --resume "$t/o-until" "$t/until.yaml" 2>"$t/err"
[[ $? -eq 2 ]] && grep -q "scenario changed" "$t/err" && ok "--resume refuses a changed repeat goal" ||
	{ bad "--resume with another until"; cat "$t/err"; }

# ---- kill -9 in the middle of an interleaved run, then --resume ----
cat >"$t/kill.yaml" <<Y
name: kill
target: {kind: dir, path: $t/work}
matrix:
  x: [a, b, c, d]
repeat: 3
run_order: interleave
steps:
  - name: probe
    exec: {command: "echo \${x} >> $t/seq.kill; sleep 0.3; echo 'v 1'", parse: grab}
hooks: |
  function grab(text, result)
    result:metric("v", 1, "")
  end
Y
"$bg" run "${W[@]}" -q -o "$t/o-kill" "$t/kill.yaml" &
pid=$!
# Kill once six repetitions started (the seventh may be running).
for _ in $(seq 1 300); do
	[[ -f $t/seq.kill ]] && (($(wc -l <"$t/seq.kill") >= 7)) && break
	sleep 0.05
done
kill -9 $pid
wait $pid 2>/dev/null
before=$($py - "$t/o-kill" <<'PY'
import json, sys
cells = {}
for l in open(sys.argv[1] + "/journal.jsonl"):
    c = json.loads(l)
    cells[c["id"]] = [s["started"] for rep in c["reps"] for s in rep]
print(json.dumps(cells))
PY
)
n_before=$($py -c "import json,sys; print(sum(len(v) for v in json.loads(sys.argv[1]).values()))" "$before")
((n_before >= 5)) && ok "kill -9: $n_before finished repetitions in the journal" || bad "journal after kill: $before"
"$bg" cleanup >/dev/null 2>&1
"$bg" run "${W[@]}" -q --resume "$t/o-kill" "$t/kill.yaml" || bad "resume after kill"
$py - "$t/o-kill" "$before" "$(wc -l <"$t/seq.kill")" <<'PY' && ok "resume: the finished repetitions kept, only the rest run" || bad "resume after kill"
import json, sys
r = json.load(open(sys.argv[1] + "/results.json"))
before = json.loads(sys.argv[2])
ran = int(sys.argv[3])
assert len(r["cells"]) == 4, len(r["cells"])
for c in r["cells"]:
    assert len(c["reps"]) == 3 and c["status"] == "ok", c["id"]
    assert "repeat.partial" not in c["facts"]["info"]
    started = [s["started"] for rep in c["reps"] for s in rep]
    # the repetitions recorded before the kill are the first ones, unchanged
    assert started[: len(before.get(c["id"], []))] == before.get(c["id"], []), (c["id"], started)
# 12 repetitions; at most the one running at the kill ran twice
assert 12 <= ran <= 13, ran
PY

# ---- interleave within a share ----
scenario shr interleave 2 >"$t/shr.yaml"
"$bg" run "${W[@]}" -q -o "$t/o-shr" --shard 0/2 "$t/shr.yaml" && s0=$(seq_of shr) && rm "$t/seq.shr" &&
	"$bg" run "${W[@]}" -q -o "$t/o-shr" --shard 1/2 "$t/shr.yaml" && s1=$(seq_of shr) &&
	"$bg" merge -q "$t/o-shr"
$py - "${s0:-}" "${s1:-}" "$t/o-shr" <<'PY' && ok "shares: interleaved within each share ('${s0:-}' / '${s1:-}'), merged" || bad "shares: '${s0:-}' / '${s1:-}'"
import json, sys
a, b = sys.argv[1].split(), sys.argv[2].split()
for s in (a, b):
    cells = list(dict.fromkeys(s))
    assert s == cells * 2, s
assert sorted(a + b) == sorted("abc" * 2), (a, b)
r = json.load(open(sys.argv[3] + "/results.json"))
assert sorted(len(c["reps"]) for c in r["cells"]) == [2, 2, 2]
PY

# ---- a share killed between two repetitions: merge says so, a rerun completes ----
sed -e 's/name: kill/name: kshare/' -e 's/seq.kill/seq.kshare/' "$t/kill.yaml" >"$t/kshare.yaml"
"$bg" run "${W[@]}" -q -o "$t/o-ks" --shard 0/2 "$t/kshare.yaml" &
pid=$!
for _ in $(seq 1 300); do
	[[ -f $t/seq.kshare ]] && (($(wc -l <"$t/seq.kshare") >= 4)) && break
	sleep 0.05
done
kill -9 $pid
wait $pid 2>/dev/null
"$bg" cleanup >/dev/null 2>&1
"$bg" run "${W[@]}" -q -o "$t/o-ks" --shard 1/2 "$t/kshare.yaml" || bad "share 1/2"
"$bg" merge "$t/o-ks" >/dev/null 2>"$t/merge.err"
rc=$?
[[ $rc -eq 1 ]] && grep -q "unfinished: .*of at most 3 repetitions recorded" "$t/merge.err" &&
	ok "merge: a share killed mid-cell is listed as unfinished" || { bad "merge of a killed share: rc $rc"; cat "$t/merge.err"; }
"$bg" run "${W[@]}" -q -o "$t/o-ks" --shard 0/2 "$t/kshare.yaml" && "$bg" merge -q "$t/o-ks" &&
	$py -c "
import json, sys
r = json.load(open(sys.argv[1] + '/results.json'))
assert len(r['cells']) == 4 and all(len(c['reps']) == 3 for c in r['cells'])
" "$t/o-ks" && ok "the share run again completes its cells; merge exits 0" || bad "share rerun and merge"

# ---- noise: facts of every step; a busy loop beside the run is flagged ----
cat >"$t/noise.yaml" <<Y
name: noise
target: {kind: dir, path: $t/work}
steps:
  - name: busy_own
    exec: {command: "timeout 1.5 sh -c 'echo \$\$ > $t/own.pid; while :; do :; done'; true"}
  - name: wait
    exec: {command: "sleep 2"}
Y
for _ in 1 2; do
	sh -c 'while :; do :; done' &
	loops+=($!)
done
"$bg" run "${W[@]}" -q -o "$t/o-noise" "$t/noise.yaml"
for p in "${loops[@]}"; do kill "$p" 2>/dev/null; done
$py - "$t/o-noise" "$(cat "$t/own.pid" 2>/dev/null)" "${loops[*]}" <<'PY' && ok "noise: facts recorded, busy loop flagged, the run's own step not foreign" || bad "noise facts/warning"
import json, sys
d, own, loops = sys.argv[1], sys.argv[2], sys.argv[3].split()
r = json.load(open(d + "/results.json"))
steps = {s["name"]: s for s in r["cells"][0]["reps"][0]}
for s in steps.values():
    i = s["info"]
    for k in ("noise.cpus", "noise.load1_start", "noise.load1_max", "noise.steal_pct",
              "noise.foreign_cpu_pct", "noise.psi_mem_some_avg10"):
        assert k in i, (s["name"], k, i)
    psi = i["noise.psi_mem_some_avg10"]
    assert psi == "unavailable" or float(psi) >= 0, psi
w = steps["wait"]["info"]
assert float(w["noise.foreign_cpu_pct"]) > 10, w
b = steps["busy_own"]["info"]
assert own and "(%s)" % own not in b.get("noise.foreign_top", ""), (own, b)
md = open(d + "/report.md").read()
sec = md.split("## Noise")[1].split("\n## ")[0]
assert "| wait |" in sec and "other processes used" in sec, sec
PY
loops=()

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
