#!/bin/bash
# The pgbench step's failures, retries, latency limit and logs against the
# real pgbench 15 (the oracle), on one throwaway server:
#  a) serialization failures caused for real (4 clients, REPEATABLE READ,
#     one or two hot rows): with max_tries 1 both tools count failures, all
#     of the serialization kind; with 10 tries retries resolve most of them;
#     unbounded tries with a duration leave none. A retried transaction draws
#     the same random numbers: with the same seed, the values committed under
#     heavy retrying equal those of a run without conflicts, in both tools.
#  b) deadlocks caused for real (two clients, two rows in opposite order,
#     pg_sleep between): deadlock failures in both, and the same
#     verbose_errors lines (client numbers aside).
#  c) latency_limit: identical late counts where the sleeps make them
#     deterministic; with a rate, skipped + run = all, and all run are late.
#  d) logs (benchgrid run, cells/ID/STEP.log.N against pgbench_log.*), read
#     by the same awk: per transaction with failures and retries, aggregated
#     with rate, limit, retries and failure kinds, and sampling.
set -u
SRC=${BENCHGRID_SRC:-$(cd "$(dirname "$0")/../../.." && pwd)}
BUILD=${BENCHGRID_BUILD:?BENCHGRID_BUILD not set}
source "$SRC/tests/lib/pg_server.sh"
[ -x "$PG_BIN/pgbench" ] || { echo "SKIP: no PostgreSQL with pgbench"; exit 77; }
[ "$("$PG_BIN/pgbench" --version | grep -o ' 15\.')" ] || { echo "SKIP: the oracle is pgbench 15"; exit 77; }
pg_server_start "deadlock_timeout = '50ms'" "autovacuum = off" || { echo "FAIL: cannot start a server"; exit 1; }
WORK=$(mktemp -d /tmp/bg-pgfail.XXXXXX)
trap 'pg_server_stop; rm -rf "$WORK"' EXIT
PGB=$PG_BIN/pgbench
fail() { echo "FAIL: $*"; exit 1; }
q() { pg_server__as "$PG_BIN/psql" -XAtq -c "$1"; }
# pgbench writes its logs in its working directory: one the server user owns
D=$PG_SERVER_DIR/w
mkdir "$D" && chmod 777 "$D"
pgbench() { (cd "$D" && pg_server__as "$PGB" -n "$@" 2>&1); }
step() { "$BUILD/pgb_driver" "$PG_CONNINFO" "$1" 2>"$WORK/step.err"; }
# a figure from pgbench's report ("label: N ...") or the step's ("name=N unit")
pg_fig() { sed -n "s/^$1: \([0-9]*\).*/\1/p" <<<"$2" | head -1; }
bg_fig() { sed -n "s/^$1=\([0-9.e+-]*\) .*/\1/p" <<<"$2" | head -1; }

q "create table hot(id int primary key, v int); insert into hot select g, 0 from generate_series(1, 20) g;
   create table drawn(tool text, client int, val bigint)" >/dev/null
