#!/usr/bin/env bash
# store_pg.sh: the results history in a real PostgreSQL database (a
# throwaway cluster run as postgres, tests/lib/pg_server.sh): a
# run recorded once, the synthetic regression found and charted, six
# imports and two runs at once into a new database (the schema made once,
# no run twice), and a server that stops: the run still succeeds.
set -u
bg=${BENCHGRID:?}
SRC=${BENCHGRID_SRC:?}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
if [[ ! -x "$PG_BIN/initdb" ]] || ! id postgres >/dev/null 2>&1; then
	echo "SKIP: no PostgreSQL server binaries or no postgres user"
	exit 77
fi
source "$SRC/tests/lib/pg_server.sh"
pg_server_start || {
	echo "FAIL: cannot start a server"
	exit 1
}
trap 'pg_server_stop; rm -rf "$t"' EXIT
# shellcheck source=tests/store/store_lib.sh
source "$SRC/tests/store/store_lib.sh"
export BENCHGRID_STORE=$t/not-used.db
psql() { "$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 "$@"; }
psql -c 'CREATE DATABASE hist' -c 'CREATE DATABASE conc' -c 'CREATE DATABASE runs' || exit 1
url() { echo "postgresql:///$1?host=$PGHOST&port=$PGPORT&user=postgres"; }

check run-records 0 'recorded in the results history \(the PostgreSQL store\)' -- \
	"$bg" run --store "$(url runs)" -o "$t/run1" "$t/tiny.yaml"
same run-rows "$(psql -d runs -c 'SELECT count(*) FROM runs' -c 'SELECT count(*) FROM cells' \
	-c "SELECT count(*) FROM samples WHERE metric = 'exit_status'" -c 'SELECT version FROM schema_version' |
	tr '\n' ' ')" "1 2 4 1 "
check store-again 0 'run1: already recorded' -- "$bg" store --store "$(url runs)" "$t/run1"
same no-duplicate "$(psql -d runs -c 'SELECT count(*) FROM runs')" 1
same default-untouched "$(ls "$t"/not-used.db 2>/dev/null)" ""

history_checks "$(url hist)"

make_series "$t/run1" "$t/conc" 1 2 3 4 5 6
for i in 0 1 2 3 4 5; do
	"$bg" store --store "$(url conc)" "$t/conc$i" >"$t/conc$i.out" 2>&1 &
done
"$bg" store --store "$(url conc)" "$t/conc0" >"$t/concdup.out" 2>&1 &
"$bg" run -q --store "$(url conc)" -o "$t/crun1" "$t/tiny.yaml" >"$t/crun1.out" 2>&1 &
"$bg" run -q --store "$(url conc)" -o "$t/crun2" "$t/tiny.yaml" >"$t/crun2.out" 2>&1 &
wait
same concurrent-errors "$(cat "$t"/conc*.out "$t"/crun*.out | grep -c 'not stored\|error')" 0
same concurrent-rows "$(psql -d conc -c 'SELECT count(*) FROM runs' -c 'SELECT count(*) FROM cells' \
	-c 'SELECT count(*) FROM schema_version' | tr '\n' ' ')" "8 16 1 "

# The server gone: the run finishes as it would and says why it was not stored.
url_runs=$(url runs)
pg_server_stop
check server-stopped 0 'results not stored: PostgreSQL' -- "$bg" run -q --store "$url_runs" -o "$t/run2" "$t/tiny.yaml"
finish
