#!/usr/bin/env bash
# Shares of a sweep (`run --shard i/n`) and `merge`, with real processes on
# this host standing for hosts that share the output directory:
#  - two shares in parallel into one DIR, merged, equal a local run (20
#    times): no journal line lost or duplicated, every line whole;
#  - the same share twice at once is refused; a share of another plan is
#    refused; a share with nothing to do says so;
#  - --shard auto from Slurm's and a Kubernetes Indexed Job's variables;
#  - a share killed with SIGKILL mid-cell leaves a missing cell that merge
#    lists with its share and host (exit 1), a rerun completes it (exit 0),
#    and `report` works on the merged run; a failed cell is listed too.
set -u
bg=${BENCHGRID:?}
t=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$t"' EXIT
export BENCHGRID_STATE=$t/state
mkdir -p "$t/w" "$t/tgt"
W=(--work-dir "$t/w")
fail=0 pass=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
host=$(hostname)

cat >"$t/s.yaml" <<Y
name: shard-test
vars: {msg: hi}
target: {kind: dir, path: $t/tgt}
matrix:
  a: [1, 2, 3]
  b: [x, y]
steps:
  - name: e
    exec: {command: "echo \${msg} a=\${a} b=\${b}; if [ \${a}\${b} = 2y ]; then sleep \$(cat $t/slow); fi"}
Y
echo 0 >"$t/slow" # seconds the cell a=2 b=y sleeps: read at run time, so the plan stays the same
ids() { python3 -c 'import json,sys; print(" ".join(sorted(c["id"] for c in json.load(open(sys.argv[1]))["cells"])))' "$1"; }

"$bg" run "$t/s.yaml" -o "$t/local" "${W[@]}" -q || bad "the local run failed"
want=$(ids "$t/local/results.json")