cat >"$D/ser.sql" <<'EOF'
\set id random(1, 2)
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT v FROM hot WHERE id = :id;
\sleep 1 ms
UPDATE hot SET v = v + 1 WHERE id = :id;
END;
EOF
cat >"$D/dl.sql" <<'EOF'
\set a 1 + :client_id % 2
\set b 2 - :client_id % 2
BEGIN;
UPDATE hot SET v = v + 1 WHERE id = :a;
SELECT pg_sleep(0.02);
UPDATE hot SET v = v + 1 WHERE id = :b;
END;
EOF
printf '\\sleep 30 ms\nSELECT 1;\n' >"$D/sleep30.sql"
printf '\\set s 5 + 40 * (:client_id %% 2)\n\\sleep :s ms\nSELECT 1;\n' >"$D/sleep5or45.sql"
chmod 644 "$D"/*.sql

echo "== a) serialization failures"
for tries in 1 10; do
	p=$(pgbench -c 4 -t 25 --max-tries $tries --failures-detailed -f "$D/ser.sql")
	b=$(step "{script: $D/ser.sql, clients: 4, transactions: 25, max_tries: $tries, failures_detailed: true, vacuum: false}") \
		|| fail "step (max_tries $tries): $b $(cat "$WORK/step.err")"
	pf=$(pg_fig "number of failed transactions" "$p") ps=$(pg_fig "number of serialization failures" "$p")
	pd=$(pg_fig "number of deadlock failures" "$p")
	pn=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' <<<"$p")
	bf=$(bg_fig failed "$b") bs=$(bg_fig serialization_failures "$b") bd=$(bg_fig deadlock_failures "$b")
	bn=$(bg_fig transactions "$b")
	echo "max_tries $tries: pgbench $pn done, $pf failed ($ps serialization, $pd deadlock), retried $(pg_fig "number of transactions retried" "$p"), retries $(pg_fig "total number of retries" "$p");" \
		"benchgrid $bn done, $bf failed ($bs serialization, $bd deadlock), retried $(bg_fig retried "$b"), retries $(bg_fig retries "$b")"
	[ -n "$pf" ] && [ -n "$bf" ] && [ -n "$bs" ] || fail "missing figures: $p // $b"
	[ $((pn + pf)) = 100 ] && [ $((bn + bf)) = 100 ] || fail "done + failed is not 100"
	[ "$pf" = "$ps" ] && [ "$pd" = 0 ] || fail "pgbench: failures not all serialization failures"
	[ "$bf" = "$bs" ] && [ "$bd" = 0 ] || fail "benchgrid: failures not all serialization failures"
	if [ $tries = 1 ]; then
		[ "$pf" -gt 0 ] && [ "$bf" -gt 0 ] || fail "no serialization failures with one try (pgbench $pf, benchgrid $bf)"
		grep -q "^retried=" <<<"$b" && fail "retried reported with max_tries 1"
		pf1=$pf bf1=$bf
	else
		[ "$(bg_fig retried "$b")" -gt 0 ] && [ "$(bg_fig retries "$b")" -ge "$(bg_fig retried "$b")" ] \
			|| fail "benchgrid: no retries with 10 tries"
		[ "$(pg_fig "number of transactions retried" "$p")" -gt 0 ] || fail "pgbench: no retries"
		[ $((pf * 2)) -lt "$pf1" ] && [ $((bf * 2)) -lt "$bf1" ] \
			|| fail "10 tries did not resolve most failures (pgbench $pf1 -> $pf, benchgrid $bf1 -> $bf)"
	fi
done
# unbounded tries, bounded by the duration: nothing fails
p=$(pgbench -c 4 -T 1 --max-tries 0 -f "$D/ser.sql")
b=$(step "{script: $D/ser.sql, clients: 4, duration: 1s, max_tries: 0, vacuum: false}") || fail "step: $b"
echo "max_tries 0, 1 s: failed: pgbench $(pg_fig "number of failed transactions" "$p"), benchgrid $(bg_fig failed "$b"); retries: pgbench $(pg_fig "total number of retries" "$p"), benchgrid $(bg_fig retries "$b")"
[ "$(pg_fig "number of failed transactions" "$p")" = 0 ] && [ "$(bg_fig failed "$b")" = 0 ] \
	|| fail "failures with unbounded tries"
[ "$(bg_fig retries "$b")" -gt 0 ] || fail "benchgrid: no retries in 1 s of conflicts"

# a retry draws the same numbers: the committed values of a run with many
# retries (all four clients on row 1) equal those of a run without conflicts
# (each client on its own row), same seed, in each tool
drawn() { # tool hot_row_expression
	printf '%s\n' '\set val random(1, 1000000000)' 'BEGIN ISOLATION LEVEL REPEATABLE READ;' \
		"SELECT v FROM hot WHERE id = $2;" '\sleep 1 ms' "UPDATE hot SET v = v + 1 WHERE id = $2;" \
		"INSERT INTO drawn VALUES ('$1', :client_id, :val);" 'END;' >"$D/drawn.sql"
	chmod 644 "$D/drawn.sql"
}
for tool in pgbench benchgrid; do
	for mode in conflict alone; do
		q "delete from drawn" >/dev/null
		[ $mode = conflict ] && drawn $tool 1 || drawn $tool ":client_id + 10"
		if [ $tool = pgbench ]; then
			out=$(pgbench -c 4 -t 15 --max-tries 100 --random-seed 42 -f "$D/drawn.sql")
			r=$(pg_fig "total number of retries" "$out") f=$(pg_fig "number of failed transactions" "$out")
		else
			out=$(step "{script: $D/drawn.sql, clients: 4, transactions: 15, max_tries: 100, seed: 42, vacuum: false}") \
				|| fail "step: $out"
			r=$(bg_fig retries "$out") f=$(bg_fig failed "$out")
		fi
		[ "$f" = 0 ] || fail "$tool $mode: $f failed transactions with 100 tries"
		vals=$(q "select client || ':' || val from drawn order by 1")
		[ "$(wc -l <<<"$vals")" = 60 ] || fail "$tool $mode: $(wc -l <<<"$vals") rows, want 60"
		if [ $mode = conflict ]; then
			[ "$r" -gt 0 ] || fail "$tool: no retries under conflicts"
			v_conflict=$vals r_conflict=$r
		else
			[ "$vals" = "$v_conflict" ] || fail "$tool: the values committed after $r_conflict retries differ from a run without retries"
		fi
	done
	echo "$tool: the 60 values committed after $r_conflict retries are those of a run without conflicts"
done

echo "== b) deadlocks"
p=$(pgbench -c 2 -t 5 --failures-detailed --verbose-errors -f "$D/dl.sql")
b=$(step "{script: $D/dl.sql, clients: 2, transactions: 5, failures_detailed: true, verbose_errors: true, vacuum: false}") \
	|| fail "step: $b"
echo "deadlock failures: pgbench $(pg_fig "number of deadlock failures" "$p"), benchgrid $(bg_fig deadlock_failures "$b");" \
	"serialization: pgbench $(pg_fig "number of serialization failures" "$p"), benchgrid $(bg_fig serialization_failures "$b")"
[ "$(pg_fig "number of deadlock failures" "$p")" -gt 0 ] || fail "pgbench: no deadlock: $p"
[ "$(bg_fig deadlock_failures "$b")" -gt 0 ] || fail "benchgrid: no deadlock failure: $b"
[ "$(bg_fig deadlock_failures "$b")" = "$(bg_fig failed "$b")" ] && [ "$(bg_fig serialization_failures "$b")" = 0 ] \
	|| fail "benchgrid: failures not all deadlocks: $b"
# the verbose lines, client numbers aside (pgbench's DETAIL lines name pids)
verbose() { grep '^pgbench: client' | sed 's/client [0-9]*/client N/' | sort -u; }
pv=$(verbose <<<"$p") bv=$(verbose <"$WORK/step.err")
echo "verbose_errors lines: $(tr '\n' '|' <<<"$bv")"
[ -n "$bv" ] && [ "$pv" = "$bv" ] || fail "verbose lines differ: pgbench [$pv] benchgrid [$bv]"
grep -q '^DETAIL:  Process [0-9]* waits for ShareLock' "$WORK/step.err" || fail "no DETAIL of the deadlock in the step's stderr"

