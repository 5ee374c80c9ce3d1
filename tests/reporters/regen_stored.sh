#!/bin/bash
# regen_stored: the reports of every example, rendered again by this build
# from results stored in regen_stored.tar.xz (each example's results.json
# from a real run, scripts/regen-reports --run then --store): `benchgrid
# report` on each, then regen_check.py (every chart of report.md and
# report.html has marks, every `report:` entry resolves, the headline table
# and the grouped step tables), and again without its `report:` block (the
# default pivots and charts). A change of the reporters that breaks an
# example's report fails here without running the example (issue 31). The
# browser check of the same pages is scripts/regen-reports --browser.
set -euo pipefail
: "${BENCHGRID:?}" "${BENCHGRID_SRC:?}"
t=$(mktemp -d /tmp/bg-regen-stored-XXXXXX)
trap 'rm -rf "$t"' EXIT
export BENCHGRID_STORE=$t/results.db # `report` reads earlier runs from the store: none
tar -xJf "$BENCHGRID_SRC/tests/reporters/regen_stored.tar.xz" -C "$t"
n=0
for ex in "$BENCHGRID_SRC"/examples/*.yaml; do
	name=$(basename "$ex" .yaml)
	[ -f "$t/$name/results.json" ] || {
		echo "FAIL: no stored results of examples/$name.yaml (scripts/regen-reports --run OUT $name; --store)"
		exit 1
	}
done
# each example also without its report: block: the default pivots and charts
for d in "$t"/*/; do
	[[ $d == */spec-*/ ]] && continue # (the specs' variants would double the time)
	mkdir "${d%/}.noreport"
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d.pop("report", None)
json.dump(d, open(sys.argv[2], "w"))' "$d/results.json" "${d%/}.noreport/results.json"
done
for d in "$t"/*/; do
	"$BENCHGRID" report "$d" >"$t/report.log" 2>&1 || {
		echo "FAIL: benchgrid report ${d%/}: $(tail -3 "$t/report.log")"
		exit 1
	}
	n=$((n + 1))
done
python3 "$BENCHGRID_SRC/tests/reporters/regen_check.py" "$t"/*/
echo "regen_stored: the reports of $n stored runs rendered and checked"
