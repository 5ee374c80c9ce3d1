# io: the native I/O workload (`io:` step) and the latency histogram.
bg_unit_test(test_hist SOURCES tests/unit/test_hist.c LABELS io)
if(EXISTS ${CMAKE_SOURCE_DIR}/tests/unit/test_io.c)
  bg_unit_test(test_io SOURCES tests/unit/test_io.c LABELS io)
endif()

# A small driver that runs one io step from key=value options, for bench/vs-fio.
add_executable(io_driver bench/io_driver.c)
target_link_libraries(io_driver PRIVATE bgcore)

# The io step through the CLI (mounts a tmpfs when root, skips that part otherwise).
bg_script_test(io_cli tests/integration/io_cli.sh LABELS integration;io TIMEOUT 120)
