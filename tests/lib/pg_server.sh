# pg_server.sh: a throwaway PostgreSQL cluster for integration tests.
#
# Source it, then call `pg_server_start [guc=value ...]`. It runs initdb and the
# server as user postgres (when run as root) in a fresh directory under /tmp,
# listening only on a private unix-socket directory and a free port number, and
# registers an EXIT trap that stops the server (fast shutdown, then kill) and
# removes the directory. After start these are set and exported:
#   PG_SERVER_DIR   the private directory (data in $PG_SERVER_DIR/data)
#   PG_SERVER_LOG   the server log
#   PGHOST PGPORT PGUSER PGDATABASE   for psql/pgbench
#   PG_CONNINFO     "host=... port=... user=... dbname=..."
#   PG_BIN          the server binaries
# pg_server_stop stops it early; pg_server_pid prints the postmaster pid.

PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}

pg_server__as() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

pg_server_pid() {
	head -1 "$PG_SERVER_DIR/data/postmaster.pid" 2>/dev/null
}

pg_server_stop() {
	[ -n "${PG_SERVER_DIR:-}" ] || return 0
	if [ -f "$PG_SERVER_DIR/data/postmaster.pid" ]; then
		pg_server__as "$PG_BIN/pg_ctl" -D "$PG_SERVER_DIR/data" -m fast -w -t 20 stop >/dev/null 2>&1
		local pid
		pid=$(pg_server_pid)
		[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	fi
	rm -rf "$PG_SERVER_DIR"
	PG_SERVER_DIR=
}

pg_server_start() {
	PG_SERVER_DIR=$(mktemp -d /tmp/bg-pg.XXXXXX) || return 1
	trap pg_server_stop EXIT
	chmod 755 "$PG_SERVER_DIR"
	[ "$(id -u)" = 0 ] && chown postgres: "$PG_SERVER_DIR"
	PG_SERVER_LOG=$PG_SERVER_DIR/server.log
	# Only the socket file name carries the port, in a private directory:
	# any number works; pick one no listener uses to keep logs unambiguous.
	local port
	while :; do
		port=$((20000 + RANDOM % 40000))
		grep -qi ":$(printf %04X $port) " /proc/net/tcp /proc/net/tcp6 2>/dev/null || break
	done
	pg_server__as "$PG_BIN/initdb" -D "$PG_SERVER_DIR/data" -U postgres -A trust --no-sync \
		-E UTF8 --locale=C >"$PG_SERVER_DIR/initdb.log" 2>&1 || {
		cat "$PG_SERVER_DIR/initdb.log" >&2
		return 1
	}
	{
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$PG_SERVER_DIR'"
		echo "port = $port"
		echo "fsync = off"
		echo "shared_buffers = 64MB"
		local s
		for s in "$@"; do echo "$s"; done
	} >>"$PG_SERVER_DIR/data/postgresql.conf"
	pg_server__as "$PG_BIN/pg_ctl" -D "$PG_SERVER_DIR/data" -l "$PG_SERVER_LOG" -w -t 30 start >/dev/null || {
		tail -20 "$PG_SERVER_LOG" >&2
		return 1
	}
	export PGHOST=$PG_SERVER_DIR PGPORT=$port PGUSER=postgres PGDATABASE=postgres
	export PG_CONNINFO="host=$PG_SERVER_DIR port=$port user=postgres dbname=postgres"
	export PG_SERVER_DIR PG_SERVER_LOG PG_BIN
}
