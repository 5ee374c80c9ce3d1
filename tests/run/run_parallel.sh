#!/usr/bin/env bash
# Steps that run beside others (parallel: groups, background: steps;
# run/step_conc.c), with real io_uring I/O and real processes:
#  - two io steps of a group really overlap (start and end times);
#  - until: first stops the other step, which keeps its figures, not failed;
#  - a background step is stopped when the foreground steps end;
#  - a failing sibling stops the group, the cell fails, the sweep goes on;
#  - check: the new keys' errors with file:line:col (a Lua parse: in a
#    group's step: at the parse: value);
#  - one clock: a step that starts later in an overlap has its series
#    shifted by its offset (info clock);
#  - a group named like another's default name (group2) is a group of its own;
#  - a sibling past its own timeout when another's failure stops it keeps
#    its timeout verdict;
#  - SIGINT in a group: exit 130, nothing left running;
#  - kill -9 in a group on a loop target, then `cleanup`: no loop device, no
#    process, nothing in the work directory (root only; else that part skips).
set -u
bg=${BENCHGRID:?}
py=/usr/bin/python3
t=$(mktemp -d)
mark=$((3000 + RANDOM % 5000)) # the exec steps' sleep, found by its argument
cleanup() {
	"$bg" cleanup "$BENCHGRID_STATE" >/dev/null 2>&1
	rm -rf "$t"
}
trap cleanup EXIT
export BENCHGRID_STATE=$t/state
mkdir -p "$t/w" "$t/work"
W=(--work-dir "$t/w")
fail=0 pass=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
alive() { pgrep -f "sleep $mark" >/dev/null; }

# Each step: name, failed, started, end, stopped, overlapped (one line each).
steps() {
	$py - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1] + "/results.json"))
for c in r["cells"]:
    for rep in c["reps"]:
        for s in rep:
            i = s["info"]
            print(s["name"], int(s["failed"]), "%.3f" % s["started"], "%.3f" % (s["started"] + s["elapsed"]),
                  "stopped" if "stopped" in i else "-", i.get("overlapped", "-").replace(" ", ""))
PY
}

# ---- two io steps overlap; a background step stops with the foreground ----
cat >"$t/two.yaml" <<Y
name: two
target: {kind: dir, path: $t/work}
steps:
  - name: pair
    parallel:
      steps:
        - name: a
          io: {engine: io_uring, rw: write, bs: 1MiB, size: 32MiB, runtime: 2s, time_based: true}
        - name: b
          io: {engine: io_uring, rw: randread, bs: 4KiB, size: 16MiB, runtime: 2s, time_based: true}
  - name: fill
    background: true
    io: {engine: io_uring, rw: write, bs: 1MiB, size: 32MiB, runtime: 60s, time_based: true}
  - name: fg
    exec: {command: "sleep 1.5"}
report:
  charts:
    - {x: time, y: [fg.elapsed_s, fill.mb_s]}
