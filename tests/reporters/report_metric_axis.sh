#!/bin/bash
# report_metric_axis: a pivot and a chart whose axis comes from metric names
# ({NAME} in value/y), as a dd sweep inside one step records them
# (mb_s_4k, mb_s_64k, ...): rows and categories in numeric order, values
# from the right metric of each cell, published figures beside them.
set -euo pipefail
: "${BENCHGRID_BUILD:?}" "${BENCHGRID:?}"
D=$(mktemp -d /tmp/bg-report-axis-XXXXXX)
trap 'rm -rf "$D"' EXIT
mkdir -p "$D/fixture" "$D/run"
"$BENCHGRID_BUILD/report_driver" fixture "$D/fixture"
python3 - "$D/fixture/results.json" "$D/run/results.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
sizes = [64, 4, 1024, 16]          # recorded out of order on purpose
for ci, cell in enumerate(run["cells"]):
    for rep in cell["reps"]:
        for step in rep:
            if step["name"] == "seqwrite":
                for kib in sizes:
                    step["metrics"]["mb_s_%dk" % kib] = {"value": 100 * ci + kib, "unit": "MB/s"}
    cell.pop("summary", None)
run["report"] = {
    "pivot": [{"rows": "bs", "cols": "fs", "value": "seqwrite.mb_s_{bs}k", "where": {"fs_block": "1KiB"}}],
    "charts": [{"x": "bs", "y": "seqwrite.mb_s_{bs}k", "series": "fs", "where": {"fs_block": "1KiB"}}],
}
run["expect"] = [{"where": {"fs": "ext4", "fs_block": "1KiB"}, "seqwrite.mb_s_64k": [70, -50, 50]}]
json.dump(run, open(sys.argv[2], "w"))
PY
"$BENCHGRID" report "$D/run" >/dev/null
python3 - "$D/run" <<'PY'
import sys, xml.etree.ElementTree as ET
d = sys.argv[1]
md = open(d + "/report.md").read()
table = md.split("### seqwrite.mb_s_{bs}k (MB/s)", 1)[1].strip().split("\n\n", 1)[0].splitlines()
rows = [[c.strip() for c in l.strip().strip("|").split(" | ")] for l in table]
assert rows[0] == ["bs \\ fs", "ext4", "ext4 published", "xfs"], rows[0]
assert [r[0] for r in rows[2:]] == ["4", "16", "64", "1024"], rows
# cell 0 = ext4 1KiB (ci 0), cell 2 = xfs 1KiB (ci 2): value 100*ci + kib
assert rows[4] == ["64", "64 ± 0", "70", "264 ± 0"], rows[4]
assert rows[2] == ["4", "4 ± 0", "-", "204 ± 0"], rows[2]
svg = ET.parse(d + "/chart-1.svg").getroot()
ns = {"s": "http://www.w3.org/2000/svg"}
texts = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
for want in ["4", "16", "64", "1024", "seqwrite.mb_s_{bs}k by bs and fs"]:
    assert want in texts, (want, texts)
assert svg.find(".//s:g[@class='published']", ns) is not None, "no published mark"
print("metric axis ok:", [r[0] for r in rows[2:]])
PY
