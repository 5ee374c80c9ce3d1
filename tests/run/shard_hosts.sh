#!/usr/bin/env bash
# Two shares of a sweep at once on one host (as two array tasks on one node
# would run without --exclusive): each has its own loop devices, image
# files, mount points, PostgreSQL server, port and socket directory, so
# neither disturbs the other; the merge equals the plan, and afterwards no
# loop device, mount or server of either remains.
set -u
bg=${BENCHGRID:?}
[[ $(id -u) -eq 0 && -e /dev/loop-control ]] || { echo "skip: needs root and loop devices"; exit 77; }
command -v mkfs.xfs >/dev/null || { echo "skip: needs mkfs.xfs"; exit 77; }
t=$(mktemp -d)
chmod 711 "$t" # the servers run as postgres and must pass through
trap 'rm -rf "$t"' EXIT
export BENCHGRID_STATE=$t/state
cat >"$t/s.yaml" <<'Y'
name: shard-hosts
target: {kind: loop, size: 300MiB, fs: "${fs}"}
postgres:
  settings: {shared_buffers: 16MB}
  init: {scale: 1}
matrix:
  fs: [ext4, xfs]
  clients: [1, 2]
steps:
  - name: where
    exec: {command: "echo ${pg.conninfo} ${target.path}"}
  - name: ro
    pgbench: {builtin: select-only, clients: "${clients}", transactions: 100}
Y
fail=0 pass=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
"$bg" plan --shards 2 "$t/s.yaml" | grep -q "share 1/2: 2 cells, 1 set-up" && ok "plan: 2 shares, one filesystem each" ||
	bad "plan --shards 2: $("$bg" plan --shards 2 "$t/s.yaml" | tail -4)"
"$bg" run -q -o "$t/o" --work-dir "$t" --shard 0/2 "$t/s.yaml" &
p0=$!
"$bg" run -q -o "$t/o" --work-dir "$t" --shard 1/2 "$t/s.yaml"
r1=$?
wait $p0
r0=$?
[[ $r0 == 0 && $r1 == 0 ]] && ok "both shares ran at once (exit 0)" || bad "shares exited $r0 and $r1"
"$bg" merge -q "$t/o" && ok "merge: every cell finished" || bad "merge exit $?"
python3 - "$t/o/results.json" <<'PY' && ok "each share had its own filesystem, server port and target" || bad "shares shared fixtures"
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["cells"]) == 4, len(r["cells"])
by_share = {}
for c in r["cells"]:
    assert c["status"] == "ok", c.get("error")
    f = c["facts"]["info"]
    by_share.setdefault(f["share"], set()).add((f["fs.type"], f["fs.path"], f["pg.conninfo"]))
fs = {s: {x[0] for x in v} for s, v in by_share.items()}
assert len(by_share) == 2 and all(len(v) == 1 for v in fs.values()), fs
assert fs["0/2"] != fs["1/2"], fs
# mount point, socket directory and port: none shared between the shares
for k in (1, 2):
    a = {x[k] for x in by_share["0/2"]}
    b = {x[k] for x in by_share["1/2"]}
    assert not (a & b), (k, a, b)
ports = {s: {w for x in v for w in x[2].split() if w.startswith("port=")} for s, v in by_share.items()}
assert not (ports["0/2"] & ports["1/2"]), ports
PY
if losetup -a | grep -F "$t/"; then bad "loop devices left"; else ok "no loop device left"; fi
if grep -q " $t" /proc/self/mountinfo; then bad "mounts left"; else ok "no mount left"; fi
if pgrep -f "postgres -D $t" >/dev/null; then bad "server left"; else ok "no server left"; fi
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
