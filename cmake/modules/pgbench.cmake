# pgbench: pgbench-compatible data load and load driver on libpq.
bg_unit_test(test_pgb_script SOURCES tests/unit/test_pgb_script.c LABELS pgbench)
bg_unit_test(test_pgb_rand SOURCES tests/unit/test_pgb_rand.c LABELS pgbench)
bg_unit_test(test_pgb_log SOURCES tests/unit/test_pgb_log.c LABELS pgbench)
# Script files read under util/safe_file's rules (FIFO, link, /dev/zero, private).
bg_unit_test(test_pgb_script_file SOURCES tests/unit/test_pgb_script_file.c LABELS pgbench)
bg_unit_test(test_pgb_expr SOURCES tests/unit/test_pgb_expr.c LABELS pgbench)

# Needs a server: built here, run by the script test that starts one.
if(CMOCKA_FOUND)
  add_executable(test_pgb_server tests/unit/test_pgb_server.c)
  target_link_libraries(test_pgb_server PRIVATE bgcore PkgConfig::CMOCKA)
  bg_script_test(pgbench_server tests/integration/pgbench_server.sh LABELS pgbench;pg;integration;root TIMEOUT 240)
endif()
# vacuum: true|false against the real pgbench (the oracle)
bg_script_test(pgbench_vacuum tests/integration/pgbench_vacuum.sh LABELS pgbench;pg;integration;root TIMEOUT 120)

# A small command-line driver for bench/vs-pgbench (until `benchgrid run` covers it).
add_executable(pgb_driver bench/pgb_driver.c)
target_link_libraries(pgb_driver PRIVATE bgcore)
# failures, retries, latency limit and logs against the real pgbench 15
bg_script_test(pgbench_fail_oracle tests/integration/pgbench_fail_oracle.sh LABELS pgbench;pg;integration;root TIMEOUT 150)
# meta-commands (\gset, \aset, \if, \shell, pipelines, define:) against pgbench 15 (the oracle)
bg_script_test(pgbench_meta_oracle tests/integration/pgbench_meta_oracle.sh LABELS pgbench;pg;integration;root TIMEOUT 150)
# \shell/\setshell as run_as: (nobody's uid from id -u), root without it, and check's note
bg_script_test(pgbench_run_as tests/integration/pgbench_run_as.sh LABELS pgbench;pg;integration;root TIMEOUT 120)
# expressions against the real pgbench: debug() lines, run-time and parse errors
bg_script_test(pgbench_expr_oracle tests/integration/pgbench_expr_oracle.sh LABELS pgbench;pg;integration;root TIMEOUT 120)
# random numbers, script choice and rate schedule against the real pgbench (the oracle)
add_executable(pgb_rand_sched tests/integration/pgb_rand_sched.c)
target_link_libraries(pgb_rand_sched PRIVATE bgcore)
bg_script_test(pgbench_rand_oracle tests/integration/pgbench_rand_oracle.sh LABELS pgbench;pg;integration;root TIMEOUT 120)
