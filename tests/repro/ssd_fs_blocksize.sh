#!/usr/bin/env bash
# repro: specs/ssd-fs-blocksize.yaml in its small profile; see tests/repro/check.py.
SPEC=ssd-fs-blocksize
NEEDS_MEMCG=1   # postgres.memory_limit
source "$(dirname "$0")/repro_lib.sh"
