#!/bin/bash
# pg_reinit.sh: `postgres.reinit` through the CLI, with pgbench steps that
# read (select-only) or write (tpcb-like). Four cells, in order:
# select-only x2, then tpcb-like x2. With the default (when-written) only the
# cell after a writing cell reloads; with `never` that cell reuses the data
# and says so (pg.data_reused_after_write); `per-cell` reloads every cell.
set -euo pipefail

BG=${BENCHGRID:?BENCHGRID must name the benchgrid binary}
[ -n "$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null)" ] || command -v pg_config >/dev/null \
	|| { echo "SKIP: no PostgreSQL"; exit 77; }
W=$(mktemp -d /tmp/bg-pgri.XXXXXX)
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

run() { # policy -> "pg.data/pg.data_reused_after_write ..." per cell, in run order
	local pol=$1 line=
	[ "$pol" = default ] || line="  reinit: $pol"
	cat >"$W/s.yaml" <<EOF
benchgrid: 1
name: pg-reinit
matrix:
  b: [select-only, tpcb-like]
  n: [1, 2]
postgres:
  settings: {shared_buffers: 16MB, fsync: "off"}
  initdb_options: [--no-sync]
  init: {scale: 1}
$line
steps:
  - name: load
    pgbench: {builtin: "\${b}", transactions: 50}
EOF
	rm -rf "$W/out"
	"$BG" run "$W/s.yaml" -o "$W/out" --work-dir "$W/work" -q || fail "run ($pol) failed"
	python3 - "$W/out/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
out = []
for c in r["cells"]:
    blob = json.dumps(c)
    def get(k):
        i = blob.find('"%s": "' % k)
        if i < 0:
            return "-"
        j = i + len(k) + 5
        return blob[j:blob.index('"', j)]
    out.append("%s/%s" % (get("pg.data"), get("pg.data_reused_after_write")))
print(" ".join(out))
PY
}

got=$(run default)
echo "when-written: $got"
[ "$got" = "loaded/- reused/false reused/false loaded/false" ] || fail "when-written: $got"
got=$(run never)
echo "never:        $got"
[ "$got" = "loaded/- reused/false reused/false reused/true" ] || fail "never: $got"
got=$(run per-cell)
echo "per-cell:     $got"
[ "$got" = "loaded/- loaded/false loaded/false loaded/false" ] || fail "per-cell: $got"
echo "ok"
