#!/usr/bin/env bash
# The examples gallery (examples/*.yaml), in two parts:
#
#   examples.sh check   every example starts with the yaml-language-server
#                       modeline and a header comment naming it, is listed in
#                       examples/README.md, and passes `check` and `plan`
#                       (table and JSON) without an error or a warning.
#   examples.sh run [NAME...]
#                       runs every example (or the NAMEd ones; CTest runs
#                       one per test, examples_run.NAME, in parallel: each
#                       has its own work directory, loop devices and
#                       server) for real into a fresh output
#                       directory (root: loop devices, PostgreSQL as
#                       `postgres`): each results.json has all planned cells,
#                       none failed, every pivot's metric in every cell, and a
#                       report.md; then what each example claims to show
#                       (pg_wal placement, the device model's limit, the
#                       raw device read and left untouched, repeats, the
#                       included settings, compare of two runs, the
#                       overlapping writer's ratio and its control arm's
#                       loss of it). raw-device
#                       reads a loop device this test makes from a file and
#                       passes with -D device=. Nothing may be left behind
#                       (mounts, loop devices, servers, files in the work
#                       directory).
set -u
bg=${BENCHGRID:?}
src=${BENCHGRID_SRC:?}
mode=${1:?usage: examples.sh check|run [NAME...]}
shift
py=/usr/bin/python3
ex=$src/examples
fail=0
ok() { echo "ok   $1"; }
bad() {
	echo "FAIL $1"
	fail=1
}

examples=()
for f in "$ex"/*.yaml; do examples+=("$(basename "$f" .yaml)"); done
if (($#)); then
	for n in "$@"; do
		[ -f "$ex/$n.yaml" ] || {
			echo "examples.sh: no example $n (examples/$n.yaml)"
			exit 2
		}
	done
	examples=("$@")
else
	[ ${#examples[@]} -ge 10 ] && ok "${#examples[@]} examples" || bad "only ${#examples[@]} examples (at least 10)"
fi

if [ "$mode" = check ]; then
	T=$(mktemp -d)
	trap 'rm -rf "$T"' EXIT
	for n in "${examples[@]}"; do
		f=$ex/$n.yaml
		if [ "$(head -1 "$f")" = '# yaml-language-server: $schema=../docs/benchgrid.schema.json' ]; then
			ok "$n: modeline"
		else bad "$n: line 1 is not the yaml-language-server modeline"; fi
		case "$(sed -n 2p "$f")" in
		"# $n: "*) ok "$n: header comment" ;;
		*) bad "$n: line 2 is not a header comment '# $n: ...'" ;;
		esac
		grep -q "($n.yaml)" "$ex/README.md" && ok "$n: listed in examples/README.md" ||
			bad "$n: not listed in examples/README.md"
		# from another folder: include: and hooks resolve against the file's folder
		if (cd "$T" && "$bg" check "$f") >"$T/c.out" 2>"$T/c.err" && ! grep -q . "$T/c.err"; then
			ok "$n: check"
		else
			bad "$n: check"
			cat "$T/c.out" "$T/c.err"
		fi
		for fmt in table json; do
			if "$bg" plan "$f" --format $fmt >"$T/p.out" 2>"$T/p.err" && ! grep -q . "$T/p.err" &&
				grep -q . "$T/p.out"; then
				ok "$n: plan --format $fmt"
			else
				bad "$n: plan --format $fmt"
				cat "$T/p.err"
			fi
		done
		"$bg" plan "$f" --format json | $py -c 'import json,sys; json.load(sys.stdin)' ||
			bad "$n: plan --format json is not JSON"
	done
	# the index links only files that exist
	for l in $(grep -o '([a-z0-9/-]*\.yaml)' "$ex/README.md" | tr -d '()'); do
		[ -f "$ex/$l" ] || bad "examples/README.md links $l, which does not exist"
	done
	exit $fail
fi

[ "$mode" = run ] || {
	echo "usage: examples.sh check|run [NAME...]"
	exit 2
}
[ "$(id -u)" = 0 ] || {
	echo "SKIP: needs root (loop devices, mkfs, PostgreSQL as postgres)"
	exit 77
}
for p in losetup mkfs.ext4 mkfs.xfs fio pgbench dd; do
	command -v $p >/dev/null || {
		echo "SKIP: $p is missing"
		exit 77
	}
done
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null || {
	echo "SKIP: no PostgreSQL server binaries"
	exit 77
}
id postgres >/dev/null 2>&1 || {
	echo "SKIP: no postgres user"
	exit 77
}

W=$(mktemp -d /var/tmp/bg-examples.XXXXXX)
chmod 711 "$W" # the servers run as postgres and must pass through
mkdir -m 711 "$W/work"
export BENCHGRID_STATE=$W/state
dev=
cleanup() {
	local m f
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
	"$bg" cleanup "$BENCHGRID_STATE" >/dev/null 2>&1
	for m in $(awk -v w="$W/" 'index($5, w) == 1 { print $5 }' /proc/self/mountinfo | sort -r); do
		umount -l "$m" 2>/dev/null
	done
	for f in /sys/block/loop*/loop/backing_file; do
		[ -r "$f" ] || continue
		case "$(cat "$f" 2>/dev/null)" in
		"$W"/*) f=${f#/sys/block/}; losetup -d "/dev/${f%%/*}" 2>/dev/null ;;
		esac
	done
	rm -rf "$W"
}
trap cleanup EXIT

# left_behind: what a run left under $W: mounts, loop devices, processes, files
left_behind() {
	local what=
	awk -v w="$W/" 'index($5, w) == 1 { found = 1 } END { exit !found }' /proc/self/mountinfo && what+=" mounts"
	# (the raw-device example's own device, $W/disk.img, is the test's)
	cat /sys/block/loop*/loop/backing_file 2>/dev/null | grep "^$W/" | grep -qv "^$W/disk.img" &&
		what+=" loop-devices"
	pgrep -f -- "$W/work" >/dev/null && what+=" processes"
	[ -z "$(ls -A "$W/work")" ] || what+=" files($(ls -A "$W/work" | head -3 | tr '\n' ' '))"
	echo "$what"
}

