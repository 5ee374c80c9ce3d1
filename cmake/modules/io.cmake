# io: the native I/O workload (`io:` step) and the latency histogram.
target_sources(bgcore PRIVATE engine/hist.c)
bg_unit_test(test_hist SOURCES tests/unit/test_hist.c LABELS io)
