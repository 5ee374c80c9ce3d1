# devmodel: device models on loop targets (issue #13): the scenario keys,
# the io.max line and the v1 files against a fake cgroup (unit), and the
# real kernel's block throttling, one part per test (root, loop devices;
# skipped, exit 77, where the backend is missing).
bg_unit_test(test_devmodel SOURCES tests/unit/test_devmodel.c LABELS devmodel)
foreach(part io dd cache keep cleanup v2)
  bg_script_test(devmodel.${part} tests/integration/devmodel.sh ARGS ${part}
    LABELS "integration;root;loop;devmodel" TIMEOUT 120)
endforeach()
foreach(part pg setup)
  bg_script_test(devmodel.${part} tests/integration/devmodel.sh ARGS ${part}
    LABELS "integration;root;loop;pg;devmodel" TIMEOUT 180)
endforeach()
# They change the root blkio cgroup's rules (for their own loop devices
# only) and measure rates: they hold the timing lock (tests/CMakeLists.txt,
# by pattern), as does every other test that sets a throttle, so one runs
# at a time among those, beside tests that measure nothing. (They were
# RUN_SERIAL: 124 s alone beside stress-ng.)
