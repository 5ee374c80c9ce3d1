#!/usr/bin/env bash
# The io step's libaio and mmap engines (issue 30), for real.
#
#   io_engines.sh          on files: libaio issues io_submit/io_getevents and
#                          mmap maps the file and reads no bytes with pread
#                          (strace); writes through both reach the file
#                          (verify: true, read back after the step); a
#                          sequential mmap write extends a new file to size;
#                          a file truncated under an mmap step fails the step
#                          with the offset (SIGBUS caught), not the process;
#                          mmap's job runs in a process of its own (its CPU
#                          and I/Os counted live, SIGINT stops it, kill -9
#                          of benchgrid takes it along; paced or logged
#                          jobs stay threads);
#                          import-fio maps fio's libaio and mmap to them.
#   io_engines.sh fio      against fio's libaio and mmap engines: the same
#                          bytes and I/O count for an io_size. Their speed
#                          against fio is bench/vs-fio's (jobs 12-15), not a
#                          test's: a timed bound on 2 shared cores measures
#                          the neighbours.
#   io_engines.sh device   on a loop device (root): reads and verified writes
#                          of "@device" through both engines; the writes are
#                          in the device's backing file.
set -u
bg=${BENCHGRID:?}
mode=${1:-files}
W=$(mktemp -d /var/tmp/bg-ioeng.XXXXXX) # a disk file system: O_DIRECT
export BENCHGRID_STATE=$W/state BENCHGRID_STORE=$W/store.db
fail=0
cleanup() {
	local f
	for f in /sys/block/loop*/loop/backing_file; do
		[ -r "$f" ] || continue
		case "$(cat "$f" 2>/dev/null)" in
		"$W"/*) f=${f#/sys/block/}; losetup -d "/dev/${f%%/*}" 2>/dev/null ;;
		esac
	done
	rm -rf "$W"
}
trap cleanup EXIT
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
mkdir -p "$W/data" "$W/w"

# scenario NAME TARGET IO: one io step named s
scenario() {
	printf 'benchgrid: 1\nname: %s\ntarget: %s\nsteps:\n  - name: s\n    io: %s\n' "$1" "$2" "$3" >"$W/$1.yaml"
}
# run NAME [args]: $W/NAME.yaml into $W/NAME.out, log in $W/NAME.log
run() {
	local n=$1
	shift
	rm -rf "$W/$n.out"
	"$bg" run -q --work-dir "$W/w" "$@" -o "$W/$n.out" "$W/$n.yaml" >"$W/$n.log" 2>&1
}
# get NAME metrics|info KEY
get() {
	python3 - "$W/$1.out/results.json" "$2" "$3" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["cells"][0]["reps"][0][0]
v = s.get(sys.argv[2], {}).get(sys.argv[3])
print("none" if v is None else ("%.17g" % v["value"]) if sys.argv[2] == "metrics" else v)
PY
}
expect() { if [ "$2" = "$3" ]; then ok "$1: $2"; else bad "$1: got '$2', want '$3'"; fi; }
# calls LOG NAME: how many calls of the system call NAME strace logged
calls() { grep -c "^[0-9]* *$2(" "$1"; }

files() {
	command -v strace >/dev/null || { echo "SKIP: strace is not installed"; exit 77; }
	local dir="{kind: dir, path: $W/data}"
	# libaio: the I/O goes through io_submit and io_getevents
	scenario aio "$dir" "{rw: randread, bs: 4KiB, size: 8MiB, engine: libaio, iodepth: 8, direct: true, prepare: layout}"
	if strace -f -qq -y -o "$W/aio.strace" -e trace=io_setup,io_submit,io_getevents,pread64 "$bg" run -q \
		--work-dir "$W/w" -o "$W/aio.out" "$W/aio.yaml" >"$W/aio.log" 2>&1; then
		expect "libaio: the engine in use" "$(get aio info engine)" libaio
		expect "libaio: its context" "$(get aio info libaio)" "io_setup(8)"
		local s g p
		s=$(calls "$W/aio.strace" io_submit) g=$(calls "$W/aio.strace" io_getevents)
		p=$(grep -c "pread64([0-9]*<[^>]*/benchgrid-io.dat>" "$W/aio.strace")
		if [ "$s" -ge 32 ] && [ "$g" -ge 32 ] && [ "$p" = 0 ]; then
			ok "libaio: 2048 reads in $s io_submit and $g io_getevents calls, no pread64 of the file"
		else
			bad "libaio: io_submit $s, io_getevents $g, pread64 $p"
		fi
	else
		bad "libaio step failed"; cat "$W/aio.log"
	fi
	# mmap: one shared mapping of the file, and no read calls for its reads
	scenario map "$dir" "{rw: randread, bs: 4KiB, size: 8MiB, engine: mmap, prepare: layout}"
	if strace -f -qq -y -o "$W/map.strace" -e trace=mmap,pread64,read "$bg" run -q --work-dir "$W/w" \
		-o "$W/map.out" "$W/map.yaml" >"$W/map.log" 2>&1; then
		expect "mmap: the engine in use" "$(get map info engine)" mmap
		# ", TSC stamps" where the TSC is invariant (io_engine_mmap.c's clock);
		# the job in a process of its own (io_child.c)
		expect "mmap: its mapping" "$(get map info mmap | sed 's/, TSC stamps//')" \
			"MAP_SHARED of 8388608 bytes, madvise random, own process"
		if grep -q "mmap(NULL, 8388608, PROT_READ, MAP_SHARED, [0-9]*<[^>]*/benchgrid-io.dat>, 0)" "$W/map.strace" &&
			! grep -Eq "(pread64|read)\([0-9]*<[^>]*/benchgrid-io.dat>" "$W/map.strace"; then
			ok "mmap: the file mapped shared and read-only, no read or pread64 of it"
		else
			bad "mmap: no shared mapping of 8 MiB, or pread64 calls:"
			grep -E "benchgrid-io.dat" "$W/map.strace" | head -5
		fi
	else
		bad "mmap step failed"; cat "$W/map.log"
	fi
	# mmap's stamps (the TSC between CLOCK_MONOTONIC anchors) against the
	# step's clock: back-to-back I/Os, so their latencies add up to the
	# measured seconds, less the accounting between them (not above, not far below)
	scenario tb "$dir" "{rw: randread, bs: 4KiB, size: 8MiB, engine: mmap, runtime: 1s, time_based: true}"
	if run tb; then
		local sum secs
		sum=$(python3 -c "print(float('$(get tb metrics lat_mean_us)') * float('$(get tb metrics iops)') * float('$(get tb metrics seconds)') / 1e6)")
		secs=$(get tb metrics seconds)
		if awk -v a="$sum" -v s="$secs" 'BEGIN { exit !(s >= 0.95 && s < 1.5 && a <= s * 1.001 && a >= s * 0.5) }'; then
			ok "mmap time_based 1s: $secs s measured, the I/Os' latencies add up to $sum s"
		else
			bad "mmap time_based 1s: $secs s measured, latencies add up to $sum s"
		fi
		# the job ran in its own process: its CPU time is the step's (a busy
		# loop: most of a CPU, not the few % of the relaying thread)
		local usr
		usr=$(get tb metrics cpu_usr)
		if awk -v u="$usr" 'BEGIN { exit !(u >= 30) }'; then
			ok "mmap in its own process: cpu_usr $usr % (the child's CPU counted)"
		else
			bad "mmap in its own process: cpu_usr $usr %, the child's CPU not counted"
		fi
	else
		bad "mmap time_based step failed"; cat "$W/tb.log"
	fi
	# the time series sees the child's I/Os as they happen: every interval
	# before the last counts some (read at the end only, they would be 0),
	# and together they are the step's
	scenario ser "$dir" "{rw: randread, bs: 4KiB, size: 8MiB, engine: mmap, runtime: 2s, time_based: true, interval: 500ms}"
	if run ser; then
		python3 - "$W/ser.out/results.json" <<'PY' || fail=1
import json, sys
s = json.load(open(sys.argv[1]))["cells"][0]["reps"][0][0]
t, v = s["series"]["iops"]["t"], s["series"]["iops"]["v"]
ios = sum(v[i] * (t[i] - (t[i - 1] if i else 0)) for i in range(len(v)))
want = s["metrics"]["iops"]["value"] * s["metrics"]["seconds"]["value"]
good = len(v) >= 3 and min(v[:-1]) > 0 and abs(ios - want) <= 0.02 * want
print(f"{'ok  ' if good else 'FAIL'} mmap in its own process: {len(v)} intervals live "
      f"({min(v[:-1]) if len(v) > 1 else 0:.0f}-{max(v):.0f} IOPS), {ios:.0f} I/Os in the series, {want:.0f} in the step")
sys.exit(0 if good else 1)
PY
	else
		bad "mmap series step failed"; cat "$W/ser.log"
	fi
	# writes through each engine reach the file: verify reads them back with
	# pread after the step (randrw also checks every read of the laid-out file)
	local e
	for e in libaio mmap; do
		local extra=""
		[ $e = libaio ] && extra=", iodepth: 16, direct: true"
		scenario "vw-$e" "$dir" "{rw: randwrite, bs: 4KiB, size: 4MiB, engine: $e, verify: true$extra}"
		scenario "vrw-$e" "$dir" "{rw: randrw, bs: 4KiB, size: 4MiB, engine: $e, verify: true, sync: every 64$extra}"
		for n in "vw-$e" "vrw-$e"; do
			if run "$n"; then
				expect "$n: verify errors" "$(get "$n" metrics verify_errors)" 0
				expect "$n: engine" "$(get "$n" info engine)" $e
			else
				bad "$n failed"; cat "$W/$n.log"
			fi
		done
	done
	# a sequential mmap write of a new (truncated) file: extended to size
	# first, or the first store past its end would raise SIGBUS
	scenario seq "$dir" "{rw: write, bs: 64KiB, size: 4MiB, engine: mmap, verify: true}"
	if run seq; then
		expect "mmap sequential write: verify errors" "$(get seq metrics verify_errors)" 0
		expect "mmap sequential write: bytes" "$(get seq metrics bytes)" 4194304
	else
		bad "mmap sequential write failed"; cat "$W/seq.log"
	fi
	# a file truncated under the mapping: SIGBUS is the step's error, not the process's end
	scenario bus "$dir" "{rw: randread, bs: 4KiB, size: 64MiB, engine: mmap, runtime: 6s, time_based: true, file: bus.dat}"
	run bus &
	local pid=$! i
	local f=""
	for i in $(seq 1 100); do # laid out (in the run's folder of the target)
		f=$(ls "$W"/data/*/bus.dat 2>/dev/null | head -1)
		[ -n "$f" ] && [ "$(stat -c %s "$f")" = 67108864 ] && break
		sleep 0.1
	done
	sleep 1.5 # mapped: the timed part is under way
	[ -n "$f" ] && truncate -s 0 "$f"
	wait $pid
	local rc=$?
	if [ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -rq "SIGBUS on the read at offset" "$W/bus.log" "$W/bus.out"; then
		ok "a truncated file fails the mmap step with its offset (exit $rc): $(grep -rho 'SIGBUS on[^(]*' "$W/bus.log" "$W/bus.out" | head -1)"
	else
		bad "truncated under mmap: exit $rc"; cat "$W/bus.log"
	fi
	# the job's process (io_child.c): a stop reaches it, kill -9 of benchgrid
	# takes it along, and what it cannot carry back stays a thread
	child_stop
	child_kill
	scenario paced "$dir" "{rw: randread, bs: 4KiB, size: 8MiB, engine: mmap, rate_iops: 2000, runtime: 1s, time_based: true}"
	scenario logged "$dir" "{rw: randread, bs: 4KiB, size: 8MiB, engine: mmap, io_size: 1MiB, lat_log: true}"
	for n in paced logged; do
		if run "$n"; then
			expect "mmap $n: a thread" "$(get "$n" info mmap | sed 's/.*, //')" thread
		else
			bad "mmap $n failed"; cat "$W/$n.log"
		fi
	done
	# import-fio: fio's engines through the engine table
	printf '[a]\nrw=randread\nsize=1m\nioengine=libaio\n[b]\nstonewall\nrw=randread\nsize=1m\nioengine=mmap\n[c]\nstonewall\nrw=read\nsize=1m\nioengine=pvsync\n' >"$W/e.fio"
	if "$bg" import-fio -o "$W/e.yaml" "$W/e.fio" >"$W/imp.log" 2>&1; then
		expect "import-fio: libaio, mmap, pvsync" "$(grep -o 'engine: [a-z_]*' "$W/e.yaml" | tr '\n' ' ')" \
			"engine: libaio engine: mmap engine: psync "
	else
		bad "import-fio failed"; cat "$W/imp.log"
	fi
	printf '[a]\nrw=randread\nsize=1m\nioengine=posixaio\n' >"$W/u.fio"
	"$bg" import-fio -o "$W/u.yaml" "$W/u.fio" >"$W/u.log" 2>&1
	if grep -q "u.fio:4: unsupported value 'ioengine=posixaio': the I/O engine 'posixaio' has no io equivalent" "$W/u.log"; then
		ok "import-fio: an engine without an equivalent is refused at its line"
	else
		bad "import-fio posixaio:"; cat "$W/u.log"
	fi
}

# child_pid BG-PID: the pid of the mmap job's process, once it runs (empty after 10 s)
child_pid() {
	local i c
	for i in $(seq 1 100); do
		for c in $(pgrep -P "$1" 2>/dev/null); do
			[ "$(cat /proc/"$c"/comm 2>/dev/null)" = benchgrid ] && { echo "$c"; return; }
		done
		sleep 0.1
	done
}

# SIGINT to benchgrid during an mmap step: the step stops early (interrupted,
# exit 130) and the job's process is gone with it
child_stop() {
	scenario stop "{kind: dir, path: $W/data}" "{rw: randread, bs: 4KiB, size: 8MiB, engine: mmap, runtime: 30s, time_based: true}"
	"$bg" run -q --work-dir "$W/w" -o "$W/stop.out" "$W/stop.yaml" >"$W/stop.log" 2>&1 &
	local pid=$! c
	c=$(child_pid $pid)
	[ -n "$c" ] || { bad "mmap: no job process under benchgrid $pid"; kill -9 $pid; wait $pid; return; }
	sleep 1
	local t0=$SECONDS
	kill -INT $pid
	wait $pid
	local rc=$? took=$((SECONDS - t0))
	if [ $rc = 130 ] && [ $took -le 5 ] && ! kill -0 "$c" 2>/dev/null; then
		ok "mmap: SIGINT stops the job's process $c (exit $rc after ${took} s)"
	else
		bad "mmap: SIGINT: exit $rc after $took s, job process $c $(kill -0 "$c" 2>/dev/null && echo alive)"
		cat "$W/stop.log"
		kill -9 "$c" 2>/dev/null
	fi
}

# kill -9 of benchgrid: the job's process dies with it (PR_SET_PDEATHSIG),
# and cleanup removes what the run left
child_kill() {
	scenario k9 "{kind: dir, path: $W/data}" "{rw: randread, bs: 4KiB, size: 8MiB, engine: mmap, runtime: 30s, time_based: true}"
	"$bg" run -q --work-dir "$W/w" -o "$W/k9.out" "$W/k9.yaml" >"$W/k9.log" 2>&1 &
	local pid=$! c i
	c=$(child_pid $pid)
	[ -n "$c" ] || { bad "mmap: no job process under benchgrid $pid"; kill -9 $pid; wait $pid; return; }
	kill -9 $pid
	wait $pid 2>/dev/null
	for i in $(seq 1 50); do
		kill -0 "$c" 2>/dev/null || break
		sleep 0.1
	done
	if ! kill -0 "$c" 2>/dev/null; then
		ok "mmap: kill -9 of benchgrid takes the job's process $c along"
	else
		bad "mmap: the job's process $c outlived benchgrid's kill -9"
		kill -9 "$c" 2>/dev/null
	fi
	"$bg" cleanup >"$W/k9.cleanup" 2>&1 || { bad "cleanup after kill -9"; cat "$W/k9.cleanup"; }
}

# same_io NAME FIO-ENGINE BENCHGRID-IO FIO-ARGS: io_size-bounded, the same
# bytes and number of I/Os of each direction in both tools.
same_io() {
	local name=$1
	scenario "$name" "{kind: dir, path: $W/data}" "$3"
	rm -f "$W/data/fio.dat"
	fio --name=j --filename="$W/data/fio.dat" --size=8m --io_size=4m --ioengine="$2" $4 \
		--output-format=json --output="$W/$name.fio.json" >/dev/null 2>&1 || { bad "$name: fio"; return; }
	run "$name" || { bad "$name: benchgrid"; cat "$W/$name.log"; return; }
	python3 - "$W/$name.fio.json" "$W/$name.out/results.json" "$name" <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
m = json.load(open(sys.argv[2]))["cells"][0]["reps"][0][0]["metrics"]
fb = j["read"]["io_bytes"] + j["write"]["io_bytes"]
fios = j["read"]["total_ios"] + j["write"]["total_ios"]
bios = round(m["iops"]["value"] * m["seconds"]["value"])
good = fb == m["bytes"]["value"] and abs(fios - bios) <= 2
print(f"{'ok  ' if good else 'FAIL'} {sys.argv[3]}: fio {fb} bytes in {fios} I/Os, "
      f"benchgrid {m['bytes']['value']:.0f} bytes in {bios} I/Os")
sys.exit(0 if good else 1)
PY
}

vs_fio() {
	command -v fio >/dev/null || { echo "SKIP: fio is not installed"; exit 77; }
	same_io libaio-io libaio "{rw: randread, bs: 4KiB, size: 8MiB, io_size: 4MiB, engine: libaio, iodepth: 8, direct: true}" \
		"--rw=randread --bs=4k --iodepth=8 --direct=1"
	same_io mmap-io mmap "{rw: randwrite, bs: 16KiB, size: 8MiB, io_size: 4MiB, engine: mmap}" "--rw=randwrite --bs=16k"
}

device() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (loop devices)"; exit 77; }
	[ -c /dev/loop-control ] || { echo "SKIP: no loop device support"; exit 77; }
	truncate -s 64M "$W/d.img"
	local L e
	L=$(losetup --find --show "$W/d.img") || { bad "losetup"; return; }
	for e in mmap libaio; do
		local extra=""
		[ $e = libaio ] && extra=", iodepth: 8, direct: true"
		scenario "dr-$e" "{kind: device, path: $L}" "{file: \"@device\", rw: randread, size: 16MiB, engine: $e$extra}"
		if run "dr-$e"; then
			expect "@device read with $e: bytes" "$(get "dr-$e" metrics bytes)" 16777216
			expect "@device read with $e: engine" "$(get "dr-$e" info engine)" $e
		else
			bad "@device read with $e failed"; cat "$W/dr-$e.log"
		fi
	done
	# writes: 4 MiB at the start of the zeroed device, verified, through each
	# engine; then the written blocks are non-zero in the backing file
	for e in mmap libaio; do
		local extra=""
		[ $e = libaio ] && extra=", iodepth: 8, direct: true"
		dd if=/dev/zero of="$L" bs=1M count=4 oflag=direct status=none
		scenario "dw-$e" "{kind: device, path: $L, destroy: true}" \
			"{file: \"@device\", rw: write, bs: 64KiB, size: 4MiB, engine: $e, verify: true, sync: end$extra}"
		if run "dw-$e" --yes; then
			expect "@device write with $e: verify errors" "$(get "dw-$e" metrics verify_errors)" 0
		else
			bad "@device write with $e failed"; cat "$W/dw-$e.log"
		fi
		sync
		if cmp -s -n 4194304 "$W/d.img" /dev/zero; then
			bad "the $e writes are not in the loop device's backing file"
		else
			ok "the $e writes are in the loop device's backing file"
		fi
	done
	losetup -d "$L"
}

case $mode in
files) files ;;
fio) vs_fio ;;
device) device ;;
*) echo "usage: io_engines.sh [files|fio|device]"; exit 2 ;;
esac
exit $fail
