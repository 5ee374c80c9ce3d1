#!/bin/bash
# The pgbench step's meta-commands against pgbench 15 as the oracle, on one
# throwaway server: for each script (\gset, \aset, compound "\;" statements,
# nested \if/\elif/\else, \shell and \setshell with :var arguments,
# pipelines on the extended and prepared protocols, \sleep with variables
# and units, define: as -D, debug()), pgbench and the step run with the
# same clients and transactions; the rows the scripts write (sorted), the
# debug() lines, the files \shell writes and the transaction counts must be
# identical. Scripts pgbench
# rejects must be rejected by the step too (at check time where pgbench
# rejects them while parsing; as a failed step where pgbench aborts its
# clients), with a message naming the script and command.
set -u
SRC=${BENCHGRID_SRC:-$(cd "$(dirname "$0")/../../.." && pwd)}
BUILD=${BENCHGRID_BUILD:?BENCHGRID_BUILD not set}
source "$SRC/tests/lib/pg_server.sh"
[ -x "$PG_BIN/pgbench" ] || { echo "SKIP: no PostgreSQL with pgbench"; exit 77; }
[ -x "$BUILD/pgb_driver" ] || { echo "SKIP: no pgb_driver"; exit 77; }
pg_server_start "autovacuum = off" || { echo "FAIL: cannot start a server"; exit 1; }
PGB=$PG_BIN/pgbench
D=$PG_SERVER_DIR
fail() { echo "FAIL: $*"; exit 1; }
q() { pg_server__as "$PG_BIN/psql" -XAtq -c "$1"; }
q "create table log (tag text, client int, v text)" >/dev/null || fail "create table"

CLIENTS=3
TX=4
# run NAME PROTOCOL 'DEFINES (k=v ...)': the script $D/NAME.sql through
# pgbench, then through the step; compares rows, \shell files and counts.
run() {
	local name=$1 proto=$2 defs=$3 seed=${4:-} pargs=() yaml="" k
	for k in $defs; do
		pargs+=(-D "$k")
		yaml+="${yaml:+, }${k%%=*}: '${k#*=}'"
	done
	[ -n "$seed" ] && pargs+=(--random-seed="$seed")
	q "truncate log" >/dev/null
	rm -f "$D"/*.out
	local pout sout
	pout=$(pg_server__as "$PGB" -n -c $CLIENTS -j 1 -t $TX -M "$proto" -D out="$D/$name.out" \
		"${pargs[@]}" -f "$D/$name.sql" 2>&1) || fail "$name: pgbench failed: $pout"
	local prows pshell ptx
	prows=$(q "select tag, client, v from log order by 1, 2, 3")
	pshell=$(sort "$D/$name.out" 2>/dev/null)
	ptx=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' <<<"$pout")
	q "truncate log" >/dev/null
	rm -f "$D"/*.out
	local opts="{script: $D/$name.sql, clients: $CLIENTS, threads: 1, transactions: $TX,"
	opts+=" protocol: $proto, vacuum: false, ${seed:+seed: $seed, }"
	opts+="define: {out: '$D/$name.out'${yaml:+, $yaml}}}"
	sout=$("$BUILD/pgb_driver" "$PG_CONNINFO" "$opts" 2>&1) || fail "$name: step failed: $sout"
	sout_last=$sout
	local srows sshell stx
	srows=$(q "select tag, client, v from log order by 1, 2, 3")
	sshell=$(sort "$D/$name.out" 2>/dev/null)
	stx=$(sed -n 's/^transactions=\([0-9]*\).*/\1/p' <<<"$sout")
	[ -n "$prows$pshell" ] || fail "$name: the script wrote nothing with pgbench"
	[ "$prows" = "$srows" ] || fail "$name: rows differ
pgbench:
$prows
step:
$srows"
	local pdebug sdebug
	pdebug=$(grep '^debug(' <<<"$pout" | sort)
	sdebug=$(grep '^debug(' <<<"$sout" | sort)
	[ "$pdebug" = "$sdebug" ] || fail "$name: debug() lines differ: pgbench [$pdebug] step [$sdebug]"
	[ "$pshell" = "$sshell" ] || fail "$name: \\shell output differs: pgbench [$pshell] step [$sshell]"
	[ "$ptx" = $((CLIENTS * TX)) ] && [ "$stx" = "$ptx" ] ||
		fail "$name: transactions: pgbench $ptx, step $stx"
	echo "ok $name ($proto): $(grep -c . <<<"$prows") rows, $(grep -c . <<<"$pshell") shell lines, $(grep -c . <<<"$pdebug") debug lines, $stx tx"
}
script() { cat >"$D/$1.sql"; chmod 644 "$D/$1.sql"; }

script gset <<'EOF'
select :client_id * 10 as a, :client_id + 0.5 as b \gset p_
insert into log values ('gset', :client_id, :p_a + 1);
insert into log values ('gset-b', :client_id, :p_b);
select g as n from generate_series(1, 3) g
\aset
insert into log values ('aset-last-row', :client_id, :n);
EOF
for proto in simple extended prepared; do run gset $proto ""; done

# text values (a column, a null column, define:) as parameters
script gsettext <<'EOF'
select 'text ' || :client_id as t, null as z \gset
insert into log values ('gset-text', :client_id, :t || '|' || :z || '|' || :word);
EOF
for proto in extended prepared; do run gsettext $proto "word=hello"; done

