# Shared parts of store.sh and store_pg.sh (sourced): checks, a tiny
# scenario, and a synthetic history built from a real run's results.json.
# Needs bg (the benchgrid binary) and t (a private temporary directory).

fail=0 pass=0
check() { # check NAME EXPECTED_STATUS PATTERN -- command...
	local name=$1 want=$2 pat=$3
	shift 4
	out=$("$@" 2>&1)
	rc=$?
	if [[ $rc -ne $want ]] || ! grep -qE -- "$pat" <<<"$out"; then
		echo "FAIL $name: status $rc (want $want, output matching '$pat'), output:"
		echo "$out" | head -30
		fail=$((fail + 1))
	else
		echo "ok   $name"
		pass=$((pass + 1))
	fi
}
same() { # same NAME GOT WANT
	if [[ "$2" == "$3" ]]; then
		echo "ok   $1"
		pass=$((pass + 1))
	else
		echo "FAIL $1: got '$2', want '$3'"
		fail=$((fail + 1))
	fi
}
finish() {
	echo "store: $pass passed, $fail failed"
	[[ $fail -eq 0 ]]
}

# A scenario of two cells, two repetitions, a step that takes no time.
printf 'name: store-tiny\nmatrix:\n  a: [1, 2]\nrepeat: 2\nsteps:\n  - name: s\n    exec: {command: "true"}\n' \
	>"$t/tiny.yaml"
printf 'name: store-fails\nsteps:\n  - name: s\n    exec: {command: "false"}\n' >"$t/fails.yaml"

# make_series TEMPLATE_DIR OUT_PREFIX VALUES...: one results.json per value
# (OUT_PREFIX0, 1, ...), a day apart, with step s's metric tps set to the
# value (+1 and -1 in the two repetitions); the last one ran on a new kernel.
make_series() {
	local template=$1 prefix=$2
	shift 2
	/usr/bin/python3 - "$template/results.json" "$prefix" "$@" <<'PY'
import copy, json, os, sys
src, prefix, values = sys.argv[1], sys.argv[2], [float(v) for v in sys.argv[3:]]
base = json.load(open(src))
for i, v in enumerate(values):
    r = copy.deepcopy(base)
    r["started"] = 1780000000.5 + i * 86400
    r["finished"] = r["started"] + 60
    if i == len(values) - 1:
        r["environment"]["info"]["machine.kernel"] = "9.9.9-synthetic"
    for c in r["cells"]:
        for k, rep in enumerate(c["reps"]):
            for st in rep:
                st["metrics"]["tps"] = {"value": v + (1 if k == 0 else -1), "unit": "tps"}
    os.makedirs(f"{prefix}{i}", exist_ok=True)
    with open(f"{prefix}{i}/results.json", "w") as f:
        json.dump(r, f)
PY
}

# svg_series FILE: "series points" of an SVG chart (the number of series
# groups, then the points of the first).
svg_series() {
	/usr/bin/python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
groups = [g for g in root.iter(ns + "g") if g.get("class") == "series"]
pts = len([c for c in groups[0].iter(ns + "circle")]) if groups else 0
print(len(groups), pts)
PY
}

# history_checks STORE: the synthetic series of 7 runs (a regression at the
# end) in STORE: imported once, flagged, charted, filtered.
history_checks() {
	local store=$1
	make_series "$t/run1" "$t/series" 100 102 98 101 99 100 60
	check series-store 0 'series6: recorded' -- "$bg" store --store "$store" "$t"/series{0,1,2,3,4,5,6}
	check series-again 0 'series0: already recorded' -- "$bg" store --store "$store" "$t/series0"
	check history-flag 0 'LOW: outside \[9[0-9.]+, 10[0-9.]+\] of the 5 runs before' -- \
		"$bg" history store-tiny --store "$store" --metric s.tps
	check history-facts 0 'machine.kernel: .* -> 9\.9\.9-synthetic' -- \
		"$bg" history store-tiny --store "$store" --metric s.tps
	# The runs before the regression are not flagged: only the last run's 2 cells.
	same history-flag-count "$(grep -c 'LOW' <<<"$out")" 4
	same history-slower "$(grep -c '^LOW (slower): run of .* s\.tps 60 tps' <<<"$out")" 2
	check history-default-metric 0 's\.tps' -- "$bg" history store-tiny --store "$store"
	check history-where 0 'a=1' -- "$bg" history store-tiny --store "$store" --metric s.tps --where a=1
	same history-where-only "$(grep -c 'a=2' <<<"$out")" 0
	check history-last 0 'run' -- "$bg" history store-tiny --store "$store" --metric s.tps --last 3 \
		--where a=1 --svg "$t/h.svg"
	same history-last-rows "$(grep -cE '^20[0-9]{2}-' <<<"$out")" 3
	same history-svg "$(svg_series "$t/h.svg")" "1 3"
	check history-unknown 2 "no stored run of scenario 'nope'" -- "$bg" history nope --store "$store"
	check history-bad-metric 2 'has s.nope' -- "$bg" history store-tiny --store "$store" --metric s.nope
	# what is stored, and the nearest name for a misspelt one (issue 27)
	check history-list 0 '^store-tiny +[0-9]+  20[0-9]{2}-' -- "$bg" history --list --store "$store"
	check history-list-metrics 0 '^s\.tps +tps$' -- "$bg" history store-tiny --list --store "$store"
	check history-metric-suggest 2 "has s\.tsp .*; did you mean 's\.tps'\?" -- \
		"$bg" history store-tiny --store "$store" --metric s.tsp
	check history-scenario-suggest 2 "did you mean the scenario 'store-tiny'\?" -- \
		"$bg" history store-tny --store "$store"
	# the dashboard from this store (SQLite or PostgreSQL: store_runs' queries)
	check history-html 0 'wrote .*hist-lib\.html \([0-9]+ charts, [1-9][0-9]* flagged' -- \
		"$bg" history --store "$store" --html "$t/hist-lib.html"
	check history-html-cells 0 '^a=1 +' -- "$bg" history store-tiny --list --store "$store"
}
