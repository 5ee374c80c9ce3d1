#!/usr/bin/env bash
# repro: specs/wal-placement.yaml in its small profile, model arm and control
# arm; see tests/repro/check.py. Expected time: ~60 s on 2 idle cores (6
# cells x 2 repeats; 74-94 s measured at load average 16).
SPEC=wal-placement
NEEDS_FUSE=1    # the RAID 0's latency model
source "$(dirname "$0")/repro_lib.sh"
