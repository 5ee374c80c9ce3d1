#!/usr/bin/env bash
# The JSON Schema against real scenarios, with a standard validator
# (Debian's python3-jsonschema, draft 2020-12): every scenario of examples/
# and specs/ and every golden ok_ case is valid; every property's default
# is valid against its own subschema; of the golden bad cases, those listed as `catch` in
# schema_bad_cases.txt are rejected by it and those listed as `miss` (with
# why the schema cannot see the problem) are not; a bad case in neither list
# fails the test, so each new one is decided on.
set -u
bg=${BENCHGRID:?} src=${BENCHGRID_SRC:?}
py=/usr/bin/python3
if ! "$py" -c 'import jsonschema, yaml' 2>/dev/null; then
	echo "SKIP: needs python3-jsonschema and python3-yaml (scripts/setup installs them)"
	exit 77
fi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail=0
bad() {
	echo "FAIL $*"
	fail=1
}
"$bg" schema -o "$t/schema.json" || exit 1
shopt -s nullglob
good=("$src"/examples/*.yaml "$src"/specs/*.yaml "$src"/specs/*/*.yaml)
# and the golden scenarios the loader accepts (ok_zip_list: zip's list form)
golden_ok=("$src"/tests/golden/ok_*.yaml)
((${#good[@]} >= 5)) || bad "only ${#good[@]} scenarios found in examples/ and specs/"
while IFS= read -r line; do
	[[ $line == *": ok" ]] || bad "a good scenario is rejected by the schema: $line"
done < <("$py" "$src/tests/cli/schema_check.py" "$t/schema.json" "${good[@]}" "${golden_ok[@]}")
echo "ok: ${#good[@]} scenarios of examples/ and specs/ and ${#golden_ok[@]} golden ok_ ones checked"

# Every property's default is valid against its own subschema: editors
# insert it as it is ("a free one" for a port would be an error).
while IFS= read -r line; do
	case $line in
	"defaults: "*) echo "ok: $line" ;;
	*) bad "$line" ;;
	esac
done < <("$py" "$src/tests/cli/schema_check.py" --defaults "$t/schema.json")

declare -A want
while read -r verdict name _; do
	[[ -z $verdict || $verdict == \#* ]] && continue
	want[$name]=$verdict
done <"$src/tests/cli/schema_bad_cases.txt"
caught=0 missed=0
while IFS= read -r line; do
	file=${line%%: *}
	name=$(basename "$file" .yaml)
	case "${want[$name]:-}" in
	catch) [[ $line == *": invalid: "* ]] && caught=$((caught + 1)) ||
		bad "$name: the schema should reject it (listed as catch) but accepts it" ;;
	miss) [[ $line == *": ok" ]] && missed=$((missed + 1)) ||
		bad "$name: the schema rejects it now; move it to catch in schema_bad_cases.txt (${line#*: })" ;;
	*) bad "$name is in neither list of tests/cli/schema_bad_cases.txt (${line#*: })" ;;
	esac
done < <("$py" "$src/tests/cli/schema_check.py" "$t/schema.json" "$src"/tests/golden/bad_*.yaml)
echo "golden bad cases: $caught rejected by the schema, $missed it cannot see (listed with why)"
exit $fail