# verify NAME OUT: every planned cell ok, report.md, each pivot's metric in each cell
verify() {
	$py - "$2/results.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cells = d["cells"]
errs = []
if len(cells) != d["planned_cells"]:
    errs.append("%d cells of %d planned" % (len(cells), d["planned_cells"]))
for c in cells:
    if c["status"] != "ok":
        errs.append("cell %d %s: %s" % (c["index"], c["status"], c.get("error")))
        continue
    for p in (d.get("report") or {}).get("pivot") or []:
        step, metric = p["value"].split(".", 1)
        for rep in c["reps"]:
            got = [s for s in rep if s["name"] == step and metric in s.get("metrics", {})]
            if not got:
                errs.append("cell %d: no %s" % (c["index"], p["value"]))
print("; ".join(errs) if errs else "ok")
sys.exit(1 if errs else 0)
PY
}

# metric OUT STEP METRIC: one line per cell, "PARAMS VALUE" (first repetition)
metric() {
	$py - "$1/results.json" "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["cells"]:
    v = [s["metrics"][sys.argv[3]]["value"] for s in c["reps"][0]
         if s["name"] == sys.argv[2] and sys.argv[3] in s.get("metrics", {})]
    p = ",".join("%s=%s" % kv for kv in sorted(c["params"].items()))
    print(p or "-", "%.17g" % v[0] if v else "none")
PY
}

