#!/bin/bash
# browser_compare: compare.html (issue 31) in headless Chromium, through
# browser_compare.py (browser_cdp.py's DevTools client): a real run of a
# small io scenario (three cells, repeat 5) whose headline metrics (iops,
# lat_p99_us) are then set to fixed values with a small fixed wobble, and
# B, a copy with each cell's values scaled by fixed factors, so the
# verdicts (faster, slower, none) do not depend on the machine. Checked: no console message, error
# or failed request (on a broken page first, so the check can fail); every
# chart drawn with marks of non-zero size, the forest plot one per metric
# and sorted by effect; the table sorted by #sort= and by clicks on a
# header; a screenshot in the build folder (browser/compare.png, the
# picture of docs/reports.md). Skipped (77) without /usr/bin/chromium.
set -euo pipefail
: "${BENCHGRID:?}" "${BENCHGRID_BUILD:?}" "${BENCHGRID_SRC:?}"
CHROME=/usr/bin/chromium
PY=/usr/bin/python3
if [ ! -x "$CHROME" ]; then
	echo "SKIP: $CHROME is not installed (scripts/setup installs it)"
	exit 77
fi
t=$(mktemp -d /tmp/bg-browser-cmp-XXXXXX)
trap 'rm -rf "$t"' EXIT
export BENCHGRID_STATE=$t/state BENCHGRID_STORE=$t/results.db
mkdir -p "$t/w" "$t/b" "$BENCHGRID_BUILD/browser"
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
cat >"$t/broken.html" <<'H'
<!DOCTYPE html><html><body><img src="missing.png"><script>undefinedFunction();</script></body></html>
H
cat >"$t/s.yaml" <<'Y'
benchgrid: 1
name: compare page
repeat: 5
matrix:
  qd: [1, 8, 32]
target: {kind: dir}
steps:
  - name: w
    io: {rw: randwrite, bs: 4KiB, size: 1MiB, runtime: 0.1s, time_based: true, iodepth: "${qd}"}
Y
"$BENCHGRID" run -q --work-dir "$t/w" -o "$t/a" "$t/s.yaml" || fail "the run failed"
"$PY" - "$t/a/results.json" "$t/b/results.json" <<'PY' || fail "cannot make B"
import json, math, sys
base = {"iops": (9000, 30000, 52000), "lat_p99_us": (180, 420, 1300)}
factor = {"iops": (1.6, 0.8, 1.0), "lat_p99_us": (0.55, 1.3, 1.0)}
for side, out in ((0, sys.argv[1]), (1, sys.argv[2])):
    r = json.load(open(sys.argv[1]))
    for c, cell in enumerate(r["cells"]):
        for i, rep in enumerate(cell["reps"]):
            for step in rep:
                for name in base:
                    f = factor[name][c] if side else 1
                    step["metrics"][name]["value"] = base[name][c] * f * (1 + 0.04 * math.sin(3 * i + 1 + 2 * side))
        cell.pop("summary", None)
    json.dump(r, open(out, "w"))
PY
"$BENCHGRID" compare --html "$t/compare.html" "$t/a" "$t/b" >"$t/compare.md" || fail "compare failed"
n=$(grep -c '^| [0-9] | ' "$t/compare.md")
[ "$n" = 6 ] || fail "6 rows expected in the table: $(cat "$t/compare.md")"
shot="$BENCHGRID_BUILD/browser/compare.png"
rm -f "$shot"
timeout 90 "$PY" "$BENCHGRID_SRC/tests/browser/browser_compare.py" "$CHROME" "$t/profile" \
	"file://$t/broken.html" "file://$t/compare.html#sort=t-metrics:7:desc" "$n" "$shot"
[ -s "$shot" ] || fail "no screenshot"
echo "browser_compare: ok"
