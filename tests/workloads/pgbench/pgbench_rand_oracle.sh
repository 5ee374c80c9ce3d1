#!/bin/bash
# Random numbers against the real pgbench 15 (the oracle): with the same
# seed, clients, threads and transaction count, pgbench --random-seed and the
# step must draw the same values, per client and per function.
#  1. a script drawing with every distribution (several parameters) and
#     :random_seed, :default_seed, hash*() and permute() of the draws,
#     inserting (client_id, values...): the tables both leave are identical
#     multisets;
#  2. two scripts weighted 3 and 5, each drawing random(): per client the
#     same values, and per thread the same number of times each script
#     (4 clients on 2 threads, and 5 on 3: pgbench's uneven blocks); and
#     with define: default_seed (-D), which pgbench then does not draw, so
#     the threads' generators move up one draw;
#  3. the `rate` schedule: pgbench's log gives each transaction's end time
#     and latency from its scheduled start; end - latency recovers the
#     scheduled times to within the few microseconds between two clock
#     reads (pgbench reads the clock again to log), so the per-thread
#     schedule, relative to its first, is compared with pgb_rand's Poisson
#     delays (pgb_rand_sched) within 100 us (the step writes no such log, so
#     this checks the generator and seeding, not the step's wiring);
#  4. another seed gives other values (the test can fail).
set -u
SRC=${BENCHGRID_SRC:-$(cd "$(dirname "$0")/../../.." && pwd)}
BUILD=${BENCHGRID_BUILD:?BENCHGRID_BUILD not set}
source "$SRC/tests/lib/pg_server.sh"
[ -x "$PG_BIN/pgbench" ] || { echo "SKIP: no PostgreSQL with pgbench"; exit 77; }
"$PG_BIN/pgbench" --version | grep -q " 15\." || { echo "SKIP: pgbench is not version 15"; exit 77; }
pg_server_start "autovacuum = off" || { echo "FAIL: cannot start a server"; exit 1; }
PGB=$PG_BIN/pgbench
D=$PG_SERVER_DIR
SEED=1234567890123
fail() { echo "FAIL: $*"; exit 1; }
q() { pg_server__as "$PG_BIN/psql" -XAtq -v ON_ERROR_STOP=1 -c "$1"; }
# the step with YAML options, in $D (script files are relative to it)
step() { (cd "$D" && "$BUILD/pgb_driver" "$PG_CONNINFO" "$1" 2>&1); }

cat >"$D/draws.sql" <<'SQL'
\set u1 random(1, 1000)
\set u2 random(-1000000000000, 1000000000000)
\set u3 random(7, 7)
\set e1 random_exponential(1, 1000, 2.5)
\set e2 random_exponential(-50, 100000, 0.2)
\set g1 random_gaussian(1, 1000, 2.0)
\set g2 random_gaussian(1, 1000000, 7.5)
\set z1 random_zipfian(1, 1000, 1.001)
\set z2 random_zipfian(1, 100000, 2.5)
\set z3 random_zipfian(10, 20, 1.5)
\set rs :random_seed
\set ds :default_seed
\set h1 hash(:u1)
\set h2 hash_fnv1a(:u2, :u1)
\set h3 hash_murmur2(:u2, :random_seed)
\set p1 permute(:u1, 1000)
\set p2 permute(:u2, 1000003, :e2)
INSERT INTO draws VALUES (:client_id, :u1, :u2, :u3, :e1, :e2, :g1, :g2, :z1, :z2, :z3, :rs, :ds, :h1, :h2, :h3, :p1, :p2);
SQL
for s in a b; do
	printf '%s\n' '\set r random(1, 1000000000)' \
		"INSERT INTO choice VALUES (:client_id, '$s', :r);" >"$D/$s.sql"
