#!/usr/bin/env bash
# Many files per job and metadata operations of the io step (issue 15), on
# real files:
#   io_files.sh        a directory target: nrfiles / filesize (range) /
#                      file_service / openfiles, checked by the sizes of the
#                      files left on disk (keep: true, listed by an exec
#                      step); create / stat / unlink / open-close / mkdir
#                      counted in the metrics and on disk, nothing left
#                      without keep
#   io_files.sh fio    op: create against fio's filecreate engine on the
#                      same job (file count, same order of magnitude of
#                      ops/s); exit 77 without fio
#   io_files.sh ext4   the metadata operations on a loop-mounted ext4
#                      (root; exit 77 without loop devices)
set -u
part=${1:-main}
bg=${BENCHGRID:?}
fail=0
ok() { echo "ok   $1"; }
bad() {
	echo "FAIL $1"
	fail=1
}

# results.json of OUT -> "STEP METRIC=VALUE ..." lines (the step's own metrics)
metrics() {
	python3 - "$1/results.json" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["cells"]:
    for s in c["reps"][0]:
        m = {k: v["value"] for k, v in s["metrics"].items() if not k.startswith(("sys_", "disk_"))}
        ser = ",".join(sorted(k for k in s.get("series", {}) if not k.startswith(("sys_", "disk_"))))
        print(s["name"], "failed" if s["failed"] else "ok", " ".join(f"{k}={v:.6g}" for k, v in sorted(m.items())), "series=" + ser)
EOP
}
# the value of METRIC of STEP in the metrics lines of FILE
mval() { awk -v s="$2" -v m="$3" '$1 == s { for (i = 3; i <= NF; i++) { split($i, a, "="); if (a[1] == m) print a[2] } }' "$1"; }
# the stdout of exec step STEP of the (only) cell of OUT
listing() { cat "$1"/cells/*/"$2".stdout; }

run() { # NAME TARGET STEPS...
	local name=$1 target=$2
	shift 2
	{
		echo "benchgrid: 1"
		echo "name: $name"
		echo "target: $target"
		echo "steps:"
		printf '%s\n' "$@"
	} >"$t/$name.yaml"
	"$bg" run "$t/$name.yaml" -o "$t/$name.out" ${WORKDIR:+--work-dir "$WORKDIR"} >"$t/$name.log" 2>&1 ||
		{
			bad "$name: the run failed"
			cat "$t/$name.log"
		}
	metrics "$t/$name.out" >"$t/$name.m" 2>/dev/null
}

many_files() {
	local tgt="{kind: dir, path: $t/w}"
	local ls='    exec: "find . -name \"f.*\" -type f -printf \"%f %s\\n\" | sort -t. -k3 -n"'
	# roundrobin: every I/O on the next file, so 16 writes of 4k over 8 files
	# leave 8 files of 8k; openfiles: 2 makes it close and reopen all the time
	for eng in io_uring psync; do
		run "rr_$eng" "$tgt" \
			"  - {name: w, io: {rw: write, bs: 4k, nrfiles: 8, filesize: 64k, io_size: 64k, openfiles: 2, iodepth: 8, engine: $eng, file: f, keep: true}}" \
			"  - name: ls" "$ls"
		sizes=$(listing "$t/rr_$eng.out" ls | awk '{print $2}' | sort -u | tr '\n' ' ')
		n=$(listing "$t/rr_$eng.out" ls | wc -l)
		[ "$n" = 8 ] && [ "$sizes" = "8192 " ] && ok "roundrobin ($eng): every file touched, 8 files of 8192 bytes" ||
			{ bad "roundrobin ($eng): $n files, sizes $sizes"; listing "$t/rr_$eng.out" ls; }
		[ "$(mval "$t/rr_$eng.m" w bytes)" = 65536 ] && ok "roundrobin ($eng): bytes = io_size" || bad "roundrobin ($eng): $(cat "$t/rr_$eng.m")"
		find "$t/w" -mindepth 1 -delete
	done
	# sequential: finish one file before the next: 24k of 16k files = 16k + 8k + 0 ...
	run seq "$tgt" "  - {name: w, io: {rw: write, bs: 4k, nrfiles: 4, filesize: 16k, io_size: 24k, file_service: sequential, file: f, keep: true}}" \
		"  - name: ls" "$ls"
	got=$(listing "$t/seq.out" ls | awk '{printf "%s ", $2}')
	[ "$got" = "16384 8192 0 0 " ] && ok "sequential: files filled in order ($got)" || bad "sequential: sizes $got"
	find "$t/w" -mindepth 1 -delete
	# random: writes spread over the files; the sizes add up to io_size
	run rnd "$tgt" "  - {name: w, io: {rw: write, bs: 4k, nrfiles: 8, filesize: 64k, io_size: 128k, file_service: random, file: f, keep: true}}" \
		"  - name: ls" "$ls"
	read -r tot used <<<"$(listing "$t/rnd.out" ls | awk '{s += $2; if ($2 > 0) u++} END {print s, u}')"
	[ "$tot" = 131072 ] && [ "$used" -ge 4 ] && ok "random: $used of 8 files written, $tot bytes in all" || bad "random: $tot bytes in $used files"
	find "$t/w" -mindepth 1 -delete
	# filesize range: random writes allocate each file to its drawn size
	for r in 1 2; do
		run "range$r" "$tgt" "  - {name: w, io: {rw: randwrite, bs: 4k, nrfiles: 16, filesize: 4k-64k, file: f, keep: true, seed: 7}}" \
			"  - name: ls" "$ls"
		listing "$t/range$r.out" ls >"$t/range$r.ls"
		find "$t/w" -mindepth 1 -delete
	done
	if awk '$2 < 4096 || $2 > 65536 || $2 % 4096 { exit 1 } { s[$2] = 1; n++ } END { c = 0; for (k in s) c++; exit !(n == 16 && c >= 4) }' "$t/range1.ls"; then
		ok "filesize 4k-64k: 16 files, sizes in the range, multiples of bs, $(awk '{print $2}' "$t/range1.ls" | sort -u | wc -l) distinct"
	else
		bad "filesize range: $(cat "$t/range1.ls")"
	fi
	cmp -s "$t/range1.ls" "$t/range2.ls" && ok "filesize range: the same sizes with the same seed" || bad "filesize range: sizes differ between runs"
	[ "$(mval "$t/range1.m" w bytes)" = "$(awk '{s += $2} END {print s}' "$t/range1.ls")" ] &&
		ok "filesize range: io_size defaults to the files' total" || bad "filesize range: bytes $(mval "$t/range1.m" w bytes)"
	# nrfiles without filesize: size / nrfiles each; reads lay the files out
	run split "$tgt" "  - {name: r, io: {rw: randread, bs: 4k, size: 64k, nrfiles: 4, jobs: 2, iodepth: 4, file: f, keep: true}}" \
		"  - name: ls" "$ls"
	got=$(listing "$t/split.out" ls | awk '{printf "%s:%s ", $1, $2}')
	[ "$got" = "f.0.0:16384 f.1.0:16384 f.0.1:16384 f.1.1:16384 f.0.2:16384 f.1.2:16384 f.0.3:16384 f.1.3:16384 " ] &&
		ok "nrfiles 4 x jobs 2: files NAME.JOB.FILE of size / nrfiles" || bad "nrfiles split: $got"
	[ "$(mval "$t/split.m" r bytes)" = 131072 ] && ok "randread over 4 files: size bytes per job" || bad "split: $(cat "$t/split.m")"
	find "$t/w" -mindepth 1 -delete
	# without keep nothing is left
	run gone "$tgt" "  - {name: w, io: {rw: randrw, bs: 4k, nrfiles: 5, filesize: 8k-32k, openfiles: 3, sync: end}}" \
		"  - {name: ls, exec: \"ls -A | grep -v '^lost+found$' | wc -l\"}"
	[ "$(listing "$t/gone.out" ls)" = 0 ] && ok "many files: removed after the step" || bad "many files left: $(listing "$t/gone.out" ls)"
}

# the metadata operations in TARGET; WORKDIR for loop targets
meta_ops() {
	local tgt=$1 tag=$2
	local cnt='find . -path "./m.*" -type f | wc -l; find . -path "./m.*" -type d | wc -l'
	for op in create stat open-close unlink mkdir; do
		run "${tag}_$op" "$tgt" \
			"  - {name: m, io: {op: $op, dirs: 3, files_per_dir: 50, jobs: 2, file: m, keep: true}}" \
			"  - {name: ls, exec: '$cnt'}"
		read -r -d '' nf nd <<<"$(listing "$t/${tag}_$op.out" ls)"
		ops=$(mval "$t/${tag}_$op.m" m ops)
		case $op in
		unlink) want="0 8" ;;
		mkdir) want="0 308" ;;
		*) want="300 8" ;;
		esac
		[ "$ops" = 300 ] && [ "$nf $nd" = "$want" ] && ok "$tag op: $op: 300 ops, $nf files and $nd dirs left with keep" ||
			bad "$tag op: $op: ops $ops, files/dirs $nf $nd, want $want"
		grep -q "^m ok .*lat_p50_us=.*lat_p99_us=.*ops_s=.*series=ops_s" "$t/${tag}_$op.m" || bad "$tag op: $op: metrics $(cat "$t/${tag}_$op.m")"
	done
	# time_based stat loops over the tree until runtime; without keep nothing is left
	run "${tag}_loop" "$tgt" "  - {name: m, io: {op: stat, dirs: 2, files_per_dir: 20, runtime: 300ms, time_based: true, interval: 100ms, file: m}}" \
		"  - {name: ls, exec: \"ls -A | grep -v '^lost+found$' | wc -l\"}"
	ops=$(mval "$t/${tag}_loop.m" m ops)
	secs=$(mval "$t/${tag}_loop.m" m seconds)
	# 300 ms, plus the last stat and the time the jobs waited for a CPU (a
	# loaded machine can hold one off past the deadline)
	wait=$(mval "$t/${tag}_loop.m" m cpu_wait_s)
	python3 -c "import sys; sys.exit(not ($ops > 40 and 0.28 <= $secs <= 0.5 + ${wait:-0}))" &&
		ok "$tag stat time_based: $ops ops in $secs s (${wait:-0} s waiting for a CPU)" ||
		bad "$tag stat time_based: $ops ops in $secs s (${wait:-0} s waiting for a CPU)"
	[ "$(listing "$t/${tag}_loop.out" ls)" = 0 ] && ok "$tag metadata tree removed without keep" || bad "$tag tree left"
	python3 - "$t/${tag}_loop.out/results.json" <<'EOP' && ok "$tag ops_s series" || bad "$tag ops_s series"
import json, sys
s = json.load(open(sys.argv[1]))["cells"][0]["reps"][0][0]["series"]["ops_s"]
assert len(s["t"]) >= 2 and s["unit"] == "ops/s", s
EOP
}

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/w"
case $part in
main)
	many_files
	meta_ops "{kind: dir, path: $t/w}" dir
	;;
fio)
	command -v fio >/dev/null || { echo "SKIP: fio is not installed"; exit 77; }
	# three alternating pairs on the same job: 2000 files of one directory,
	# created one at a time; the median of the pairs' ratios compared (the
	# disk here is shared: a stall slows one pair, both tools alike)
	: >"$t/fio.ops"
	: >"$t/bg.ops"
	for i in 1 2 3; do
		rm -rf "$t/fio" && mkdir -p "$t/fio"
		fio --name=fc --ioengine=filecreate --nrfiles=2000 --filesize=4k --openfiles=1 \
			--directory="$t/fio" --output-format=json >"$t/fio.json" 2>"$t/fio.err" || { bad "fio failed: $(cat "$t/fio.err")"; exit 1; }
		fio_n=$(find "$t/fio" -type f | wc -l)
		python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['jobs'][0]['read']['iops'])" "$t/fio.json" >>"$t/fio.ops"
		rm -rf "$t/fc$i.out"
		run "fc$i" "{kind: dir, path: $t/w}" "  - {name: m, io: {op: create, dirs: 1, files_per_dir: 2000, file: fc, keep: true}}" \
			"  - {name: ls, exec: 'find . -type f | wc -l'}"
		bg_n=$(listing "$t/fc$i.out" ls)
		mval "$t/fc$i.m" m ops_s >>"$t/bg.ops"
		[ "$fio_n" = 2000 ] && [ "$bg_n" = 2000 ] || bad "file counts fio $fio_n, benchgrid $bg_n"
	done
	echo "     fio filecreate: $(tr '\n' ' ' <"$t/fio.ops")ops/s; benchgrid op: create: $(tr '\n' ' ' <"$t/bg.ops")ops/s"
	[ $fail = 0 ] && ok "create: 2000 files, as fio's filecreate (3 runs each)"
	r=$(python3 -c "import sys; a = [float(x) for x in open(sys.argv[1])]; b = [float(x) for x in open(sys.argv[2])]
print('%.3f' % sorted(x / y for x, y in zip(a, b))[1])" "$t/bg.ops" "$t/fio.ops")
	python3 -c "import sys; sys.exit(not (0.1 <= $r <= 10))" &&
		ok "create ops/s: the same order of magnitude as fio's (median pair ratio $r)" || bad "create ops/s: median pair ratio $r"
	;;
ext4)
	. "$(dirname "$0")/../../lib/fs_lib.sh" # its EXIT trap replaces ours
	EXTRA_CLEANUP='rm -rf "$t"'
	WORKDIR=$WORK
	meta_ops "{kind: loop, size: 64MiB, fs: ext4}" ext4
	run ext4_mf "{kind: loop, size: 64MiB, fs: ext4}" \
		"  - {name: w, io: {rw: randwrite, bs: 4k, nrfiles: 16, filesize: 4k-64k, openfiles: 4, iodepth: 8, direct: true, file: f, keep: true}}" \
		"  - {name: ls, exec: 'find . -name \"f.*\" -type f | wc -l'}"
	[ "$(listing "$t/ext4_mf.out" ls)" = 16 ] && grep -q "^w ok" "$t/ext4_mf.m" && ok "ext4: 16 files of 4k-64k, direct, openfiles 4" ||
		bad "ext4 many files: $(cat "$t/ext4_mf.m")"
	[ $fail = 0 ] && [ "$FAILS" = 0 ] && exit 0
	exit 1
	;;
esac
exit $fail