echo "== c) latency limit"
for case in "sleep30.sql 10 20" "sleep5or45.sql 20 10"; do
	set -- $case
	p=$(pgbench -c 2 -t 10 -L "$2" -f "$D/$1")
	b=$(step "{script: $D/$1, clients: 2, transactions: 10, latency_limit: $2ms, vacuum: false}") || fail "step: $b"
	pl=$(sed -n "s/^number of transactions above the $2.0 ms latency limit: \([0-9]*\)\/.*/\1/p" <<<"$p")
	echo "$1, limit $2 ms: late: pgbench $pl, benchgrid $(bg_fig late "$b") (expected $3)"
	[ "$pl" = "$3" ] && [ "$(bg_fig late "$b")" = "$3" ] || fail "late counts differ"
done
p=$(pgbench -c 1 -t 50 -R 1000 -L 10 -f "$D/sleep30.sql")
b=$(step "{script: $D/sleep30.sql, clients: 1, transactions: 50, rate: 1000, latency_limit: 10ms, vacuum: false}") \
	|| fail "step: $b"
ps=$(pg_fig "number of transactions skipped" "$p")
pn=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' <<<"$p")
pl=$(sed -n 's/^number of transactions above the 10.0 ms latency limit: \([0-9]*\)\/.*/\1/p' <<<"$p")
bs=$(bg_fig skipped "$b") bn=$(bg_fig transactions "$b") bl=$(bg_fig late "$b")
echo "rate 1000 with 30 ms transactions, limit 10 ms: pgbench $pn run ($pl late), $ps skipped; benchgrid $bn run ($bl late), $bs skipped"
[ $((pn + ps)) = 50 ] && [ $((bn + bs)) = 50 ] || fail "run + skipped is not 50"
[ "$ps" -ge 25 ] && [ "$bs" -ge 25 ] || fail "too few skipped"
[ "$pl" = "$pn" ] && [ "$bl" = "$bn" ] || fail "not all run transactions late"

