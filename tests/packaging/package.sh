#!/usr/bin/env bash
# The install tree and the Debian package, for real:
# - the build under test (its binary, man pages and compressed files; this
#   test compiles nothing and writes only under its temporary folder);
# - `cmake --install --prefix P` puts every file in its GNUInstallDirs place,
#   and the installed binary runs an installed example from another folder
#   with the source tree hidden (an empty tmpfs mounted over it in a private
#   mount namespace): nothing at run time reads the sources;
# - `cpack -G DEB` makes the .deb: Depends name the package of every library
#   the binary links (ldd), Recommends the programs scenarios start, the
#   changelog and copyright are in /usr/share/doc/benchgrid;
# - `dpkg -i` installs it (its dependencies come from scripts/setup), then
#   `benchgrid --version`, `man -w benchgrid`, the bash completion and
#   `benchgrid run` of the installed example from /tmp; `dpkg -r` removes it
#   in a trap, whatever failed.
# Root; skipped (77) where it cannot run or where a benchgrid is installed
# already (it is not ours to replace).
set -u
src=${BENCHGRID_SRC:?} build=${BENCHGRID_BUILD:?}
fail=0
bad() {
	echo "FAIL $*"
	fail=$((fail + 1))
}
skip() {
	echo "SKIP: $*"
	exit 77
}
[[ $(id -u) == 0 ]] || skip "needs root (dpkg -i)"
for p in dpkg dpkg-deb dpkg-shlibdeps dpkg-parsechangelog cpack man unshare; do
	command -v "$p" >/dev/null || skip "$p is missing (scripts/setup installs dpkg-dev and man-db)"
done
# dpkg's own lock refuses a second dpkg; this one makes a second run of this
# test (another build folder) wait instead of failing.
exec 9>/tmp/benchgrid-package-test.lock
flock -w 200 9 || skip "another package test holds /tmp/benchgrid-package-test.lock"
if dpkg-query -W -f='${Status}' benchgrid 2>/dev/null | grep -q 'ok installed' || [[ -e /usr/bin/benchgrid ]]; then
	skip "a benchgrid is installed on this machine already; not replacing it"
fi

t=$(mktemp -d /tmp/benchgrid-package.XXXXXX)
installed=
cleanup() {
	if [[ -n $installed ]]; then
		dpkg -r benchgrid >"$t/remove.log" 2>&1 || {
			echo "FAIL dpkg -r benchgrid:"
			cat "$t/remove.log"
		}
		installed=
	fi
	rm -rf "$t"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# 1. The build under test: its binary, man pages and compressed files (all
# built by `cmake --build`); nothing here compiles. Installing and packing
# read it and write only under $t.
pb=$build
for f in benchgrid benchgrid-latdev man/benchgrid.1 CPackConfig.cmake; do
	[[ -e $pb/$f ]] || { echo "FAIL: the build has no $f (build it first)"; exit 1; }
done

# 2. cmake --install --prefix, and a run with the sources hidden.
P=$t/prefix
cmake --install "$pb" --prefix "$P" >"$t/install.log" 2>&1 || { cat "$t/install.log"; exit 1; }
doc=$P/share/doc/benchgrid
for f in bin/benchgrid share/man/man1/benchgrid.1.gz share/man/man5/benchgrid-scenario.5.gz \
	share/bash-completion/completions/benchgrid share/zsh/vendor-completions/_benchgrid \
	share/doc/benchgrid/README.md share/doc/benchgrid/copyright share/doc/benchgrid/changelog.Debian.gz \
	share/doc/benchgrid/docs/scenario.md share/doc/benchgrid/docs/steps/io.md \
	share/doc/benchgrid/examples/quickstart.yaml share/doc/benchgrid/examples/io-blocksize.yaml; do
	[[ -s $P/$f ]] || bad "cmake --install: no $f"
done
[[ -x $P/bin/benchgrid ]] || bad "the installed binary is not executable"
# No path of the source or build tree among the binary's constants (its
# debug information may name the sources; nothing reads them at run time).
objcopy -O binary --only-section=.rodata "$P/bin/benchgrid" "$t/rodata" 2>/dev/null &&
	grep -qaF -e "$src/" -e "$build/" "$t/rodata" && bad "the binary's constants name $src or $build"
zcat "$P/share/man/man1/benchgrid.1.gz" | cmp -s - "$pb/man/benchgrid.1" || bad "installed benchgrid.1.gz is not the built page"
hidden_run() { # hidden_run BIN EXAMPLE OUTDIR: run from $t/cwd with $src (and $build) hidden
	mkdir -p "$t/cwd"
	unshare -m bash -c '
		set -e
		mount --make-rprivate /
		mount -t tmpfs -o size=1m,mode=000 hidden "$1"
		if [[ -d $2 ]]; then mount -t tmpfs -o size=1m,mode=000 hidden "$2"; fi
		test ! -e "$1/README.md"
		cd "$3"
		exec "$4" run "$5" -o "$6" -q' hide "$src" "$build" "$t/cwd" "$1" "$2" "$3"
}
if hidden_run "$P/bin/benchgrid" "$doc/examples/io-blocksize.yaml" "$t/cwd/out-prefix" >"$t/run1.log" 2>&1; then
	python3 - "$t/cwd/out-prefix/results.json" <<'PY' || bad "the run from the install prefix: results.json"
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["cells"]) == 2 and all(c["status"] == "ok" for c in r["cells"]), r["cells"]
assert r["build"]["commit"] and r["build"]["version"], r["build"]
PY
else
	bad "run of the installed example with the sources hidden: $(tail -5 "$t/run1.log")"
fi

