#!/bin/bash
# kind: zram (issue 30), on this kernel's real zram driver:
#   1. a run on kind: zram with ext4 and xfs (mkfs, mount, an io step): the
#      facts name the kind, the file system and the compression, and no
#      zram device, mount or journal entry is left afterwards;
#   2. kill -9 in a cell's step, then `benchgrid cleanup`: the zram device
#      benchgrid created (and its mount) is removed;
#   3. the safety rules, with a zram device this test creates itself, outside
#      benchgrid (someone's RAM disk), then makes swap (mkswap, swapon):
#      `kind: device` on it is refused at check (rule 'zram', then rule
#      'swap'); a journal line naming it (written here: a crash's leftover,
#      the device removed and made again since) is left alone by cleanup
#      (not the device benchgrid created); a journal line with its true
#      identity while it is swap is refused too (rule 'swap'), and the
#      device stays as it was;
#   4. comp_algorithm (read from the kernel's list, on the test's own device):
#      a matrix over two algorithms gives each cell's device the one asked
#      (the facts dev.zram_comp_algorithm and fs.comp_algorithm "(asked)"),
#      the run of 1. recorded the default as "(default)"; one the kernel
#      does not have fails the cell at setup naming the available ones, and
#      leaves no zram device; a name that is no plain name is refused at
#      check (exit 2).
# The EXIT trap swaps off and removes the test's own device, and removes any
# zram device that appeared during the test and is still there.
. "$(dirname "$0")/fs_lib.sh"
BG=${BENCHGRID:-$BENCHGRID_BUILD/benchgrid}
if [ ! -w /sys/class/zram-control/hot_add ]; then
	echo "SKIP: no zram (/sys/class/zram-control: CONFIG_ZRAM, modprobe zram)"
	exit 77
fi
for p in mkfs.xfs mkswap swapon swapoff; do
	command -v $p >/dev/null || { echo "SKIP: $p is not installed"; exit 77; }
