#!/usr/bin/env python3
"""The summary of a scripts/test run (docs/testing.md).

Reads the run's directory, written by scripts/test:
  stages.tsv     NAME<TAB>STATUS<TAB>SECONDS<TAB>NOTE per stage, in order
                 (STATUS: ok, FAIL or "not run")
  NAME.log       each ctest stage's output (its "Label Time Summary")
  NAME.junit.xml each ctest stage's `ctest --output-junit` file
  features.tsv   tests/features.sh's output
and the tables tests/expected-skips.txt and tests/label-budgets.txt.
Prints each stage's result and time, the failing tests by name, the
unexpected skips, each label's time against its budget, and last the line
`N passed, N failed, N skipped` over the ctest stages. Exit status 1 when a
stage failed, a test failed, a skip was not expected, or a label went over
its budget (unless --budgets-warn: then it is only flagged); else 0.
"""
import fnmatch
import os
import re
import sys
import xml.etree.ElementTree as ET

# The pseudo-feature of tests/expected-skips.txt for a verdict the test
# itself could not reach on this machine now (a busy machine: the repro
# tests' INCONCLUSIVE), allowed unless BENCHGRID_EXPECT_IDLE is set (CI).
INCONCLUSIVE = "inconclusive"
LABEL_LINE = re.compile(r"^(\S+)\s+=\s+([0-9.]+) sec\*proc \((\d+) tests?\)$")


def read_table(path, ncols):
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, ncols - 1)
            if len(parts) < ncols:
                sys.exit("%s:%d: expected %d columns: %s" % (path, n, ncols, line))
            rows.append(parts)
    return rows


def label_times(log):
    """{label: seconds} from ctest's Label Time Summary in its output."""
    times, inside = {}, False
    for line in log.splitlines():
        if line.startswith("Label Time Summary:"):
            inside = True
            continue
        if inside:
            m = LABEL_LINE.match(line.strip())
            if m:
                times[m.group(1)] = float(m.group(2))
            elif line.strip():
                inside = False
    return times


def junit_cases(path):
    """[(name, outcome, seconds, output)] with outcome pass, fail or skip."""
    cases = []
    for tc in ET.parse(path).getroot().iter("testcase"):
        status = tc.get("status")
        skipped = tc.find("skipped")
        out = tc.findtext("system-out") or ""
        if status == "run":
            outcome = "pass"
        elif status in ("notrun", "disabled") and skipped is not None and (
                "SKIP_RETURN_CODE" in (skipped.get("message") or "") or status == "disabled"):
            outcome = "skip"
        else:  # failed, timed out, or not run (a missing executable)
            outcome = "fail"
        cases.append((tc.get("name"), outcome, float(tc.get("time") or 0), out))
    return cases


def skip_reason(output):
    lines = [l.strip() for l in output.splitlines() if re.match(r"\s*(skip|SKIP)\b", l)]
    if lines:
        return lines[-1]
    tail = [l.strip() for l in output.splitlines() if l.strip()]
    return tail[-1] if tail else "(no output)"


