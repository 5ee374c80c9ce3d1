/* rep_junit: junit.xml, the run as JUnit test results for CI (GitLab's
 * `artifacts: reports: junit`, Jenkins' `junit` step; docs/results.md).
 * Written when `report.formats` names junit:
 *
 *   <testsuites name=SCENARIO tests failures errors skipped time timestamp>
 *     <testsuite name="SCENARIO: expect" ...>   one testcase per row of
 *       <testcase classname="SCENARIO.expect"    `expect:` (expect_row.h):
 *                 name="#1 ro.tps, cell 2 (fs=xfs)">
 *       PASS and XPASS: passed (a strict XPASS: <failure>), FAIL:
 *       <failure>, XFAIL, SKIP, INCONCLUSIVE: <skipped> with the reason
 *     <testsuite name="SCENARIO: cells" ...>    one testcase per failed
 *       <testcase classname="SCENARIO.cells"     cell, with <error> holding
 *                 name="cell 3 (fs=xfs)">         the cell's error
 *
 * so a CI page shows scenario (package), expect or cells (class), and the
 * entry or cell. Every text is valid XML 1.0 whatever its bytes (invalid
 * UTF-8 and characters XML does not allow become U+FFFD). */
#ifndef BENCHGRID_REP_JUNIT_H
#define BENCHGRID_REP_JUNIT_H

#include "rep_ops.h"

extern const struct reporter_ops rep_junit_ops;

#endif
