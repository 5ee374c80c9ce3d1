#!/usr/bin/env bash
# `benchgrid schema -o FILE` writes a temporary file in FILE's directory and
# renames it over FILE: a symlink at FILE is refused with a clear error and
# its target is left as it was (nothing follows a link it did not create),
# a plain FILE is replaced whole (a new inode), and no temporary is left.
set -u
bg=${BENCHGRID:?}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail=0
bad() {
	echo "FAIL $*"
	fail=1
}
mkdir "$t/out" "$t/elsewhere"
echo "precious" >"$t/elsewhere/target"
ln -s "$t/elsewhere/target" "$t/out/schema.json"
ln -s "$t/elsewhere/nothing" "$t/out/dangling.json"
for link in schema.json dangling.json; do
	for args in "" "--markdown"; do
		# shellcheck disable=SC2086
		if "$bg" schema $args -o "$t/out/$link" 2>"$t/err"; then
			bad "schema $args -o a symlink ($link) succeeded"
		fi
		grep -q "is a symbolic link" "$t/err" || bad "no clear error for a symlink: $(cat "$t/err")"
		[[ -L $t/out/$link ]] || bad "the symlink $link was replaced"
	done
done
[[ $(cat "$t/elsewhere/target") == precious ]] || bad "the symlink's target was written through"
[[ ! -e $t/elsewhere/nothing ]] || bad "the dangling link's target was created"

echo "old" >"$t/out/plain.json"
before=$(stat -c %i "$t/out/plain.json")
"$bg" schema -o "$t/out/plain.json" || bad "schema -o a plain file failed"
/usr/bin/python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$t/out/plain.json" ||
	bad "the written schema is not JSON"
[[ $(stat -c %i "$t/out/plain.json") != "$before" ]] || bad "the file was rewritten in place, not renamed over"
"$bg" schema --markdown -o "$t/out/options.md" || bad "schema --markdown -o failed"
grep -q "^# Option reference" "$t/out/options.md" || bad "options.md lacks its heading"
"$bg" schema -o "$t/missing/x.json" 2>"$t/err" && bad "schema -o into a missing directory succeeded"
grep -q "cannot write" "$t/err" || bad "no clear error for a missing directory: $(cat "$t/err")"

left=$(find "$t/out" -name '*.tmp')
[[ -z $left ]] || bad "temporary files left: $left"
[[ $fail == 0 ]] && echo "ok: schema -o refuses symlinks and replaces files whole"
exit $fail