def main():
    args = [a for a in sys.argv[1:] if a != "--budgets-warn"]
    budgets_fail = "--budgets-warn" not in sys.argv[1:]
    if len(args) != 2:
        sys.exit("usage: test_summary.py [--budgets-warn] RUN_DIR TESTS_DIR")
    run, tests = args
    stages = []
    with open(os.path.join(run, "stages.tsv")) as f:
        for line in f:
            name, status, secs, note = (line.rstrip("\n").split("\t") + [""] * 4)[:4]
            stages.append((name, status, float(secs or 0), note))
    features = {}
    fpath = os.path.join(run, "features.tsv")
    if os.path.exists(fpath):
        for line in open(fpath):
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 2:
                features[parts[0]] = parts[1] == "yes"
    allowed = {t: (feat, why) for t, feat, why in read_table(os.path.join(tests, "expected-skips.txt"), 3)}
    budgets = {}
    for stage, label, secs in read_table(os.path.join(tests, "label-budgets.txt"), 3):
        budgets[(stage, label)] = float(secs)

    bad = any(s[1] in ("FAIL", "not run") for s in stages)
    npass = nfail = nskip = 0
    failing, skips_bad, skips_ok, over, within, unbudgeted = [], [], [], [], [], []
    for name, status, secs, note in stages:
        junit = os.path.join(run, name + ".junit.xml")
        log = os.path.join(run, name + ".log")
        if not os.path.exists(log):
            continue
        if os.path.exists(junit) and os.path.getsize(junit) > 0:
            try:
                cases = junit_cases(junit)
            except ET.ParseError as e:
                failing.append("%s: its junit file is unreadable (%s)" % (name, e))
                bad = True
                cases = []
            for test, outcome, t, out in cases:
                if outcome == "pass":
                    npass += 1
                elif outcome == "fail":
                    nfail += 1
                    failing.append("%s: %s (%.1f s)" % (name, test, t))
                else:
                    nskip += 1
                    reason = skip_reason(out)
                    entry = allowed.get(test) or next(
                        (v for k, v in allowed.items() if fnmatch.fnmatchcase(test, k)), None)
                    if entry is None:
                        skips_bad.append("%s: %s skipped but is not in tests/expected-skips.txt: %s" % (name, test, reason))
                    elif entry[0] == INCONCLUSIVE:
                        feat, why = entry
                        if not re.search(r"\binconclusive\b", out, re.I):
                            skips_bad.append("%s: %s skipped without an INCONCLUSIVE verdict: %s" % (name, test, reason))
                        elif os.environ.get("BENCHGRID_EXPECT_IDLE"):
                            skips_bad.append("%s: %s INCONCLUSIVE on a machine declared idle (BENCHGRID_EXPECT_IDLE): %s"
                                             % (name, test, reason))
                        else:
                            skips_ok.append("%s: %s (INCONCLUSIVE: %s)" % (name, test, reason))
                    else:
                        # FEATURE may list several (a,b): the skip is allowed when any is absent
                        feat, why = entry
                        absent = [f for f in feat.split(",") if not features.get(f)]
                        if not absent:
                            skips_bad.append("%s: %s skipped although %s %s present: %s" % (
                                name, test, " and ".join(feat.split(",")), "is" if "," not in feat else "are", reason))
                        else:
                            skips_ok.append("%s: %s (no %s: %s)" % (name, test, ", ".join(absent), why))
        times = label_times(open(log, errors="replace").read())
        for label, t in sorted(times.items()):
            b = budgets.get((name, label))
            if b is None:
                # asan and fuzz run a few labels; their tests' other labels need no budget there
                if name == "ctest" and label not in ("integration", "root"):
                    unbudgeted.append("%s:%s %.0f s" % (name, label, t))
            elif t > b:
                over.append("%s:%s %.0f s > budget %g s" % (name, label, t, b))
            else:
                within.append("%s:%s %.0f/%g" % (name, label, t, b))
    bad = bad or nfail > 0 or bool(skips_bad) or (budgets_fail and bool(over))

    print("\n==== scripts/test summary ====")
    for name, status, secs, note in stages:
        print("%-9s %-8s %6.0f s  %s" % (name, status, secs, note))
    if failing:
        print("failing tests:")
        for f in failing:
            print("  " + f)
    if skips_bad:
        print("skips not expected (tests/expected-skips.txt, tests/features.sh):")
        for s in skips_bad:
            print("  " + s)
    if skips_ok:
        print("expected skips:")
        for s in skips_ok:
            print("  " + s)
    if over:
        print("labels over their budget (tests/label-budgets.txt)%s:" % ("" if budgets_fail else ", not failing the run (--quick)"))
        for o in over:
            print("  OVER " + o)
    if within:
        print("labels within budget (s, sec*proc): " + ", ".join(within))
    if unbudgeted:
        print("labels without a budget: " + ", ".join(unbudgeted))
    print("result: " + ("FAIL" if bad else "ok"))
    print("%d passed, %d failed, %d skipped" % (npass, nfail, nskip))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
