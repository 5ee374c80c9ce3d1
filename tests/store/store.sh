#!/usr/bin/env bash
# store.sh: the results history in a real SQLite file: a run recorded,
# imported again without a duplicate, --no-store and BENCHGRID_STORE=none,
# stores that cannot be opened (the run's status stands and one line says
# why), a regression found in a synthetic series with the facts that
# changed, the SVG chart, and concurrent writers (eight imports and two
# runs at once into one new file), a reader during a live write and after
# a writer was killed mid-write (a hot journal), symbolic links in the
# store's path (its folders: followed; the file: refused) and a FIFO.
set -u
bg=${BENCHGRID:?}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
command -v sqlite3 >/dev/null || {
	echo "SKIP: sqlite3 (the command) is not installed"
	exit 77
}
# shellcheck source=tests/store/store_lib.sh
source "${BENCHGRID_SRC:?}/tests/store/store_lib.sh"
export BENCHGRID_STORE=$t/default.db
q() { sqlite3 "$1" "$2"; }

check run-records 0 'recorded in the results history' -- "$bg" run -o "$t/run1" "$t/tiny.yaml"
same run-rows "$(q "$t/default.db" 'SELECT count(*) FROM runs; SELECT count(*) FROM cells;
	SELECT count(*) FROM samples WHERE metric = '"'exit_status'"'; SELECT output_dir FROM runs;' | tr '\n' ' ')" \
	"1 2 4 $t/run1 "
same run-version "$(q "$t/default.db" 'SELECT version FROM schema_version')" 1
same run-env "$(q "$t/default.db" "SELECT count(*) FROM environment WHERE key IN ('machine.kernel', 'benchgrid.version', 'benchgrid.commit')")" 3
check store-again 0 'run1: already recorded' -- "$bg" store "$t/run1"
check run-again 0 'already recorded' -- "$bg" store --store "$t/default.db" "$t/run1"
same store-no-duplicate "$(q "$t/default.db" 'SELECT count(*) FROM runs; SELECT count(*) FROM metrics' | tr '\n' ' ')" \
	"1 $(q "$t/default.db" 'SELECT count(*) FROM metrics') "
check store-not-a-run 1 'results.json' -- "$bg" store "$t"
check store-usage 2 'usage: benchgrid store' -- "$bg" store

# Switched off: nothing created, nothing said.
check no-store 0 'finished' -- "$bg" run --no-store -o "$t/run2" "$t/tiny.yaml"
BENCHGRID_STORE=none check env-none 0 'finished' -- "$bg" run -o "$t/run3" "$t/tiny.yaml"
same env-none-quiet "$(grep -c 'results' <<<"$out")" 1
check store-flag 0 '^' -- "$bg" run -q --store "$t/flag.db" -o "$t/run4" "$t/tiny.yaml"
same store-flag-rows "$(q "$t/flag.db" 'SELECT count(*) FROM runs')" 1
same no-store-rows "$(q "$t/default.db" 'SELECT count(*) FROM runs')" 1

# Stores that cannot be used: the run succeeds (or fails) as it would.
check unreachable-proc 0 '^benchgrid: results not stored: .*/proc/nope' -- \
	"$bg" run -q --store /proc/nope/x.db -o "$t/run5" "$t/tiny.yaml"
same unreachable-one-line "$(grep -c 'not stored' <<<"$out")" 1
touch "$t/afile"
check unreachable-notdir 0 'results not stored: .*Not a directory' -- \
	"$bg" run -q --store "$t/afile/x.db" -o "$t/run6" "$t/tiny.yaml"
check unreachable-pg 0 'results not stored: PostgreSQL: .*(refused|connect)' -- \
	"$bg" run -q --store postgresql://benchgrid@127.0.0.1:1/nope -o "$t/run7" "$t/tiny.yaml"
check unreachable-failed-run 1 'results not stored' -- \
	"$bg" run -q --store /proc/nope/x.db -o "$t/run8" "$t/fails.yaml"
