#!/usr/bin/env bash
# repro: specs/tablespace-shared-buffers.yaml in its small profile; see tests/repro/check.py.
SPEC=tablespace-shared-buffers
source "$(dirname "$0")/repro_lib.sh"
