#!/usr/bin/env bash
# The man pages and `benchgrid help`: both pages render with groff and man
# without a single warning; every help topic prints the text scripts/md2man
# makes of its docs/ file (so docs, help and man cannot drift); benchgrid(1)
# has every command and every option of the commands' --help texts, and
# benchgrid-scenario(5) every heading of the topics.
set -u
bg=${BENCHGRID:?} src=${BENCHGRID_SRC:?} build=${BENCHGRID_BUILD:?}
fail=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
bad() {
	echo "FAIL $*"
	fail=$((fail + 1))
}
command -v groff >/dev/null || {
	echo "SKIP: groff is not installed (scripts/setup installs groff-base)"
	exit 77
}
page1=$build/man/benchgrid.1 page5=$build/man/benchgrid-scenario.5
for p in "$page1" "$page5"; do
	[[ -s $p ]] || {
		bad "$p was not built"
		continue
	}
	# -ww: every warning; -z: no output, only the diagnostics.
	w=$(groff -man -Tutf8 -ww -z "$p" 2>&1)
	[[ -z $w ]] || bad "groff warns on $(basename "$p"): $(head -5 <<<"$w")"
	if command -v man >/dev/null; then
		w=$(MANWIDTH=80 man -l "$p" 2>&1 >"$t/$(basename "$p").txt")
		[[ -z $w ]] || bad "man -l warns on $(basename "$p"): $(head -5 <<<"$w")"
	else
		groff -man -Tutf8 "$p" | col -b >"$t/$(basename "$p").txt"
	fi
done
txt1=$t/benchgrid.1.txt txt5=$t/benchgrid-scenario.5.txt
sed -i 's/\xe2\x80\x90/-/g' "$txt1" "$txt5" 2>/dev/null || true # hyphenation marks, if any

# Every help topic is md2man's plain text of its file, byte for byte.
mapfile -t topics < <("$bg" help --list | awk '{ print $1 }')
((${#topics[@]} >= 9)) || bad "help --list: ${#topics[@]} topics"
declare -A file=([scenario]=docs/scenario.md [target]=docs/sections/target.md
	[postgres]=docs/sections/postgres.md [io]=docs/steps/io.md [pgbench]=docs/steps/pgbench.md
	[exec]=docs/steps/exec.md [monitor]=docs/sections/monitor.md [lua]=docs/sections/lua.md
	[results]=docs/results.md)
file[statistics]=docs/statistics.md
file[reports]=docs/reports.md # report.html, numbers, charts
file+=([options]=docs/options.md [editors]=docs/editors.md)
file[tutorial]=docs/tutorial.md
file[security]=docs/security.md
for topic in "${topics[@]}"; do
	[[ $topic == commands ]] && continue
	[[ -n ${file[$topic]:-} ]] || {
		bad "help topic $topic: no file known to this test"
		continue
	}
	"$bg" help "$topic" >"$t/help.txt" || bad "help $topic: exit $?"
	python3 "$src/scripts/md2man" text "$src/${file[$topic]}" >"$t/md.txt"
	cmp -s "$t/help.txt" "$t/md.txt" || bad "help $topic differs from md2man text ${file[$topic]}: $(diff "$t/help.txt" "$t/md.txt" | head -5)"
	# Each heading of the file is a heading of benchgrid-scenario(5).
	while IFS= read -r h; do
		h=$(sed -E 's/`//g; s/\*\*//g; s/\[([^]]*)\]\([^)]*\)/\1/g' <<<"$h")
		grep -qiF -- "$h" "$txt5" || bad "benchgrid-scenario(5) lacks the heading '$h' of ${file[$topic]}"
	done < <(sed -n 's/^##* //p' "$src/${file[$topic]}" | grep -v '^ *$')
done
"$bg" help nosuchtopic >/dev/null 2>&1 && bad "help nosuchtopic: exit 0"
"$bg" help scenario | grep -q '^TOP-LEVEL KEYS$' || bad "help scenario: no TOP-LEVEL KEYS heading"

# benchgrid(1): every command, and every option of every command's --help.
"$bg" help commands >"$t/commands.txt" || bad "help commands: exit $?"
grep -q '^usage: benchgrid \[--help\]' "$t/commands.txt" || bad "help commands: no program usage"
mapfile -t cmds < <("$bg" --help | awk '/^commands:/ { c = 1; next } c && /^  [a-z]/ { print $1 }')
((${#cmds[@]} >= 9)) || bad "--help lists ${#cmds[@]} commands"
for c in "${cmds[@]}"; do
	grep -q "^usage: benchgrid $c" "$t/commands.txt" || bad "help commands lacks $c"
	grep -qE "^ +$c\$" "$txt1" || bad "benchgrid(1) has no section for $c"
	for o in $("$bg" "$c" --help | sed -n 's/^  \(-[^ ].*\)/\1/p' | sed 's/  .*//' | grep -oE -- '--?[A-Za-z][A-Za-z0-9-]*'); do
		grep -qF -- "$o" "$txt1" || bad "benchgrid(1) lacks $c's option $o"
	done
done
grep -q 'benchgrid-scenario(5)' "$txt1" || bad "benchgrid(1) does not refer to benchgrid-scenario(5)"
grep -q 'What benchgrid is\|A declarative benchmark-scenario interpreter' "$txt1" ||
	bad "benchgrid(1) lacks README's description"

# A page made now from the sources is the one the build made: they cannot drift.
python3 "$src/scripts/md2man" page1 --bin "$bg" --readme "$src/README.md" \
	--version "$("$bg" --version | awk 'NR == 1 { print $2 }')" \
	-o "$t/fresh.1" || bad "md2man page1 failed"
cmp -s "$t/fresh.1" "$page1" || bad "benchgrid(1) in the build differs from md2man's page made now (rebuild)"

((fail == 0)) && echo "man: all checks passed"
exit $((fail > 0))
