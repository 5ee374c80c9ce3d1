#!/usr/bin/env bash
# --version and results.json's "build": the version, the git commit of the
# sources (with -dirty), the build type and the compiler. cmake/version.cmake
# is run on throw-away git repositories: a commit gives its hash, a changed
# tracked file "-dirty", a new commit the new hash, an unchanged tree leaves
# the file untouched (nothing relinks), and a tree without git "unknown" or
# the COMMIT file of a source tarball.
set -u
bg=${BENCHGRID:?} src=${BENCHGRID_SRC:?} build=${BENCHGRID_BUILD:?}
fail=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
bad() {
	echo "FAIL $*"
	fail=$((fail + 1))
}
gen() { # gen SRC OUT: run the generator as the build does; print the commit
	cmake -DSRC="$1" -DOUT="$2" -DVERSION=9.8.7 -DBUILD_TYPE=Debug "-DCOMPILER=GNU 1.2" \
		-P "$src/cmake/version.cmake" || bad "version.cmake failed on $1"
	sed -n 's/.*{"9.8.7", "\([^"]*\)", "Debug", "GNU 1.2"}.*/\1/p' "$2"
}

# The binary under test.
out=$("$bg" --version)
grep -qE '^benchgrid [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)$' <<<"$(head -1 <<<"$out")" ||
	bad "--version first line: $out"
grep -qE '^built [A-Za-z]+ with [A-Za-z]+ [0-9]' <<<"$(sed -n 2p <<<"$out")" || bad "--version second line: $out"
if git -C "$src" rev-parse HEAD >/dev/null 2>&1 && [[ $(git -C "$src" rev-parse --show-toplevel) -ef $src ]]; then
	want=$(git -C "$src" rev-parse --short=12 HEAD)
	grep -q "(commit $want" <<<"$out" || bad "--version does not name HEAD $want: $out"
fi
grep -q "built $(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt") " <<<"$out" ||
	bad "--version does not name the build type of $build: $out"

# results.json records the same facts.
cat >"$t/s.yaml" <<'Y'
name: v
steps:
  - name: s
    exec: {command: "true"}
Y
"$bg" run -q -o "$t/out" "$t/s.yaml" >/dev/null 2>&1 || bad "run failed"
python3 - "$t/out/results.json" "$out" <<'PY' || bad "results.json build object"
import json, sys
b = json.load(open(sys.argv[1]))["build"]
line1, line2 = sys.argv[2].split("\n")[:2]
want1 = "benchgrid %s (commit %s)" % (b["version"], b["commit"])
want2 = "built %s with %s" % (b["type"], b["compiler"])
assert (line1, line2) == (want1, want2), (b, line1, line2)
PY

# The generator on a git repository of its own.
command -v git >/dev/null || {
	echo "SKIP: no git for the generator's cases"
	exit $((fail > 0))
}
r=$t/repo
mkdir "$r"
git -C "$r" init -q
git -C "$r" -c user.name=t -c user.email=t@t commit -q --allow-empty -m one
echo a >"$r/f"
git -C "$r" add f
git -C "$r" -c user.name=t -c user.email=t@t commit -q -m two
h=$(git -C "$r" rev-parse --short=12 HEAD)
[[ $(gen "$r" "$t/b.c") == "$h" ]] || bad "clean repo: $(cat "$t/b.c")"
touch -d '2000-01-01' "$t/b.c"
gen "$r" "$t/b.c" >/dev/null
[[ $(stat -c %Y "$t/b.c") == $(date -d 2000-01-01 +%s) ]] || bad "unchanged tree: the file was rewritten"
echo scratch >"$r/untracked"
[[ $(gen "$r" "$t/b.c") == "$h" ]] || bad "an untracked file made it dirty: $(cat "$t/b.c")"
echo b >"$r/f"
[[ $(gen "$r" "$t/b.c") == "$h-dirty" ]] || bad "changed file: $(cat "$t/b.c")"
git -C "$r" -c user.name=t -c user.email=t@t commit -q -am three
h3=$(git -C "$r" rev-parse --short=12 HEAD)
[[ $h3 != "$h" && $(gen "$r" "$t/b.c") == "$h3" ]] || bad "new commit: $(cat "$t/b.c")"
# A source tarball: no .git (inside another repository, whose commit is not its).
mkdir "$r/tarball"
[[ $(gen "$r/tarball" "$t/c.c") == unknown ]] || bad "no git: $(cat "$t/c.c")"
echo 0123456789ab >"$r/tarball/COMMIT"
[[ $(gen "$r/tarball" "$t/c.c") == 0123456789ab ]] || bad "COMMIT file: $(cat "$t/c.c")"
mkdir "$t/plain"
[[ $(gen "$t/plain" "$t/d.c") == unknown ]] || bad "no git at all: $(cat "$t/d.c")"
# The generated file compiles and gives what it says.
printf '#include <stdio.h>\n#include "build_info.h"\nint main(void) { const struct build_info *b = build_info();\n printf("%%s %%s %%s %%s\\n", b->version, b->commit, b->type, b->compiler); return 0; }\n' >"$t/m.c"
if cc -I"$src/engine/model" -o "$t/m" "$t/m.c" "$t/b.c" 2>"$t/cc.err"; then
	[[ $("$t/m") == "9.8.7 $h3 Debug GNU 1.2" ]] || bad "compiled build_info: $("$t/m")"
else
	bad "generated file does not compile: $(head -3 "$t/cc.err")"
fi

((fail == 0)) && echo "version: all checks passed"
exit $((fail > 0))