# 1. Two shares at once into one directory, 20 times.
good=0
for k in $(seq 1 20); do
	o=$t/p$k
	"$bg" run "$t/s.yaml" -o "$o" --shard 0/2 "${W[@]}" -q &
	p0=$!
	"$bg" run "$t/s.yaml" -o "$o" --shard 1/2 "${W[@]}" -q
	r1=$?
	wait $p0
	r0=$?
	"$bg" merge -q "$o"
	rm=$?
	lines=$(cat "$o"/shards/*.jsonl | wc -l)
	uniq=$(cat "$o"/shards/*.jsonl | python3 -c 'import json,sys; print(len({json.loads(l)["id"] for l in sys.stdin}))')
	if [[ $r0 == 0 && $r1 == 0 && $rm == 0 && $lines == 6 && $uniq == 6 && "$(ids "$o/results.json")" == "$want" ]]; then
		good=$((good + 1))
	else
		echo "  round $k: shares $r0 $r1, merge $rm, $lines journal lines, $uniq distinct"
	fi
	[[ $k == 1 ]] && first=$o || rm -rf "$o"
done
[[ $good == 20 ]] && ok "20 rounds of two parallel shares: merged = local run, 6 journal lines each" ||
	bad "only $good of 20 rounds of two parallel shares were right"
python3 - "$first/results.json" "$host" <<'P' && ok "each merged cell records its host and share" || bad "host/share facts"
import json, sys
r = json.load(open(sys.argv[1]))
shares = {c["facts"]["info"].get("share") for c in r["cells"]}
assert all(c["facts"]["info"].get("host") == sys.argv[2] for c in r["cells"]), "host"
assert shares == {"0/2", "1/2"}, shares
assert r["planned_cells"] == 6 and len(r["cells"]) == 6
P
[[ -s $first/report.md && -s $first/results.csv ]] && ok "merge wrote report.md and results.csv" || bad "merge wrote no reports"
"$bg" report "$first" >/dev/null && ok "report works on a merged run" || bad "report on a merged run"
# (the monitor's columns depend on what the disk did in each run: compared
# are the cells' identity, parameters, steps and statuses)
[[ "$(cut -d, -f1-7 "$first/results.csv" | sort)" == "$(cut -d, -f1-7 "$t/local/results.csv" | sort)" ]] &&
	ok "the merged results.csv has the local run's cells, steps and statuses" || bad "results.csv differs from the local run's"
"$bg" merge -q "$t/local" && [[ ! -e $t/local/shards ]] && [[ "$(ids "$t/local/results.json")" == "$want" ]] &&
	ok "merge of a local run rewrites the same results (and adds no shards/)" || bad "merge of a local run"

# 2. The same share twice at once; another plan into the same directory.
o=$t/twice
echo 4 >"$t/slow"
"$bg" run "$t/s.yaml" -o "$o" --shard 0/1 "${W[@]}" -q &
pids+=($!)
for _ in $(seq 50); do [[ -s $o/shards/0-of-1.json ]] && break; sleep 0.1; done
out=$("$bg" run "$t/s.yaml" -o "$o" --shard 0/1 "${W[@]}" -q 2>&1)
rc=$?
[[ $rc == 2 && $out == *"already running into this directory (pid"* ]] && ok "the same share twice is refused (exit 2)" ||
	bad "the same share twice: exit $rc: $out"
out=$("$bg" merge "$o" 2>&1)
rc=$?
[[ $rc == 1 && $out == *"that share is still running"* ]] && ok "merge names a share that is still running" ||
	bad "merge while a share runs: exit $rc: $out"
out=$("$bg" run "$t/s.yaml" -o "$o" --shard 0/2 --only b=x "${W[@]}" -q 2>&1)
rc=$?
[[ $rc == 2 && $out == *"holds the plan of another sweep"* ]] && ok "a share of another plan is refused (exit 2)" ||
	bad "another plan: exit $rc: $out"
wait "${pids[@]}"
pids=()
echo 0 >"$t/slow"

out=$("$bg" run "$t/s.yaml" -o "$first" "${W[@]}" -q 2>&1)
[[ $? == 2 && $out == *"holds the shares of a sweep"* ]] && ok "a local run into a sweep's directory is refused (exit 2)" ||
	bad "local run into a sweep's directory: $out"

out=$("$bg" run "$t/s.yaml" --resume "$first" "${W[@]}" -q 2>&1)
[[ $? == 2 && $out == *"holds the shares of a sweep"* ]] && ok "--resume of a sweep's directory is refused (exit 2)" ||
	bad "--resume into a sweep's directory: $out"
out=$("$bg" run "$t/s.yaml" -o "$t/x" --shards 2 "${W[@]}" -q 2>&1)
[[ $? == 2 && $out == *"go with --shard"* ]] && ok "--shards without --shard is refused" || bad "--shards alone: $out"

# Shares whose settings differ: a finished cell's own fingerprint refuses them.
o=$t/fp
"$bg" run "$t/s.yaml" -o "$o" --shard 0/2 "${W[@]}" -q
out=$("$bg" run "$t/s.yaml" -o "$o" --shard 1/2 -D msg=other "${W[@]}" -q 2>&1)
[[ $? == 2 && $out == *"the scenario changed for finished cell"* ]] &&
	ok "a share whose settings differ from the finished cells' is refused" || bad "changed settings: $out"
# ... and a share of another plan leaves nothing behind in the directory.
out=$("$bg" run "$t/s.yaml" -o "$o" --shard 0/3 --only b=x "${W[@]}" -q 2>&1)
[[ $? == 2 && ! -e $o/shards/0-of-3.jsonl ]] && ok "a refused share leaves no journal behind" ||
	bad "a refused share left $(ls "$o/shards")"
# Resubmitting one task of the array (SLURM_ARRAY_TASK_COUNT=1): --shards tells n.
SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=1 "$bg" run "$t/s.yaml" -o "$o" --shard auto --shards 2 "${W[@]}" -q &&
	"$bg" merge -q "$o" && ok "one task resubmitted alone (--shard auto --shards 2) completes the sweep" ||
	bad "one task resubmitted alone"

# Shares of two splits at once: the second split is refused while the first runs.
o=$t/split
echo 4 >"$t/slow"
"$bg" run "$t/s.yaml" -o "$o" --shard 0/1 "${W[@]}" -q &
pids+=($!)
for _ in $(seq 50); do [[ -s $o/shards/0-of-1.json ]] && break; sleep 0.1; done
out=$("$bg" run "$t/s.yaml" -o "$o" --shard 1/2 "${W[@]}" -q 2>&1)
[[ $? == 2 && $out == *"of another split of this sweep is still running"* ]] &&
	ok "a share of another split is refused while the first split runs" || bad "two splits at once: $out"
wait "${pids[@]}"
pids=()
echo 0 >"$t/slow"

# 3. More shares than cells: the idle ones say so and succeed.
out=$("$bg" run "$t/s.yaml" -o "$t/idle" --shard 6/7 "${W[@]}" 2>&1)
rc=$?
[[ $rc == 0 && $out == *"nothing to do"* ]] && ok "a share with nothing to do says so (exit 0)" || bad "idle share: exit $rc: $out"

# 4. --shard auto.
o=$t/auto
for i in 0 1 2; do
	SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=3 "$bg" run "$t/s.yaml" -o "$o" --shard auto "${W[@]}" -q ||
		bad "slurm task $i failed"
done
[[ $(ls "$o/shards/"*.jsonl | wc -l) == 3 ]] && "$bg" merge -q "$o" && [[ "$(ids "$o/results.json")" == "$want" ]] &&
	ok "--shard auto from SLURM_ARRAY_TASK_ID/COUNT: 3 shares merged" || bad "--shard auto (Slurm)"
o=$t/k8s
for i in 0 1; do
	JOB_COMPLETION_INDEX=$i "$bg" run "$t/s.yaml" -o "$o" --shard auto --shards 2 "${W[@]}" -q || bad "k8s index $i failed"
done
"$bg" merge -q "$o" && [[ "$(ids "$o/results.json")" == "$want" ]] &&
	ok "--shard auto from JOB_COMPLETION_INDEX with --shards 2" || bad "--shard auto (Kubernetes)"
out=$(JOB_COMPLETION_INDEX=0 "$bg" run "$t/s.yaml" -o "$o" --shard auto "${W[@]}" 2>&1)
[[ $? == 2 && $out == *"--shards N"* ]] && ok "JOB_COMPLETION_INDEX without --shards is refused" || bad "k8s without --shards: $out"

# 5. A share killed mid-cell (kill -9), merge, rerun, merge.
o=$t/kill
mapfile -t plan < <("$bg" plan --format json "$t/s.yaml" | python3 -c '
import json, sys
for c in json.load(sys.stdin):
    print(c["id"], c["params"]["a"], c["params"]["b"])')
slow_id=$(printf '%s\n' "${plan[@]}" | awk '$2 == 2 && $3 == "y" {print $1}')
"$bg" run "$t/s.yaml" -o "$o" --shard 0/2 "${W[@]}" -q
rc0=$?
share_slow=$(python3 -c 'import json,sys; print(0 if sys.argv[2] in json.load(open(sys.argv[1]))["cells"] else 1)' "$o/shards/0-of-2.json" "$slow_id")
[[ $share_slow == 0 ]] && { bad "the slow cell should be in share 1 here"; }
echo 30 >"$t/slow"
"$bg" run "$t/s.yaml" -o "$o" --shard 1/2 "${W[@]}" -q &
victim=$!
pids+=($victim)
for _ in $(seq 100); do [[ -d $o/cells/$slow_id ]] && break; sleep 0.1; done
sleep 0.5
kill -9 "$victim"
wait "$victim" 2>/dev/null
pids=()
"$bg" cleanup >/dev/null 2>&1 # what the killed share left (its work directory, the sleeping command)
echo 0 >"$t/slow"
out=$("$bg" merge "$o" 2>&1)
rc=$?
[[ $rc0 == 0 && $rc == 1 && $out == *"missing: $slow_id (a=2 b=y): share 1/2 on $host"* ]] &&
	ok "merge lists the killed share's cell as missing with share and host (exit 1)" || bad "merge after kill -9: exit $rc: $out"
[[ -s $o/results.json ]] && ok "merge wrote the results of what finished" || bad "no results.json after a partial merge"
"$bg" run "$t/s.yaml" -o "$o" --shard 1/2 "${W[@]}" -q && "$bg" merge -q "$o" && [[ "$(ids "$o/results.json")" == "$want" ]] &&
	ok "rerunning the share completes the sweep (merge exit 0)" || bad "rerun after kill"
lines=$(cat "$o"/shards/*.jsonl | wc -l)
[[ $lines == 6 ]] && ok "the rerun ran only the missing cells" || bad "$lines journal lines after the rerun (want 6)"

# 6. A failed cell is listed as failed with its share and host.
sed 's/sleep [^;]*;/exit 3;/' "$t/s.yaml" >"$t/f.yaml"
o=$t/failed
"$bg" run "$t/f.yaml" -o "$o" --shard 0/1 "${W[@]}" -q
out=$("$bg" merge "$o" 2>&1)
[[ $? == 1 && $out == *"failed: $slow_id (a=2 b=y): share 0/1 on $host"* ]] && ok "merge lists a failed cell with share and host (exit 1)" ||
	bad "failed cell: $out"

# 7. Not a run's directory.
mkdir -m 0755 "$t/empty"
out=$("$bg" merge "$t/empty" 2>&1)
[[ $? == 2 && $out == *"plan.tsv"* ]] && ok "merge of a directory that is no run exits 2" || bad "merge of an empty dir: $out"

echo "$pass passed, $fail failed"
[[ $fail == 0 ]]