echo "== d) logs"
# one awk for both tools' files: per file, lines and the set of column counts;
# over files, the sum of each status (a number = completed)
raw_sum() {
	awk '{ cols[NF] = 1; if ($3 ~ /^[0-9]+$/) ok++; else st[$3]++ }
	     END { printf "ok=%d", ok; for (s in st) printf " %s=%d", s, st[s];
	           printf " cols="; for (c in cols) printf "%s,", c; print "" }' "$@"
}
# aggregated lines: columns, and whether each line's figures are coherent
# (min <= mean <= max, sum2 >= sum^2/n); prints "lines cols bad transactions"
agg_sum() {
	awk '{ cols[NF] = 1; n += $2; if ($2 > 0 && ($5 > $3 / $2 + 1 || $6 < $3 / $2 - 1 || $4 < $3 * $3 / $2 * 0.999)) bad++ }
	     END { printf "%d ", NR; for (c in cols) printf "%s,", c; printf " %d %d\n", bad, n }' "$@"
}
# a thread's aggregated file against the clock (epoch seconds): its intervals
# follow each other a second apart from the first (the thread's start rounded
# down), all had ended before HI (the tool had exited), and the first interval
# not written had not ended when the thread stopped, which was after LO (the
# earliest its duration can end). Prints the file's lines, or what is wrong.
agg_span() { # FILE LO HI
	awk -v lo="$2" -v hi="$3" -v f="$1" '
	NR == 1 { first = $1 } $1 != first + NR - 1 { gap = gap " " $1 }
	END { if (!NR) { print f ": empty"; exit }
	      if (gap != "") { print f ": intervals not a second apart:" gap; exit }
	      if (first + NR > hi) { printf "%s: %d intervals from %d end after the exit (%.3f)\n", f, NR, first, hi; exit }
	      if (first + NR + 1 <= lo) { printf "%s: %d intervals from %d: a whole interval before %.3f is missing\n", f, NR, first, lo; exit }
	      print NR }' "$1"
}
cat >"$WORK/logs.yaml" <<EOF
name: pgfail-logs
postgres:
  external: "$PG_CONNINFO"
steps:
  - name: raw
    pgbench: {script: $D/ser.sql, clients: 4, threads: 2, transactions: 25, log: true, failures_detailed: true, vacuum: false}
  - name: raw_retry
    pgbench: {script: $D/ser.sql, clients: 4, threads: 2, transactions: 25, log: true, max_tries: 3, verbose_errors: true, vacuum: false}
  - name: agg
    pgbench: {script: $D/ser.sql, clients: 4, threads: 2, duration: 3s, rate: 400, latency_limit: 50ms, max_tries: 3,
              failures_detailed: true, log: true, aggregate_interval: 1s, vacuum: false}
  - name: sampled
    pgbench: {script: "SELECT 1;", clients: 1, threads: 1, transactions: 4000, log: true, sampling_rate: 0.25, seed: 11,
              vacuum: false}
