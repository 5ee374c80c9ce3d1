#!/usr/bin/env bash
# repro: specs/tablespace-shared-buffers.yaml in its small profile, model arm
# and control arm; see tests/repro/check.py. Expected time: ~80 s on 2 idle
# cores (6 cells; 91-114 s measured at load average 16).
SPEC=tablespace-shared-buffers
NEEDS_MEMCG=1   # postgres.memory_limit
NEEDS_FUSE=1    # latency models
source "$(dirname "$0")/repro_lib.sh"