done
export BENCHGRID_STORE=$WORK/store.db
TAG=$$$RANDOM
zrams() { (cd /sys/block && ls -d zram* 2>/dev/null) | sort; }
BEFORE=$(zrams)
MINE="" # the test's own zram device (a number)
EXTRA_CLEANUP='zram_test_cleanup'
zram_test_cleanup() {
	pkill -9 -f "[.]$TAG" 2>/dev/null
	"$BG" cleanup >/dev/null 2>&1
	if [ -n "$MINE" ]; then
		swapoff /dev/zram$MINE 2>/dev/null
		echo 1 >/sys/block/zram$MINE/reset 2>/dev/null
		echo $MINE >/sys/class/zram-control/hot_remove 2>/dev/null
	fi
	local z m
	for z in $(comm -13 <(echo "$BEFORE") <(zrams)); do
		for m in $(awk -v d=/dev/$z '$1 == d { print $2 }' /proc/self/mounts); do umount -l "$m"; done
		echo 1 >/sys/block/$z/reset 2>/dev/null
		echo ${z#zram} >/sys/class/zram-control/hot_remove 2>/dev/null
	done
}
new_zrams() { comm -13 <(echo "$BEFORE") <(zrams) | tr '\n' ' '; }
facts() { python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
for c in r["cells"]:
    i = c["facts"]["info"]
    steps = [s for rep in c.get("reps", []) for s in rep]
    wrote = [s for s in steps if s["name"] == "w" and not s["failed"] and s["metrics"]]
    print(c["params"]["fs"], c["status"], i.get("fs.kind"), i.get("fs.type"),
          i.get("fs.source", "")[:9], "alg" if i.get("dev.zram_comp_algorithm") else "none",
          "io" if wrote else "no-io", i.get("fs.comp_algorithm", "-").replace(" ", "_"))
' "$1"; }

# 1. a run with ext4 and xfs
cat >"$WORK/run.yaml" <<'YAML'
name: zram-run
matrix:
  fs: [ext4, xfs]
target: {kind: zram, size: 320MiB, fs: "${fs}", mount_options: [noatime]}
steps:
  - name: w
    io: {rw: randwrite, bs: 4KiB, size: 8MiB, direct: true, runtime: 0.3s, time_based: true}
YAML
if "$BG" run -q -o "$WORK/out1" --work-dir "$WORK" "$WORK/run.yaml" >"$WORK/run.out" 2>"$WORK/run.err"; then
	ok "run on kind: zram (ext4, xfs) exits 0"
else
	bad "run on kind: zram failed:"
	sed 's/^/       /' "$WORK/run.err"
fi
if [ -s "$WORK/out1/results.json" ]; then
	facts "$WORK/out1/results.json" >"$WORK/facts.txt" 2>&1
	expect_grep "ext4 cell: fs.kind zram, fs.type ext4 on /dev/zram, compression (the default), io step" \
		'^ext4 ok zram ext4 /dev/zram alg io [a-z0-9_-]*_(default)$' "$WORK/facts.txt"
	expect_grep "xfs cell: fs.kind zram, fs.type xfs on /dev/zram, compression (the default), io step" \
		'^xfs ok zram xfs /dev/zram alg io [a-z0-9_-]*_(default)$' "$WORK/facts.txt"
else
	bad "no results.json"
fi
expect_eq "no zram device left after the run" "$(new_zrams)" ""
expect_clean "after the run"

# 2. kill -9 in the step, then cleanup
cat >"$WORK/kill.yaml" <<YAML
name: zram-kill
target: {kind: zram, size: 64MiB, fs: ext4}
steps:
  - name: hold
    exec: 'echo go >"$WORK/ready"; sleep 1000.$TAG'
YAML
"$BG" run -q -o "$WORK/out2" --work-dir "$WORK" "$WORK/kill.yaml" >"$WORK/kill.out" 2>"$WORK/kill.err" &
RUN=$!
BGPIDS="$BGPIDS $RUN"
for i in $(seq 1 300); do
	[ -s "$WORK/ready" ] && break
	kill -0 $RUN 2>/dev/null || break
	sleep 0.1
done
if [ -s "$WORK/ready" ]; then
	kill -9 $RUN
	wait $RUN 2>/dev/null
	LEFT=$(new_zrams)
	[ -n "$LEFT" ] && ok "after kill -9 the run's zram device is there: $LEFT" ||
		bad "after kill -9 no zram device is left to clean up (the test cannot tell)"
	[ -n "$(own_mounts)" ] && ok "and its mount" || bad "after kill -9 no mount is left"
	pkill -9 -f "[.]$TAG"
	if "$BG" cleanup >"$WORK/cleanup.out" 2>&1; then ok "cleanup exits 0"; else bad "cleanup failed"; cat "$WORK/cleanup.out"; fi
	expect_grep "cleanup names the zram device" "zram-remove /dev/zram" "$WORK/cleanup.out"
	expect_eq "no zram device left after cleanup" "$(new_zrams)" ""
	expect_clean "after kill -9 and cleanup"
else
	bad "the held step did not start"
	cat "$WORK/kill.err"
fi

# 3. a zram device of the test's own, then made swap
MINE=$(cat /sys/class/zram-control/hot_add)
echo 64M >/sys/block/zram$MINE/disksize
DEV=/dev/zram$MINE
for i in $(seq 1 100); do [ -b $DEV ] && break; sleep 0.01; done
cat >"$WORK/dev.yaml" <<YAML
name: zram-not-ours
target: {kind: device, path: $DEV, destroy: true, fs: ext4}
steps:
  - name: s
    exec: "true"
YAML
"$BG" check "$WORK/dev.yaml" >"$WORK/chk1.out" 2>&1
expect_eq "kind: device on a zram device benchgrid did not create: check exits 2" "$?" 2
expect_grep "the message names rule 'zram'" "refusing to format $DEV: rule 'zram': $DEV is a zram device benchgrid did not create" "$WORK/chk1.out"
"$BG" run --yes -q -o "$WORK/out3" --work-dir "$WORK" "$WORK/dev.yaml" >"$WORK/run3.out" 2>&1
expect_eq "run --yes refuses it too (exit 2)" "$?" 2
expect_eq "the device keeps its size" "$(cat /sys/block/zram$MINE/disksize)" 67108864

# A journal line naming the device with another identity: a leftover of a
# crash, the device benchgrid made since removed and zramN made again.
DEAD=$(sh -c 'echo $$')
ID=$(stat -L -c %i /sys/block/zram$MINE)
: >"$BENCHGRID_STATE"
echo "P 1 $DEAD 1 zram-remove $DEV $((ID + 1))" >>"$BENCHGRID_STATE"
"$BG" cleanup >"$WORK/cl1.out" 2>&1
expect_grep "cleanup: not the device benchgrid created, left alone" "$DEV is not the zram device benchgrid created" "$WORK/cl1.out"
[ -e /sys/block/zram$MINE ] && ok "the device is still there" || bad "cleanup removed the test's own zram device"
expect_eq "with its size" "$(cat /sys/block/zram$MINE/disksize 2>/dev/null)" 67108864

# Swap on it: check refuses with rule 'swap'; a journal line with its true
# identity does not make cleanup touch it either.
mkswap $DEV >/dev/null && swapon $DEV
grep -q "^$DEV " /proc/swaps && ok "$DEV is swap" || bad "could not make $DEV swap"
"$BG" check "$WORK/dev.yaml" >"$WORK/chk2.out" 2>&1
expect_eq "kind: device on a zram swap: check exits 2" "$?" 2
expect_grep "the message names rule 'swap'" "rule 'swap': $DEV is active swap" "$WORK/chk2.out"
: >"$BENCHGRID_STATE"
echo "P 1 $DEAD 1 zram-remove $DEV $ID" >>"$BENCHGRID_STATE"
"$BG" cleanup >"$WORK/cl2.out" 2>&1
expect_eq "cleanup of a journal line naming a zram swap exits 1" "$?" 1
expect_grep "and says why" "cannot remove $DEV, the zram device benchgrid created: rule 'swap'" "$WORK/cl2.out"
grep -q "^$DEV " /proc/swaps && ok "$DEV is still swap" || bad "cleanup touched the zram swap"
swapoff $DEV
: >"$BENCHGRID_STATE"

# 4. comp_algorithm: the kernel's list, read from the test's own device
# ("lzo [lzo-rle] lz4": the default in brackets)
ALGS=$(tr -d '[]' </sys/block/zram$MINE/comp_algorithm)
DEFAULT=$(grep -o '\[[^]]*\]' /sys/block/zram$MINE/comp_algorithm | tr -d '[]')
OTHER=$(for a in $ALGS; do [ "$a" != "$DEFAULT" ] && echo $a; done | head -1)
if [ -z "$OTHER" ]; then
	echo "note: this kernel's zram has one algorithm ($ALGS): the matrix runs it alone"
	OTHER=$DEFAULT
fi
cat >"$WORK/alg.yaml" <<YAML
name: zram-alg
matrix:
  alg: [$OTHER, $DEFAULT]
target: {kind: zram, size: 64MiB, fs: ext4, comp_algorithm: "\${alg}"}
steps:
  - name: w
    io: {rw: randwrite, bs: 4KiB, size: 4MiB, runtime: 0.2s, time_based: true}
YAML
if "$BG" run -q -o "$WORK/out4" --work-dir "$WORK" "$WORK/alg.yaml" >"$WORK/alg.out" 2>"$WORK/alg.err"; then
	ok "run with comp_algorithm: [$OTHER, $DEFAULT] exits 0"
else
	bad "run with comp_algorithm failed:"
	sed 's/^/       /' "$WORK/alg.err"
fi
python3 -c '
import json, sys
for c in json.load(open(sys.argv[1]))["cells"]:
    i = c["facts"]["info"]
    print(c["params"]["alg"], c["status"], i.get("dev.zram_comp_algorithm"), i.get("fs.comp_algorithm"))
' "$WORK/out4/results.json" >"$WORK/alg.txt" 2>&1
expect_grep "the $OTHER cell's device compresses with $OTHER, asked" "^$OTHER ok $OTHER $OTHER (asked)$" "$WORK/alg.txt"
expect_grep "the $DEFAULT cell's device compresses with $DEFAULT, asked" "^$DEFAULT ok $DEFAULT $DEFAULT (asked)$" "$WORK/alg.txt"
expect_eq "no zram device left after the run" "$(new_zrams | sed "s/zram$MINE //")" ""

sed 's/comp_algorithm: .*}/comp_algorithm: nosuch-alg}/; /^matrix:/,/^  alg:/d' "$WORK/alg.yaml" >"$WORK/alg-none.yaml"
"$BG" run -q -o "$WORK/out5" --work-dir "$WORK" "$WORK/alg-none.yaml" >"$WORK/none.out" 2>&1
expect_eq "an algorithm this kernel lacks: the run exits 1 (its cell failed)" "$?" 1
expect_grep "its error names the ones available" \
	"target.comp_algorithm: this kernel's zram has no 'nosuch-alg' (available: $(echo $ALGS | sed 's/ /, /g'))" "$WORK/none.out"
expect_eq "and no zram device is left" "$(new_zrams | sed "s/zram$MINE //")" ""

sed 's/comp_algorithm: .*}/comp_algorithm: "lz4 --fast"}/' "$WORK/alg-none.yaml" >"$WORK/alg-bad.yaml"
"$BG" check "$WORK/alg-bad.yaml" >"$WORK/chk4.out" 2>&1
expect_eq "comp_algorithm that is no plain name: check exits 2" "$?" 2
expect_grep "and says so" "target.comp_algorithm: 'lz4 --fast' is not an algorithm's name" "$WORK/chk4.out"
expect_clean "after the comp_algorithm runs"
fs_lib_finish
