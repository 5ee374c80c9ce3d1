#!/usr/bin/env bash
# safe_files.sh: every file benchgrid reads on a scenario's behalf goes
# through util/safe_file (issue 29, items 6-8 and the low ones): hooks_file,
# require, include, import-fio's job files and includes, report's
# results.json. A FIFO does not hang (each case under `timeout`), /dev/zero
# does not grow memory (under `ulimit -v`), a link to either is refused, a
# private file (0600 in a 0700 folder) is refused without a line of it shown,
# /proc/kallsyms is not read, `load(s, "@PATH")` opens nothing. import-fio
# writes through mkstemp + rename (a planted OUT.tmp link is not followed, a
# link at OUT refused), a --partial scenario of a private job file is 0600,
# and numjobs=100000 or iodepth=65535 is refused naming the job (--partial:
# left out, and `check` passes). run:write replaces a planted link in the
# output folder instead of writing through it; report DIR refuses a planted
# results.json link unread; a store file owned by another user (nobody) or
# writable by others is not written to. A FIFO planted in a results folder
# (a share's files, selection.json, journal.jsonl) blocks neither merge nor
# --resume.
# Root: the readable-by-everyone rule exempts a user's own files.
set -u
bg=${BENCHGRID:?}
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: needs root (a private file is only refused to root or another user; chown nobody)"
	exit 77
fi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
chmod 755 "$t"
export BENCHGRID_STATE=$t/state BENCHGRID_STORE=none
fail=0 pass=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() {
	echo "FAIL $1"
	shift
	printf '%s\n' "$@" | head -20
	fail=$((fail + 1))
}
# expect NAME STATUS PATTERN -- command...: status and a line matching.
expect() {
	local name=$1 want=$2 pat=$3
	shift 4
	out=$("$@" 2>&1)
	rc=$?
	if [[ $rc -eq $want ]] && grep -qE -- "$pat" <<<"$out"; then ok "$name"; else bad "$name (status $rc, want $want; /$pat/)" "$out"; fi
}
# A command that could hang or eat memory: 10 s and 1 GiB of address space.
bounded() { (ulimit -v 1048576 && timeout 10 "$@"); }
no_secret() { # no_secret NAME TEXT: the private content is not shown
	if grep -q SECRET <<<"$2"; then bad "$1: a private line shown" "$2"; else ok "$1"; fi
}

mkfifo "$t/fifo"
ln -s "$t/fifo" "$t/fifo_link.lua"
ln -s /dev/zero "$t/zero_link.lua"
ln -s "$t/fifo" "$t/fifo_link.yaml"
ln -s /dev/zero "$t/zero_link.yaml"
scen() { # scen FILE TEXT: a scenario of one exec step and TEXT on top
	printf '%s\nsteps:\n  - name: s\n    exec: {command: "true"}\n' "$2" >"$1"
}

# --- hooks_file ---
scen "$t/hf_fifo.yaml" "hooks_file: fifo"
expect hooks_file-fifo 2 'hooks_file: .*/fifo is a FIFO: only regular files are read' -- bounded "$bg" check "$t/hf_fifo.yaml"
scen "$t/hf_zero.yaml" "hooks_file: /dev/zero"
expect hooks_file-dev-zero 2 'hooks_file: /dev/zero is a character device' -- bounded "$bg" check "$t/hf_zero.yaml"
scen "$t/hf_fifo_link.yaml" "hooks_file: fifo_link.lua"
expect hooks_file-link-fifo 2 'fifo_link.lua is a symbolic link: not followed' -- bounded "$bg" check "$t/hf_fifo_link.yaml"
scen "$t/hf_zero_link.yaml" "hooks_file: zero_link.lua"
expect hooks_file-link-zero 2 'zero_link.lua is a symbolic link: not followed' -- bounded "$bg" check "$t/hf_zero_link.yaml"
head -c $((17 << 20)) /dev/zero | tr '\0' '-' >"$t/big.lua"
scen "$t/hf_big.yaml" "hooks_file: big.lua"
expect hooks_file-over-16MiB 2 'big.lua is larger than 16777216 bytes \(16 MiB\)' -- bounded "$bg" check "$t/hf_big.yaml"

