# pgbench: pgbench-compatible data load and load driver on libpq.
target_sources(bgcore PRIVATE
  engine/pgb_init.c
)
