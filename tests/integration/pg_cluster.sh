#!/bin/bash
# pg_cluster.sh: the `postgres:` section end to end through the CLI.
#
# 1. A 2x2 sweep (shared_buffers x random_page_cost) runs one initdb, then
#    reloads for random_page_cost and a restart for shared_buffers; a step
#    sees the cell's shared_buffers; nothing is left running afterwards.
# 2. benchgrid killed with SIGKILL while its server runs: `benchgrid cleanup`
#    stops the server from the state journal.
set -euo pipefail
. "$(dirname "$0")/pg_lib.sh"

BG=${BENCHGRID:?BENCHGRID must name the benchgrid binary}
W=$(mktemp -d /tmp/bg-pgcl.XXXXXX)
chmod 755 "$W"
mkdir -m 755 "$W/work"
export BENCHGRID_STATE=$W/state
BGPID=

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# Processes whose working directory is under $W (server processes chdir
# into their data directory).
procs_under() {
	local n=0 p cwd
	for p in /proc/[0-9]*; do
		cwd=$(readlink "$p/cwd" 2>/dev/null) || continue
		case $cwd in "$W"/*) n=$((n + 1)) ;; esac
	done
	echo $n
}

finish() {
	local rc=$?
	[ -n "$BGPID" ] && kill -9 "$BGPID" 2>/dev/null
	"$BG" cleanup "$BENCHGRID_STATE" >/dev/null 2>&1 || true
	# last resort, should find nothing: kill what still runs in our directory
	for p in /proc/[0-9]*; do
		case $(readlink "$p/cwd" 2>/dev/null) in "$W"/*) kill -9 "${p#/proc/}" 2>/dev/null ;; esac
	done
	rm -rf "$W"
	exit $rc
}
trap finish EXIT

# ---- 1. reuse decisions through the runner --------------------------------
cat >"$W/sweep.yaml" <<'EOF'
benchgrid: 1
name: pg-sweep
matrix:
  sb: [16MB, 32MB]
  rpc: [1.1, 4]
postgres:
  settings: {shared_buffers: "${sb}", random_page_cost: "${rpc}"}
  initdb_options: [--no-sync]
steps:
  - name: show
    exec: {command: [psql, -Atc, "select current_setting('shared_buffers') || '/' || current_setting('random_page_cost')"]}
EOF
"$BG" run "$W/sweep.yaml" -o "$W/out" --work-dir "$W/work" -q || fail "sweep run failed"
R=$W/out/results.json
[ "$(grep -c '"pg.reuse": "initdb"' "$R")" = 1 ] || fail "expected one initdb"
[ "$(grep -c '"pg.reuse": "restart"' "$R")" = 1 ] || fail "expected one restart"
[ "$(grep -c '"pg.reuse": "reload"' "$R")" = 2 ] || fail "expected two reloads"
for v in 16MB/1.1 16MB/4 32MB/1.1 32MB/4; do
	grep -q "$v" "$R" || fail "no step saw $v"
done
grep -q '"pg.setting.shared_buffers": "32MB"' "$R" || fail "no read-back of shared_buffers"
[ "$(procs_under)" = 0 ] || fail "server processes left after the run"
sock=$(grep -o "host='/tmp/benchgrid-pg-[A-Za-z0-9]*'" "$R" | head -1 | tr -d "'" | cut -d= -f2)
[ -n "$sock" ] && [ ! -e "$sock" ] || fail "socket directory $sock left behind"
echo "sweep: 1 initdb, 1 restart, 2 reloads; nothing left"

# ---- 2. kill -9 benchgrid, then cleanup -------------------------------------
cat >"$W/kill.yaml" <<'EOF'
benchgrid: 1
name: pg-kill
postgres:
  settings: {shared_buffers: 16MB}
  initdb_options: [--no-sync]
steps:
  - name: wait
    exec: {command: [sleep, "3"]}
EOF
"$BG" run "$W/kill.yaml" -o "$W/out2" --work-dir "$W/work" -q &
BGPID=$!
pm=$(wait_postmaster "$W/work")
[ -n "$pm" ] || fail "the server did not come up"
kill -9 "$BGPID"
wait "$BGPID" 2>/dev/null || true
BGPID=
kill -0 "$pm" 2>/dev/null || fail "the server should outlive a killed benchgrid"
"$BG" cleanup "$BENCHGRID_STATE" || fail "cleanup failed"
for _ in $(seq 1 100); do
	kill -0 "$pm" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$pm" 2>/dev/null && fail "cleanup did not stop the server (pid $pm)"
sleep 3.2 # the orphaned `sleep 3` step
[ "$(procs_under)" = 0 ] || fail "processes left after cleanup"
echo "kill -9 + cleanup: server stopped"
echo "ok"
