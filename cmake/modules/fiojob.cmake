# fiojob: `benchgrid import-fio` (engine/fiojob/, docs/import-fio.md).
bg_unit_test(test_fiojob SOURCES tests/unit/test_fiojob.c LABELS fiojob)
if(TARGET test_fiojob)
  target_link_libraries(test_fiojob PRIVATE bg_fiojob)
endif()
bg_script_test(import_fio tests/integration/import_fio.sh LABELS "integration;fiojob;cli" TIMEOUT 60)
bg_script_test(import_fio.newkeys tests/integration/import_fio.sh ARGS newkeys LABELS "integration;fiojob" TIMEOUT 60)
# fio runs a job file, benchgrid its import: the same I/O (needs fio).
bg_script_test(import_fio.e2e tests/integration/import_fio.sh ARGS e2e LABELS "integration;fiojob;io" TIMEOUT 120)
