# Shared helpers for the pg_*.sh integration tests (sourced, not run).

# wait_postmaster WORKDIR: wait up to 60 s until a server that a benchgrid
# run started under WORKDIR (WORKDIR/*/*/pgdata) says it is ready; print its
# postmaster's pid, or nothing when none came up.
wait_postmaster() {
	local pidfile=
	for _ in $(seq 1 600); do
		pidfile=$(ls "$1"/*/*/pgdata/postmaster.pid 2>/dev/null | head -1 || true)
		[ -n "$pidfile" ] && grep -q ready "$pidfile" 2>/dev/null && break
		pidfile=
		sleep 0.1
	done
	[ -n "$pidfile" ] && head -1 "$pidfile"
	return 0
}
