#!/usr/bin/env bash
# `benchgrid slurm --submit` on a real single-node Slurm started here: a
# private slurm.conf (localhost, the machine's cores, private ports), munged,
# slurmctld and slurmd started by hand (no systemd) and stopped by their pids
# on exit, whatever happens.
#  a. a 6-cell scenario (dir target, io and exec steps) as 3 array tasks plus
#     the merge job: the merged results hold the cells of a local run, each
#     with its host;
#  b. scancel of the task running a long cell: merge exits 1 and lists the
#     missing cell with its share and host; a resubmission (-D makes the
#     sleep short) completes it and merge exits 0 with all 6 cells.
# Needs root (the daemons run as root), slurmctld, slurmd and munge
# (scripts/setup); skipped (77) only when they are missing: installed daemons
# that do not start (munged, or a node not idle within 60 s) fail the test.
# Run it under /tmp/benchgrid-heavy.lock.
set -u
bg=${BENCHGRID:?}
export PATH=$PATH:/usr/sbin:/sbin
skip() {
	echo "skip: $*"
	exit 77
}
die() {
	echo "FAIL: $*"
	exit 1
}
[[ $(id -u) -eq 0 ]] || skip "needs root (slurmd and munged run as root here)"
for p in munged slurmctld slurmd sbatch squeue sinfo scancel python3; do
	command -v "$p" >/dev/null || skip "$p is not installed (scripts/setup installs it)"
done

