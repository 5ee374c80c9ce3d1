# io: the native I/O workload (`io:` step) and the latency histogram.
bg_unit_test(test_hist SOURCES tests/unit/test_hist.c LABELS io)
bg_unit_test(test_io_lat SOURCES tests/unit/test_io_lat.c LABELS io)
if(EXISTS ${CMAKE_SOURCE_DIR}/tests/unit/test_io.c)
  # Each case that can skip (no cachestat, no root, no tmpfs) is its own test.
  bg_unit_test(test_io SOURCES tests/unit/test_io.c LABELS io
    SKIPPABLE test_sync_end test_sync_end_kpageflags test_enospc test_unwritable test_direct_refused
              test_drop_needs_root)
endif()

# A small driver that runs one io step from key=value options, for bench/vs-fio.
add_executable(io_driver bench/io_driver.c)
target_link_libraries(io_driver PRIVATE bgcore)

# The io step through the CLI; its full-filesystem part mounts a tmpfs (root
# only) and is its own test, shown as skipped where it cannot run.
bg_script_test(io_cli tests/integration/io_cli.sh LABELS integration;io TIMEOUT 120)
bg_script_test(io_cli.full tests/integration/io_cli.sh ARGS full LABELS integration;io;root TIMEOUT 60)

# Latency over time: the series' per-interval percentiles, lat_log and hist_log on real files.
bg_script_test(io_lat tests/integration/io_lat.sh LABELS integration;io TIMEOUT 120)
# rate limits, thinktime, cpus_allowed, nice, ioprio: options and the pacing schedule
bg_unit_test(test_io_rate SOURCES tests/unit/test_io_rate.c LABELS io)
# rate limits against fio, thinktime, cpus_allowed/nice/ioprio seen in /proc (timed: run under the heavy lock)
bg_script_test(io_rate tests/integration/io_rate.sh LABELS integration;io TIMEOUT 180)
# random_distribution and bssplit: generators against their formulas and
# fio-genzipf, options, real steps (the fio-genzipf cases skip without fio).
bg_unit_test(test_io_dist SOURCES tests/unit/test_io_dist.c LABELS io
  SKIPPABLE test_genzipf_zipf test_genzipf_pareto)
bg_script_test(io_dist tests/integration/io_dist.sh LABELS integration;io TIMEOUT 120)
# Raw devices, trim, precondition, steady state: options and fio's criteria;
# on real loop devices and a tmpfs (root).
bg_unit_test(test_io_device SOURCES tests/unit/test_io_device.c LABELS io)
bg_script_test(io_device tests/integration/io_device.sh LABELS integration;io;root;loop TIMEOUT 300)
# randrw per direction (read.*, write.*) against fio, alternating pairs (issue 27).
bg_script_test(io_rw_fio tests/integration/io_rw_fio.sh LABELS integration;io TIMEOUT 180)
set_tests_properties(io_rw_fio PROPERTIES SKIP_RETURN_CODE 77)

# The engine table as the one source of `engine:` (option values, import-fio's
# names), each engine's check, the open-flags builder (issue 30).
bg_unit_test(test_io_engine SOURCES tests/unit/test_io_engine.c LABELS io)
if(TARGET test_io_engine)
  target_link_libraries(test_io_engine PRIVATE bg_fiojob)
endif()
# libaio and mmap for real: system calls seen by strace, verified writes, a
# file truncated under a mapping, import-fio; the same bytes and I/Os as
# fio's libaio and mmap engines for an io_size (their speed against fio is
# bench/vs-fio's); on a loop device (root).
bg_script_test(io_engines tests/integration/io_engines.sh LABELS integration;io TIMEOUT 120)
bg_script_test(io_engines.fio tests/integration/io_engines.sh ARGS fio LABELS integration;io;fio TIMEOUT 120)
bg_script_test(io_engines.device tests/integration/io_engines.sh ARGS device LABELS integration;io;root;loop TIMEOUT 120)
