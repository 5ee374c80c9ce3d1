#!/bin/bash
# tpcc-like against a real PostgreSQL, one warehouse (seconds):
#  1. init: {kind: tpcc, warehouses: 1} loads TPC-C's cardinalities
#     (clause 4.3.3.1): warehouse 1, district 10, customer 30000, history
#     30000, orders 30000, new_order 9000, order_line 5..15 per order (and
#     sum(o_ol_cnt) of them), item 100000, stock 100000; 10 % of customers
#     BC, 10 % of items ORIGINAL, the first 1000 customers of a district
#     named by clause 4.3.2.3's syllables;
#  2. TPC-C's consistency conditions 1-4 (clause 3.3.2.1-4) hold after the
#     load, after a run of builtin tpcc-like (4 clients, 2 threads), and
#     after pgbench 15 ran the same script files (the builtin's text);
#  3. the step's figures: every one of the five scripts ran, at about the
#     45/43/4/4/4 mix; its committed new-orders (new_order transactions
#     minus rollbacks) equal the districts' d_next_o_id advance, the
#     rollback rate is about 1 %, nopm = committed new-orders per minute;
#  4. check errors: pgbench's options with kind: tpcc, warehouses without it,
#     protocol: simple with tpcc-like (its scripts use pipelines).
set -u
SRC=${BENCHGRID_SRC:-$(cd "$(dirname "$0")/../../.." && pwd)}
BUILD=${BENCHGRID_BUILD:?BENCHGRID_BUILD not set}
source "$SRC/tests/lib/pg_server.sh"
pg_server_start "shared_buffers=128MB" "max_connections=40" >/dev/null || { echo "FAIL: cannot start a server"; exit 1; }
PSQL="$PG_BIN/psql -XAtq -v ON_ERROR_STOP=1"
fail() { echo "FAIL: $*"; exit 1; }
q() { $PSQL -c "$1"; }

