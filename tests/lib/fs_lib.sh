# Shared helpers for the fs_*.sh integration tests (sourced, not run).
#
# Every test works in its own directory $WORK (images, mount points, the
# state journal $BENCHGRID_STATE) and only ever touches loop devices whose
# backing file lies in $WORK: other programs use loop devices at the same
# time. The EXIT trap undoes anything a failing test left behind.
set -u

DRIVER=${BENCHGRID_BUILD:-}/fx_driver
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: needs root (loop devices, mkfs, mount)"
	exit 77
fi
if [ ! -c /dev/loop-control ]; then
	echo "SKIP: /dev/loop-control is missing (no loop device support)"
	exit 77
fi
if [ ! -x "$DRIVER" ]; then
	echo "FAIL: fx_driver not found at $DRIVER (BENCHGRID_BUILD=${BENCHGRID_BUILD:-unset})"
	exit 1
fi

WORK=$(mktemp -d /var/tmp/bg-fs-test.XXXXXX)
export BENCHGRID_STATE=$WORK/state
FAILS=0
BGPIDS=""

# Loop devices backed by a file in $WORK.
own_loops() {
	local f
	for f in /sys/block/loop*/loop/backing_file; do
		[ -r "$f" ] || continue
		case "$(cat "$f" 2>/dev/null)" in
		"$WORK"/*) f=${f#/sys/block/}; echo "/dev/${f%%/*}" ;;
		esac
	done
}

# Mount points under $WORK (from the kernel's view).
own_mounts() {
	awk -v w="$WORK/" 'index($5, w) == 1 { print $5 }' /proc/self/mountinfo
}

EXTRA_CLEANUP=":"
fs_lib_cleanup() {
	local p m l
	eval "$EXTRA_CLEANUP"
	for p in $BGPIDS; do kill -9 "$p" 2>/dev/null; done
	"$DRIVER" cleanup >/dev/null 2>&1
	for m in $(own_mounts | sort -r); do umount -l "$m" 2>/dev/null; done
	for l in $(own_loops); do losetup -d "$l" 2>/dev/null; done
	rm -rf "$WORK"
}
trap fs_lib_cleanup EXIT

ok() { echo "ok   - $*"; }
bad() {
	echo "FAIL - $*"
	FAILS=$((FAILS + 1))
}

# expect_eq WHAT GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1: $2"; else bad "$1: got '$2', want '$3'"; fi
}

# expect_grep WHAT PATTERN FILE
expect_grep() {
	if grep -q -- "$2" "$3"; then
		ok "$1"
	else
		bad "$1: '$2' not found in:"
		sed 's/^/       /' "$3"
	fi
}

# Value of key=value in a driver output file.
val() { sed -n "s/^$1=//p" "$2" | head -1; }

# Nothing of ours may remain: loop device, mount, image file, temp dir,
# pending journal entries.
expect_clean() {
	local what=$1 left
	left=$(own_loops)
	if [ -z "${ALLOW_LOOPS:-}" ]; then
		[ -z "$left" ] && ok "$what: no loop device left" || bad "$what: loop devices left: $left"
	fi
	left=$(own_mounts)
	[ -z "$left" ] && ok "$what: no mount left" || bad "$what: mounts left: $left"
	left=$(cd "$WORK" && ls -d benchgrid-* mnt-* 2>/dev/null)
	[ -z "$left" ] && ok "$what: no image or directory left" || bad "$what: files left in $WORK: $left"
	if [ -s "$BENCHGRID_STATE" ] && grep -q '^P' "$BENCHGRID_STATE"; then
		# every P record must have its D record
		local pending
		pending=$(awk '$1=="P"{p[$2]=$0} $1=="D"{delete p[$2]} END{for(k in p) print p[k]}' "$BENCHGRID_STATE")
		[ -z "$pending" ] && ok "$what: journal has nothing pending" || bad "$what: journal pending: $pending"
	else
		ok "$what: journal empty"
	fi
}

# Start the driver holding a target in the background; wait for READY.
# Sets HOLD_PID; output in $1.out.
hold_start() {
	local name=$1 yaml=$2
	shift 2
	"$DRIVER" setup "$yaml" "$WORK" --hold "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" &
	HOLD_PID=$!
	BGPIDS="$BGPIDS $HOLD_PID"
	local i
	for i in $(seq 1 300); do
		grep -q '^READY' "$WORK/$name.out" 2>/dev/null && return 0
		kill -0 "$HOLD_PID" 2>/dev/null || break
		sleep 0.1
	done
	bad "$name: driver did not get ready"
	cat "$WORK/$name.err"
	return 1
}

fs_lib_finish() {
	if [ "$FAILS" -gt 0 ]; then
		echo "$FAILS check(s) failed"
		exit 1
	fi
	echo "all checks passed"
	exit 0
}
