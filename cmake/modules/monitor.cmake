# monitor: the devices the system monitor samples for a cell and their
# columns (engine/run/monitor_devs.c), on real loop devices; and a real cell
# with two loop targets whose I/O shows in the right columns.
bg_unit_test(test_monitor_devs SOURCES tests/unit/test_monitor_devs.c LABELS "monitor;loop"
  SKIPPABLE test_resolve test_two_loops)
bg_script_test(monitor_devices tests/integration/monitor_devices.sh LABELS "integration;root;loop;monitor"
  TIMEOUT 300)
# report.md's Devices legend from crafted cells' devices.* facts.
bg_unit_test(test_rep_md_devices SOURCES tests/unit/test_rep_md_devices.c LABELS "report;monitor")