# run NAME OUT [args]: runs examples/NAME.yaml, checks it, prints its time
run() {
	local n=$1 out=$2 t0 t1 rest log=$W/${2##*/}.log
	shift 2
	t0=$(date +%s.%N)
	if "$bg" run -q -o "$out" --work-dir "$W/work" "$@" "$ex/$n.yaml" >"$log" 2>&1; then
		ok "$n: run $*"
	else
		bad "$n: run $* (exit $?)"
		tail -30 "$log"
	fi
	t1=$(date +%s.%N)
	local v
	v=$(verify "$n" "$out" 2>&1) && ok "$n: every cell ok, every pivot metric there" || bad "$n: $v"
	[ -s "$out/report.md" ] && ok "$n: report.md" || bad "$n: no report.md"
	rest=$(left_behind)
	[ -z "$rest" ] && ok "$n: nothing left behind" || bad "$n: left behind:$rest"
	awk -v n="$n" -v a="$t0" -v b="$t1" 'BEGIN { printf "time %-24s %6.1f s\n", n, b - a }'
}

for n in "${examples[@]}"; do
	out=$W/out/$n # out/ does not exist yet: run makes the parents
	case $n in
	raw-device)
		# a zeroed 64 MiB loop device over a file of ours, passed with -D
		truncate -s 64M "$W/disk.img"
		dev=$(losetup --find --show "$W/disk.img") || {
			bad "raw-device: cannot attach a loop device"
			continue
		}
		printf 'benchgrid' | dd of="$W/disk.img" bs=1 seek=1048576 conv=notrunc status=none
		sum=$(sha256sum <"$W/disk.img")
		run "$n" "$out" -D "device=$dev"
		[ "$(sha256sum <"$W/disk.img")" = "$sum" ] && ok "raw-device: the device was not written" ||
			bad "raw-device: the device changed"
		r=$(metric "$out" seqread bytes | awk '{ print $2 }' | sort -u)
		[ "$r" = 67108864 ] && ok "raw-device: read 64 MiB sequentially" || bad "raw-device: seqread bytes $r"
		losetup -d "$dev" && dev=
		;;
	repeats-compare)
		run "$n" "$out"
		run "$n" "$out.b" -D direct=false
		n3=$($py -c 'import json,sys
d = json.load(open(sys.argv[1]))
print(sorted(set(len(c["reps"]) for c in d["cells"])))' "$out/results.json")
		[ "$n3" = "[5]" ] && ok "repeats-compare: 5 recorded repetitions per cell" ||
			bad "repeats-compare: repetitions $n3"
		if "$bg" compare "$out" "$out.b" >"$W/compare.md" 2>"$W/compare.err"; then
			ok "compare A B"
		else
			bad "compare A B (exit $?)"
			cat "$W/compare.err"
		fi
		grep -q "2 shared, 0 only in A, 0 only in B" "$W/compare.md" && ok "compare: both cells matched" ||
			bad "compare: cells not matched: $(head -8 "$W/compare.md")"
		grep -Eq '^\| randread\.iops \| 2 \| [0-9.]+ \|' "$W/compare.md" &&
			ok "compare: geometric mean of randread.iops (the headline of 4 KiB random reads) over 2 cells" ||
			bad "compare: no geometric mean of randread.iops"
		# buffered reads of a 32 MiB file come from the page cache: far faster than O_DIRECT
		[ "$(grep -c '^- [01] `[0-9a-f]*` iodepth=[18]: \*\*faster\*\*' "$W/compare.md")" = 2 ] &&
			ok "compare: both cells faster without O_DIRECT" ||
			bad "compare: verdicts $(grep -A3 '^## Verdicts' "$W/compare.md")"
		if "$bg" compare --by iodepth "$out" >"$W/by.md" 2>"$W/compare.err" && grep -q '^- Pairs: 1 ' "$W/by.md"; then
			ok "compare --by iodepth: one pair"
		else
			bad "compare --by iodepth"
			cat "$W/compare.err" "$W/by.md"
		fi
		;;
	overlap-writer-pgbench)
		# the expectation holds with the writer, and its control arm (the
		# writer skipped) must lose it: the two arms then differ by noise only
		run "$n" "$out"
		run "$n" "$out.none" -D with_writer=no
		for o in "$out" "$out.none"; do
			st=$($py -c 'import json, sys
(r,) = [r for r in json.load(open(sys.argv[1])) if r["check"] == "ratio"]
print(r["status"], r["measured"], (r["reason"] or "").replace(" ", "_"))' "$o/expect.json")
			echo "$n ${o##*/}: $st"
			case "${o##*/}:${st%% *}" in
			"$n:PASS" | "$n.none:FAIL") ok "$n ${o##*/}: tps with / without the writer: ${st#* }" ;;
			*:INCONCLUSIVE)
				echo "note $n ${o##*/}: INCONCLUSIVE here, not judged (${st#* })"
				inconclusive="$n ${o##*/}: ${st#* }"
				;;
			*) bad "$n ${o##*/}: ${st}" ;;
			esac
		done
		;;
	*) run "$n" "$out" ;;
	esac
	case $n in
	wal-separate)
		w=$(metric "$out" where wal_separate | tr '\n' ' ')
		[ "$w" = "wal=main 0 wal=walfs 1 " ] && ok "wal-separate: pg_wal on the data fs / on walfs" ||
			bad "wal-separate: placement $w"
		;;
	device-model)
		# the slow disk's 40 MiB/s (41.9 MB/s) holds a 128 MiB write: never
		# above it, and the model bound (utilisation >= 0.85: the device ran at
		# one of its limits; a neighbour's sync() adds journal writes that share
		# its 150 IO/s, so the write's own MB/s alone may fall below 41.9 then);
		# the fast one is faster
		slow=$(metric "$out" seqwrite mb_s | awk '$1 == "disk=slow" { print $2 }')
		fast=$(metric "$out" seqwrite mb_s | awk '$1 == "disk=fast" { print $2 }')
		util=$(metric "$out" seqwrite model.target.utilisation | awk '$1 == "disk=slow" { print $2 }')
		awk -v s="$slow" -v f="$fast" -v u="$util" 'BEGIN { exit !(s < 46 && u >= 0.85 && u <= 1.1 && f > s) }' &&
			ok "device-model: slow $slow MB/s (limit 41.9, model utilisation $util), fast $fast" ||
			bad "device-model: slow $slow MB/s (limit 41.9, model utilisation $util), fast $fast"
		;;
	include-pg)
		s=$($py -c 'import json,sys
d = json.load(open(sys.argv[1]))
for c in d["cells"]:
    i = c["facts"]["info"]
    print(c["params"]["synchronous_commit"], i.get("pg.setting.synchronous_commit"),
          i.get("pg.setting.shared_buffers"), i.get("pg.setting.checkpoint_timeout"))' "$out/results.json" | tr '\n' ' ')
		[ "$s" = "on on 64MB 15min off off 64MB 15min " ] &&
			ok "include-pg: the cell's synchronous_commit, the shared settings" ||
			bad "include-pg: settings $s"
		;;
	lua-derived)
		c=$(metric "$out" randread cpu_us_per_io | grep -c -v none)
		[ "$c" = 5 ] && ok "lua-derived: 5 cells (filter), each with the derived metric" ||
			bad "lua-derived: $c cells with cpu_us_per_io"
		;;
	esac
done
if ((fail == 0)) && [ -n "${inconclusive:-}" ]; then
	echo "SKIP: INCONCLUSIVE: $inconclusive"
	exit 77
fi
exit $fail
