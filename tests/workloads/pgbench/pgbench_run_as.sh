#!/bin/bash
# pgbench's \shell and \setshell run /bin/sh with benchgrid's rights (root):
#  - with run_as: nobody, a script's `\setshell u id -u` stores nobody's
#    uid (and `id -G` its groups, not root's 0), written to a table and read
#    back; without run_as the same script stores 0 (the control: the test
#    can tell the two apart);
#  - run_as naming no user fails the step with a clear error;
#  - `benchgrid check` of a scenario with an inline \setshell prints a
#    note (exit 0, not an error), and none with run_as.
# Needs root (to switch users) and a PostgreSQL server; skipped (77) without.
set -u
SRC=${BENCHGRID_SRC:-$(cd "$(dirname "$0")/../../.." && pwd)}
BUILD=${BENCHGRID_BUILD:?BENCHGRID_BUILD not set}
BG=${BENCHGRID:-$BUILD/benchgrid}
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root to switch users"; exit 77; }
nobody_uid=$(id -u nobody 2>/dev/null) || { echo "SKIP: no user nobody"; exit 77; }
source "$SRC/tests/lib/pg_server.sh"
[ -x "$BUILD/pgb_driver" ] || { echo "SKIP: no pgb_driver"; exit 77; }
[ -x "$PG_BIN/psql" ] || { echo "SKIP: no PostgreSQL"; exit 77; }
pg_server_start "autovacuum = off" || { echo "FAIL: cannot start a server"; exit 1; }
t=$(mktemp -d /tmp/bg-runas-XXXXXX)
cleanup() { pg_server_stop; rm -rf "$t"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
q() { pg_server__as "$PG_BIN/psql" -XAtq -c "$1"; }
q "create table ids (who int, uid int)" >/dev/null || fail "create table"
q "grant all on ids to public" >/dev/null

# YAML double-quoted text: \\ is one backslash, \n a line break
script='\\setshell u id -u\n\\shell true\ninsert into ids values (:tag, :u);'
opts() { # $1: tag, $2: extra options
	printf '{script: {text: "%s"}, transactions: 1, vacuum: false, define: {tag: %s}%s}' \
		"$script" "$1" "${2:+, $2}"
}

out=$("$BUILD/pgb_driver" "$PG_CONNINFO" "$(opts 1 'run_as: nobody')" 2>&1) ||
	fail "the step with run_as: nobody failed: $out"
got=$(q "select uid from ids where who = 1")
[ "$got" = "$nobody_uid" ] || fail "run_as: nobody: \\setshell id -u gave '$got', expected $nobody_uid"
echo "ok   run_as: nobody: \\setshell id -u gave $got (nobody's uid)"

out=$("$BUILD/pgb_driver" "$PG_CONNINFO" "$(opts 2 '')" 2>&1) ||
	fail "the step without run_as failed: $out"
got=$(q "select uid from ids where who = 2")
[ "$got" = 0 ] || fail "without run_as: \\setshell id -u gave '$got', expected 0 (root)"
echo "ok   without run_as: \\setshell id -u gave 0 (root), as the docs say"

out=$("$BUILD/pgb_driver" "$PG_CONNINFO" "$(opts 3 'run_as: no-such-user-bg')" 2>&1)
rc=$?
[ $rc -ne 0 ] && [[ $out == *"pgbench.run_as: no user 'no-such-user-bg'"* ]] ||
	fail "run_as of an unknown user: exit $rc: $out"
echo "ok   run_as of an unknown user fails the step: ${out%%$'\n'*}"

# check: a note at the \setshell and the \shell, exit 0; none with run_as.
mk() { # $1: file, $2: extra pgbench options
	cat >"$1" <<Y
benchgrid: 1
name: shell-note
postgres: {}
steps:
  - name: p
    pgbench:
      script:
        text: |
          \\setshell u id -u
          \\shell true
          select :u;
      transactions: 1$2
Y
}
mk "$t/s.yaml" ""
out=$(BENCHGRID_STATE=$t/state BENCHGRID_STORE=$t/store.db "$BG" check "$t/s.yaml" 2>&1)
rc=$?
[ $rc -eq 0 ] || fail "check with \\setshell exited $rc: $out"
grep -q "note: pgbench: \\\\setshell runs /bin/sh as root" <<<"$out" ||
	fail "check printed no note for \\setshell: $out"
grep -q "note: pgbench: \\\\shell runs /bin/sh as root" <<<"$out" ||
	fail "check printed no note for \\shell: $out"
grep -q "s.yaml:9:11: note" <<<"$out" || fail "the note has no position at the command: $out"
echo "ok   check notes \\setshell and \\shell as root, exit 0"
mk "$t/r.yaml" $'\n      run_as: nobody'
out=$(BENCHGRID_STATE=$t/state BENCHGRID_STORE=$t/store.db "$BG" check "$t/r.yaml" 2>&1)
[ $? -eq 0 ] && ! grep -q "runs /bin/sh as root" <<<"$out" || fail "check with run_as: $out"
echo "ok   check with run_as: no note"
echo "pgbench_run_as: ok"
