#!/usr/bin/env bash
# Golden test: run `benchgrid plan --format json` on NAME.yaml and compare
# with NAME.plan.json, or with NAME.err (stderr, exit status 2) for scenarios
# that must be refused. BENCHGRID_UPDATE_GOLDEN=1 rewrites the expected files.
set -u
bin=$1 spec=$2
dir=$(dirname "$spec") name=$(basename "$spec" .yaml)
cd "$dir" || exit 1
args=()
[[ -f $name.args ]] && read -r -a args <"$name.args"
# Exactly one expectation: a stale NAME.plan.json beside NAME.err is never read.
if [[ -f $name.err && -f $name.plan.json ]]; then
	echo "golden $name: both $name.err and $name.plan.json exist; remove the stale one"
	exit 1
fi
out=$("$bin" plan --format json "${args[@]}" "$name.yaml" 2>"/tmp/golden.$$.err")
rc=$?
err=$(cat "/tmp/golden.$$.err")
rm -f "/tmp/golden.$$.err"
if [[ -f $name.err || ( ${BENCHGRID_UPDATE_GOLDEN:-} && $rc -ne 0 ) ]]; then
	if [[ ${BENCHGRID_UPDATE_GOLDEN:-} ]]; then printf '%s\n' "$err" >"$name.err"; exit 0; fi
	if [[ $rc -ne 2 ]]; then echo "expected exit status 2, got $rc"; echo "$err"; exit 1; fi
	diff -u "$name.err" <(printf '%s\n' "$err") || exit 1
else
	if [[ ${BENCHGRID_UPDATE_GOLDEN:-} ]]; then printf '%s\n' "$out" >"$name.plan.json"; exit 0; fi
	if [[ $rc -ne 0 ]]; then echo "expected success, got $rc:"; echo "$err"; exit 1; fi
	diff -u "$name.plan.json" <(printf '%s\n' "$out") || exit 1
fi
echo "golden $name: ok"
