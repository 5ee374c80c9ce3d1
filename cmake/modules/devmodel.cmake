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
# They change the one root blkio cgroup's rules and measure rates: one at a time.
set_tests_properties(devmodel.io devmodel.dd devmodel.cache devmodel.keep devmodel.cleanup devmodel.v2 devmodel.pg
  devmodel.setup PROPERTIES RUN_SERIAL TRUE)
