#!/usr/bin/env bash
# docs/benchgrid.schema.json and docs/options.md are what the binary just
# built writes (the build regenerates them into build/generated/): a change
# to an option table without refreshing the checked-in copies fails here.
set -u
bg=${BENCHGRID:?} src=${BENCHGRID_SRC:?} build=${BENCHGRID_BUILD:?}
fail=0
check() { # generated checked-in refresh-command
	local gen=$1 doc=$2 cmd=$3
	if [[ ! -f $gen ]]; then
		echo "FAIL $gen is missing (the build writes it: cmake --build build --target schema)"
		fail=1
	elif ! diff -u "$doc" "$gen"; then
		echo "FAIL $doc is stale; refresh it with:"
		echo "  $cmd"
		fail=1
	fi
}
# The files the build wrote must be the binary's output (not an old build's).
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
"$bg" schema -o "$t/s.json" && "$bg" schema --markdown -o "$t/o.md" || {
	echo "FAIL benchgrid schema failed"
	exit 1
}
cmp -s "$t/s.json" "$build/generated/benchgrid.schema.json" || echo "note: build/generated is older than the binary"
check "$t/s.json" "$src/docs/benchgrid.schema.json" "build/benchgrid schema -o docs/benchgrid.schema.json"
check "$t/o.md" "$src/docs/options.md" "build/benchgrid schema --markdown -o docs/options.md"
/usr/bin/python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$t/s.json" || {
	echo "FAIL the schema is not valid JSON"
	fail=1
}
[[ $fail == 0 ]] && echo "ok: docs/benchgrid.schema.json and docs/options.md are fresh"
exit $fail
