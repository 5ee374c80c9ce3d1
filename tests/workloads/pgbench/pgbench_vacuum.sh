#!/bin/bash
# The pgbench step's `vacuum:` against the real pgbench as the oracle: with
# log_statement=all, pgbench (without -n) and the step must send the same
# statements before the run, in the same order, and leave the same state:
# pgbench_history truncated (only this run's rows), vacuum_count incremented
# on pgbench_branches and pgbench_tellers only. `vacuum: false` must match
# pgbench -n, and a custom script on a database without pgbench's tables must
# report the failed statements and go on, as pgbench does.
set -u
SRC=${BENCHGRID_SRC:-$(cd "$(dirname "$0")/../../.." && pwd)}
BUILD=${BENCHGRID_BUILD:?BENCHGRID_BUILD not set}
source "$SRC/tests/lib/pg_server.sh"
[ -x "$PG_BIN/pgbench" ] || { echo "SKIP: no PostgreSQL with pgbench"; exit 77; }
pg_server_start "log_statement = 'all'" "autovacuum = off" "log_line_prefix = '%a|'" \
	|| { echo "FAIL: cannot start a server"; exit 1; }
PGB=$PG_BIN/pgbench
fail() { echo "FAIL: $*"; exit 1; }
q() { pg_server__as "$PG_BIN/psql" -XAtq -d "${2:-postgres}" -c "$1"; }
# vacuum counts of the four tables, "branches tellers accounts history"
counts() {
	q "select pg_stat_force_next_flush()" >/dev/null 2>&1
	q "select string_agg(vacuum_count::text, ' ' order by relname) from pg_stat_user_tables
	   where relname like 'pgbench_%'"
}
# the statements an application sent, from the log lines marked with its name
stmts() { grep "^$1|.*LOG:  statement:" "$PG_SERVER_LOG" | sed 's/.*statement: //'; }

pg_server__as "$PGB" -i -q -s 1 >/dev/null 2>&1 || fail "pgbench -i"
q "insert into pgbench_history select 1, 1, 1, 0, now() from generate_series(1, 500)" >/dev/null

# the oracle: pgbench without -n
c0=$(counts)
PGAPPNAME=oracle pg_server__as "$PGB" -t 20 >/dev/null 2>&1 || fail "pgbench -t 20"
c1=$(counts)
h1=$(q "select count(*) from pgbench_history")
q "insert into pgbench_history select 1, 1, 1, 0, now() from generate_series(1, 500)" >/dev/null

# the step, default options (vacuum: true)
out=$("$BUILD/pgb_driver" "$PG_CONNINFO application_name=step" '{transactions: 20}' 2>&1) \
	|| fail "step: $out"
c2=$(counts)
h2=$(q "select count(*) from pgbench_history")
grep -q "^info pgbench.vacuum=done" <<<"$out" || fail "no pgbench.vacuum=done: $out"
grep -q "^info warning=" <<<"$out" && fail "unexpected warning: $out"

oracle=$(stmts oracle | grep -iv "^select" | head -3)
mine=$(stmts step | grep -iv "^select" | head -3)
[ -n "$oracle" ] || fail "no statements of pgbench in the log"
[ "$oracle" = "$mine" ] || fail "statements differ: pgbench: [$oracle] step: [$mine]"
echo "pgbench sends: $(tr '\n' ';' <<<"$oracle")"
[ "$h1" = 20 ] && [ "$h2" = 20 ] || fail "history after the run: pgbench $h1, step $h2 (want 20 each)"
# vacuum count increments per table (accounts, branches, history, tellers)
inc() { paste <(tr ' ' '\n' <<<"$1") <(tr ' ' '\n' <<<"$2") | awk '{printf "%d ", $2 - $1}'; }
d_oracle=$(inc "$c0" "$c1")
d_step=$(inc "$c1" "$c2")
echo "vacuum_count increments (accounts branches history tellers): pgbench $d_oracle, step $d_step"
[ "$d_oracle" = "$d_step" ] || fail "vacuum counts differ"
[ "$d_step" = "0 1 0 1 " ] || fail "vacuum counts: $d_step (want 0 1 0 1)"

# vacuum: false = pgbench -n: nothing before the run, history kept
c3=$(counts)
PGAPPNAME=oracle_n pg_server__as "$PGB" -n -t 20 >/dev/null 2>&1 || fail "pgbench -n"
out=$("$BUILD/pgb_driver" "$PG_CONNINFO application_name=step_n" '{transactions: 20, vacuum: false}' 2>&1) \
	|| fail "step vacuum: false: $out"
[ "$(counts)" = "$c3" ] || fail "vacuum: false vacuumed: $c3 -> $(counts)"
[ "$(q "select count(*) from pgbench_history")" = 60 ] || fail "vacuum: false truncated the history"
[ -z "$(stmts oracle_n | grep -iv '^select\|^begin\|^update\|^insert\|^end')" ] || fail "pgbench -n sent more"
[ -z "$(stmts step_n | grep -iv '^select\|^begin\|^update\|^insert\|^end')" ] || fail "vacuum: false sent more"
grep -q "^info pgbench.vacuum=skipped" <<<"$out" || fail "no pgbench.vacuum=skipped: $out"

# a custom script on a database without pgbench's tables: reported, goes on
q "create database empty" >/dev/null
echo "select 1;" >"$PG_SERVER_DIR/s.sql"
chmod 644 "$PG_SERVER_DIR/s.sql"
perr=$(PGAPPNAME=oracle_e PGDATABASE=empty pg_server__as "$PGB" -t 5 -f "$PG_SERVER_DIR/s.sql" 2>&1) \
	|| fail "pgbench on an empty database failed: $perr"
grep -q "ignoring this error and continuing anyway" <<<"$perr" || fail "pgbench did not report: $perr"
out=$("$BUILD/pgb_driver" "${PG_CONNINFO/dbname=postgres/dbname=empty} application_name=step_e" \
	'{script: "select 1;", transactions: 5}' 2>&1) || fail "step on an empty database failed: $out"
[ "$(grep -c '^info warning=pgbench: .*does not exist (ignoring this error' <<<"$out")" = 3 ] \
	|| fail "want 3 warnings: $out"
grep -q "^transactions=5 " <<<"$out" || fail "the step did not run: $out"
grep -q "^info pgbench.vacuum=3 of 3 statements failed" <<<"$out" || fail "no pgbench.vacuum: $out"
[ "$(stmts oracle_e | grep -iv "^select" | head -3)" = "$(stmts step_e | grep -iv "^select" | head -3)" ] || fail "empty db: statements differ"
echo "PASS"
