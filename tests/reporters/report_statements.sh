#!/bin/bash
# report_statements: report.md's per-statement table. A crafted run whose
# pgbench step recorded statement latencies (stmtK_ms) and texts (stmtK),
# as `report_statements: true` does, is reported by `benchgrid report`; the
# table must pair every latency with its SQL text, per cell.
set -euo pipefail
: "${BENCHGRID_BUILD:?}" "${BENCHGRID_SRC:?}" "${BENCHGRID:?}"
D=$(mktemp -d /tmp/bg-report-stmts-XXXXXX)
trap 'rm -rf "$D"' EXIT
mkdir -p "$D/fixture" "$D/run"
"$BENCHGRID_BUILD/report_driver" fixture "$D/fixture"
python3 - "$D/fixture/results.json" "$D/run/results.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
texts = ["BEGIN;", "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;", "END;"]
for ci, cell in enumerate(run["cells"]):
    for rep in cell["reps"]:
        for step in rep:
            if step["name"] != "ro" or step["failed"]:
                continue
            for k, t in enumerate(texts, 1):
                step["metrics"]["stmt%d_ms" % k] = {"value": ci * 10 + k, "unit": "ms"}
                step["info"]["stmt%d" % k] = t
            step["metrics"]["disk.wal.util_pct"] = {"value": 50, "unit": "%"}
    cell.pop("summary", None)  # recomputed from the repetitions
json.dump(run, open(sys.argv[2], "w"))
PY
"$BENCHGRID" report "$D/run" >/dev/null
head -1 "$D/run/results.csv" | grep -q ",stmt2_ms," # still in the CSV
head -1 "$D/run/results.csv" | grep -q ",disk.wal.util_pct,"
python3 - "$D/run/report.md" <<'PY'
import sys
md = open(sys.argv[1]).read()
head = "## Per-statement latencies: ro (ms, mean over the run; pgbench -r)"
assert head in md, "no per-statement section:\n" + md
table = md.split(head, 1)[1].strip().split("\n\n", 1)[0].splitlines()
rows = [[c.strip() for c in l.strip().strip("|").split(" | ")] for l in table]
assert rows[0][:2] == ["#", "statement"], rows[0]
assert rows[0][2].startswith("fs=ext4, fs_block=1KiB"), rows[0]
assert len(rows) == 2 + 3, rows
assert rows[3][1] == "`UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;`", rows[3]
# cell 0 (ext4, 1KiB): stmt2 = 2 ms; cell 1 (ext4, 4KiB): 12 ms
assert rows[3][2] == "2 ± 0", rows[3]
assert rows[3][3] == "12 ± 0", rows[3]
# The Steps table leaves those columns to their sections and says so.
steps = md.split("### Step `ro` (pgbench)", 1)[1].split("\n\n", 2)
assert "| tps (tps) |" in steps[1] and "stmt2_ms" not in steps[1] and "disk.wal" not in steps[1], steps[1]
assert steps[2].startswith("Not in this table: the other devices' disk columns"), steps[2][:200]
print("per-statement table ok:", len(rows) - 2, "statements x", len(rows[0]) - 2, "cells")
PY
