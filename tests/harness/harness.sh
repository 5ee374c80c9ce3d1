#!/usr/bin/env bash
# scripts/test's summary (scripts/test_summary.py) on real CTest runs of a
# scratch CMake project whose tests really pass, fail, time out and skip:
#   - a failing run: the failed and the timed-out test named, a skip that
#     tests/expected-skips.txt does not list, a listed skip whose feature is
#     present, a label over its budget, a failed stage: each reported, and
#     exit status 1; the count line `2 passed, 2 failed, 4 skipped`;
#   - an expected skip (its feature absent, or one of its two) shown as such;
#   - a clean run: exit 0 and `2 passed, 0 failed, 1 skipped`; with a label
#     over its budget, exit 0 under --budgets-warn (--quick), else 1;
#   - repro_*: an INCONCLUSIVE skip expected, except under
#     BENCHGRID_EXPECT_IDLE (CI); a skip without INCONCLUSIVE fails;
#   - every test tests/expected-skips.txt names exists, every feature it
#     names is probed by tests/features.sh;
#   - the label times are CTest's own (Label Time Summary) and the junit
#     file's statuses are read as CTest wrote them.
set -u
src=${BENCHGRID_SRC:?}
t=$(mktemp -d /tmp/bg-harness-XXXXXX)
trap 'rm -rf "$t"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() {
	echo "FAIL $1"
	fail=1
}
summary() { python3 "$src/scripts/test_summary.py" "$@"; }

mkdir -p "$t/p" "$t/run" "$t/tables"
cat >"$t/p/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(fake NONE)
enable_testing()
add_test(NAME good COMMAND sh -c "echo fine")
add_test(NAME bad COMMAND sh -c "echo broken; exit 1")
add_test(NAME slowpoke COMMAND sh -c "sleep 5")
add_test(NAME skip_expected COMMAND sh -c "echo 'skip: no widget here'; exit 77")
add_test(NAME skip_unlisted COMMAND sh -c "echo 'SKIP: not in the list'; exit 77")
add_test(NAME skip_present COMMAND sh -c "echo 'skip: thinks gadget is missing'; exit 77")
add_test(NAME sleeper COMMAND sh -c "sleep 1")
add_test(NAME skip_either COMMAND sh -c "echo 'skip: no widget'; exit 77")
set_tests_properties(skip_either PROPERTIES LABELS "beta" SKIP_RETURN_CODE 77)
add_test(NAME repro_busy COMMAND sh -c "echo 'inconclusive x: expect #1 (headline, ratio): INCONCLUSIVE'; exit 77")
add_test(NAME repro_quiet COMMAND sh -c "echo 'skip: for no stated reason'; exit 77")
set_tests_properties(repro_busy repro_quiet PROPERTIES LABELS "gamma" SKIP_RETURN_CODE 77)
set_tests_properties(good bad slowpoke PROPERTIES LABELS "alpha")
set_tests_properties(skip_expected skip_unlisted skip_present sleeper PROPERTIES LABELS "beta" SKIP_RETURN_CODE 77)
set_tests_properties(slowpoke PROPERTIES TIMEOUT 1)
CM
cmake -S "$t/p" -B "$t/b" >/dev/null || { bad "configure the scratch project"; exit 1; }
cat >"$t/tables/expected-skips.txt" <<'X'
# TEST          FEATURE  REASON
skip_expected   widget   there is no widget on this machine
skip_present    gadget   there is no gadget on this machine
skip_either     gadget,widget  needs both
X
cat >"$t/tables/label-budgets.txt" <<'X'
ctest alpha 60
ctest beta 0.5
X
printf 'widget\tno\tprobed\ngadget\tyes\tprobed\n' >"$t/run/features.tsv"
ctest --test-dir "$t/b" -j2 -E '^repro_' --output-junit "$t/run/ctest.junit.xml" >"$t/run/ctest.log" 2>&1
rc=$?
[ $rc -ne 0 ] && ok "ctest exits $rc" || bad "ctest exit status 0 with failing tests"
printf 'build\tok\t1.5\t\nformat\tFAIL\t0.4\texit 1\nctest\tFAIL\t6\texit %s\n' $rc >"$t/run/stages.tsv"
summary "$t/run" "$t/tables" >"$t/out" 2>&1
src_rc=$?
cat "$t/out"
[ $src_rc = 1 ] && ok "summary exit status 1" || bad "summary exit status $src_rc, expected 1"
want() { grep -qE "$1" "$t/out" && ok "$2" || bad "$2: no line /$1/"; }
want '^format +FAIL +0 s +exit 1$' "the failed stage, its time and status"
want '^ctest +FAIL ' "the ctest stage failed"
want '^  ctest: bad \(' "the failing test named"
want '^  ctest: slowpoke \(' "the timed-out test named"
want '^  ctest: skip_unlisted skipped but is not in tests/expected-skips.txt: SKIP: not in the list$' "an unlisted skip, with its reason"
want '^  ctest: skip_present skipped although gadget is present: skip: thinks gadget is missing$' "a skip while its feature is present"
want '^  ctest: skip_expected \(no widget: there is no widget on this machine\)$' "an expected skip"
want '^  ctest: skip_either \(no widget: needs both\)$' "an expected skip, one of its two features absent"
want '^  OVER ctest:beta [0-9]+ s > budget 0.5 s$' "a label over its budget (sleeper: 1 s of beta's 0.5)"
want 'ctest:alpha [0-9]+/60' "a label within its budget"
want '^result: FAIL$' "result line"
[ "$(tail -1 "$t/out")" = "2 passed, 2 failed, 4 skipped" ] && ok "count line" ||
	bad "count line: $(tail -1 "$t/out")"

