#!/usr/bin/env bash
# repro: specs/tablespace-shared-buffers.yaml in its small profile; see tests/repro/check.py.
SPEC=tablespace-shared-buffers
# The spec reserves 2200 huge pages (4.3 GiB) for shared_buffers=4GB. Where
# memory is too fragmented for that, run without them rather than fail.
hp=/proc/sys/vm/nr_hugepages
if [[ -w $hp ]]; then
	old=$(cat $hp)
	echo 2200 >$hp 2>/dev/null
	got=$(cat $hp)
	echo "$old" >$hp
	if ((got < 2200)); then
		echo "note: only $got huge pages could be reserved: running with -D hugepages=0 -D huge_pages=off"
		RUN_ARGS="-D hugepages=0 -D huge_pages=off"
	fi
fi
source "$(dirname "$0")/repro_lib.sh"
