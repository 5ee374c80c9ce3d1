#!/bin/bash
# The pgbench step against a real server: runs the cmocka suite
# test_pgb_server with a throwaway cluster, then kills the postmaster in the
# middle of a step and checks for a clear error and no process left behind.
set -u
SRC=${BENCHGRID_SRC:-$(cd "$(dirname "$0")/../../.." && pwd)}
BUILD=${BENCHGRID_BUILD:?BENCHGRID_BUILD not set}
source "$SRC/tests/lib/pg_server.sh"
pg_server_start "shared_buffers=64MB" || { echo "FAIL: cannot start a server"; exit 1; }

BENCHGRID_SRC=$SRC "$BUILD/test_pgb_server" || { echo "FAIL: test_pgb_server"; exit 1; }

# A crashed server in the middle of a step: a clear error, quickly, and no
# backend left behind once the postmaster is gone.
out=$PG_SERVER_DIR/kill.out
"$BUILD/pgb_driver" "$PG_CONNINFO" '{script: "SELECT count(*) FROM pg_class;", clients: 4, threads: 2, duration: 30s}' \
	"$PG_SERVER_LOG" >"$out" 2>&1 &
drv=$!
sleep 1.5
pm=$(pg_server_pid)
kill -9 "$pm"
t0=$(date +%s)
wait $drv
rc=$?
t1=$(date +%s)
if [ $rc -ne 1 ] || ! grep -q "^error: pgbench: client [0-9]*: connection to the server lost" "$out" \
	|| ! grep -q "server log" "$out"; then
	echo "FAIL: killed server: rc=$rc"; cat "$out"; exit 1
fi
if [ $((t1 - t0)) -gt 5 ]; then
	echo "FAIL: the step took $((t1 - t0)) s to notice the dead server"; exit 1
fi
for i in $(seq 50); do
	left=$(ps -o pid= --ppid "$pm" | wc -l)
	[ "$left" -eq 0 ] && break
	sleep 0.1
done
if [ "$left" -ne 0 ]; then
	echo "FAIL: $left server processes left behind"; ps -f --ppid "$pm"; exit 1
fi
echo "PASS"
