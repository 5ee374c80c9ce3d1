#!/usr/bin/env bash
# builtin ycsb-like against a real PostgreSQL (benchgrid's managed server):
# init {kind: ycsb} loads usertable as YCSB names and sizes it (count,
# record 0's key "user6284781860667377211", fields and their length, the
# primary key); each of workloads a-f runs without failures; the mix's
# weights hold: d and e insert 5 % of their operations (rows added vs
# transactions, within 5 binomial standard deviations), a updates about
# 50 % (pg_stat n_tup_upd), c writes nothing. Small: 2000 records, 1 s per
# workload.
set -u
bg=${BENCHGRID:?}
PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
[ -x "$PG_BIN/initdb" ] || { echo "SKIP: no PostgreSQL server binaries"; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
chmod 755 "$t"
cat >"$t/s.yaml" <<'YAML'
benchgrid: 1
name: ycsb-like-test
matrix:
  workload: [a, b, c, d, e, f]
target: {kind: dir}
postgres:
  settings: {shared_buffers: 32MB, synchronous_commit: "off", fsync: "off"}
  init: {kind: ycsb, records: 2000}
  reinit: per-cell
steps:
  - name: shape
    exec:
      command: >-
        psql -Atq -c "select count(*), count(*) filter (where ycsb_key = 'user6284781860667377211'),
        min(length(field0)), max(length(field9)),
        (select count(*) from information_schema.columns where table_name = 'usertable'),
        (select count(*) from pg_index where indrelid = 'usertable'::regclass and indisprimary)
        from usertable"
      parse: nums
  - name: ycsb
    pgbench:
      builtin: ycsb-like
      ycsb: {workload: "${workload}", records: 2000}
      protocol: prepared
      clients: 2
      duration: 1s
  - name: after
    exec:
      command: >-
        sleep 1; psql -Atq -c "select count(*), (select n_tup_upd from pg_stat_user_tables where relname = 'usertable')
        from usertable"
      parse: nums
hooks: |
  function nums(text, result)
    local i = 0
    for v in text:gmatch("[^|%s]+") do
      i = i + 1
      result:metric("v" .. i, tonumber(v), "")
    end
  end
YAML
# Bad options: clear errors with their line and column.
cat >"$t/bad.yaml" <<'YAML'
benchgrid: 1
name: ycsb-bad
target: {kind: dir}
postgres: {init: {kind: ycsb, scale: 3}}
steps:
  - pgbench: {builtin: tpcb-like, ycsb: {workload: a}}
  - pgbench: {builtin: ycsb-like, ycsb: {workload: g}}
  - pgbench: {scripts: [{builtin: ycsb-like}]}
YAML
"$bg" check "$t/bad.yaml" >"$t/bad.out" 2>&1 && { echo "FAIL: check accepted bad.yaml"; exit 1; }
for want in "bad.yaml:4:38: error: postgres.init.scale: not with kind: ycsb" \
	"bad.yaml:6:41: error: pgbench.ycsb: only with builtin: ycsb-like" \
	"bad.yaml:7:52: error: pgbench.ycsb.workload" \
	"bad.yaml:8:35: error: pgbench script: ycsb-like is a mix of scripts"; do
	grep -qF "$want" "$t/bad.out" || { echo "FAIL: no '$want' in:"; cat "$t/bad.out"; exit 1; }
done

if ! "$bg" run -q -o "$t/out" "$t/s.yaml" >"$t/log" 2>&1; then
	echo "FAIL: benchgrid run"; cat "$t/log"; exit 1
fi
python3 - "$t/out/results.json" <<'PY' || exit 1
import json, math, sys
d = json.load(open(sys.argv[1]))
assert len(d["cells"]) == 6
for c in d["cells"]:
    w = c["params"]["workload"]
    assert c["status"] == "ok", c
    s = {x["step"]: {k: v["value"] for k, v in x["metrics"].items()} for x in c["summary"]}
    shape = [s["shape"]["v%d" % i] for i in range(1, 7)]
    assert shape == [2000, 1, 100, 100, 11, 1], (w, "usertable as loaded", shape)
    y = s["ycsb"]
    n = y["transactions"]
    assert n > 100 and y["failed"] == 0, (w, y)
    rows, upd = s["after"]["v1"], s["after"]["v2"]
    ins = rows - 2000
    p = {"d": 0.05, "e": 0.05}.get(w, 0)
    if p:
        sd = math.sqrt(n * p * (1 - p))
        assert abs(ins - n * p) <= 5 * sd, (w, "inserts", ins, "of", n)
    else:
        assert ins == 0, (w, "inserted", ins)
    if w == "a":
        sd = math.sqrt(n * 0.25)
        assert abs(upd - n * 0.5) <= 5 * sd + 0.02 * n, ("a: updates", upd, "of", n)
    if w == "c":
        assert upd == 0, ("c wrote", upd)
    print("ok %s: %d operations, %.0f/s, %d inserted, %d updated" % (w, n, y["tps"], ins, upd))
PY
echo PASS