# 4. check-time errors (no server needed, but cheap here)
S=$PG_SERVER_DIR/s.yaml
for bad in "{init: {kind: tpcc, scale: 3}}|not with kind: tpcc" "{init: {warehouses: 2}}|needs kind: tpcc" \
	"{builtin: tpcc-like, protocol: simple}|pipeline"; do
	opts=${bad%%|*} want=${bad#*|}
	printf 'name: t\npostgres: {external: "%s"}\nsteps:\n  - pgbench: %s\n' "$PG_CONNINFO" "$opts" >"$S"
	out=$("$BUILD/benchgrid" check "$S" 2>&1) && fail "check accepted $opts"
	grep -q "$want" <<<"$out" || fail "check of $opts: no '$want' in: $out"
done

# 1. the load
out=$("$BUILD/pgb_driver" "$PG_CONNINFO" '{init: {kind: tpcc, warehouses: 1}}' "$PG_SERVER_LOG") ||
	fail "init: $out"
want="warehouse=1 district=10 customer=30000 history=30000 orders=30000 new_order=9000 item=100000 stock=100000"
got=""
for t in warehouse district customer history orders new_order item stock; do
	got="$got $t=$(q "select count(*) from $t")"
done
[ "${got# }" = "$want" ] || fail "cardinalities: $got (want $want)"
ol=$(q "select count(*) from order_line")
olcnt=$(q "select sum(o_ol_cnt) from orders")
[ "$ol" = "$olcnt" ] && [ "$ol" -ge 295000 ] && [ "$ol" -le 305000 ] || fail "order_line $ol rows, sum(o_ol_cnt) $olcnt"
grep -q "^init_rows=$((1 + 10 + 3 * 30000 + 9000 + 200000 + ol)) $" <<<"$out" || fail "init_rows: $out"
bad=$(q "select count(*) from orders where o_ol_cnt not between 5 and 15
	or (o_id < 2101) <> (o_carrier_id is not null)")
[ "$bad" = 0 ] || fail "$bad orders with a wrong o_ol_cnt or carrier"
bc=$(q "select count(*) from customer where c_credit = 'BC'")
orig=$(q "select count(*) from item where i_data like '%ORIGINAL%'")
[ "$bc" -ge 2500 ] && [ "$bc" -le 3500 ] && [ "$orig" -ge 9000 ] && [ "$orig" -le 11000 ] ||
	fail "BC customers $bc (~3000), ORIGINAL items $orig (~10000)"
[ "$(q "select c_last from customer where c_w_id = 1 and c_d_id = 3 and c_id in (1, 372, 1000) order by c_id" | tr '\n' ' ')" = \
	"BARBARBAR PRICALLYOUGHT EINGEINGEING " ] || fail "c_last of customers 1, 372, 1000"
perm=$(q "select count(distinct o_c_id) from orders where o_w_id = 1 and o_d_id = 7")
[ "$perm" = 3000 ] || fail "o_c_id is not a permutation of the customers ($perm distinct)"

# 2. consistency conditions 1-4: each query prints the districts (or
# warehouses) that break it
consistent() { # WHEN
	local c1 c2 c3 c4
	c1=$(q "select count(*) from warehouse w where w_ytd <> (select sum(d_ytd) from district where d_w_id = w_id)")
	c2=$(q "select count(*) from district d where d_next_o_id - 1 <> (select max(o_id) from orders where o_w_id = d_w_id and o_d_id = d_id)
		or d_next_o_id - 1 <> (select max(no_o_id) from new_order where no_w_id = d_w_id and no_d_id = d_id)")
	c3=$(q "select count(*) from (select no_w_id, no_d_id from new_order group by 1, 2
		having max(no_o_id) - min(no_o_id) + 1 <> count(*)) x")
	c4=$(q "select count(*) from district d where (select sum(o_ol_cnt) from orders where o_w_id = d_w_id and o_d_id = d_id)
		<> (select count(*) from order_line where ol_w_id = d_w_id and ol_d_id = d_id)")
	[ "$c1$c2$c3$c4" = 0000 ] || fail "$1: consistency conditions 1-4 broken in $c1 $c2 $c3 $c4 warehouses/districts"
}
consistent "after the load"

# 3. a run of the builtin
next0=$(q "select sum(d_next_o_id) from district")
out=$("$BUILD/pgb_driver" "$PG_CONNINFO" '{builtin: tpcc-like, clients: 4, threads: 2, transactions: 300}' "$PG_SERVER_LOG") ||
	fail "run: $out"
consistent "after builtin tpcc-like"
m() { awk -v k="$1" -F'[= ]' '$1 == k {print $2}' <<<"$out"; }
for s in new_order payment order_status delivery stock_level; do
	[ "$(m "script_${s}_transactions")" -gt 0 ] 2>/dev/null || fail "no $s transactions: $out"
	[ -n "$(m "script_${s}_lat_p99_ms")" ] || fail "no p99 of $s"
done
no=$(m script_new_order_transactions) rb=$(m script_new_order_rollbacks) pay=$(m script_payment_transactions)
[ "$(m transactions)" = 1200 ] || fail "transactions $(m transactions), want 1200"
# 45 % and 43 % of 1200: 540 and 516, binomial sd ~17
[ "$no" -ge 470 ] && [ "$no" -le 610 ] && [ "$pay" -ge 446 ] && [ "$pay" -le 586 ] || fail "mix: new_order $no payment $pay of 1200"
committed=$(($(q "select sum(d_next_o_id) from district") - next0))
[ "$committed" = $((no - rb)) ] || fail "districts advanced by $committed orders, the step counted $no new-orders and $rb rollbacks"
[ "$rb" -ge 1 ] && [ "$rb" -le 15 ] || fail "$rb rollbacks of $no new-orders (~1 %)"
awk -v n="$(m nopm)" -v c="$committed" -v d="$(m duration_s)" -v p="$(m new_order_rollback_pct)" -v rb="$rb" -v no="$no" \
	'BEGIN {exit !(n > 0 && (n - c * 60 / d) ^ 2 < 1e-3 * n * n && (p - 100 * rb / no) ^ 2 < 1e-6)}' ||
	fail "nopm $(m nopm) for $committed orders in $(m duration_s) s, rollback pct $(m new_order_rollback_pct)"
[ "$(q "select count(*) from history")" -gt 30000 ] || fail "payment wrote no history"
[ "$(q "select count(*) from new_order")" -lt $((9000 + committed)) ] || fail "delivery delivered nothing"

# 2. the same script files through pgbench 15
T=$PG_SERVER_DIR/sql
mkdir -p "$T" && cp "$SRC"/engine/workloads/pgbench/tpcc/*.sql "$T"/ && chmod -R a+rX "$T"
pout=$("$PG_BIN/pgbench" -n -M prepared -c 4 -j 2 -t 150 -s 1 -f "$T/new_order.sql@45" -f "$T/payment.sql@43" \
	-f "$T/order_status.sql@4" -f "$T/delivery.sql@4" -f "$T/stock_level.sql@4" 2>&1) || fail "pgbench: $pout"
grep -q "number of failed transactions: 0 " <<<"$pout" || fail "pgbench: $pout"
consistent "after pgbench 15 ran the scripts"
echo "PASS"
