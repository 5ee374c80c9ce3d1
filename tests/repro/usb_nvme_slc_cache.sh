#!/usr/bin/env bash
# repro: specs/usb-nvme-slc-cache.yaml in its small profile, model arm and
# control arm; see tests/repro/check.py. Expected time: ~80 s on 2 idle
# cores (103-127 s measured at load average 16).
SPEC=usb-nvme-slc-cache
source "$(dirname "$0")/repro_lib.sh"