# 3. The .deb.
(cd "$t" && cpack -G DEB --config "$pb/CPackConfig.cmake" -B "$t/deb") >"$t/cpack.log" 2>&1 || { cat "$t/cpack.log"; exit 1; }
deb=$(ls -t "$t"/deb/benchgrid_*.deb 2>/dev/null | head -1)
[[ -f $deb ]] || { bad "cpack made no .deb: $(tail -5 "$t/cpack.log")"; exit 1; }
echo "package: $deb ($(stat -c %s "$deb") bytes)"
depends=$(dpkg-deb -f "$deb" Depends)
recommends=$(dpkg-deb -f "$deb" Recommends)
echo "Depends: $depends"
echo "Recommends: $recommends"
# Every library the binary links (its NEEDED entries, as ldd resolves them)
# comes from a package the .deb depends on.
while read -r lib; do
	pkg=
	for path in "$lib" "$(readlink -f "$lib")" "${lib#/usr}" "/usr$lib"; do
		pkg=$(dpkg -S "$path" 2>/dev/null | head -1 | cut -d: -f1) && [[ -n $pkg ]] && break
	done
	[[ -n $pkg ]] || { bad "no package owns $lib"; continue; }
	grep -qE "(^|, )$pkg( |,|$)" <<<"$depends" || bad "Depends lacks $pkg (for $lib)"
done < <(ldd "$pb/benchgrid" | awk -v needed="$(objdump -p "$pb/benchgrid" | awk '$1 == "NEEDED" { printf " %s ", $2 }')" \
	'$2 == "=>" && $3 ~ /^\// && index(needed, " " $1 " ") { print $3 }')
for want in libyaml-0-2 liblua5.4-0 libpq5 liburing2 libjansson4 libfuse3-3 libssl3; do
	grep -qE "(^|, )$want( |,|$)" <<<"$depends" || bad "Depends lacks $want"
done
for want in postgresql fio xfsprogs btrfs-progs; do
	grep -qE "(^|, )$want( |,|$)" <<<"$recommends" || bad "Recommends lacks $want"
done
[[ $(dpkg-deb -f "$deb" Version) == "$(dpkg-parsechangelog -l "$src/packaging/debian/changelog" -S Version)" ]] ||
	bad "the package version $(dpkg-deb -f "$deb" Version) is not the changelog's"
dpkg-deb -c "$deb" | awk '{ print $6 }' >"$t/contents"
for f in ./usr/bin/benchgrid ./usr/share/doc/benchgrid/changelog.Debian.gz ./usr/share/doc/benchgrid/copyright \
	./usr/share/man/man1/benchgrid.1.gz ./usr/share/man/man5/benchgrid-scenario.5.gz \
	./usr/share/bash-completion/completions/benchgrid ./usr/share/zsh/vendor-completions/_benchgrid \
	./usr/share/doc/benchgrid/examples/io-blocksize.yaml ./usr/bin/benchgrid-latdev; do
	grep -qxF "$f" "$t/contents" || bad ".deb lacks $f"
done

# 4. Installed for real, then removed.
installed=1
if ! dpkg -i "$deb" >"$t/dpkg.log" 2>&1; then
	bad "dpkg -i: $(tail -10 "$t/dpkg.log")"
	exit 1
fi
ver=$(cd /tmp && benchgrid --version 2>&1) || bad "benchgrid --version: $ver"
[[ $(command -v benchgrid) == /usr/bin/benchgrid ]] || bad "benchgrid is $(command -v benchgrid), not /usr/bin/benchgrid"
[[ $ver == "$("$pb/benchgrid" --version)" ]] || bad "installed --version '$ver' is not the build's"
echo "installed: $(head -1 <<<"$ver")"
[[ $(man -w benchgrid 2>&1) == /usr/share/man/man1/benchgrid.1.gz ]] || bad "man -w benchgrid: $(man -w benchgrid 2>&1)"
[[ $(man -w 5 benchgrid-scenario 2>&1) == /usr/share/man/man5/benchgrid-scenario.5.gz ]] ||
	bad "man -w 5 benchgrid-scenario: $(man -w 5 benchgrid-scenario 2>&1)"
MANWIDTH=80 man benchgrid 2>/dev/null | grep -q 'benchgrid run SPEC' || bad "man benchgrid does not show the run command"
comp=$(bash -c 'source /usr/share/bash-completion/completions/benchgrid
	COMP_WORDS=(benchgrid ru); COMP_CWORD=1; _benchgrid; echo "${COMPREPLY[*]}"' 2>&1)
[[ $comp == run ]] || bad "installed bash completion offers '$comp' for 'benchgrid ru'"
if hidden_run /usr/bin/benchgrid /usr/share/doc/benchgrid/examples/io-blocksize.yaml "$t/cwd/out-deb" \
	>"$t/run2.log" 2>&1; then
	python3 - "$t/cwd/out-deb/results.json" "$ver" <<'PY' || bad "the run of the installed package: results.json"
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["cells"]) == 2 and all(c["status"] == "ok" for c in r["cells"]), r["cells"]
assert "(commit %s)" % r["build"]["commit"] in sys.argv[2], (r["build"], sys.argv[2])
PY
else
	bad "benchgrid run of the installed example from /tmp: $(tail -5 "$t/run2.log")"
fi
cleanup_ok=1
dpkg -r benchgrid >"$t/remove.log" 2>&1 || { cleanup_ok=; bad "dpkg -r: $(tail -5 "$t/remove.log")"; }
[[ -n $cleanup_ok ]] && installed=
[[ -e /usr/bin/benchgrid ]] && bad "/usr/bin/benchgrid is still there after dpkg -r"
dpkg-query -W -f='${Status}' benchgrid 2>/dev/null | grep -q 'ok installed' && bad "benchgrid is still installed"

((fail == 0)) && echo "package: all checks passed"
exit $((fail > 0))
