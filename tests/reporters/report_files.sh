#!/bin/bash
# report_files: the reporters on a crafted run, read back by standard
# parsers (Python csv, json, xml.etree, a Markdown table reader), plus
# compare on two runs, and `benchgrid report` / `compare` through the CLI.
set -euo pipefail
: "${BENCHGRID_BUILD:?}" "${BENCHGRID_SRC:?}"
DRV="$BENCHGRID_BUILD/report_driver"
D=$(mktemp -d /tmp/bg-report-XXXXXX)
trap 'rm -rf "$D"' EXIT
mkdir -p "$D/a" "$D/b" "$D/cli"

"$DRV" fixture "$D/a"
touch "$D/a/chart-6.svg" "$D/a/chart-7.svg" # left by an earlier report with more charts
"$DRV" report "$D/a"
if [ -e "$D/a/chart-6.svg" ] || [ -e "$D/a/chart-7.svg" ]; then echo "FAIL: stale charts kept" >&2; exit 1; fi
"$DRV" fixture "$D/b" 1.5
"$DRV" compare "$D/a" "$D/b" >"$D/compare.md"
python3 "$BENCHGRID_SRC/tests/reporters/report_check.py" "$D/a" "$D/compare.md"

# Cells only in one run are counted and listed.
mkdir -p "$D/c"
"$DRV" fixture "$D/c" 2 0
"$DRV" compare "$D/a" "$D/c" >"$D/compare2.md"
grep -q -- "- Cells: 3 shared, 1 only in A, 0 only in B" "$D/compare2.md"
grep -q "^## Only in A" "$D/compare2.md"
grep -q '^- 0 `a1b2c3d4e5f0` fs=ext4, fs_block=1KiB' "$D/compare2.md"
if grep -q "^## Only in B" "$D/compare2.md"; then echo "FAIL: nothing is only in B" >&2; exit 1; fi
grep -q "| 1 | a1b2c3d4e5f1 | .* | ro.tps (tps) | 2000 | 4000 | [0-9]*/[0-9]* | 2.000 |" "$D/compare2.md"

# Cells named by the parameters that vary (not the constant `note`): an
# absolute figure once, under Published vs measured; the pairs of a ratio.
grep -q '^| 1 | fs=ext4, fs_block=4KiB | ro.tps | 2000 | \[1800, 2200\] |' "$D/a/report.md"
if grep -q 'absolute: on this machine |' "$D/a/report.md"; then echo "FAIL: an absolute figure in Reproduction too" >&2; exit 1; fi
grep -q '^| 8 | 1 (fs=ext4, fs_block=4KiB) | 0 (fs=ext4, fs_block=1KiB) |' "$D/a/report.md"

# Rebuilding the reports from results.json gives the same bytes, and no
# temporary file is left behind.
for f in report.md report.html results.csv timeseries.csv chart-1.svg chart-5.svg; do cp "$D/a/$f" "$D/a/$f.first"; done
"$DRV" report "$D/a"
for f in report.md report.html results.csv timeseries.csv chart-1.svg chart-5.svg; do cmp "$D/a/$f" "$D/a/$f.first"; done
if ls "$D/a"/*.tmp 2>/dev/null; then echo "FAIL: temporary files left" >&2; exit 1; fi

# A strict expectation failed: the expect check says so.
if "$DRV" expect "$D/a" >"$D/expect.out"; then echo "FAIL: strict failure not reported" >&2; exit 1; fi
grep -q "strict failures: 1" "$D/expect.out"

# A corrupt results.json is refused with a position.
printf '{"format": "benchgrid-results", "version": 1,\n "cells": [,]}' >"$D/cli/results.json"
if "$DRV" report "$D/cli" 2>"$D/err"; then echo "FAIL: corrupt results.json accepted" >&2; exit 1; fi
grep -q "results.json:2:12: error: invalid JSON" "$D/err"

# The CLI: `benchgrid report DIR` writes the same files, `compare` the same table.
if [ -n "${BENCHGRID:-}" ] && [ -x "$BENCHGRID" ]; then
	cp "$D/a/results.json" "$D/cli/results.json"
	"$BENCHGRID" report "$D/cli"
	for f in report.md report.html results.csv timeseries.csv chart-3.svg; do cmp "$D/a/$f" "$D/cli/$f"; done
	"$BENCHGRID" compare --all "$D/a" "$D/b" >"$D/compare-cli.md"
	cmp "$D/compare.md" "$D/compare-cli.md"
fi
echo "report_files: ok"
