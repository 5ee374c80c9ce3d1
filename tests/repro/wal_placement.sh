#!/usr/bin/env bash
# repro: specs/wal-placement.yaml in its small profile; see tests/repro/check.py.
SPEC=wal-placement
source "$(dirname "$0")/repro_lib.sh"
