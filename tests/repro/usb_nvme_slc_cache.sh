#!/usr/bin/env bash
# repro: specs/usb-nvme-slc-cache.yaml in its small profile; see tests/repro/check.py.
SPEC=usb-nvme-slc-cache
source "$(dirname "$0")/repro_lib.sh"