Y
"$bg" run "${W[@]}" -q -o "$t/o2" "$t/two.yaml"
rc=$?
steps "$t/o2" >"$t/s2"
$py - "$t/s2" <<'PY' && ok "two io steps overlap: both start before either ends, 2 s each" || { bad "overlap (rc $rc)"; cat "$t/s2"; }
import sys
s = {l.split()[0]: l.split() for l in open(sys.argv[1])}
a, b = s["a"], s["b"]
assert a[1] == "0" and b[1] == "0"
sa, ea, sb, eb = float(a[2]), float(a[3]), float(b[2]), float(b[3])
assert sa < eb and sb < ea, "no overlap"
assert abs(sa - sb) < 0.5 and ea - sa > 1.9 and eb - sb > 1.9
assert a[5] == "b" and b[5] == "a"
PY
$py - "$t/s2" <<'PY' && ok "background fill stopped when fg ended, not failed, started with fg" || { bad "background"; cat "$t/s2"; }
import sys
s = {l.split()[0]: l.split() for l in open(sys.argv[1])}
f, g = s["fill"], s["fg"]
assert f[1] == "0" and f[4] == "stopped", f
assert abs(float(f[2]) - float(g[2])) < 0.5
assert float(f[3]) - float(g[3]) < 3 and float(f[3]) - float(f[2]) < 10, "fill ran on (60 s asked)"
assert float(g[2]) >= float(s["a"][3]) - 0.05, "fg started before the group ended"
PY
grep -q 'a, b together (group pair, until: all); fill in the background of the next steps' "$t/o2/report.md" && ok "report.md says which steps overlapped" || bad "report.md: no overlap"
# a writer beside a reader would resize the reader's file under it (b's
# reads past a shorter file failed now and then): a step beside others that
# names no file gets one of its own (each step's info "file")
for st in a b fill; do
	grep -q "\"file\": \"[^\"]*/benchgrid-io\.$st\.dat\"" "$t/o2/results.json" && ok "$st: its own default file" ||
		bad "$st: not benchgrid-io.$st.dat: $(grep -o '"file": "[^"]*"' "$t/o2/results.json" | tr '\n' ' ')"
done

# ---- one clock: fg2 starts ~2 s into the overlap that fill began ----
cat >"$t/clock.yaml" <<Y
name: clock
target: {kind: dir, path: $t/work}
steps:
  - name: fill
    background: true
    io: {engine: io_uring, rw: write, bs: 1MiB, size: 32MiB, runtime: 60s, time_based: true}
  - name: fg1
    exec: {command: "sleep 2"}
  - name: fg2
    io: {engine: io_uring, rw: randread, bs: 4KiB, size: 16MiB, runtime: 2s, time_based: true}
Y
"$bg" run "${W[@]}" -q -o "$t/oc" "$t/clock.yaml"
rc=$?
$py - "$t/oc" <<'PY' && [[ $rc -eq 0 ]] && ok "one clock: fg2's series start at its offset in the overlap (info clock), on fill's clock" || bad "one clock (rc $rc)"
import json, re, sys
r = json.load(open(sys.argv[1] + "/results.json"))
s = {x["name"]: x for x in r["cells"][0]["reps"][0]}
f, g = s["fill"], s["fg2"]
off = float(re.search(r"started ([0-9.]+) s after", g["info"]["clock"]).group(1))
assert off > 1.9, off
# the overlap began with fill: fg2 started off seconds after it
assert abs(g["started"] - f["started"] - off) < 0.1, (g["started"] - f["started"], off)
for k, v in g["series"].items():
    if v["t"]:
        assert min(v["t"]) >= off, (k, min(v["t"]), off)
# a time on both series means one moment: fill's samples near fg2's first one
t0 = min(g["series"]["iops"]["t"])
assert any(abs(t - t0) <= 1.05 for t in f["series"]["mb_s"]["t"]), (t0, f["series"]["mb_s"]["t"])
PY

# ---- a named group called group2, then an unnamed one (default group2) ----
cat >"$t/names.yaml" <<Y
name: names
steps:
  - name: group2
    parallel:
      steps:
        - {name: a, exec: {command: "sleep 0.3"}}
        - {name: b, exec: {command: "sleep 0.3"}}
  - parallel:
      until: first
      steps:
        - {name: c, exec: {command: "sleep 0.3"}}
        - {name: d, exec: {command: "sleep 2"}}
Y
"$bg" run "${W[@]}" -q -o "$t/on" "$t/names.yaml"
rc=$?
steps "$t/on" >"$t/sn"
$py - "$t/sn" <<'PY' && [[ $rc -eq 0 ]] && ok "groups told apart by place, not name: c, d start after a, b; b not stopped" || { bad "group names (rc $rc)"; cat "$t/sn"; }
import sys
s = {l.split()[0]: l.split() for l in open(sys.argv[1])}
assert s["b"][4] == "-" and s["a"][4] == "-", s["b"]
assert float(s["c"][2]) >= float(s["b"][3]) - 0.05, "c started before group2 ended"
assert s["d"][4] == "stopped"
PY

# ---- a sibling past its own timeout keeps its verdict ----
# b ignores SIGTERM: its own timeout ends it only 1 s later (SIGKILL), so
# a's failure (its timeout) is always seen while b runs past its timeout.
cat >"$t/to.yaml" <<Y
name: to
target: {kind: dir, path: $t/work}
steps:
  - name: grp
    timeout: 2s
    parallel:
      steps:
        - {name: a, io: {engine: io_uring, rw: write, bs: 64KiB, size: 8MiB, runtime: 8s, time_based: true}}
        - {name: b, exec: {command: "trap '' TERM; sleep $mark"}}
  - {name: after, exec: {command: "true"}}
Y
"$bg" run "${W[@]}" -q -o "$t/ot" "$t/to.yaml"
rc=$?
steps "$t/ot" >"$t/st"
$py - "$t/st" <<'PY' && [[ $rc -eq 1 ]] && ! alive && ok "both steps past their 2 s timeout: both failed, neither excused as stopped" || { bad "timeout verdict (rc $rc)"; cat "$t/st"; }
import sys
s = {l.split()[0]: l.split() for l in open(sys.argv[1])}
for k in ("a", "b"):
    assert s[k][1] == "1" and s[k][4] == "-", s[k]
PY

# ---- until: first ----
cat >"$t/first.yaml" <<Y
name: first
target: {kind: dir, path: $t/work}
steps:
  - name: race
    parallel:
      until: first
      steps:
        - name: short
          exec: {command: "sleep 1"}
        - name: long
          io: {engine: io_uring, rw: write, bs: 1MiB, size: 32MiB, runtime: 60s, time_based: true}
  - name: after
    exec: {command: "true"}
Y
"$bg" run "${W[@]}" -q -o "$t/o1" "$t/first.yaml"
rc=$?
steps "$t/o1" >"$t/s1"
$py - "$t/s1" <<'PY' && [[ $rc -eq 0 ]] && ok "until: first stops the long step (kept, not failed), the next step runs" || { bad "until first (rc $rc)"; cat "$t/s1"; }
import sys
s = {l.split()[0]: l.split() for l in open(sys.argv[1])}
l = s["long"]
assert l[1] == "0" and l[4] == "stopped" and float(l[3]) - float(l[2]) < 10
assert s["short"][4] == "-" and "after" in s
PY

# ---- a real PostgreSQL: pgbench in an until: first group is stopped cleanly ----
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null; then
	chmod 755 "$t" "$t/work" # the server runs as postgres
	cat >"$t/pg.yaml" <<Y
name: pg
target: {kind: dir, path: $t/work}
postgres: {settings: {shared_buffers: 32MB}, init: {scale: 1}}
steps:
  - name: mix
    parallel:
      until: first
      steps:
        - {name: wr, io: {engine: io_uring, rw: write, bs: 1MiB, size: 32MiB, runtime: 2s, time_based: true}}
        - {name: oltp, pgbench: {builtin: tpcb-like, clients: 2, duration: 60s, progress: 1s}}
Y
	"$bg" run "${W[@]}" -q -o "$t/op" "$t/pg.yaml" 2>"$t/pg.err"
	rc=$?
	$py - "$t/op" <<'PY' && [[ $rc -eq 0 ]] && ok "pgbench beside io (until: first): stopped after the io step, tps kept, series on one clock" || { bad "pgbench in a group (rc $rc)"; tail -5 "$t/pg.err"; }
import json, sys
r = json.load(open(sys.argv[1] + "/results.json"))
s = {x["name"]: x for x in r["cells"][0]["reps"][0]}
o, w = s["oltp"], s["wr"]
assert not o["failed"] and "step wr ended first" in o["info"]["stopped"], o["info"].get("stopped")
assert o["elapsed"] < 20 and o["metrics"]["tps"]["value"] > 0
assert w["metrics"]["mb_s"]["value"] > 0 and "oltp" in w["info"]["overlapped"]
assert max(o["series"]["tps"]["t"]) < 20
PY
else
	echo "skip pgbench in a group: no PostgreSQL"
fi

# ---- a failing sibling stops the group; the sweep goes on ----
cat >"$t/fail.yaml" <<Y
name: fail
target: {kind: dir, path: $t/work}
matrix: {x: [1, 2]}
steps:
  - name: grp
    parallel:
      steps:
        - name: bad
          exec: {command: "sleep 1; exit 3"}
        - name: long
          io: {engine: io_uring, rw: write, bs: 1MiB, size: 32MiB, runtime: 60s, time_based: true}
        - name: longx
          exec: {command: "sleep $mark"}
Y
"$bg" run "${W[@]}" -q -o "$t/of" "$t/fail.yaml"
rc=$?
$py - "$t/of" <<'PY' && [[ $rc -eq 1 ]] && ! alive && ok "a failing sibling stops the others in both cells (exit 1, nothing left)" || { bad "failing sibling (rc $rc)"; steps "$t/of"; }
import json, sys
r = json.load(open(sys.argv[1] + "/results.json"))
assert len(r["cells"]) == 2
for c in r["cells"]:
    assert c["status"] == "failed" and "bad" in c["error"], c["error"]
    s = {x["name"]: x for x in c["reps"][0]}
    assert s["bad"]["failed"] and not s["long"]["failed"] and not s["longx"]["failed"]
    for k in ("long", "longx"):
        assert "step bad failed" in s[k]["info"]["stopped"] and s[k]["elapsed"] < 10
    assert s["long"]["metrics"]["mb_s"]["value"] > 0
PY

# ---- check: file:line:col ----
cat >"$t/bad.yaml" <<'Y'
name: bad
steps:
  - name: g
    parallel:
      until: last
      steps:
        - {name: a, exec: {command: "true"}}
        - {name: b, parallel: {steps: []}}
  - parallel:
      steps:
        - {name: p, exec: {command: "true", parse: myparse}}
        - {name: q, exec: {command: "true"}}
  - name: e
    background: true
    exec: {command: "true"}
Y
"$bg" check "$t/bad.yaml" 2>"$t/bad.err"
rc=$?
grep -q 'bad.yaml:5:14: error: parallel.until' "$t/bad.err" && grep -q "bad.yaml:11:52: error: exec.parse: 'myparse' is not a shipped parser" "$t/bad.err" && grep -q 'bad.yaml:8:21: error: parallel: a group cannot hold' "$t/bad.err" &&
	grep -q 'bad.yaml:14:17: error: step.background: no foreground step after it' "$t/bad.err" && [[ $rc -ne 0 ]] &&
	ok "check: the new keys' errors with file:line:col" || { bad "check errors (rc $rc)"; cat "$t/bad.err"; }

# ---- group_reporting: io steps only, a name of its own, its metrics ----
# refused NAME WHAT PATTERN...: check refuses $t/NAME.yaml with each
# PATTERN among its errors.
refused() {
	local name=$1 what=$2 rc p miss=
	shift 2
	"$bg" check "$t/$name.yaml" >/dev/null 2>"$t/$name.err"
	rc=$?
	for p in "$@"; do grep -q -- "$p" "$t/$name.err" || miss+=" [$p]"; done
	if [[ $rc -ne 0 && -z $miss ]]; then ok "check: $what"; else
		bad "check: $what (rc $rc, missing:$miss)"
		cat "$t/$name.err"
	fi
}
cat >"$t/tot.yaml" <<'Y'
name: tot
steps:
  - name: g
    parallel:
      group_reporting: true
      steps:
        - {name: a, io: {rw: randread, size: 1MiB}}
        - {name: b, exec: {command: "true"}}
  - name: h
    parallel:
      group_reporting: true
      steps:
        - {name: h, io: {rw: randread, size: 1MiB}}
        - {name: c, io: {rw: randwrite, size: 1MiB}}
Y
refused tot "group_reporting's errors with file:line:col" \
	"tot.yaml:8:11: error: parallel.group_reporting: step b is not an io step" \
	"tot.yaml:13:18: error: step name 'h' is also the name of a group, whose total"
cat >"$t/tot3.yaml" <<'Y'
name: tot3
steps:
  - parallel:
      group_reporting: true
      steps:
        - {name: a, io: {rw: randread, size: 1MiB}}
        - {name: b, io: {op: create, files_per_dir: 10}}
  - name: group1
    record: false
    parallel:
      group_reporting: true
      steps:
        - {name: c, io: {rw: randread, size: 1MiB}}
        - {name: d, record: false, io: {rw: randwrite, size: 1MiB}}
Y
refused tot3 "group_reporting refuses file operations and record: false" \
	"tot3.yaml:7:26: error: parallel.group_reporting: step b does file operations" \
	"tot3.yaml:9:13: error: parallel.group_reporting: the group is not recorded" \
	"tot3.yaml:14:29: error: parallel.group_reporting: step d is not recorded"
cat >"$t/tot4.yaml" <<'Y'
name: tot4
steps:
  - parallel:
      group_reporting: true
      steps:
        - {name: a, io: {rw: randread, size: 1MiB}}
        - {name: b, io: {rw: randwrite, size: 1MiB}}
  - name: group1
    parallel:
      group_reporting: true
      steps:
        - {name: c, io: {rw: randread, size: 1MiB}}
        - {name: d, io: {rw: randwrite, size: 1MiB}}
Y
refused tot4 "two totals under one name, a default one (group1) among them" \
	"tot4.yaml:10:7: error: step name 'group1' is also the name of another group"
cat >"$t/tot2.yaml" <<'Y'
name: tot2
steps:
  - name: g
    parallel:
      group_reporting: true
      steps:
        - {name: a, io: {rw: randread, size: 1MiB}}
        - {name: b, io: {rw: randwrite, size: 1MiB}}
expect:
  - {g.read.iops: {min: 1}, g.lat_p99_us: {min: 0.001}}
Y
"$bg" check "$t/tot2.yaml" >/dev/null 2>"$t/tot2.err" && ok "check: a group total's metrics are known" ||
	{ bad "check of a total's metrics"; cat "$t/tot2.err"; }
# a one-way group's total has no read.*: a reference to it is refused
sed 's/rw: randwrite, size: 1MiB/rw: read, size: 1MiB/' "$t/tot2.yaml" >"$t/tot1w.yaml"
refused tot1w "no read.* for a group that only reads" "step 'g' never writes a metric 'read.iops'"
sed -i 's/g.lat_p99_us/g.tps/' "$t/tot2.yaml"
refused tot2 "a metric no total has is refused" "step 'g' never writes a metric 'tps'"

# ---- a group total, run: recorded after its steps; skipped with its group ----
cat >"$t/totrun.yaml" <<Y
name: totrun
target: {kind: dir, path: $t/work}
matrix: {arm: [on, off]}
steps:
  - name: g
    when: !lua "arm == 'on'"
    parallel:
      group_reporting: true
      steps:
        - {name: r, io: {rw: randread, bs: 4k, size: 8MiB, runtime: 1s, time_based: true}}
        - {name: w, io: {rw: randwrite, bs: 4k, size: 8MiB, runtime: 1s, time_based: true}}
  - {name: after, exec: {command: "true"}}
expect:
  - {g.read.iops: {min: 1}, g.write.iops: {min: 1}}
Y
if "$bg" run "${W[@]}" -q -o "$t/ototal" "$t/totrun.yaml" >"$t/totrun.log" 2>&1; then
	python3 - "$t/ototal" <<'PY' && ok "a group total: after its steps, their sums (fio's runtime rule), skipped with its group; expect SKIPs" || bad "group total run"
import json, sys
d = json.load(open(sys.argv[1] + "/results.json"))
for c in d["cells"]:
    assert c["status"] == "ok", c
    names = [s["name"] for s in c["reps"][0]]
    assert names == ["r", "w", "g", "after"], names
    s = {x["name"]: x for x in c["reps"][0]}
    if c["params"]["arm"] == "off":
        assert s["g"].get("skipped"), s["g"]
        continue
    m = {k: v["value"] for k, v in s["g"]["metrics"].items()}
    r, w = ({k: v["value"] for k, v in s[n]["metrics"].items()} for n in "rw")
    assert abs(m["read.iops"] - r["iops"]) < 1e-6 * r["iops"], (m["read.iops"], r["iops"])
    secs = max(r["seconds"], w["seconds"])
    want = (r["iops"] * r["seconds"] + w["iops"] * w["seconds"]) / secs
    assert abs(m["iops"] - want) < 1e-6 * want, (m["iops"], want)
    assert m["bytes"] == r["bytes"] + w["bytes"]
    assert r["lat_min_us"] >= m["read.lat_min_us"] and m["read.lat_p99_us"] <= r["lat_max_us"] * 1.04
    assert s["g"]["info"]["group_total_of"] == "r, w"
    assert s["g"]["started"] > 0 and s["g"]["elapsed"] >= max(s["r"]["elapsed"], s["w"]["elapsed"]) - 1e-9
v = json.load(open(sys.argv[1] + "/expect.json"))
assert sorted(x["status"] for x in v) == ["PASS", "PASS", "SKIP", "SKIP"], v
PY
else
	bad "group total run (exit $?)"
	tail -20 "$t/totrun.log"
fi

# ---- SIGINT in a group ----
cat >"$t/long.yaml" <<Y
name: long
target: {kind: dir, path: $t/work}
steps:
  - name: grp
    parallel:
      steps:
        - {name: s, exec: {command: "sleep $mark"}}
        - {name: w, io: {engine: io_uring, rw: write, bs: 1MiB, size: 32MiB, runtime: 120s, time_based: true}}
  - {name: bgx, background: true, exec: {command: "sleep $mark"}}
  - {name: fg, exec: {command: "true"}}
Y
"$bg" run "${W[@]}" -q -o "$t/oi" "$t/long.yaml" 2>/dev/null &
pid=$!
sleep 2
kill -INT $pid
wait $pid
rc=$?
sleep 0.2
if [[ $rc -eq 130 ]] && ! alive; then ok "SIGINT in a group: exit 130, nothing left running"; else bad "SIGINT (rc $rc, alive: $(pgrep -f "sleep $mark"))"; fi

# ---- kill -9 in a group on a loop target, then cleanup ----
if [[ $(id -u) -ne 0 ]] || ! command -v losetup >/dev/null; then
	echo "skip kill -9 on a loop target: not root"
else
	sed -e "s|target: {kind: dir, path: $t/work}|target: {kind: loop, size: 128MiB, fs: ext4}|" "$t/long.yaml" >"$t/loop.yaml"
	"$bg" run "${W[@]}" -q -o "$t/ok9" "$t/loop.yaml" 2>/dev/null &
	pid=$!
	for _ in $(seq 100); do alive && break; sleep 0.1; done
	sleep 1
	kill -9 $pid
	wait $pid 2>/dev/null
	had=$(losetup -a | grep -c "$t/w")
	"$bg" cleanup "$BENCHGRID_STATE" >"$t/cleanup.out" 2>&1
	crc=$?
	sleep 0.2
	left=$(losetup -a | grep -c "$t/w")
	if [[ $crc -eq 0 && $had -ge 1 && $left -eq 0 ]] && ! alive && [[ -z $(ls -A "$t/w") ]]; then
		ok "kill -9 in a group, then cleanup: no loop device ($had before), no process, empty work dir"
	else
		bad "kill -9 + cleanup (rc $crc, loops $had -> $left, alive: $(pgrep -f "sleep $mark"), work: $(ls -A "$t/w"))"
		cat "$t/cleanup.out"
	fi
fi

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
