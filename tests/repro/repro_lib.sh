# repro_lib.sh: run one spec of specs/ in its small profile and check its
# report with check.py. Sourced by the tests/repro/*.sh scripts, which set
# SPEC (the file name without .yaml) and optionally RUN_ARGS, NEEDS_MEMCG,
# NEEDS_FUSE (a latency model serves the image through FUSE).
# Exit: 0 every headline PASS; 1 a check or a headline/control/held-out/
# self-test entry failed; 77 (skip) the machine cannot run it, or a headline
# was INCONCLUSIVE (models did not bind, a CPU-bound cell): check.py prints why.
set -u
bg=${BENCHGRID:?BENCHGRID must name the benchgrid binary}
src=${BENCHGRID_SRC:?}
if [[ $(id -u) -ne 0 || ! -e /dev/loop-control ]]; then
	echo "skip: needs root and loop devices"
	exit 77
fi
# every spec shapes its devices with models: block throttling (cgroup v1
# blkio, or a cgroup-v2 io controller)
if [[ ! -e /sys/fs/cgroup/blkio/blkio.throttle.write_bps_device ]] &&
	! grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	echo "skip: no block throttling (cgroup v1 blkio or a v2 io controller) for the device models"
	exit 77
fi
if [[ -n ${NEEDS_MEMCG:-} && ! -e /sys/fs/cgroup/memory/memory.limit_in_bytes ]] &&
	! grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	echo "skip: no memory cgroup for postgres.memory_limit"
	exit 77
fi
if [[ -n ${NEEDS_FUSE:-} && ! -c /dev/fuse ]]; then
	echo "skip: no /dev/fuse for the latency models"
	exit 77
fi
# loop devices of the spec's hooks already there (another run's, or one the
# kernel still holds): only what this run adds counts as its leftover
leftover_before=$([[ -n ${LEFTOVER:-} ]] && losetup -a | grep "$LEFTOVER" | cut -d: -f1 | sort)
out=$(mktemp -d /var/tmp/repro-"$SPEC".XXXXXX)
trap 'rm -rf "$out"' EXIT
start=$SECONDS
# progress goes to a log, shown when something fails; the report is what is checked
"$bg" run ${RUN_ARGS:-} -o "$out/run" "$src/specs/$SPEC.yaml" >"$out/log" 2>&1
rc=$?
grep -v '^progress:' "$out/log" | tail -40
echo "benchgrid run specs/$SPEC.yaml: exit $rc after $((SECONDS - start)) s"
if [[ ! -f $out/run/results.json ]]; then
	echo "FAIL no results.json"
	exit 1
fi
# exit 1 only means some cell failed: check.py names it
if [[ $rc -ne 0 && $rc -ne 1 ]]; then
	echo "FAIL benchgrid run exited $rc"
	exit 1
fi
# BENCHGRID_REPRO_KEEP=DIR keeps a copy of the run (for docs/reproducing.md's excerpts)
if [[ -n ${BENCHGRID_REPRO_KEEP:-} ]]; then
	rm -rf "${BENCHGRID_REPRO_KEEP:?}/$SPEC" && mkdir -p "$BENCHGRID_REPRO_KEEP" && cp -r "$out/run" "$BENCHGRID_REPRO_KEEP/$SPEC"
fi
BENCHGRID_SRC=$src python3 "$src/tests/repro/check.py" "$SPEC" "$out/run"
crc=$?
# what the spec's own hooks made is gone (the runner's fixtures have their own tests)
if [[ -n ${LEFTOVER:-} ]]; then
	if [[ -n $leftover_before ]]; then
		echo "note: loop devices of $LEFTOVER from before this run, not counted:" $leftover_before
	fi
	added=$(comm -13 <(echo "$leftover_before") <(losetup -a | grep "$LEFTOVER" | cut -d: -f1 | sort) | grep .)
	if [[ -n $added ]] || ls -d /run/"$LEFTOVER"* 2>/dev/null; then
		echo "FAIL left behind by the spec's hooks:" $added
		exit 1
	fi
fi
# 77: a headline INCONCLUSIVE (a skip, never a pass); anything else non-zero fails
[[ $crc -eq 0 || $crc -eq 77 ]] || exit 1
exit $crc
