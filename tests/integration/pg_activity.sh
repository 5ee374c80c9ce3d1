#!/bin/bash
# pg_activity.sh: the server activity sampled during pgbench and exec steps
# (engine/fixtures/pg/pg_activity.c), end to end on a real server.
#
# One scenario: a pgbench step (the server's tps agrees with the step's own,
# the server's CPU shows), an exec step that issues a CHECKPOINT and runs
# pg_sleep (checkpoints_req >= 1, a checkpoint in the series and a mark in
# the chart, Timeout:PgSleep among the wait events, the sampler's connection
# visible by its application_name while the step runs), steps with
# server_stats: false (no pg_* figures; the earlier steps' sampler
# connections are gone), report.md's Server activity section. Then a cell
# without a server: nothing sampled, no error.
set -euo pipefail
. "$(dirname "$0")/pg_lib.sh"

BG=${BENCHGRID:?BENCHGRID must name the benchgrid binary}
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (the server runs as postgres)"; exit 77; }
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || command -v postgres >/dev/null ||
	{ echo "SKIP: no PostgreSQL server binaries"; exit 77; }
W=$(mktemp -d /tmp/bg-pgact.XXXXXX)
chmod 755 "$W"
mkdir -m 755 "$W/work"
export BENCHGRID_STATE=$W/state

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

finish() {
	local rc=$?
	"$BG" cleanup "$BENCHGRID_STATE" >/dev/null 2>&1 || true
	rm -rf "$W"
	exit $rc
}
trap finish EXIT

cat >"$W/act.yaml" <<'EOF'
benchgrid: 1
name: pg-activity
postgres:
  settings: {shared_buffers: 32MB}
  initdb_options: [--no-sync]
  init: {scale: 1}
steps:
  - name: load
    pgbench: {builtin: select-only, clients: 2, threads: 1, duration: 3s}
  - name: ckpt
    exec:
      command: [sh, -c, "psql -Atc \"select count(*) from pg_stat_activity where application_name = 'benchgrid-sampler'\"; sleep 1.2; psql -qc CHECKPOINT; psql -qAtc 'select pg_sleep(2.3)' >/dev/null"]
  - name: quiet
    server_stats: false
    pgbench: {builtin: select-only, clients: 1, threads: 1, duration: 1s}
  - name: after
    server_stats: false
    exec: {command: [psql, -Atc, "select count(*) from pg_stat_activity where application_name = 'benchgrid-sampler'"]}
EOF
"$BG" run "$W/act.yaml" -o "$W/out" --work-dir "$W/work" -q || fail "run failed"

python3 - "$W/out" <<'EOF' || fail "figures"
import csv, json, sys
out = sys.argv[1]
def die(msg):
    print("FAIL:", msg); sys.exit(1)
cell = json.load(open(out + "/results.json"))["cells"][0]
if cell["status"] != "ok":
    die("cell status %s: %s" % (cell["status"], cell.get("error")))
steps = {s["name"]: s for s in cell["reps"][0]}
def metric(step, name):
    m = steps[step]["metrics"].get(name)
    return None if m is None else m["value"]

rows = list(csv.DictReader(open(out + "/timeseries.csv")))
cols = ["pg_tps", "pg_checkpoints", "pg_buffers_checkpoint_s", "pg_buffers_clean_s",
        "pg_buffers_backend_s", "pg_wal_mb_s", "pg_cpu_pct", "pg_blks_hit_s"]
for c in cols:
    if c not in rows[0]:
        die("timeseries.csv has no column " + c)
def series(step, col):
    return [float(r[col]) for r in rows if r["step"] == step and r[col] != ""]

# pgbench: the server's transactions agree with the step's
tps, ptps = metric("load", "tps"), metric("load", "pg_tps")
if not tps or not ptps or not (0.7 * tps <= ptps <= 1.3 * tps):
    die("load: pg_tps %s against the step's tps %s" % (ptps, tps))
if not any(v > 0 for v in series("load", "pg_tps")):
    die("load: no interval with pg_tps > 0")
cpu = series("load", "pg_cpu_pct")
if not cpu or max(cpu) <= 1 or max(cpu) > 100 * 64:
    die("load: implausible server CPU %s" % cpu)
if not (metric("load", "pg_cpu_s") or 0) > 0:
    die("load: pg_cpu_s not > 0")
if not (metric("load", "pg_blks_hit") or 0) > 0:
    die("load: no buffer hits")
if "pg_activity" not in steps["load"]["info"]:
    die("load: no pg_activity fact")

# exec: the CHECKPOINT and pg_sleep
if not (metric("ckpt", "pg_checkpoints_req") or 0) >= 1:
    die("ckpt: pg_checkpoints_req %s" % metric("ckpt", "pg_checkpoints_req"))
if not any(v >= 1 for v in series("ckpt", "pg_checkpoints")):
    die("ckpt: no checkpoint in the series")
if not (metric("ckpt", "pg_buffers_checkpoint") or 0) > 0:
    die("ckpt: the checkpointer wrote no buffer")
if not (metric("ckpt", "pg_wait.Timeout.PgSleep") or 0) >= 1:
    die("ckpt: no Timeout:PgSleep wait: %s" % {k: v["value"] for k, v in steps["ckpt"]["metrics"].items() if k.startswith("pg_wait")})
seen = open(out + "/cells/%s/ckpt.stdout" % cell["id"]).read().split()
if seen[:1] != ["1"]:
    die("ckpt: the sampler's connection seen %s times during the step, not once" % seen[:1])

