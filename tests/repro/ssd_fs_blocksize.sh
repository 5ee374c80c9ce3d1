#!/usr/bin/env bash
# repro: specs/ssd-fs-blocksize.yaml in its small profile; see tests/repro/check.py
# (check_ssd_fs_blocksize). Fails on a FAIL of a headline, control, held-out or
# self-test entry of expect.json; exits 77 (skip) with the reason when the
# headline (4 kB vs 8 kB database blocks on the SSD model) is INCONCLUSIVE or
# SKIP because /var/cache/benchgrid/pg15-bs4 (scripts/build-pg) is missing.
SPEC=ssd-fs-blocksize
NEEDS_MEMCG=1   # postgres.memory_limit
source "$(dirname "$0")/repro_lib.sh"
