#!/usr/bin/env bash
# PostgreSQL on a loop-mounted xfs with its WAL on a second loop-mounted ext4,
# driven by `benchgrid run`: the data and WAL really live there, pgbench runs,
# and afterwards no loop device, mount or server remains.
set -u
bg=${BENCHGRID:?}
[[ $(id -u) -eq 0 && -e /dev/loop-control ]] || { echo "skip: needs root and loop devices"; exit 77; }
t=$(mktemp -d)
chmod 711 "$t" # the server runs as postgres and must pass through
trap 'rm -rf "$t"' EXIT
cat >"$t/s.yaml" <<'Y'
name: pg-on-loop
target: {kind: loop, size: 320MiB, fs: xfs, block_size: 4KiB, mount_options: [noatime]}
targets:
  wal: {kind: loop, size: 128MiB, fs: ext4, block_size: 1KiB}
postgres:
  wal_dir: wal
  settings: {shared_buffers: 32MB}
  init: {scale: 1}
steps:
  - name: where
    # fails unless WAL segments are on the wal filesystem and none under the data directory proper
    exec: {command: "find ${targets.wal.path} -name '000000010000000000000001' | grep -q . && test -L $(find ${target.path} -maxdepth 3 -name pg_wal | head -1)"}
  - name: tpcb
    pgbench: {builtin: tpcb-like, clients: 2, transactions: 200}
Y
"$bg" run -q -o "$t/out" --work-dir "$t" "$t/s.yaml"
rc=$?
fail=0
python3 - "$t/out/results.json" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
c = r["cells"][0]
assert c["status"] == "ok", c.get("error")
facts = c["facts"]["info"]
assert facts["fs.type"] == "xfs", facts["fs.type"]
assert facts["fs.block_size"] == "4096", facts["fs.block_size"]
assert facts["wal.fs.type"] == "ext4", facts.get("wal.fs.type")
assert facts["wal.fs.block_size"] == "1024", facts.get("wal.fs.block_size")
steps = {s["name"]: s for s in c["reps"][0]}
m = steps["tpcb"]["metrics"]
assert m["transactions"]["value"] == 400, m["transactions"]
assert m["wal_bytes"]["value"] > 0
print("ok: data on xfs, WAL on ext4, 400 transactions")
PY
[[ $rc -eq 0 ]] || { echo "run exit status $rc"; fail=1; }
# Only our own images count: other tests may hold loop devices meanwhile.
if losetup -a | grep -F "$t/"; then echo "loop devices left"; fail=1; fi
if grep -q " $t" /proc/self/mountinfo; then echo "mounts left"; fail=1; fi
if pgrep -f "postgres -D $t" >/dev/null; then echo "server left"; fail=1; fi
[[ $fail -eq 0 ]] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $fail