echo garbage >"$t/garbage.db"
check unreachable-not-sqlite 0 'results not stored: .*(not a database|file is not)' -- \
	"$bg" run -q --store "$t/garbage.db" -o "$t/run9" "$t/tiny.yaml"
check failed-run-recorded 1 'recorded' -- "$bg" run -o "$t/run10" "$t/fails.yaml"
same failed-run-status "$(q "$t/default.db" "SELECT c.status FROM cells c JOIN runs r USING (run_id) WHERE r.scenario = 'store-fails'")" failed

# A sweep in shares is recorded by the merge that completes it, once.
check shard-not-recorded 0 '^' -- "$bg" run -q --shard 0/2 -o "$t/sweep" "$t/tiny.yaml"
same shard-rows "$(q "$t/default.db" "SELECT count(*) FROM runs WHERE output_dir = '$t/sweep'")" 0
check merge-partial 1 'results not stored: 1 of 2 planned cells are missing' -- "$bg" merge -q "$t/sweep"
"$bg" run -q --shard 1/2 -o "$t/sweep" "$t/tiny.yaml"
check merge-records 0 'recorded in the results history' -- "$bg" merge "$t/sweep"
check merge-again 0 'already recorded' -- "$bg" merge "$t/sweep"
same merge-rows "$(q "$t/default.db" "SELECT count(*) FROM cells JOIN runs USING (run_id) WHERE output_dir = '$t/sweep'")" 2

# The default file: under HOME, made with private parents.
mkdir "$t/home"
check default-file 0 'recorded' -- env -u BENCHGRID_STORE -u XDG_DATA_HOME HOME="$t/home" \
	"$bg" run -o "$t/run11" "$t/tiny.yaml"
same default-file-modes "$(stat -c %a "$t/home/.local" "$t/home/.local/share" "$t/home/.local/share/benchgrid" \
	"$t/home/.local/share/benchgrid/results.db" | tr '\n' ' ')" "700 700 700 600 "

history_checks "$t/hist.db"
ln -s "$t/planted" "$t/link.svg"
check history-svg-link 1 'cannot write .*link.svg: Too many levels of symbolic links' -- \
	"$bg" history store-tiny --store "$t/hist.db" --svg "$t/link.svg"
same history-svg-link-target "$(ls "$t/planted" 2>&1 >/dev/null | grep -c 'No such file')" 1
check history-window 2 'window needs at least 3' -- "$bg" history store-tiny --store "$t/hist.db" --window 2
check history-unit 0 's\.tps \(tps\)' -- "$bg" history store-tiny --store "$t/hist.db" --metric s.tps
# history opened the store read-only: no journal, -wal or -shm file.
same history-wrote-nothing "$(cd "$t" && ls hist.db*)" hist.db

# A symbolic link among the store's folders is the user's own and works; the
# store file itself as a link is refused (and nothing made), as is a FIFO
# (which would hang the open).
mkdir "$t/real"
ln -s real "$t/lnk"
check store-folder-link 0 'recorded' -- "$bg" store --store "$t/lnk/a.db" "$t/run1"
same store-folder-link-rows "$(q "$t/real/a.db" 'SELECT count(*) FROM runs')" 1
check history-folder-link 0 's\.tps|exit_status|run' -- "$bg" history store-tiny --store "$t/lnk/a.db"
ln -s real/a.db "$t/filelink.db"
check store-file-link 1 'filelink.db: is a symbolic link' -- "$bg" store --store "$t/filelink.db" "$t/run1"
check history-file-link 1 'filelink.db: is a symbolic link' -- "$bg" history store-tiny --store "$t/filelink.db"
ln -s nowhere.db "$t/dangling.db"
check store-dangling-link 1 'dangling.db: is a symbolic link' -- "$bg" store --store "$t/dangling.db" "$t/run1"
same store-dangling-made-nothing "$(ls "$t/nowhere.db" 2>/dev/null | wc -l)" 0
mkfifo "$t/fifo.db"
check history-fifo 1 'fifo.db: not a regular file' -- timeout 10 "$bg" history store-tiny --store "$t/fifo.db"
check plan-fifo 0 'cannot read the results history .*fifo.db' -- timeout 10 "$bg" plan --store "$t/fifo.db" "$t/tiny.yaml"
check store-fifo 1 'fifo.db: not a regular file' -- timeout 10 "$bg" store --store "$t/fifo.db" "$t/run1"

