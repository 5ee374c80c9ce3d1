#!/bin/bash
# report_hosts: report.md and `compare` on real results whose cells ran on
# different hosts. A second host is simulated: two runs of a tiny dir-target
# exec scenario on this machine, whose cell fact `host` is then rewritten
# (python) before `benchgrid report` / `compare` read them back. A real
# multi-host run is the Slurm test's, on one node.
set -euo pipefail
: "${BENCHGRID:?}"
t=$(mktemp -d /tmp/bg-hosts-XXXXXX)
trap 'rm -rf "$t"' EXIT
export BENCHGRID_STATE=$t/state
mkdir -p "$t/w"
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$t/s.yaml" <<'Y'
name: hosts
matrix:
  fs: [ext4, xfs]
  bs: [1, 4]
report:
  pivot:
    - {rows: fs, cols: bs, value: probe.bytes}
  charts:
    - {x: bs, y: probe.bytes, series: fs}
hooks: |
  function bytes(text, result) result:metric("bytes", tonumber(text:match("bytes (%d+)"))) end
steps:
  - name: probe
    exec: {command: "echo 'bytes ${bs}0'", parse: bytes}
Y
# machine is the axis: its values are the hosts' names
cat >"$t/m.yaml" <<'Y'
name: machines
matrix:
  machine: [n1, n2]
report:
  pivot:
    - {rows: machine, value: probe.bytes}
hooks: |
  function bytes(text, result) result:metric("bytes", tonumber(text:match("bytes (%d+)"))) end
steps:
  - name: probe
    exec: {command: "echo 'bytes 10'", parse: bytes}
Y
for x in a b; do "$BENCHGRID" run --work-dir "$t/w" -q -o "$t/$x" "$t/s.yaml"; done
"$BENCHGRID" run --work-dir "$t/w" -q -o "$t/m" "$t/m.yaml"

# set_hosts DIR H0,H1,...: cell i (in results.json order) ran on Hi
set_hosts() {
	python3 - "$1/results.json" "$2" <<'PY'
import json, sys
path, hosts = sys.argv[1], sys.argv[2].split(",")
r = json.load(open(path))
assert len(r["cells"]) == len(hosts), (len(r["cells"]), hosts)
for c, h in zip(r["cells"], hosts):
    c["facts"]["info"]["host"] = h
json.dump(r, open(path, "w"), indent=1)
PY
	"$BENCHGRID" report "$1" >/dev/null
}

# One host: nothing about hosts but the Cell facts row.
set_hosts "$t/a" h1,h1,h1,h1
if grep -q -e "- Hosts:" -e "ran on [0-9]* hosts" "$t/a/report.md"; then fail "one host warns"; fi
grep -q "^| host | h1 |$" "$t/a/report.md" || fail "host not among the cell facts"

# Two hosts: the run's line, the pivot's and the chart's warnings.
set_hosts "$t/b" h1,h1,h2,h2
grep -q "^- Hosts: h1 (2 cells), h2 (2 cells); " "$t/b/report.md" || fail "no Hosts line"
grep -q "^\*\*Warning:\*\* cells of this table ran on 2 hosts: h1 (2 cells), h2 (2 cells); differences between them may be the hardware's.$" \
	"$t/b/report.md" || fail "no pivot warning"
grep -q "^\*\*Warning:\*\* cells of this chart ran on 2 hosts" "$t/b/report.md" || fail "no chart warning"

# The host as the axis (machine = host name): the run's line, no warning.
set_hosts "$t/m" n1,n2.cluster
grep -q "^- Hosts: n1 (1 cell), n2.cluster (1 cell); " "$t/m/report.md" || fail "no Hosts line (axis)"
if grep -q "ran on 2 hosts" "$t/m/report.md"; then fail "host axis warns"; fi

# compare: some shared cells on different hosts are flagged and counted.
"$BENCHGRID" compare "$t/a" "$t/b" >"$t/cmp.md"
grep -q -- "^- \*\*Warning:\*\* 2 of 4 shared cells ran on a different host in B than in A" "$t/cmp.md" ||
	fail "compare: no warning"
grep -q -- "^- Hosts of B: h1 (2 cells), h2 (2 cells)" "$t/cmp.md" || fail "compare: no note on B"
[ "$(grep -c "(A on h1, B on h2) |" "$t/cmp.md")" -ge 2 ] || fail "compare: cells not flagged"
grep -q "(A on h1, B on h1)" "$t/cmp.md" && fail "compare: same host flagged"

# compare: all of A on one host, all of B on another: one line.
set_hosts "$t/b" h2,h2,h2,h2
"$BENCHGRID" compare "$t/a" "$t/b" >"$t/cmp.md"
grep -q -- "^- Hosts: every cell of A ran on h1, every cell of B on h2: this compares two machines" "$t/cmp.md" ||
	fail "compare: no two-machines line"
if grep -q -e "(A on" -e "Warning" "$t/cmp.md"; then fail "compare: two machines flagged per cell"; fi

# compare on one host: nothing about hosts.
set_hosts "$t/b" h1,h1,h1,h1
"$BENCHGRID" compare "$t/a" "$t/b" >"$t/cmp.md"
if grep -q -e "Hosts" -e "(A on" -e "Warning" "$t/cmp.md"; then fail "compare on one host mentions hosts"; fi
echo "report_hosts: ok"