t=$(mktemp -d /tmp/bg-slurm.XXXXXX)
chmod 0755 "$t"
mkdir -m 0755 "$t/munge" "$t/state" "$t/spool" "$t/log" "$t/w"
pids=()
stop_all() {
	# Our jobs first (their tasks run under slurmstepd, which outlives
	# slurmd), then the daemons, newest first, each by its pid.
	if [[ -n ${SLURM_CONF:-} ]] && kill -0 "${pids[1]:-0}" 2>/dev/null; then
		scancel $(squeue -h -o %A 2>/dev/null) 2>/dev/null
		for _ in $(seq 50); do
			[[ -z $(squeue -h -o %A 2>/dev/null) ]] && break
			sleep 0.2
		done
	fi
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
		kill "${pids[i]}" 2>/dev/null
	done
	for p in "${pids[@]}"; do
		for _ in $(seq 50); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.1
		done
		kill -9 "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	"$bg" cleanup >/dev/null 2>&1
	rm -rf "$t"
}
trap stop_all EXIT
export BENCHGRID_STATE=$t/bgstate
fail=0 pass=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
# Wait (at most $1 tenths of a second) until the command succeeds.
wait_for() {
	local n=$1
	shift
	for _ in $(seq "$n"); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

# ---- the cluster: munged, slurmctld, slurmd ----
dd if=/dev/urandom of="$t/munge/key" bs=1024 count=1 status=none
chmod 0400 "$t/munge/key"
munged -F --force --key-file="$t/munge/key" --socket="$t/munge/sock" --pid-file="$t/munge/pid" \
	--seed-file="$t/munge/seed" --log-file="$t/munge/log" >"$t/log/munged.out" 2>&1 &
pids+=($!)
wait_for 50 test -S "$t/munge/sock" || die "munged did not start: $(tail -3 "$t/munge/log" 2>/dev/null)"

read -r p1 p2 < <(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
cat >"$t/slurm.conf" <<EOF
ClusterName=bgtest
SlurmctldHost=localhost
SlurmctldPort=$p1
SlurmdPort=$p2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$t/munge/sock
StateSaveLocation=$t/state
SlurmdSpoolDir=$t/spool
SlurmctldPidFile=$t/slurmctld.pid
SlurmdPidFile=$t/slurmd.pid
SlurmctldLogFile=$t/log/slurmctld.log
SlurmdLogFile=$t/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
KillWait=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=100 State=UNKNOWN
PartitionName=bg Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$t/slurm.conf
slurmctld -D -c -f "$SLURM_CONF" >"$t/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N localhost >"$t/log/slurmd.out" 2>&1 &
pids+=($!)
node_idle() { [[ $(sinfo -h -n localhost -o %T 2>/dev/null) == idle ]]; }
# 60 s: a start-up deadline, not a measurement (idle here within 2 s; a
# busy machine slows slurmd's registration, not the verdict).
if ! wait_for 600 node_idle; then
	tail -5 "$t"/log/* >&2
	die "the Slurm node did not become idle in 60 s"
fi
ok "munged, slurmctld and slurmd up (node idle)"

# The jobs of the private cluster, until none is left (at most $1 s).
queue_empty() { [[ -z $(squeue -h -o %A 2>/dev/null) ]]; }
# The two ids that `slurm --submit` printed.
job_ids() { awk '/^array job /{a=$3} /^merge job /{m=$3} END{print a, m}' "$1"; }

# ---- a. 6 cells as 3 array tasks, merged, equal a local run ----
cat >"$t/six.yaml" <<Y
name: slurm-six
matrix:
  n: [1, 2, 3, 4, 5, 6]
target: {kind: dir, path: $t/w}
steps:
  - name: probe
    exec: {command: "echo 'bytes \${n}'"}
  - name: write
    io: {rw: write, bs: 64k, size: 1MiB}
Y
"$bg" run --work-dir "$t/w" -q -o "$t/local" "$t/six.yaml" >"$t/local.out" 2>&1 ||
	{
		bad "local run"
		cat "$t/local.out"
	}
t0=$(date +%s.%N)
if "$bg" slurm "$t/six.yaml" -o "$t/a" --shards 3 --submit >"$t/a.out" 2>"$t/a.err"; then
	ok "slurm --submit: $(tr '\n' ' ' <"$t/a.out")"
else
	bad "slurm --submit exit $?: $(cat "$t/a.err")"
fi
read -r aj mj < <(job_ids "$t/a.out")
if wait_for 600 queue_empty; then
	ok "array job $aj and merge job $mj done in $(python3 -c "import time; print(round(time.time() - $t0, 1))") s"
else
	bad "jobs still queued after 60 s: $(squeue -h 2>&1)"
fi
[[ $(ls "$t/a/slurm/${aj}"_*.out 2>/dev/null | wc -l) -eq 3 ]] && ok "3 task outputs in DIR/slurm" ||
	bad "task outputs: $(ls "$t/a/slurm")"
python3 - "$t/local" "$t/a" "$(hostname)" <<'PY' && ok "merged results = local run's cells, each with host and share" || { bad "merged results"; cat "$t/a/slurm/"*; }
import json, sys
local, dist, host = sys.argv[1:]
L = json.load(open(f"{local}/results.json"))["cells"]
D = json.load(open(f"{dist}/results.json"))["cells"]
assert sorted(c["id"] for c in L) == sorted(c["id"] for c in D), (L, D)
assert len(D) == 6
shares = set()
for c in D:
    assert c["status"] == "ok", c
    info = c["facts"]["info"]
    assert info.get("host") == host, info
    shares.add(info.get("share"))
assert shares == {"0/3", "1/3", "2/3"}, shares
PY
[[ -f $t/a/report.md && -f $t/a/results.csv ]] && ok "merge wrote report.md and results.csv" ||
	bad "report.md/results.csv missing: $(ls "$t/a")"

# ---- b. scancel mid-cell, merge lists it, a resubmission finishes it ----
cat >"$t/slow.yaml" <<Y
name: slurm-slow
vars: {slow: 60}
matrix:
  n: [1, 2, 3, 4, 5, 6]
target: {kind: dir, path: $t/w}
steps:
  - name: probe
    exec: {command: !lua "n == 4 and ('sleep ' .. slow .. '; echo bytes 4') or ('echo bytes ' .. n)"}
Y
slow_id=$("$bg" plan --format json "$t/slow.yaml" |
	python3 -c 'import json,sys; print([c["id"] for c in json.load(sys.stdin) if c["params"]["n"] == 4][0])')
# A space and a quote in DIR: the printed script and --submit quote it.
b="$t/b d'x"
"$bg" slurm "$t/slow.yaml" -o "$b" --shards 3 --submit >"$t/b1.out" 2>"$t/b1.err" ||
	bad "slurm --submit (slow) exit $?: $(cat "$t/b1.err")"
read -r aj mj < <(job_ids "$t/b1.out")
# The share that holds the slow cell: its shards/I-of-3.json lists it.
slow_share() {
	local f
	for f in "$b"/shards/*-of-3.json; do
		grep -q "\"$slow_id\"" "$f" 2>/dev/null && { basename "$f" | cut -d- -f1; return 0; }
	done
	return 1
}
if wait_for 300 test -d "$b/cells/$slow_id" && share=$(slow_share); then
	sleep 0.5 # inside its sleep
	scancel "${aj}_${share}"
	ok "cell $slow_id started in share $share/3: scancel ${aj}_${share}"
else
	bad "the slow cell did not start in 30 s"
	share=x
fi
wait_for 300 queue_empty || bad "jobs still queued 30 s after scancel: $(squeue -h 2>&1)"
"$bg" merge "$b" >"$t/m1.out" 2>"$t/m1.err"
rc=$?
[[ $rc -eq 1 ]] && ok "merge after scancel exits 1" || bad "merge after scancel exits $rc: $(cat "$t/m1.err")"
grep -E "^missing: $slow_id .*share $share/3 on $(hostname)" "$t/m1.err" >/dev/null &&
	ok "merge lists the missing cell with its share and host" ||
	bad "missing line for $slow_id (share $share/3): $(cat "$t/m1.err")"
# The resubmission through the printed script (the first went through --submit).
if "$bg" slurm "$t/slow.yaml" -o "$b" --shards 3 -D slow=0 >"$t/b2.sh" 2>"$t/b2.err" &&
	bash "$t/b2.sh" >"$t/b2.out" 2>>"$t/b2.err"; then
	ok "resubmitted by the printed script: $(tr '\n' ' ' <"$t/b2.out")"
else
	bad "resubmission: $(cat "$t/b2.err")"
fi
read -r _ mj2 < <(job_ids "$t/b2.out")
wait_for 600 queue_empty || bad "resubmitted jobs still queued after 60 s"
grep -qs "6 of 6" "$b/slurm/${mj2:-x}-merge.out" && ok "the merge job ran in the quoted DIR: $(cat "$b/slurm/$mj2-merge.out")" ||
	bad "merge job output: $(ls "$b/slurm")"
"$bg" merge "$b" >"$t/m2.out" 2>"$t/m2.err"
rc=$?
[[ $rc -eq 0 ]] && ok "merge after the resubmission exits 0" ||
	{
		bad "merge after the resubmission exits $rc: $(cat "$t/m2.err")"
		tail -n 20 "$b"/slurm/*.out
	}
python3 - "$b" <<'PY' && ok "all 6 cells ok after the resubmission" || bad "cells after the resubmission"
import json, sys
D = json.load(open(f"{sys.argv[1]}/results.json"))["cells"]
assert sorted(c["params"]["n"] for c in D) == [1, 2, 3, 4, 5, 6], [c["params"] for c in D]
assert all(c["status"] == "ok" for c in D), [(c["id"], c["status"], c["error"]) for c in D]
PY
# The resubmission ran only the missing cells: each id is in one journal line.
python3 - "$b" <<'PY' && ok "no cell ran twice (one journal line each)" || bad "journal lines"
import glob, json, sys
ids = [json.loads(l)["id"] for f in glob.glob(f"{sys.argv[1]}/shards/*.jsonl") for l in open(f)]
assert len(ids) == 6 and len(set(ids)) == 6, sorted(ids)
PY

# ---- arguments ----
"$bg" slurm "$t/six.yaml" -o "$t/x" --time 1-2:3:4:5 >/dev/null 2>"$t/e"
[[ $? -eq 2 ]] && grep -q "not a Slurm time limit" "$t/e" && ok "bad --time: exit 2" || bad "bad --time: $(cat "$t/e")"
"$bg" slurm "$t/six.yaml" --shards 3 >/dev/null 2>"$t/e"
[[ $? -eq 2 ]] && grep -q -- "-o DIR is required" "$t/e" && ok "no -o: exit 2" || bad "no -o: $(cat "$t/e")"
[[ ! -e $t/x ]] && ok "printing the script writes nothing" || bad "printing the script created $t/x"

echo "$pass passed, $fail failed"
((fail == 0))
