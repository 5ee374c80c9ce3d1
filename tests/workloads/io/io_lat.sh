#!/usr/bin/env bash
# Latency over time in the io step, through the CLI on real files with
# io_uring (direct I/O where the file system allows it):
#   - a randread step with a ramp, lat_log and hist_log: STEP.lat.csv has one
#     line per measured I/O (as many as bytes / bs), all reads, after the
#     ramp, in time order; its exact percentiles agree with the step's
#     histogram metrics (within the histogram's 0.4%, and min/max exactly);
#     STEP.hist.csv's intervals follow each other from the end of the ramp,
#     add up to the I/O count, and each bucket holds exactly the log's
#     latencies in [low_ns, high_ns];
#   - the time series has read_lat_{p50,p99,max}_us with p50 <= p99 <= max
#     within the step's min and max, and no write columns for the read step;
#   - a randwrite step's series has the write columns (and no read ones), and
#     its logs are checked the same way;
#   - every CSV is RFC 4180 (CRLF, every row as wide as its header).
set -u
bg=${BENCHGRID:?}
base=${TMPDIR_IO_LAT:-/var/tmp}
t=$(mktemp -d "$base/io_lat.XXXXXX") || { echo "SKIP: cannot create a directory in $base"; exit 77; }
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/work"

direct=true
if ! dd if=/dev/zero of="$t/work/probe" bs=4096 count=1 oflag=direct status=none 2>/dev/null; then
	direct=false # a file system without O_DIRECT: buffered I/O still exercises everything
fi
rm -f "$t/work/probe"

cat >"$t/s.yaml" <<YAML
benchgrid: 1
name: io-lat
target: {kind: dir, path: $t/work}
steps:
  - name: rr
    io: {rw: randread, bs: 4k, size: 32MiB, iodepth: 4, direct: $direct, runtime: 1s,
         time_based: true, ramp: 300ms, interval: 200ms, lat_log: true, hist_log: 250ms}
  - name: wr
    io: {rw: randwrite, bs: 4k, size: 16MiB, iodepth: 4, direct: $direct, runtime: 1s,
         time_based: true, interval: 250ms, lat_log: true, hist_log: 300ms}
  - name: mix
    io: {rw: randrw, bs: 4k, size: 16MiB, jobs: 2, engine: psync, direct: $direct, runtime: 1s,
         time_based: true, interval: 250ms, lat_log: true, hist_log: 300ms}
YAML

if ! "$bg" run -q -o "$t/out" "$t/s.yaml" >"$t/log" 2>&1; then
	echo "FAIL: the run failed"
	cat "$t/log"
	exit 1
fi

python3 - "$t/out" <<'PY'
import csv, glob, io, json, math, os, sys

d = sys.argv[1]
fail = []


def check(what, cond):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        fail.append(what)


def read_csv(path):
    raw = open(path, 'rb').read()
    text = raw.decode('utf-8')
    lines = text.split('\r\n')
    check('%s: every line ends in CRLF' % os.path.basename(path),
          text.endswith('\r\n') and '\n' not in text.replace('\r\n', ''))
    rows = list(csv.reader(io.StringIO(text, newline=''), strict=True))
    check('%s: every row as wide as the header' % os.path.basename(path),
          all(len(r) == len(rows[0]) for r in rows))
    return rows[0], rows[1:]


res = json.load(open(os.path.join(d, 'results.json')))
cell = res['cells'][0]
steps = {s['name']: s for s in cell['reps'][0]}
cdir = glob.glob(os.path.join(d, 'cells', '*'))[0]
th, trows = read_csv(os.path.join(d, 'timeseries.csv'))


def metric(s, name):
    return s['metrics'][name]['value']


def nearest_rank(sorted_v, pct):
    k = max(1, math.ceil(pct / 100.0 * len(sorted_v)))
    return sorted_v[k - 1]


