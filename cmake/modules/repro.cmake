# repro: the system monitor sampled around steps (engine/monitor.c), and the
# published experiments of specs/ run in their small profiles (label repro).
bg_unit_test(test_monitor SOURCES tests/unit/test_monitor.c LABELS "monitor;loop"
  SKIPPABLE test_direct_writes_and_reads test_idle_device)

# Every published experiment in its small profile on loop devices with
# device models; check.py verifies the report, the recorded file systems,
# the ratio/order verdicts and the publication's shapes. Measured here
# (2 cores, `ctest -L repro`): 000 95 s, 001 94 s, 002 125-136 s, 003 78 s,
# 004 39 s; all five 432-441 s. Each TIMEOUT is about twice its time or more.
set(repro_timeout_usb_nvme_slc_cache 240)
set(repro_timeout_ssd_fs_blocksize 240)
set(repro_timeout_tablespace_shared_buffers 300)
set(repro_timeout_dd_fdatasync 180)
set(repro_timeout_wal_placement 180)
foreach(spec usb_nvme_slc_cache ssd_fs_blocksize tablespace_shared_buffers dd_fdatasync wal_placement)
  bg_script_test(repro_${spec} tests/repro/${spec}.sh LABELS "repro;integration;root"
                 TIMEOUT ${repro_timeout_${spec}})
  set_tests_properties(repro_${spec} PROPERTIES SKIP_RETURN_CODE 77 RUN_SERIAL TRUE)
endforeach()

# vm.dirty_bytes written back as "use the ratio" (usb-nvme-slc-cache sets it)
bg_script_test(sysctl_dirty_bytes tests/integration/sysctl_dirty_bytes.sh LABELS "integration;root" TIMEOUT 120)
set_tests_properties(sysctl_dirty_bytes PROPERTIES SKIP_RETURN_CODE 77 RESOURCE_LOCK sysctl_vm_dirty)