# A reader during a live write: a writer (python3's sqlite3) holds the write
# lock with pages spilled into the file (a one-page cache) and a journal;
# history waits for it (busy timeout) and reads the committed state.
# A writer killed mid-write leaves a hot journal: history says how to recover,
# never "malformed", and a writing command rolls it back.
live_writer() { # live_writer DB MODE(commit|kill) READY_FILE
	/usr/bin/python3 - "$@" <<'PY'
import os, sqlite3, sys, time
db, mode, ready = sys.argv[1:4]
c = sqlite3.connect(db, isolation_level=None)
c.execute("PRAGMA cache_size=1")
c.execute("BEGIN IMMEDIATE")
for i in range(3000):
    rid = "live%06d" % i
    c.execute("INSERT INTO runs (run_id, scenario, started) VALUES (?, 'live', ?)", (rid, float(i)))
    c.execute("INSERT INTO cells (run_id, cell_id, status) VALUES (?, 'c', 'ok')", (rid,))
    c.execute("INSERT INTO metrics (run_id, cell_id, step, metric, value) VALUES (?, 'c', 's', 'tps', ?)",
              (rid, float(i)))
open(ready, "w").close()
if mode == "kill":
    os._exit(0)
time.sleep(3)
c.execute("COMMIT")
PY
}
cp "$t/hist.db" "$t/live.db"
live_writer "$t/live.db" commit "$t/live.ready" &
writer=$!
for _ in $(seq 100); do [[ -e "$t/live.ready" ]] && break; sleep 0.1; done
same live-writer-journal "$(ls "$t/live.db-journal" 2>/dev/null | wc -l)" 1
check history-during-write 0 "s\.tps" -- "$bg" history store-tiny --store "$t/live.db" --metric s.tps
wait "$writer"
cp "$t/hist.db" "$t/killed.db"
live_writer "$t/killed.db" kill "$t/killed.ready"
same killed-hot-journal "$(ls "$t/killed.db-journal" 2>/dev/null | wc -l)" 1
check history-hot-journal 1 'left mid-write by a killed writer; run any writing command' -- \
	"$bg" history store-tiny --store "$t/killed.db"
check store-recovers 0 'recorded' -- "$bg" store --store "$t/killed.db" "$t/run1"
check history-after-recovery 0 "s\.tps" -- "$bg" history store-tiny --store "$t/killed.db" --metric s.tps
same killed-rolled-back "$(q "$t/killed.db" "SELECT count(*) FROM runs WHERE scenario = 'live'")" 0

# Concurrent writers into one new file: eight imports (the schema made
# once) and two runs at once; the same run imported twice at once is one.
make_series "$t/run1" "$t/conc" 1 2 3 4 5 6 7 8
for i in 0 1 2 3 4 5 6 7; do
	"$bg" store --store "$t/conc.db" "$t/conc$i" >"$t/conc$i.out" 2>&1 &
done
"$bg" store --store "$t/conc.db" "$t/conc0" >"$t/concdup.out" 2>&1 &
"$bg" run -q --store "$t/conc.db" -o "$t/crun1" "$t/tiny.yaml" >"$t/crun1.out" 2>&1 &
"$bg" run -q --store "$t/conc.db" -o "$t/crun2" "$t/tiny.yaml" >"$t/crun2.out" 2>&1 &
wait
same concurrent-errors "$(cat "$t"/conc*.out "$t"/crun*.out | grep -c 'not stored\|locked\|error')" 0
same concurrent-rows "$(q "$t/conc.db" 'SELECT count(*) FROM runs; SELECT count(*) FROM cells;
	SELECT count(*) FROM schema_version' | tr '\n' ' ')" "10 20 1 "
finish
