#!/usr/bin/env bash
# repro: specs/usb-nvme-slc-cache.yaml in its small profile, model arm and
# control arm; see tests/repro/check.py. Expected time on 2 idle cores: ~80 s.
SPEC=usb-nvme-slc-cache
source "$(dirname "$0")/repro_lib.sh"
