# fs: targets (dir, loop, device, zram), file systems, system knobs, device facts
# and the crash-safe state journal.
bg_unit_test(test_state SOURCES tests/unit/test_state.c LABELS fs SKIPPABLE test_pg_stop)
bg_unit_test(test_fx_fs SOURCES tests/unit/test_fx_fs.c LABELS fs)

# A small driver for the integration tests: setup / hold / teardown / cleanup.
add_executable(fx_driver tests/integration/fx_driver.c)
target_link_libraries(fx_driver PRIVATE bgcore)

bg_script_test(fs_targets tests/integration/fs_targets.sh LABELS "integration;root;loop;fs" TIMEOUT 300)
bg_script_test(fs_lifecycle tests/integration/fs_lifecycle.sh LABELS "integration;root;loop;fs" TIMEOUT 300)
bg_script_test(fs_safety tests/integration/fs_safety.sh LABELS "integration;root;loop;fs" TIMEOUT 300)
# fs_lib.sh exits 77 when not root or without /dev/loop-control.
set_tests_properties(fs_targets fs_lifecycle fs_safety PROPERTIES SKIP_RETURN_CODE 77)

# Knob locks: two concurrent runs and one sysctl or queue setting (issue #12).
bg_script_test(knobs_lock tests/integration/knobs_lock.sh LABELS "integration;root;loop;fs" TIMEOUT 300)
set_tests_properties(knobs_lock PROPERTIES SKIP_RETURN_CODE 77)

# Device-safety rules: a fake sysfs for md, dm-crypt, LVM (test_blkdev), and
# real loop devices for a loop device backed by another (test_blkdev_real).
bg_unit_test(test_blkdev SOURCES tests/unit/test_blkdev.c LABELS fs)
if(TARGET test_blkdev)
  add_test(NAME test_blkdev_real COMMAND test_blkdev real)
  set_tests_properties(test_blkdev_real PROPERTIES LABELS "unit;fs;root;loop" TIMEOUT 120 SKIP_RETURN_CODE 77)
endif()

# cleanup: the undo journal against processes, cgroups and bind mounts
# (issue #12, items 10 and 12).
bg_script_test(cleanup_bind tests/integration/cleanup_bind.sh LABELS "integration;root;loop;fs" TIMEOUT 120)
bg_script_test(work_dir_relative tests/integration/work_dir_relative.sh LABELS "integration;root;loop;fs" TIMEOUT 120)
set_tests_properties(work_dir_relative PROPERTIES SKIP_RETURN_CODE 77)
set_tests_properties(cleanup_bind PROPERTIES SKIP_RETURN_CODE 77)
bg_script_test(cleanup_procs tests/integration/cleanup_procs.sh LABELS "integration;root;loop;fs" TIMEOUT 180)
set_tests_properties(cleanup_procs PROPERTIES SKIP_RETURN_CODE 77)
# cleanup names the run (id, output folder) that left each action (issue #27).
bg_script_test(cleanup_names_run tests/integration/cleanup_names_run.sh LABELS "integration;root;loop;fs" TIMEOUT 180)
set_tests_properties(cleanup_names_run PROPERTIES SKIP_RETURN_CODE 77)

# Tests that change the same real sysctl (vm.stat_interval) must not overlap:
# benchgrid's own knob lock would (rightly) refuse the second one.
set_tests_properties(fs_lifecycle knobs_lock PROPERTIES RESOURCE_LOCK sysctl_vm_stat_interval)

# Loop targets reach the disk (issue 27): direct I/O by default, the ramfs
# fallback, an explicit refusal, report.md's Devices and Warnings, compare.
bg_script_test(loop_direct_io tests/integration/loop_direct_io.sh LABELS "integration;root;loop;fs" TIMEOUT 300)
set_tests_properties(loop_direct_io PROPERTIES SKIP_RETURN_CODE 77)

# Consent before a disk benchgrid did not create is throttled or retuned
# (issue 29, item 2): check-time refusals of the root disk (no root needed,
# nothing set up), and the rules at check and run time on loop devices the
# test attaches itself.
bg_script_test(device_consent_check tests/integration/device_consent_check.sh LABELS "cli;spec;fs" TIMEOUT 60)
bg_script_test(device_consent tests/integration/device_consent.sh LABELS "integration;root;loop;fs;devmodel" TIMEOUT 300)
bg_script_test(device_consent.partition tests/integration/device_consent.sh ARGS partition
  LABELS "integration;root;loop;fs;devmodel" TIMEOUT 120)

# kind: zram (issue 30): a run with ext4 and xfs, kill -9 and cleanup, and
# the safety rules on a zram device (and a zram swap) the test makes itself.
bg_script_test(zram_target tests/integration/zram_target.sh LABELS "integration;root;loop;fs" TIMEOUT 300)
set_tests_properties(zram_target PROPERTIES SKIP_RETURN_CODE 77)
