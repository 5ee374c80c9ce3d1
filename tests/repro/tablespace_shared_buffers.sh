#!/usr/bin/env bash
# repro: specs/tablespace-shared-buffers.yaml in its small profile; see tests/repro/check.py.
SPEC=tablespace-shared-buffers
NEEDS_MEMCG=1   # postgres.memory_limit
source "$(dirname "$0")/repro_lib.sh"
