# pg_activity: the server activity sampled during pgbench and exec steps
# (engine/fixtures/pg/pg_activity.c, reporters/rep_md_activity.c).
# The deltas, rates and wait tallies, /proc/PID/stat and children's CPU.
bg_unit_test(test_pg_act_math SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_pg_act_math.c LABELS pg)
# A real server: a pgbench and an exec step with a CHECKPOINT and pg_sleep,
# server_stats: false, the sampler's connection gone, report.md's section.
bg_script_test(pg_activity tests/integration/pg_activity.sh LABELS "pg;integration;root" TIMEOUT 120)
# report.md's Server activity section from a crafted run.
bg_unit_test(test_rep_md_activity SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_rep_md_activity.c LABELS "pg;report")