EOF
"$BUILD/benchgrid" run -q -o "$WORK/out" "$WORK/logs.yaml" >"$WORK/run.out" 2>&1 || fail "benchgrid run: $(cat "$WORK/run.out")"
C=$(echo "$WORK"/out/cells/*)
metric() { python3 -c "import json, sys
r = json.load(open(sys.argv[1]))
print(int(next(s['metrics'][sys.argv[3]]['value'] for s in r['cells'][0]['summary'] if s['step'] == sys.argv[2])))" \
	"$WORK/out/results.json" "$1" "$2"; }
ls "$C"/raw.log.0 "$C"/raw.log.1 "$C"/agg.log.0 "$C"/agg.log.1 "$C"/raw_retry.stderr >/dev/null || fail "log files missing: $(ls "$C")"
[ ! -e "$C"/raw.log.2 ] || fail "more log files than threads"

rm -f "$D"/pgbench_log.*
pgbench -c 4 -j 2 -t 25 -l --failures-detailed -f "$D/ser.sql" >/dev/null
pr=$(raw_sum "$D"/pgbench_log.*) br=$(raw_sum "$C"/raw.log.*)
echo "per transaction: pgbench $pr ($(cat "$D"/pgbench_log.* | wc -l) lines), benchgrid $br ($(cat "$C"/raw.log.* | wc -l) lines)"
for r in "$pr" "$br"; do
	[[ $r == *"cols=6,"* ]] && [[ $r != *"cols=6,"?* ]] || fail "not 6 columns on every line: $r"
	ok=${r#ok=} ok=${ok%% *} ser=$(sed -n 's/.*serialization=\([0-9]*\).*/\1/p' <<<"$r")
	[ $((ok + ${ser:-0})) = 100 ] || fail "completed + serialization is not 100: $r"
	[ "${ser:-0}" -gt 0 ] || fail "no failed transaction in the log: $r"
done
[ "$(ls "$D"/pgbench_log.* | wc -l)" = 2 ] || fail "pgbench wrote $(ls "$D"/pgbench_log.* | wc -l) files"
for f in "$C"/raw.log.0 "$C"/raw.log.1; do [ "$(wc -l <"$f")" = 50 ] || fail "$f: $(wc -l <"$f") lines, want 50"; done
[ "$(metric raw transactions)" = "$(raw_sum "$C"/raw.log.* | sed 's/ok=\([0-9]*\).*/\1/')" ] \
	|| fail "log's completed transactions differ from the metric $(metric raw transactions)"

rm -f "$D"/pgbench_log.*
pgbench -c 4 -j 2 -t 25 -l --max-tries 3 -f "$D/ser.sql" >/dev/null
pr=$(raw_sum "$D"/pgbench_log.*) br=$(raw_sum "$C"/raw_retry.log.*)
echo "per transaction, max_tries 3: pgbench $pr, benchgrid $br"
for r in "$pr" "$br"; do [[ $r == *"cols=7,"* ]] && [[ $r != *"cols=7,"?* ]] || fail "not 7 columns: $r"; done
pt=$(awk '{ s += $7 } END { print s }' "$D"/pgbench_log.*) bt=$(awk '{ s += $7 } END { print s }' "$C"/raw_retry.log.*)
echo "retries in the logs: pgbench $pt, benchgrid $bt (metric $(metric raw_retry retries))"
[ "$bt" = "$(metric raw_retry retries)" ] || fail "the log's retries differ from the metric"
grep -q "^pgbench: client [0-9]* repeats the transaction after the error (try 1/3)$" "$C"/raw_retry.stderr \
	|| fail "no retry line in raw_retry.stderr"

rm -f "$D"/pgbench_log.*
pg_launch=$(date +%s.%N)
pgbench -c 4 -j 2 -T 3 -R 400 -L 50 --max-tries 3 --failures-detailed -l --aggregate-interval 1 -f "$D/ser.sql" >/dev/null
pg_exit=$(date +%s.%N)
pa=$(agg_sum "$D"/pgbench_log.*) ba=$(agg_sum "$C"/agg.log.*)
echo "aggregated (lines cols incoherent transactions): pgbench $pa, benchgrid $ba (metric $(metric agg transactions))"
for a in "$pa" "$ba"; do
	set -- $a
	[ "$2" = "15," ] && [ "$3" = 0 ] || fail "aggregated log: $a (want 15 columns, all coherent)"
done
# How many lines: a thread writes each whole interval of its run, rounding
# its start down to the second (pgbench 15's threadRun), and not the last
# partial one. pgbench's -T alarm starts before its threads connect, so its
# run is 3 s less the connection time (2 to 4 intervals a thread; 4 lines in
# all seen on a loaded machine); benchgrid's duration starts once connected:
# each thread stops 3 s or more after the step's start, so it has 3 whole
# intervals or more. Each file is judged by its own clock bounds (the tool's
# launch and exit, the step's start and end), not by a count.
pn=0 bn=0
for f in "$D"/pgbench_log.*; do
	r=$(agg_span "$f" "$(echo "$pg_launch + 3" | bc)" "$pg_exit")
	[[ $r =~ ^[0-9]+$ ]] || fail "pgbench's aggregated log: $r: $(cat "$f")"
	pn=$((pn + r))
done
# the agg step's own start and end, as results.json records them
read -r bg_start bg_end < <(python3 -c "import json, sys
s = next(s for s in json.load(open(sys.argv[1]))['cells'][0]['reps'][0] if s['name'] == 'agg')
print('%.6f %.6f' % (s['started'], s['started'] + s['elapsed']))" "$WORK/out/results.json")
for f in "$C"/agg.log.*; do
	r=$(agg_span "$f" "$(echo "$bg_start + 3" | bc)" "$bg_end")
	[[ $r =~ ^[0-9]+$ ]] || fail "benchgrid's aggregated log: $r: $(cat "$f")"
	[ "$r" -ge 3 ] || fail "$f: $r intervals, a 3 s run has 3 whole ones or more"
	bn=$((bn + r))
done
echo "aggregated lines: pgbench $pn in $(echo "$pg_exit - $pg_launch" | bc | cut -c1-5) s, benchgrid $bn (each file's intervals consecutive and complete)"
set -- $ba
[ "$4" -le "$(metric agg transactions)" ] && [ "$4" -gt 0 ] || fail "aggregated counts above the total"
awk '$10 > 0 || $8 > 0 { lag = 1 } $12 > 0 { r = 1 } $14 > 0 { s = 1 } END { exit !(lag && r && s) }' "$C"/agg.log.* \
	|| fail "benchgrid's aggregated log has no lag, retries or serialization failures: $(cat "$C"/agg.log.*)"

rm -f "$D"/pgbench_log.*
echo 'SELECT 1;' >"$D/one.sql" && chmod 644 "$D/one.sql"
pgbench -c 1 -t 4000 -l --sampling-rate 0.25 --random-seed=11 -f "$D/one.sql" >/dev/null
pn=$(cat "$D"/pgbench_log.* | wc -l) bn=$(cat "$C"/sampled.log.* | wc -l)
echo "sampling 0.25 of 4000: pgbench $pn lines, benchgrid $bn lines (expected 1000 +- 100)"
for n in $pn $bn; do [ "$n" -ge 900 ] && [ "$n" -le 1100 ] || fail "sampled $n lines"; done
# the same seed logs the same transactions (the thread's sampling generator
# is drawn as pgbench's ts_sample_rs; one client, as the order in which a
# thread's clients finish is not deterministic)
cmp -s <(awk '{print $1, $2}' "$D"/pgbench_log.* | sort) <(awk '{print $1, $2}' "$C"/sampled.log.* | sort) \
	|| fail "sampling with seed 11 logged other transactions than pgbench's"
echo "PASS"
