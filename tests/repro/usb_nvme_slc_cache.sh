#!/usr/bin/env bash
# repro: specs/usb-nvme-slc-cache.yaml in its small profile, model arm,
# nocache control arm and none arm; see tests/repro/check.py. Expected time:
# ~95 s on 2 idle cores (92-96 s measured on 2026-12-02).
SPEC=usb-nvme-slc-cache
source "$(dirname "$0")/repro_lib.sh"
