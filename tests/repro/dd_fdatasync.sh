#!/usr/bin/env bash
# repro: specs/dd-fdatasync.yaml in its small profile, model arm and control
# arm; see tests/repro/check.py. Expected time: ~60 s on 2 idle cores (64-89
# s measured at load average 11-16); the lvm cells are skipped without
# device-mapper.
SPEC=dd-fdatasync
RUN_ARGS="--yes"   # the target formats the devices its setup hook made
LEFTOVER=benchgrid-003   # its setup hook makes these loop devices; finish removes them
source "$(dirname "$0")/repro_lib.sh"
