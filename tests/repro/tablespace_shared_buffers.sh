#!/usr/bin/env bash
# repro: specs/tablespace-shared-buffers.yaml in its small profile, model arm
# and control arm; see tests/repro/check.py. Expected time on 2 idle cores:
# ~150 s (6 cells).
SPEC=tablespace-shared-buffers
NEEDS_MEMCG=1   # postgres.memory_limit
NEEDS_FUSE=1    # latency models
source "$(dirname "$0")/repro_lib.sh"
