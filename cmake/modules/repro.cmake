# repro: the system monitor sampled around steps (engine/monitor.c), and the
# published experiments of specs/ run in their small profiles (label repro).
target_sources(bgcore PRIVATE engine/monitor.c)
bg_unit_test(test_monitor SOURCES tests/unit/test_monitor.c LABELS "monitor;loop")