# A clean run: the passing tests and the expected skip only.
ctest --test-dir "$t/b" -j2 -R '^(good|sleeper|skip_expected)$' --output-junit "$t/run/ctest.junit.xml" >"$t/run/ctest.log" 2>&1 ||
	bad "clean ctest run"
printf 'build\tok\t1.5\t\nctest\tok\t2\t\nasan\tskipped\t0\t--quick\n' >"$t/run/stages.tsv"
printf 'ctest alpha 60\nctest beta 60\n' >"$t/tables/label-budgets.txt"
summary "$t/run" "$t/tables" >"$t/out" 2>&1
src_rc=$?
[ $src_rc = 0 ] && ok "clean run: exit status 0" || { bad "clean run: exit status $src_rc"; cat "$t/out"; }
[ "$(tail -1 "$t/out")" = "2 passed, 0 failed, 1 skipped" ] && ok "clean run: count line" ||
	bad "clean run: count line: $(tail -1 "$t/out")"
grep -q '^result: ok$' "$t/out" && ok "clean run: result ok" || bad "clean run: result"
# --budgets-warn (scripts/test --quick): the label over its budget is
# flagged, and the run passes.
printf 'ctest alpha 60\nctest beta 0.5\n' >"$t/tables/label-budgets.txt"
summary --budgets-warn "$t/run" "$t/tables" >"$t/out" 2>&1
src_rc=$?
[ $src_rc = 0 ] && ok "--budgets-warn: exit status 0" || { bad "--budgets-warn: exit status $src_rc"; cat "$t/out"; }
grep -qE '^  OVER ctest:beta [0-9]+ s > budget 0.5 s$' "$t/out" && ok "--budgets-warn: still flagged" ||
	bad "--budgets-warn: no OVER line"
summary "$t/run" "$t/tables" >/dev/null 2>&1
[ $? = 1 ] && ok "without --budgets-warn: exit status 1" || bad "without --budgets-warn: over budget passes"

# repro_*: an INCONCLUSIVE skip is allowed (printed with its reason), but
# not where BENCHGRID_EXPECT_IDLE declares the machine idle (CI); a skip of
# such a test without an INCONCLUSIVE verdict is not.
cat >>"$t/tables/expected-skips.txt" <<'X'
repro_*         inconclusive   a busy machine
X
printf 'ctest gamma 60\n' >>"$t/tables/label-budgets.txt"
ctest --test-dir "$t/b" -R '^repro_busy$' --output-junit "$t/run/ctest.junit.xml" >"$t/run/ctest.log" 2>&1
printf 'ctest\tok\t1\t\n' >"$t/run/stages.tsv"
# (CI runs every test with BENCHGRID_EXPECT_IDLE=1: not this summary's)
BENCHGRID_EXPECT_IDLE= summary --budgets-warn "$t/run" "$t/tables" >"$t/out" 2>&1 && grep -q '^  ctest: repro_busy (INCONCLUSIVE: inconclusive x: expect #1' "$t/out" &&
	ok "an INCONCLUSIVE repro skip is expected" || { bad "INCONCLUSIVE skip"; cat "$t/out"; }
BENCHGRID_EXPECT_IDLE=1 summary --budgets-warn "$t/run" "$t/tables" >"$t/out" 2>&1
[ $? = 1 ] && grep -q 'repro_busy INCONCLUSIVE on a machine declared idle' "$t/out" &&
	ok "BENCHGRID_EXPECT_IDLE: an INCONCLUSIVE skip fails" || { bad "BENCHGRID_EXPECT_IDLE"; cat "$t/out"; }
ctest --test-dir "$t/b" -R '^repro_quiet$' --output-junit "$t/run/ctest.junit.xml" >"$t/run/ctest.log" 2>&1
summary --budgets-warn "$t/run" "$t/tables" >"$t/out" 2>&1
[ $? = 1 ] && grep -q 'repro_quiet skipped without an INCONCLUSIVE verdict: skip: for no stated reason' "$t/out" &&
	ok "a repro skip without INCONCLUSIVE fails" || { bad "repro skip without INCONCLUSIVE"; cat "$t/out"; }

# The real tables parse, and every listed skip names a feature tests/features.sh knows.
for f in $(awk '!/^#/ && NF && $2 != "inconclusive" {print $2}' "$src/tests/expected-skips.txt" | tr ',' '\n' | sort -u); do
	bash "$src/tests/features.sh" "$f" >/dev/null 2>&1
	[ $? -ne 2 ] && ok "expected-skips: feature $f is probed" || bad "expected-skips: unknown feature $f"
done
# Every test the list names (globs: at least one) is registered: a renamed
# test cannot leave a stale entry behind.
if [ -n "${BENCHGRID_BUILD:-}" ]; then
	ctest --test-dir "$BENCHGRID_BUILD" -N | awk '/Test +#/ {print $3}' >"$t/names"
	for n in $(awk '!/^#/ && NF {print $1}' "$src/tests/expected-skips.txt"); do
		python3 -c 'import fnmatch, sys
names = open(sys.argv[1]).read().split()
sys.exit(0 if any(fnmatch.fnmatchcase(x, sys.argv[2]) for x in names) else 1)' "$t/names" "$n" &&
			ok "expected-skips: $n is a test" || bad "expected-skips: no test $n"
	done
fi
exit $fail
