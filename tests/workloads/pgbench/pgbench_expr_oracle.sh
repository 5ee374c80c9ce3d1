#!/bin/bash
# pgbench expressions against pgbench 15 as the oracle, on one throwaway
# server: the debug() lines of the scripts in pgbench_expr/ printed by
# pgbench (-n -t 3 -c 2 --random-seed=7) and by the step (same seed, clients
# and transactions) are the same multiset; scripts pgbench aborts at run
# time (overflow, division by zero, bad arguments) fail the step with
# pgbench's message; scripts pgbench rejects when parsing fail the step's
# check (exit 2). rand.sql (random draws, the implicit :default_seed) is
# compared once the step seeds its clients as pgbench does
# (pgb_rand_seed_run used by pgb_run.c).
set -u
SRC=${BENCHGRID_SRC:-$(cd "$(dirname "$0")/../../.." && pwd)}
BUILD=${BENCHGRID_BUILD:?BENCHGRID_BUILD not set}
DIR=$SRC/tests/workloads/pgbench/pgbench_expr
source "$SRC/tests/lib/pg_server.sh"
[ -x "$PG_BIN/pgbench" ] || { echo "SKIP: no PostgreSQL with pgbench"; exit 77; }
[ -x "$BUILD/pgb_driver" ] || { echo "SKIP: no pgb_driver"; exit 77; }
pg_server_start || { echo "FAIL: cannot start a server"; exit 1; }
PGB=$PG_BIN/pgbench
fail() { echo "FAIL: $*"; exit 1; }
W=$PG_SERVER_DIR/w
mkdir -p "$W" && chmod 755 "$W"

# pgbench's stderr for script $1 (exit status in $W/rc)
oracle() {
	cp "$1" "$W/s.sql" && chmod 644 "$W/s.sql"
	pg_server__as "$PGB" -n -t 3 -c 2 --random-seed=7 -f "$W/s.sql" 2>&1 >/dev/null
	echo $? >"$W/rc"
}
# the step's output for script $1 (exit status in $W/rc)
step() {
	"$BUILD/pgb_driver" "$PG_CONNINFO" \
		"{script: $1, clients: 2, transactions: 3, seed: 7, vacuum: false}" 2>&1
	echo $? >"$W/rc"
}
debug_lines() { grep '^debug(' | sort; }

compare() { # script
	local o s
	o=$(oracle "$1" | debug_lines)
	[ "$(cat "$W/rc")" = 0 ] || fail "pgbench failed on $1"
	s=$(step "$1" | debug_lines)
	[ "$(cat "$W/rc")" = 0 ] || fail "the step failed on $1: $(step "$1" | grep -v '^debug(' | head -5)"
	[ -n "$o" ] || fail "no debug lines from pgbench for $1"
	if [ "$o" != "$s" ]; then
		diff <(echo "$o") <(echo "$s") | head -20
		fail "debug lines differ for $(basename "$1") (< pgbench, > step)"
	fi
	echo "$(basename "$1"): $(wc -l <<<"$o") debug lines identical"
}

compare "$DIR/det.sql"
compare "$DIR/rand.sql"

# run-time errors: "expression|pgbench's message"
n=0
while IFS='|' read -r expr msg; do
	[ -n "$expr" ] || continue
	printf '\\set a %s\nSELECT 1;\n' "$expr" >"$W/e.sql"
	o=$(oracle "$W/e.sql")
	[ "$(cat "$W/rc")" != 0 ] || fail "pgbench accepted $expr"
	grep -qF -- "$msg" <<<"$o" || fail "pgbench on $expr: want \"$msg\", got: $o"
	s=$(step "$W/e.sql")
	[ "$(cat "$W/rc")" = 1 ] || fail "the step on $expr: exit $(cat "$W/rc") (want 1): $s"
	grep -qF -- "$msg" <<<"$s" || fail "the step on $expr: want \"$msg\", got: $s"
	n=$((n + 1))
done <<'LIST'
1 / 0|division by zero
1 % 0|division by zero
9223372036854775807 + 1|bigint add out of range
-9223372036854775807 - 2|bigint sub out of range
4611686018427387904 * 2|bigint mul out of range
-9223372036854775808 / -1|bigint div out of range
-(-9223372036854775808)|bigint sub out of range
random(5, 4)|empty range given to random
random(-9223372036854775808, 9223372036854775807)|random range is too large
random_gaussian(1, 10, 1.5)|gaussian parameter must be at least 2.000000 (not 1.500000)
random_zipfian(1, 10, 1.0)|zipfian parameter must be in range [1.001, 1000] (not 1.000000)
random_exponential(1, 10, 0)|exponential parameter must be greater than zero (not 0.000000)
permute(1, 0)|permute size parameter must be greater than zero
1 AND true|cannot coerce int to boolean
NOT 0|cannot coerce int to boolean
true = true|cannot coerce boolean to int
sqrt(true)|cannot coerce boolean to double
int(1e300)|double to int overflow for
:nosuch + 1|undefined variable "nosuch"
greatest(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17)|too many function arguments, maximum is 16
LIST
echo "run-time errors: $n rejected by both with pgbench's message"

# parse errors: pgbench refuses the script, the step's check too (exit 2)
n=0
while read -r expr; do
	[ -n "$expr" ] || continue
	printf '\\set a %s\nSELECT 1;\n' "$expr" >"$W/p.sql"
	o=$(oracle "$W/p.sql")
	[ "$(cat "$W/rc")" = 1 ] || fail "pgbench did not reject $expr at parse time: $o"
	s=$(step "$W/p.sql")
	[ "$(cat "$W/rc")" = 2 ] || fail "the step's check did not reject $expr: exit $(cat "$W/rc"): $s"
	grep -q "p.sql:1:" <<<"$s" || fail "no position for $expr: $s"
	n=$((n + 1))
done <<'LIST'
99999999999999999999
9223372036854775808
1 - 9223372036854775808
1e400
1 < 2 < 3
1 = 2 <> 3
hash(1, 2, 3)
permute(1)
abs()
least()
random(1)
random_uniform(1, 2)
foo(1)
1 @ 2
case end
case when true then 1
1 is 2
(1 + 2
not
null(1)
1e
LIST
echo "parse errors: $n rejected by both"
echo "PASS"