# several statements in one command: the simple protocol only (pgbench's
# extended protocol cannot prepare them)
script compound <<'EOF'
select 1 as c1 \; select :client_id + 100 as c2 \gset
insert into log values ('gset-compound', :client_id, :c2);
select 7 as x1 \; select 1 as x2 where false \; select 9 as x3 \aset
insert into log values ('aset-compound', :client_id, :x1 || '-' || :x3);
EOF
run compound simple ""

script cond <<'EOF'
\set m :client_id % 3
\set dbg debug(:m * 10 + :base)
\if :m = 0
  insert into log values ('if', :client_id, 'zero');
\elif :m = 1
  \if :client_id > 5
    insert into log values ('if', :client_id, 'never');
  \else
    insert into log values ('if', :client_id, 'one');
  \endif
\else
  insert into log values ('if', :client_id, 'other');
\endif
\if :base > 999 and :client_id <> 1
  insert into log values ('if-define', :client_id, :base::int + :client_id);
\endif
EOF
run cond extended "base=1000"

script shell <<'EOF'
\set n :client_id * 2
\setshell v echo :n
insert into log values ('setshell', :client_id, :v);
\setshell w printf '%s\n' ' 42 '
insert into log values ('setshell-blanks', :client_id, :w);
\shell echo client :client_id n :n literal ::n >> :out
\shell echo printed by shell :client_id
EOF
run shell simple ""
# what \shell prints: on pgbench's output; in the step's stderr
[ "$(grep -c '^printed by shell [0-2]$' <<<"$sout_last")" = $((CLIENTS * TX)) ] ||
	fail "\\shell output not in the step's stderr: $sout_last"

script pipe <<'EOF'
\startpipeline
insert into log values ('pipe', :client_id, 'a');
select pg_sleep(0.001);
insert into log values ('pipe', :client_id, 'b');
\endpipeline
insert into log values ('after-pipe', :client_id, 'c');
EOF
for proto in extended prepared; do run pipe $proto ""; done

script sleep <<'EOF'
\set d 2
\sleep :d ms
\sleep 300 us
\sleep 0 s
\sleep :z
\SLEEP 1MS
\sleep -1
insert into log values ('slept', :client_id, :d);
EOF
run sleep extended "z=0"

# the automatic variables with a seed; define: overrides them (and then
# pgbench draws no :default_seed: the clients' random() draws stay the same)
script seeds <<'EOF'
insert into log values ('seeds', :client_id, :random_seed || ' ' || :default_seed || ' ' || :scale);
\set r random(1, 1000000)
\set h hash(:client_id)
insert into log values ('draws', :client_id, :r || ' ' || :h);
EOF
run seeds extended "" 5
run seeds extended "default_seed=7 scale=3" 5

# rejected by both: pgbench exits non-zero; the step fails its check (exit
# 2, a position) or its run (exit 1, the command named)
reject() {
	local name=$1 proto=$2 want=$3 out
	script "$name"
	if out=$(pg_server__as "$PGB" -n -c 1 -t 1 -M "$proto" -f "$D/$name.sql" 2>&1); then
		fail "$name: pgbench accepted it: $out"
	fi
	out=$("$BUILD/pgb_driver" "$PG_CONNINFO" \
		"{script: $D/$name.sql, transactions: 1, protocol: $proto, vacuum: false}" 2>&1) &&
		fail "$name: the step accepted it: $out"
	grep -q -- "$want" <<<"$out" || fail "$name: the step's message lacks '$want': $out"
	echo "ok rejected $name: $(grep -m1 -e 'error' <<<"$out" | cut -c1-150)"
}
printf 'select 1;\n\\syncpipeline\n' | reject syncpipeline extended "unknown meta command '.syncpipeline'"
printf '\\if 1\nselect 1;\n' | reject unbalanced extended "if without matching .endif"
printf 'select 1;\n\\endif\n' | reject endif extended "endif without matching .if"
printf '\\set a 1\n\\gset\n' | reject gset_first extended "gset must follow an SQL command"
printf '\\startpipeline\nselect 1;\n\\endpipeline\n' | reject pipe_simple simple "simple query protocol"
printf '\\startpipeline\nselect 1 as a \\gset\n\\endpipeline\n' | reject pipe_gset extended \
	"cannot be used in pipeline mode"
printf 'select 1 as a where false \\gset\n' | reject gset_norow extended \
	"script $D/gset_norow.sql line 1 command 1 (select 1 as a where false): .gset expected one row, got 0"
printf 'select g as a from generate_series(1, 2) g \\gset\n' | reject gset_tworows prepared \
	"expected one row, got 2"
printf '\\sleep 1.5 ms\n' | reject sleep_frac extended "invalid sleep time, must be an integer (1.5)"
printf '\\set b true\n\\sleep :b ms\n' | reject sleep_bool extended "sleep :b ms: invalid sleep time"
printf '\\set x 1 / 0\n' | reject div_zero extended "division by zero"
printf '\\setshell v echo abc\n' | reject setshell_text extended "must return an integer"
printf '\\shell false\n' | reject shell_fails extended "shell command failed (exit status 1)"
printf '\\startpipeline\nselect 1/0;\nselect 2;\n\\endpipeline\n' | reject pipe_error extended \
	"a statement of the pipeline failed: ERROR:  division by zero"
echo "PASS"
