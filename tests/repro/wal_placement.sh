#!/usr/bin/env bash
# repro: specs/wal-placement.yaml in its small profile, model arm and control
# arm; see tests/repro/check.py. Expected time on 2 idle cores: ~120 s (6
# cells x 2 repeats).
SPEC=wal-placement
NEEDS_FUSE=1    # the RAID 0's latency model
source "$(dirname "$0")/repro_lib.sh"
