# report: the run's result model (results.json), statistics over repeats,
# the reporters (CSV, timeseries CSV, Markdown + SVG charts), expect and compare.
foreach(t test_results test_jsonio test_stats test_expect test_expect_rel test_utf8 test_rep_hosts)
  if(EXISTS ${CMAKE_SOURCE_DIR}/tests/unit/${t}.c)
    bg_unit_test(${t} SOURCES tests/unit/${t}.c LABELS report)
  endif()
endforeach()

# A small driver that builds crafted runs (and reads them back) for the
# Python checks of the report files; no runner needed.
if(EXISTS ${CMAKE_SOURCE_DIR}/tests/integration/report_driver.c)
  add_executable(report_driver tests/integration/report_driver.c)
  target_link_libraries(report_driver PRIVATE bgcore)
  bg_script_test(report_files tests/integration/report_files.sh LABELS "report" TIMEOUT 120)
  bg_script_test(report_statements tests/integration/report_statements.sh LABELS "report" TIMEOUT 60)
  bg_script_test(report_metric_axis tests/integration/report_metric_axis.sh LABELS "report" TIMEOUT 60)
endif()

# Output files stay valid UTF-8 text when a command prints invalid bytes,
# NULs and control characters (strict parsers read every file).
# report.md and compare on results whose cells ran on different hosts.
bg_script_test(report_hosts tests/integration/report_hosts.sh LABELS "report;integration" TIMEOUT 60)
bg_script_test(valid_output tests/integration/valid_output.sh LABELS "report;integration" TIMEOUT 120)
# Scenario and command text is data: no HTML/Markdown in report.md, a hashed
# script in report.html's CSP, no formulas in the CSVs, no terminal escapes.
bg_unit_test(test_output_escape SOURCES tests/unit/test_output_escape.c LABELS "unit;report")
bg_script_test(output_escape tests/integration/output_escape.sh LABELS "report;integration" TIMEOUT 120)
# Confidence intervals (Student's t, seeded bootstrap) and the tests of compare.
bg_unit_test(test_stats_ci SOURCES tests/unit/test_stats_ci.c LABELS "report;stats")
# The one rule of a step's headline metrics (issue 27).
bg_unit_test(test_headline SOURCES tests/unit/test_headline.c LABELS "report;stats")
# compare on real runs: verdicts, --all, --by, --fail-above exit statuses.
bg_script_test(compare tests/integration/compare.sh LABELS "compare;report;integration" TIMEOUT 120)
bg_unit_test(test_compare_metric SOURCES tests/unit/test_compare_metric.c LABELS "report;compare")
# report.formats and junit.xml (issue 30): the table of reporters, the
# selection, junit.xml's counts and text; a real run's junit.xml against
# an XSD (xmllint) and a JUnit consumer (python3-junitparser).
bg_unit_test(test_rep_junit SOURCES tests/unit/test_rep_junit.c LABELS "report")
bg_script_test(report_junit tests/integration/report_junit.sh LABELS "report;integration" TIMEOUT 120)