done
chmod 644 "$D"/*.sql
q "CREATE TABLE draws (cid int, u1 bigint, u2 bigint, u3 bigint, e1 bigint, e2 bigint, g1 bigint,
   g2 bigint, z1 bigint, z2 bigint, z3 bigint, rs bigint, ds bigint,
   h1 bigint, h2 bigint, h3 bigint, p1 bigint, p2 bigint);
   CREATE TABLE choice (cid int, s text, r bigint)" >/dev/null || fail "create tables"

dump() { q "SELECT * FROM $1 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13"; }
dump_choice() { q "SELECT cid, r FROM choice ORDER BY 1, 2"; }
# script counts per thread: clients 0-1 run on thread 0, 2-3 on thread 1 (and 4 on 2)
per_thread() { q "SELECT cid / 2, s, count(*) FROM choice GROUP BY 1, 2 ORDER BY 1, 2"; }

# 1. every distribution
pg_server__as "$PGB" -n -c 4 -j 2 -t 200 --random-seed=$SEED -f "$D/draws.sql" >"$D/pgb1.out" 2>&1 \
	|| fail "pgbench: $(tail -5 "$D/pgb1.out")"
want=$(dump draws)
[ "$(wc -l <<<"$want")" = 800 ] || fail "pgbench inserted $(wc -l <<<"$want") rows, want 800"
q "TRUNCATE draws" >/dev/null
out=$(step "{script: draws.sql, clients: 4, threads: 2, transactions: 200, seed: $SEED, vacuum: false}") \
	|| fail "step: $out"
got=$(dump draws)
if [ "$want" != "$got" ]; then
	diff <(echo "$want") <(echo "$got") | head -10
	fail "the draws differ from pgbench's ($(diff <(echo "$want") <(echo "$got") | grep -c '^>') rows)"
fi
echo "1. draws: 800 rows x 17 values (draws, seeds, hash, permute) identical to pgbench's"

# 1b. a seed above 2^63 (pgbench's --random-seed is unsigned): the same draws,
# and :random_seed as pgbench gives it
BIG=18446744073709551557
q "TRUNCATE draws" >/dev/null
pg_server__as "$PGB" -n -c 2 -j 1 -t 50 --random-seed=$BIG -f "$D/draws.sql" >"$D/pgb1b.out" 2>&1 \
	|| fail "pgbench (seed $BIG): $(tail -5 "$D/pgb1b.out")"
want=$(dump draws)
q "TRUNCATE draws" >/dev/null
out=$(step "{script: draws.sql, clients: 2, threads: 1, transactions: 50, seed: $BIG, vacuum: false}") \
	|| fail "step (seed $BIG): $out"
got=$(dump draws)
[ "$(wc -l <<<"$want")" = 100 ] && [ "$want" = "$got" ] || fail "seed $BIG: the draws differ from pgbench's"
echo "1b. seed $BIG: 100 rows identical to pgbench's"
q "TRUNCATE draws" >/dev/null

# 4. another seed gives other values
q "TRUNCATE draws" >/dev/null
out=$(step "{script: draws.sql, clients: 4, threads: 2, transactions: 200, seed: $((SEED + 1)), vacuum: false}") \
	|| fail "step (seed + 1): $out"
other=$(dump draws)
[ "$(wc -l <<<"$other")" = 800 ] || fail "seed + 1: $(wc -l <<<"$other") rows"
same=$(comm -12 <(cut -d'|' -f2-11 <<<"$want" | sort) <(cut -d'|' -f2-11 <<<"$other" | sort) | wc -l)
[ "$same" -lt 10 ] || fail "seed + 1 draws $same rows identical to seed's"
echo "4. seed + 1: $same of 800 rows equal to seed's draws"

# 2. weighted script choice
pg_server__as "$PGB" -n -c 4 -j 2 -t 200 --random-seed=$SEED -f "$D/a.sql@3" -f "$D/b.sql@5" \
	>"$D/pgb2.out" 2>&1 || fail "pgbench (2 scripts): $(tail -5 "$D/pgb2.out")"
want_v=$(dump_choice)
want_t=$(per_thread)
q "TRUNCATE choice" >/dev/null
out=$(step "{scripts: [a.sql@3, b.sql@5], clients: 4, threads: 2, transactions: 200, seed: $SEED, vacuum: false}") \
	|| fail "step (2 scripts): $out"
[ "$want_v" = "$(dump_choice)" ] || fail "values with two scripts differ"
got_t=$(per_thread)
[ "$want_t" = "$got_t" ] || fail "scripts per thread differ: pgbench [$(echo $want_t)] step [$(echo $got_t)]"
echo "2. two scripts: same values; per thread, script, count: $(echo $got_t)"
# uneven blocks: 5 clients on 3 threads are 0-1, 2-3, 4 (cid / 2 again)
q "TRUNCATE choice" >/dev/null
pg_server__as "$PGB" -n -c 5 -j 3 -t 100 --random-seed=$SEED -f "$D/a.sql@1" -f "$D/b.sql@2" \
	>"$D/pgb2b.out" 2>&1 || fail "pgbench (5 clients, 3 threads): $(tail -5 "$D/pgb2b.out")"
want_v=$(dump_choice)
want_t=$(per_thread)
q "TRUNCATE choice" >/dev/null
out=$(step "{scripts: [a.sql@1, b.sql@2], clients: 5, threads: 3, transactions: 100, seed: $SEED, vacuum: false}") \
	|| fail "step (5 clients, 3 threads): $out"
[ "$want_v" = "$(dump_choice)" ] || fail "values with 5 clients on 3 threads differ"
got_t=$(per_thread)
[ "$want_t" = "$got_t" ] || fail "5 clients, 3 threads: scripts per thread differ: pgbench [$(echo $want_t)] step [$(echo $got_t)]"
echo "2b. 5 clients on 3 threads: same values; per thread, script, count: $(echo $got_t)"
# define: default_seed: not drawn, the thread generators shift; hash() takes it
for s in a b; do
	printf '%s\n' '\set r random(1, 1000000000)' '\set h hash(:r)' \
		"INSERT INTO choice VALUES (:client_id, '$s', :h);" >"$D/${s}h.sql"
done
chmod 644 "$D"/*.sql
q "TRUNCATE choice" >/dev/null
pg_server__as "$PGB" -n -c 4 -j 2 -t 100 --random-seed=$SEED -D default_seed=99 -f "$D/ah.sql@3" \
	-f "$D/bh.sql@5" >"$D/pgb2c.out" 2>&1 || fail "pgbench -D default_seed: $(tail -5 "$D/pgb2c.out")"
want_v=$(dump_choice)
want_t=$(per_thread)
q "TRUNCATE choice" >/dev/null
out=$(step "{scripts: [ah.sql@3, bh.sql@5], clients: 4, threads: 2, transactions: 100, seed: $SEED,
  define: {default_seed: 99}, vacuum: false}") || fail "step define: default_seed: $out"
[ "$want_v" = "$(dump_choice)" ] || fail "define: default_seed: hash values differ"
got_t=$(per_thread)
[ "$want_t" = "$got_t" ] || fail "define: default_seed: scripts per thread differ: pgbench [$(echo $want_t)] step [$(echo $got_t)]"
q "TRUNCATE choice" >/dev/null
out=$(step "{scripts: [ah.sql@3, bh.sql@5], clients: 4, threads: 2, transactions: 100, seed: $SEED, vacuum: false}") \
	|| fail "step without define: $out"
[ "$want_t" != "$(per_thread)" ] || fail "define: default_seed does not change the script choice"
[ "$want_v" != "$(dump_choice)" ] || fail "define: default_seed does not change hash()"
echo "2c. define: default_seed: same hash values and scripts per thread: $(echo $got_t)"

# 3. rate schedule (generator and seeding; see the header)
RATE=200 N=50
(cd "$D" && pg_server__as "$PGB" -n -c 4 -j 2 -t $N -R $RATE -l --random-seed=$SEED -f "$D/a.sql" \
	>"$D/pgb3.out" 2>&1) || fail "pgbench -R: $(tail -5 "$D/pgb3.out")"
logs=("$D"/pgbench_log.*)
[ -f "${logs[0]}" ] || fail "no pgbench log"
# log line: client_id transaction_no latency script epoch_s epoch_us lag
sched=$(cat "${logs[@]}" | awk '{ printf "%d %.0f\n", int($1 / 2), $5 * 1000000 + $6 - $3 }' | sort -n -k1 -k2)
"$BUILD/pgb_rand_sched" $SEED 4 2 $RATE $((2 * N)) >"$D/draws.txt" || fail "pgb_rand_sched"
bad=$(awk -v tol=100 '
	NR == FNR { for (i = 2; i <= NF; i++) d[$1, i - 1] = $i; next }
	{
		t = $1; k[t]++
		if (k[t] == 1) { first[t] = $2; cum[t] = 0; next }
		cum[t] += d[t, k[t]]
		off = $2 - first[t] - cum[t]
		if (off > mx || -off > mx) mx = off < 0 ? -off : off
		if (off < -tol || off > tol) { n++; if (n < 4) print "thread " t " #" k[t] ": off by " off " us" }
		m++
	}
	END { if (m != 2 * (2 * '"$N"' - 1)) print "compared " m " schedules"; print "max " mx + 0 }' \
	"$D/draws.txt" - <<<"$sched")
[ "$(grep -vc '^max ' <<<"$bad")" = 0 ] || fail "rate schedule differs from pgbench's: $bad"
echo "3. rate: $((2 * (2 * N - 1))) scheduled times of pgbench match pgb_rand's Poisson delays" \
	"(largest difference $(sed -n 's/^max //p' <<<"$bad") us, tolerance 100)"
out=$(step "{script: a.sql, clients: 4, threads: 2, transactions: $N, rate: $RATE, seed: $SEED, vacuum: false}") \
	|| fail "step with rate: $out"
grep -q "^transactions=$((4 * N)) " <<<"$out" || fail "step with rate: $out"
echo "PASS"