# --- require ---
scen "$t/rq_fifo.yaml" "hooks: |
  local m = require('fifo_link')"
expect require-link-fifo 2 "require 'fifo_link': .*fifo_link.lua is a symbolic link" -- bounded "$bg" check "$t/rq_fifo.yaml"
scen "$t/rq_zero.yaml" "hooks: |
  local m = require('zero_link')"
expect require-link-zero 2 "require 'zero_link': .*zero_link.lua is a symbolic link" -- bounded "$bg" check "$t/rq_zero.yaml"
mkfifo "$t/plainfifo.lua"
scen "$t/rq_plainfifo.yaml" "hooks: |
  local m = require('plainfifo')"
expect require-fifo 2 "require 'plainfifo': .*plainfifo.lua is a FIFO" -- bounded "$bg" check "$t/rq_plainfifo.yaml"

# --- load(s, "@PATH"): the chunk's name opens nothing (a FIFO would hang) ---
scen "$t/load_at.yaml" "hooks: |
  load(\"error('boom')\", \"@$t/fifo\")()"
expect load-at-path-opens-nothing 2 'boom' -- bounded "$bg" check "$t/load_at.yaml"

# --- private files: 0600 in a 0700 folder ---
mkdir -m 700 "$t/priv"
printf 'return SECRET_TOKEN_4711 SECRET_TOKEN_4711\n' >"$t/priv/secret.lua"
printf 'vars: {a: SECRET_TOKEN_4711}\n: : :\n' >"$t/priv/secret.yaml"
printf 'bs=SECRET_TOKEN_4711\nSECRET_OPTION=1\n' >"$t/priv/secret.inc"
chmod 600 "$t/priv/"*
scen "$t/priv/rq.yaml" "hooks: |
  local m = require('secret')"
expect require-private 2 "secret.lua is not readable by everyone \(run as root\)" -- bounded "$bg" check "$t/priv/rq.yaml"
no_secret require-private-unquoted "$out"
scen "$t/priv/hf.yaml" "hooks_file: secret.lua"
expect hooks_file-private 2 "secret.lua is not readable by everyone \(run as root\)" -- bounded "$bg" check "$t/priv/hf.yaml"
no_secret hooks_file-private-unquoted "$out"
scen "$t/inc_priv.yaml" "include: priv/secret.yaml"
expect include-private 2 "secret.yaml is not readable by everyone \(run as root\)" -- bounded "$bg" check "$t/inc_priv.yaml"
no_secret include-private-unquoted "$out"

# --- include: links, the kernel's files ---
scen "$t/inc_fifo_link.yaml" "include: fifo_link.yaml"
expect include-link-fifo 2 'fifo_link.yaml is a symbolic link: not followed' -- bounded "$bg" check "$t/inc_fifo_link.yaml"
scen "$t/inc_zero_link.yaml" "include: zero_link.yaml"
expect include-link-zero 2 'zero_link.yaml is a symbolic link: not followed' -- bounded "$bg" check "$t/inc_zero_link.yaml"
scen "$t/inc_kallsyms.yaml" "include: /proc/kallsyms"
expect include-kallsyms 2 '/proc/kallsyms is on procfs' -- bounded "$bg" check "$t/inc_kallsyms.yaml"
if grep -qiE '[0-9a-f]{16} [a-z] ' <<<"$out"; then bad include-kallsyms-no-address "$out"; else ok include-kallsyms-no-address; fi

# --- import-fio: includes ---
printf '[job]\nrw=read\ninclude fifo\n' >"$t/inc_fifo.fio"
expect import-include-fifo 2 'fifo is a FIFO' -- bounded "$bg" import-fio "$t/inc_fifo.fio"
printf '[job]\nrw=read\ninclude /dev/zero\n' >"$t/inc_zero.fio"
expect import-include-dev-zero 2 '/dev/zero is a character device' -- bounded "$bg" import-fio "$t/inc_zero.fio"
printf '[job]\nrw=read\ninclude priv/secret.inc\n' >"$t/inc_priv.fio"
expect import-include-private 2 'secret.inc is not readable by everyone' -- bounded "$bg" import-fio "$t/inc_priv.fio"
no_secret import-include-private-unquoted "$out"
bounded "$bg" import-fio --partial -o "$t/partial.yaml" "$t/inc_priv.fio" >/dev/null 2>&1
if [ -e "$t/partial.yaml" ] && grep -q SECRET "$t/partial.yaml"; then
	bad import-partial-private "$(cat "$t/partial.yaml")"
else ok import-partial-private; fi
# A private job file (the user's own input): its --partial scenario is 0600.
printf '[job]\nrw=read\nSECRET_OPTION=1\n' >"$t/priv_job.fio"
chmod 600 "$t/priv_job.fio"
"$bg" import-fio --partial -o "$t/priv_job.yaml" "$t/priv_job.fio" >/dev/null 2>&1
mode=$(stat -c %a "$t/priv_job.yaml" 2>/dev/null)
[ "$mode" = 600 ] && ok "import-partial-private-job-0600" || bad "import-partial-private-job-0600 (mode $mode)"

# --- import-fio -o: a planted OUT.tmp link, a link at OUT ---
printf '[job]\nrw=read\nbs=4k\nsize=1m\n' >"$t/plain.fio"
echo victim >"$t/victim"
ln -s "$t/victim" "$t/out.yaml.tmp"
expect import-planted-tmp 0 '' -- "$bg" import-fio -o "$t/out.yaml" "$t/plain.fio"
[ "$(cat "$t/victim")" = victim ] && ok import-planted-tmp-not-followed || bad import-planted-tmp-not-followed "$(head -3 "$t/victim")"
[ -f "$t/out.yaml" ] && [ ! -L "$t/out.yaml" ] && ok import-out-written || bad import-out-written
ln -s "$t/victim" "$t/linked.yaml"
expect import-link-at-out 1 'linked.yaml is a symbolic link: not written' -- "$bg" import-fio -o "$t/linked.yaml" "$t/plain.fio"
[ "$(cat "$t/victim")" = victim ] && ok import-link-at-out-victim || bad import-link-at-out-victim

# --- import-fio: values check refuses ---
printf '[big]\nrw=read\nbs=4k\nsize=1m\nnumjobs=100000\n[deep]\nstonewall\nrw=read\nsize=1m\nioengine=io_uring\niodepth=65535\n' >"$t/limits.fio"
expect import-numjobs-named 2 "job 'big': jobs: 100000 is outside the io step's range 1..256" -- "$bg" import-fio "$t/limits.fio"
expect import-iodepth-named 2 "job 'deep': iodepth: 65535 is outside the io step's range 1..4096" -- "$bg" import-fio "$t/limits.fio"
expect import-limits-partial 0 'warning' -- "$bg" import-fio --partial -o "$t/limits.yaml" "$t/limits.fio"
expect import-limits-partial-checks 0 '' -- "$bg" check "$t/limits.yaml"

# --- report DIR: a planted results.json link ---
mkdir "$t/rep"
printf 'SECRET_TOKEN_4711 not json\n' >"$t/priv/target"
ln -s "$t/priv/target" "$t/rep/results.json"
expect report-planted-results-link 1 'results.json is a symbolic link: not followed' -- bounded "$bg" report "$t/rep"
no_secret report-planted-results-link-unquoted "$out"

# --- run:write: a link planted in the output folder ---
printf 'name: w\nhooks: |\n  function finish(run) run:write("note.txt", "from the hook") end\nsteps:\n  - name: s\n    exec: {command: "true"}\n' >"$t/w.yaml"
mkdir -m 755 "$t/wout"
ln -s "$t/victim" "$t/wout/note.txt"
expect run-write-planted-link 0 '' -- "$bg" run -q --no-store -o "$t/wout" "$t/w.yaml"
[ "$(cat "$t/victim")" = victim ] && ok run-write-link-not-followed || bad run-write-link-not-followed "$(cat "$t/victim")"
[ ! -L "$t/wout/note.txt" ] && [ "$(cat "$t/wout/note.txt")" = "from the hook" ] && ok run-write-replaced-link || bad run-write-replaced-link

# --- a store file of another user, or writable by others ---
if command -v sqlite3 >/dev/null && id nobody >/dev/null 2>&1; then
	scen "$t/tiny.yaml" "name: tiny"
	"$bg" run -q --no-store -o "$t/srun" "$t/tiny.yaml" >/dev/null 2>&1
	"$bg" store --store "$t/other.db" "$t/srun" >/dev/null 2>&1
	cp "$t/other.db" "$t/open.db"
	chown nobody "$t/other.db"
	before=$(sqlite3 "$t/other.db" 'SELECT count(*) FROM runs')
	"$bg" run -q --no-store -o "$t/srun2" "$t/tiny.yaml" >/dev/null 2>&1
	expect store-other-user 1 'other.db: is owned by uid [0-9]+, not by the user writing to it' -- "$bg" store --store "$t/other.db" "$t/srun2"
	after=$(sqlite3 "$t/other.db" 'SELECT count(*) FROM runs')
	[ "$before" = "$after" ] && ok store-other-user-unchanged || bad "store-other-user-unchanged ($before -> $after runs)"
	chmod 666 "$t/open.db"
	expect store-writable-by-others 1 'open.db: is writable by others' -- "$bg" store --store "$t/open.db" "$t/srun2"
	expect store-readonly-still-reads 0 "tiny" -- "$bg" history --list --store "$t/other.db"
else
	echo "skip store cases: no sqlite3 or no user nobody"
fi

# --- results folders of other runs and shares: a FIFO planted where a
# share's results, a share's facts, the selection of -D/--only or the
# journal should be does not block merge or --resume (each is refused or
# skipped, in time) ---
scen "$t/two.yaml" $'name: two\nmatrix: {x: [1, 2]}'
"$bg" run -q --no-store -o "$t/sh" --shard 0/2 "$t/two.yaml" >/dev/null 2>&1
"$bg" run -q --no-store -o "$t/sh" --shard 1/2 "$t/two.yaml" >/dev/null 2>&1
for f in "$t"/sh/shards/0-of-2.results.json "$t"/sh/shards/1-of-2.json; do
	[ -f "$f" ] || bad "shard file $(basename "$f") missing: $(ls "$t/sh/shards")"
	rm -f "$f" && mkfifo "$f"
done
out=$(bounded "$bg" merge "$t/sh" 2>&1)
rc=$?
[ $rc -ne 124 ] && [ $rc -ne 137 ] && ok "merge-fifo-in-shards (status $rc)" || bad "merge-fifo-in-shards: merge hung on a FIFO" "$out"
scen "$t/one.yaml" $'name: one\nvars: {x: 1}'
"$bg" run -q --no-store -o "$t/res" -D x=2 "$t/one.yaml" >/dev/null 2>&1
for f in selection.json journal.jsonl; do
	[ -f "$t/res/$f" ] || { bad "resume-fifo-$f: no $f to replace: $(ls "$t/res")"; continue; }
	cp -p "$t/res/$f" "$t/res/$f.keep"
	rm -f "$t/res/$f" && mkfifo "$t/res/$f"
	out=$(bounded "$bg" run -q --no-store --resume "$t/res" "$t/one.yaml" 2>&1)
	rc=$?
	[ $rc -ne 124 ] && [ $rc -ne 137 ] && [ $rc -ne 0 ] && ok "resume-fifo-$f (status $rc)" ||
		bad "resume-fifo-$f: status $rc (124: hung on the FIFO; 0: a FIFO accepted)" "$out"
	rm -f "$t/res/$f" && mv "$t/res/$f.keep" "$t/res/$f"
done

echo "safe_files: $pass passed, $fail failed"
[ $fail -eq 0 ]