def check_step(name, dirname, ramp, period):
    s = steps[name]
    check('%s: not failed' % name, not s['failed'])
    ios = round(metric(s, 'bytes') / 4096)
    h, rows = read_csv(os.path.join(cdir, name + '.lat.csv'))
    check('%s.lat.csv header' % name, h == ['time_s', 'job', 'dir', 'lat_us', 'bytes', 'offset'])
    check('%s.lat.csv: one line per measured I/O (%d lines, %d I/Os)' % (name, len(rows), ios),
          len(rows) == ios and ios > 100)
    times = [float(r[0]) for r in rows]
    check('%s.lat.csv: in time order, after the ramp' % name,
          times == sorted(times) and times[0] >= ramp)
    check('%s.lat.csv: all %s, 4096 bytes, aligned offsets in the file' % (name, dirname),
          all(r[2] == dirname and r[4] == '4096' and int(r[5]) % 4096 == 0 for r in rows))
    lat_ns = sorted(round(float(r[3]) * 1000) for r in rows)
    for p in (50, 90, 99):
        exact = nearest_rank(lat_ns, p) / 1e3
        m = metric(s, 'lat_p%d_us' % p)
        check('%s: p%d of the log %.3f us vs the metric %.3f us (within 0.5%%)' % (name, p, exact, m),
              abs(exact - m) <= 0.005 * exact + 0.001)
    check('%s: max and min of the log are the metrics' % name,
          abs(lat_ns[-1] / 1e3 - metric(s, 'lat_max_us')) < 1e-6 and
          abs(lat_ns[0] / 1e3 - metric(s, 'lat_min_us')) < 1e-6)

    hh, hrows = read_csv(os.path.join(cdir, name + '.hist.csv'))
    check('%s.hist.csv header' % name,
          hh == ['start_s', 'end_s', 'dir', 'bucket', 'low_ns', 'high_ns', 'count'])
    total = sum(int(r[6]) for r in hrows)
    check('%s.hist.csv: the intervals add up to the I/O count (%d)' % (name, total), total == ios)
    ivls = sorted({(float(r[0]), float(r[1])) for r in hrows})
    check('%s.hist.csv: %d intervals from the end of the ramp, each starting where the last ended'
          % (name, len(ivls)),
          len(ivls) >= 2 and abs(ivls[0][0] - ramp) < 1e-9 and
          all(a[1] == b[0] for a, b in zip(ivls, ivls[1:])) and all(a < b for a, b in ivls))
    # each interval but the last ends at the first multiple of hist_log
    # (from the ramp's end) after its start, or later when the sampler woke
    # late (a loaded machine: it then skips the multiples it passed): never
    # early, late by under half a period in the lower median (of a few
    # intervals, one late wake-up must not decide)
    lates = []
    for a, b in ivls[:-1]:
        due = ramp + (math.floor((a - ramp) / period + 1e-9) + 1) * period
        lates.append(b - due)
    check('%s.hist.csv: intervals end on the hist_log grid, never early, median lateness %.1f ms'
          % (name, 1e3 * sorted(lates)[(len(lates) - 1) // 2] if lates else 0),
          all(x >= -1e-6 for x in lates) and (not lates or sorted(lates)[(len(lates) - 1) // 2] < period / 2))
    per = {}
    for r in hrows:
        if r[3]:
            key = (int(r[4]), int(r[5]))
            per[key] = per.get(key, 0) + int(r[6])
    import bisect
    exact_ok = all(bisect.bisect_right(lat_ns, hi) - bisect.bisect_left(lat_ns, lo) == n
                   for (lo, hi), n in per.items())
    check('%s.hist.csv: each bucket holds exactly the log\'s latencies in [low_ns, high_ns]' % name,
          exact_ok and all(r[2] == dirname for r in hrows))

    # the series
    col = {n: i for i, n in enumerate(th)}
    other = 'write' if dirname == 'read' else 'read'
    mine = [r for r in trows if r[col['step']] == name]
    have = [r for r in mine if r[col[dirname + '_lat_p50_us']] != '']
    # every interval after the ramp has I/Os, so latencies (a loaded
    # machine may merge intervals: their number is not fixed)
    measured = [r for r in mine if float(r[col['t']]) > ramp + 0.2 and r[col['iops']] != '']
    check('%s: series has %s_lat_* in %d of %d intervals' % (name, dirname, len(have), len(mine)),
          len(have) >= 2 and all(r in have for r in measured))
    lo, hi = metric(s, 'lat_min_us'), metric(s, 'lat_max_us')
    good = True
    for r in have:
        p50, p99, mx = (float(r[col['%s_lat_%s_us' % (dirname, k)]]) for k in ('p50', 'p99', 'max'))
        good = good and lo * 0.995 <= p50 <= p99 <= mx <= hi * 1.005
    check('%s: each interval has min <= p50 <= p99 <= max <= the step\'s max' % name, good)
    check('%s: no %s columns in its rows' % (name, other),
          other + '_lat_p50_us' not in col or all(r[col[other + '_lat_p50_us']] == '' for r in mine))
    if ramp > 0:
        first = float(mine[0][col['t']])
        check('%s: no latency in the ramp\'s first interval (t=%g)' % (name, first),
              first > ramp or mine[0][col[dirname + '_lat_p50_us']] == '')


check_step("rr", "read", 0.3, 0.25)
check_step('wr', 'write', 0.0, 0.3)

# randrw on psync with two jobs: both directions in the log, the histogram
# log and the series
s = steps['mix']
ios = round(metric(s, 'bytes') / 4096)
h, rows = read_csv(os.path.join(cdir, 'mix.lat.csv'))
dirs = {r[2] for r in rows}
check('mix.lat.csv: %d lines for %d I/Os, both directions, both jobs' % (len(rows), ios),
      len(rows) == ios and dirs == {'read', 'write'} and {r[1] for r in rows} == {'0', '1'})
times = [float(r[0]) for r in rows]
check('mix.lat.csv: in time order over both jobs', times == sorted(times))
hh, hrows = read_csv(os.path.join(cdir, 'mix.hist.csv'))
for dn in ('read', 'write'):
    n_log = sum(1 for r in rows if r[2] == dn)
    n_hist = sum(int(r[6]) for r in hrows if r[2] == dn)
    check('mix.hist.csv: %s counts add up to the log\'s %d' % (dn, n_log), n_log == n_hist)
col = {n: i for i, n in enumerate(th)}
mine = [r for r in trows if r[col['step']] == 'mix']
for dn in ('read', 'write'):
    have = [r for r in mine if r[col[dn + '_lat_p50_us']] != '']
    check('mix: series has %s_lat_* with p50 <= p99 <= max' % dn,
          len(have) >= 2 and all(r in have for r in mine if r[col['iops']] != '') and
          all(float(r[col[dn + '_lat_p50_us']]) <= float(r[col[dn + '_lat_p99_us']])
                                 <= float(r[col[dn + '_lat_max_us']]) for r in have))
sys.exit(1 if fail else 0)
PY
[ $? -eq 0 ] || exit 1

# Repetitions keep their own logs: a warm-up and two recorded runs give
# STEP.warmup1.*, STEP.rep1.* and STEP.rep2.*, each repetition's result
# naming its own file, each file with that run's I/Os.
cat >"$t/r.yaml" <<YAML
benchgrid: 1
name: io-lat-reps
repeat: 2
warmup: 1
target: {kind: dir, path: $t/work}
steps:
  - name: rr
    io: {rw: randread, bs: 4k, size: 8MiB, iodepth: 2, direct: $direct, runtime: 300ms,
         time_based: true, lat_log: true, hist_log: 100ms}
YAML
if ! "$bg" run -q -o "$t/reps" "$t/r.yaml" >"$t/rlog" 2>&1; then
	echo "FAIL: the run with repetitions failed"
	cat "$t/rlog"
	exit 1
fi
python3 - "$t/reps" <<'PY'
import glob, json, os, sys
d = sys.argv[1]
cdir = glob.glob(os.path.join(d, 'cells', '*'))[0]
names = sorted(os.path.basename(p) for p in glob.glob(os.path.join(cdir, 'rr.*.csv')))
want = sorted('rr.%s.%s.csv' % (r, k) for r in ('warmup1', 'rep1', 'rep2') for k in ('lat', 'hist'))
ok = names == want
print(('ok   ' if ok else 'FAIL ') + 'one lat/hist log per run: %s' % names)
res = json.load(open(os.path.join(d, 'results.json')))
reps = res['cells'][0]['reps']
for i, rep in enumerate(reps):
    s = [x for x in rep if x['name'] == 'rr'][0]
    f = s['info']['lat_log']
    lines = sum(1 for _ in open(f)) - 1
    ios = round(s['metrics']['bytes']['value']) // 4096
    good = f.endswith('rr.rep%d.lat.csv' % (i + 1)) and lines == ios
    print(('ok   ' if good else 'FAIL ') + 'repetition %d: %s, %d lines for %d I/Os' % (i + 1, f, lines, ios))
    ok = ok and good
ok = ok and len(reps) == 2
sys.exit(0 if ok else 1)
PY