# server_stats: false
for s in ("quiet", "after"):
    pg = [k for k in steps[s]["metrics"] if k.startswith("pg_")]
    if pg:
        die("%s: server_stats false, yet %s" % (s, pg))
    if any(r["step"] == s and r["pg_tps"] != "" for r in rows):
        die("%s: server_stats false, yet pg_tps rows" % s)
after = open(out + "/cells/%s/after.stdout" % cell["id"]).read().strip()
if after != "0":
    die("sampler connections left after their steps: %s" % after)

report = open(out + "/report.md").read()
for want in ("## Server activity", "### Buffers written by each writer", "### Top wait events",
             "Timeout:PgSleep"):
    if want not in report:
        die("report.md lacks " + want)
import re
charts = re.findall(r"!\[Server tps over time[^\]]*ckpt\]\((chart-\d+\.svg)\)", report)
if not charts:
    die("report.md has no tps chart of ckpt")
svg = open(out + "/" + charts[0]).read()
if 'class="event-mark"' not in svg:
    die("the ckpt chart marks no checkpoint")
print("figures: pg_tps %.0f (step %.0f), CPU max %.0f%%, checkpoints_req %d, PgSleep %d samples"
      % (ptps, tps, max(cpu), metric("ckpt", "pg_checkpoints_req"), metric("ckpt", "pg_wait.Timeout.PgSleep")))
EOF

# No server: nothing sampled, no error.
cat >"$W/none.yaml" <<'EOF'
benchgrid: 1
name: no-server
steps:
  - name: plain
    exec: {command: [sleep, "1.2"]}
EOF
"$BG" run "$W/none.yaml" -o "$W/none" --work-dir "$W/work" -q || fail "run without a server failed"
if grep -q '"pg_' "$W/none/results.json"; then fail "pg_* figures without a server"; fi
grep -q "Server activity" "$W/none/report.md" && fail "a Server activity section without a server"

# An external server whose steps use another database than postgres: the
# sampler sits in postgres, so a step can drop and re-create its database,
# and reads the steps' database by name; no CPU figure (not our processes).
. "$(dirname "$0")/pg_server.sh"
pg_server_start >/dev/null || fail "cannot start a server"
finish_ext() {
	local rc=$?
	pg_server_stop || true # (it fails under set -e once the server is gone)
	"$BG" cleanup "$BENCHGRID_STATE" >/dev/null 2>&1 || true
	rm -rf "$W"
	exit $rc
}
trap finish_ext EXIT
psql -qc "CREATE DATABASE actdb" || fail "createdb"
cat >"$W/ext.yaml" <<YAML
benchgrid: 1
name: pg-activity-external
postgres: {external: "${PG_CONNINFO/dbname=postgres/dbname=actdb}"}
steps:
  - name: recreate
    exec: {command: [sh, -c, "psql -d postgres -qc 'DROP DATABASE actdb' && psql -d postgres -qc 'CREATE DATABASE actdb' && pgbench -i -q -s 1 actdb"]}
  - name: load
    pgbench: {builtin: select-only, clients: 2, threads: 1, duration: 2s}
YAML
"$BG" run "$W/ext.yaml" -o "$W/ext" --work-dir "$W/work" -q ||
	fail "external run failed (could the step drop its database?)"
python3 - "$W/ext/results.json" <<'PY' || fail "external figures"
import json, sys
cell = json.load(open(sys.argv[1]))["cells"][0]
steps = {s["name"]: s for s in cell["reps"][0]}
m = steps["load"]["metrics"]
tps, ptps = m["tps"]["value"], m.get("pg_tps", {}).get("value")
if not ptps or not (0.7 * tps <= ptps <= 1.3 * tps):
    print("FAIL: external: pg_tps %s against the step's tps %s" % (ptps, tps)); sys.exit(1)
if "pg_cpu_s" in m or "CPU" not in steps["load"]["info"].get("pg_activity.missing", ""):
    print("FAIL: external: a CPU figure, or no word of its absence"); sys.exit(1)
if "pg_checkpoints" not in steps["recreate"]["metrics"]:
    print("FAIL: external: the exec step was not sampled"); sys.exit(1)
print("external: pg_tps %.0f (step %.0f) in database actdb, dropped and re-created while sampled" % (ptps, tps))
PY

# A sampler whose backend stops answering (SIGSTOP) gives up after 5 s with
# a warning: the step ends, not failed, instead of hanging at its end.
cat >"$W/stop.yaml" <<YAML
benchgrid: 1
name: pg-activity-stopped
postgres: {external: "$PG_CONNINFO"}
steps:
  - name: freeze
    exec: {command: [sh, -c, "pid=\$(psql -Atc \"select pid from pg_stat_activity where application_name = 'benchgrid-sampler'\"); echo \$pid; kill -STOP \$pid; sleep 1.5"]}
YAML
"$BG" run "$W/stop.yaml" -o "$W/stop" --work-dir "$W/work" -q || fail "run with a frozen sampler backend failed"
frozen=$(cat "$W"/stop/cells/*/freeze.stdout)
[ -n "$frozen" ] && kill -CONT "$frozen"
python3 - "$W/stop/results.json" <<'PY' || fail "frozen sampler"
import json, sys
st = json.load(open(sys.argv[1]))["cells"][0]["reps"][0][0]
warn = json.dumps(st["info"])
if st["failed"] or "no answer within 5 s" not in warn or not (5 <= st["elapsed"] < 10):
    print("FAIL: frozen sampler: failed %s, elapsed %.1f s, info %s" % (st["failed"], st["elapsed"], warn)); sys.exit(1)
print("frozen sampler backend: the step ended after %.1f s with a warning" % st["elapsed"])
PY
echo "PASS"
