#!/usr/bin/env python3
"""check.py SPEC OUTDIR: check a small-profile run of a published experiment.

Reads OUTDIR/results.json, OUTDIR/expect.json and OUTDIR/report.md of
`benchgrid run specs/SPEC.yaml` (standard library only) and checks:
  - every planned cell ran and is ok (the lvm cells of dd-fdatasync, and
    its control arm, may be skipped, with a reason, where the machine has
    no device-mapper);
  - every recorded step of every ok cell succeeded and has its metrics;
  - report.md holds the steps, every pivot table the spec asks for, its
    charts and the Reproduction section;
  - every cell ran on what it asked for (file systems, block sizes, server
    settings) and recorded its models: applied in the `model` arm and in
    the ablation arms (000 `nocache`, 001 `iops`), off in the `none` arm;
  - the verdicts, from expect.json (docs/results.md): a FAIL of a headline,
    control, held-out or self-test entry fails; a headline SKIP is allowed
    only where no cell of this run is on one side (dd-fdatasync's lvm);
    otherwise any INCONCLUSIVE headline (models did not bind, or a cell was
    CPU-bound) makes the test a skip, exit 77, with the reasons printed;
  - the system monitor's figures of every step.
The shapes themselves are judged only by the expect entries (with their
binding rule), never here: a busy machine makes them INCONCLUSIVE, not
FAIL. Prints one line per check; exits 1 when any failed, 77 when only
headlines were inconclusive, else 0."""
import json
import math
import os
import re
import sys

spec, out = sys.argv[1], sys.argv[2]
R = json.load(open(os.path.join(out, "results.json")))
md = open(os.path.join(out, "report.md"), encoding="utf-8").read()
failures = 0


def check(cond, what):
    global failures
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures += 1
    return cond


def size_bytes(v):
    """'4k' / '4KiB' / 4096 -> 4096 (binary units, as benchgrid reads them)."""
    if isinstance(v, (int, float)):
        return int(v)
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", str(v), re.I)
    if not m:
        return None
    return int(float(m.group(1)) * 1024 ** "_kmgt".index((m.group(2) or "_").lower()))


def summary(cell, step):
    """the step's summary, None when it did not run (absent, or skipped by `when:`)"""
    for s in cell.get("summary", []):
        if s["step"] == step and not s.get("skipped"):
            return s
    return None


def ratio(a, b):
    """a / b, or 0 when either is missing (the check using it then fails)."""
    return a / b if a is not None and b else 0.0


def metric(cell, step, name):
    s = summary(cell, step)
    if not s or name not in s["metrics"]:
        return None
    return s["metrics"][name]["value"]


def series(cell, step, name):
    for st in cell["reps"][0] if cell.get("reps") else []:
        if st["name"] == step:
            return st.get("series", {}).get(name)
    return None


def label(cell):
    return ", ".join(f"{k}={v}" for k, v in cell["params"].items())


cells = R["cells"]
ok_cells = [c for c in cells if c["status"] == "ok"]

# ---- cells ----
check(len(cells) == R["planned_cells"], f"{spec}: {len(cells)} of {R['planned_cells']} planned cells recorded")
check(len(ok_cells) > 0, f"{spec}: at least one cell ran")
for c in cells:
    if c["status"] == "ok":
        continue
    allowed = (spec == "dd-fdatasync" and c["status"] == "skipped"
               and (c["params"].get("layout") == "lvm" or c["params"].get("arm") == "none")
               and "device-mapper" in (c.get("error") or "")
               # 001: a database block size whose build (scripts/build-pg) is missing
               or spec == "ssd-fs-blocksize" and c["status"] == "skipped" and "scripts/build-pg" in (c.get("error") or ""))
    check(allowed, f"{spec}: cell {label(c)} is {c['status']}: {c.get('error')}")

# ---- steps and their metrics ----
base = {"io": ["mb_s", "iops", "lat_p99_us", "seconds"],
        "pgbench": ["tps", "transactions", "lat_mean_ms"],
        "exec": ["exit_status", "elapsed_s"]}
for c in ok_cells:
    bad = [s["step"] for s in c["summary"] if s["failed"]]
    check(not bad, f"{label(c)}: no step failed ({bad})")
    for s in c["summary"]:
        if s.get("skipped"):
            continue  # `when:` false in this cell
        if s["workload"] == "pgbench" and "init_s" in s["metrics"]:
            continue  # a data load
        missing = [m for m in base.get(s["workload"], []) if m not in s["metrics"]]
        check(not missing, f"{label(c)}: step {s['step']} has {base.get(s['workload'])} (missing {missing})")

# ---- report.md ----
for sec in ("## Reproduction", "## Steps", "## Pivot tables", "## Charts"):
    check(sec in md, f"{spec}: report.md has '{sec}'")
pivots = (R.get("report") or {}).get("pivot") or []
if isinstance(pivots, dict):
    pivots = [pivots]


def md_text(s):
    """s as report.md writes a scenario's text (reporters/rep_text.c,
    rep_md_text): & < > as entities, Markdown's punctuation and a _ that
    could open emphasis behind a backslash, line breaks as spaces"""
    out, after_word = [], False
    for c in s:
        word = c.isascii() and c.isalnum()
        rep = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\n": " ", "\r": " ", "\t": " "}.get(c)
        if c == "_":
            word = after_word
            rep = None if after_word else "\\_"
        elif rep is None and c in "\\`*[]|~#!":
            rep = "\\" + c
        after_word = word
        out.append(rep if rep is not None else c)
    return "".join(out)


def arm(cell):
    """the cell's arm: 'model' (the device models on), 'none' (the control
    arm: no model) or an ablation ('nocache', 'iops': the models less one
    element)"""
    return cell["params"].get("arm", "model")


def has_step(cell, st):
    return summary(cell, st) is not None


for p in pivots:
    title = p.get("title") or p["value"]
    check(f"### {md_text(title)}" in md, f"{spec}: report.md has the pivot table '{title}'")
    st, mname = p["value"].split(".", 1)
    for c in ok_cells:
        if not has_step(c, st):
            continue  # a step with `when:` false in this cell (the control arm)
        if "{" in mname:  # an axis from metric names: at least one metric of the family
            pre, post = mname.split("{", 1)[0], mname.split("}", 1)[1]
            names = summary(c, st)["metrics"]
            found = [k for k in names if k.startswith(pre) and k.endswith(post) and len(k) > len(pre + post)]
            check(len(found) >= 2, f"{label(c)}: {p['value']} measured for the pivot ({len(found)} values)")
        else:
            check(metric(c, st, mname) is not None, f"{label(c)}: {p['value']} measured for the pivot")
charts = (R.get("report") or {}).get("charts") or []
svgs = [f for f in os.listdir(out) if re.fullmatch(r"chart-\d+\.svg", f)]
check(len(svgs) >= len(charts if isinstance(charts, list) else [charts]),
      f"{spec}: {len(svgs)} chart files for {len(charts)} charts")

# ---- what each cell ran on ----
for c in ok_cells:
    info = c["facts"]["info"]
    p = c["params"]
    want_fs = p.get("fs") or {"usb-nvme-slc-cache": "ext4", "tablespace-shared-buffers": "ext4"}.get(spec)
    applied = any(k.startswith("model.") and k.endswith(".backend") for k in info)
    if arm(c) != "none":
        check(applied, f"{label(c)}: the device models were applied and recorded (model.*.backend)")
    else:
        check(not applied and str(info.get("models")).lower() in ("off", "false", "0"),
              f"{label(c)}: control arm: no model applied, fact models = {info.get('models')}")
    check(info.get("fs.type") == want_fs, f"{label(c)}: recorded fs.type {info.get('fs.type')} == {want_fs}")
    if "fs_block" in p:
        check(size_bytes(info.get("fs.block_size")) == size_bytes(p["fs_block"]),
              f"{label(c)}: recorded fs.block_size {info.get('fs.block_size')} == {p['fs_block']}")
    if spec == "wal-placement":
        check(info.get("fs.block_size") == "4096" and info.get("walfs.fs.block_size") == "4096",
              f"{label(c)}: both file systems have 4 KiB blocks")
        check(info.get("walfs.fs.type") == p["fs"], f"{label(c)}: WAL file system is {p['fs']}")
        if arm(c) == "model":
            check(any(k.startswith("model.walfs.latency") for k in info),
                  f"{label(c)}: the RAID 0 latency model recorded (model.walfs.latency.*)")
    if spec == "tablespace-shared-buffers":
        check(info.get("local.fs.type") == "ext4" and info.get("ceph.fs.type") == "ext4",
              f"{label(c)}: tablespace file systems local, ceph = ext4 ({info.get('local.fs.type')}, {info.get('ceph.fs.type')})")
        if arm(c) == "model":
            check(any(k.startswith("model.local.latency") for k in info) and
                  any(k.startswith("model.ceph.latency") for k in info),
                  f"{label(c)}: latency models local and ceph recorded (model.*.latency.*)")
    if "blcksz" in p:
        check(size_bytes(info.get("pg.block_size")) == size_bytes(p["blcksz"]),
              f"{label(c)}: server block size {info.get('pg.block_size')} == {p['blcksz']}")
    if "shared_buffers" in p:
        check(size_bytes(info.get("pg.setting.shared_buffers")) == size_bytes(p["shared_buffers"]),
              f"{label(c)}: server shared_buffers {info.get('pg.setting.shared_buffers')} == {p['shared_buffers']}")


def by(pred):
    return [c for c in ok_cells if pred(c["params"])]


def one(pred):
    cs = by(pred)
    return cs[0] if cs else None


def halves(v):
    """mean of the first and of the second half of a series"""
    h = len(v) // 2
    return sum(v[:h]) / max(h, 1), sum(v[h:]) / max(len(v) - h, 1)


# ---- the verdicts: expect.json (docs/results.md) ----
inconclusive = []
ej_path = os.path.join(out, "expect.json")
if check(os.path.isfile(ej_path), f"{spec}: the run wrote expect.json"):
    ej = json.load(open(ej_path))
    rows = ej.get("entries", ej.get("expect", [])) if isinstance(ej, dict) else ej
    entries = R.get("expect") or []
    # one row per ratio/order entry; an absolute entry has one per cell and metric (or one SKIP row)
    seen = {r.get("n") for r in rows}
    check(seen == set(range(1, len(entries) + 1)),
          f"{spec}: expect.json has rows for every expect entry ({len(seen)} of {len(entries)})")
    roles = {r.get("role") for r in rows}
    check({"headline", "control", "held-out"} <= roles or spec in ("dd-fdatasync", "ssd-fs-blocksize"),
          f"{spec}: the spec has headline, control and held-out entries ({sorted(x for x in roles if x)})")
    for r in rows:
        status, why = r.get("status"), r.get("reason") or ""
        # an absolute figure holds on the publication's machine only: it is
        # judged here only when the spec gives it a role (003's self-test)
        n = r.get("n") or 0
        given = entries[n - 1].get("role") if 0 < n <= len(entries) and isinstance(entries[n - 1], dict) else None
        role = given or ("info" if r.get("kind") == "absolute" else r.get("role") or "headline")
        what = (f"{spec}: expect #{r.get('n')} ({role}, {r.get('kind')}): {status}, measured {r.get('measured')}, "
                f"published {r.get('published')} [{r.get('lo')}, {r.get('hi')}]" + (f": {why}" if why else ""))
        if role == "info":
            print("info " + what)
            continue
        if status == "INCONCLUSIVE":
            print("inconclusive " + what)
            if role == "headline":
                inconclusive.append(f"#{r.get('n')}: {why}")
            continue
        if status == "SKIP":
            # only where the small profile has no cell on one side (full-only cells, no device-mapper)
            check(role != "headline" or "no cell" in why or spec == "ssd-fs-blocksize", what)
            continue
        check(status in ("PASS", "XFAIL", "XPASS"), what)

# ---- per spec: what the run must have done (not the shapes: expect.json judges those) ----
if spec == "tablespace-shared-buffers":
    for c in ok_cells:
        check(all(metric(c, "tpcb", f"stmt{i}_ms") is not None for i in range(1, 12)),
              f"{label(c)}: per-statement latencies stmt1_ms..stmt11_ms")
        if arm(c) == "model" and size_bytes(c["params"]["shared_buffers"]) < 1 << 30:
            for tbs in ("local", "ceph"):
                if c["params"]["tbs"] == tbs:
                    rd = metric(c, "tpcb", f"disk.{tbs}.r_iops")
                    check(rd is not None and rd > 10,
                          f"{label(c)}: the tablespace device is read ({rd} reads/s): the memory limit works")

if spec == "usb-nvme-slc-cache":
    for c in ok_cells:
        check(metric(c, "iob_write_cached", "sync_over_cached") is not None, f"{label(c)}: phase 1 / phase 2 recorded")
        if arm(c) == "model":  # the held-out 4096 MB run: the model arm only
            check(metric(c, "iob4_write_cached", "sync_over_cached") is not None,
                  f"{label(c)}: the 4096 MB run's phase 1 / phase 2 recorded")
        sweep = [k for k in summary(c, "ddsweep")["metrics"] if re.fullmatch(r"mb_s_\d+k", k)]
        check(sorted(sweep, key=lambda k: int(k[5:-1])) == [f"mb_s_{n}k" for n in (4, 8, 16, 32, 64, 128, 256, 512)],
              f"{label(c)}: dd sweep 4k..512k measured ({len(sweep)} sizes)")
        s = series(c, "longwrite", "mb_s")
        # a point per 100 ms interval: at least 10 where the model sets the
        # pace; without a model the write lasts what this machine's disk
        # takes (under a second on a fast one), so as many as it lasted
        secs = metric(c, "longwrite", "seconds")
        want = 10 if arm(c) == "model" else max(1, int((secs or 0) / 0.1 * 0.8))  # 80 %: a late sample
        check(s is not None and len(s["v"]) >= want,
              f"{label(c)}: long write has a MB/s time series ({len(s['v']) if s else 0} points, {want} wanted)")
        if arm(c) == "nocache":
            wb = (c["facts"]["info"].get("model.target.write_bps"), c["facts"]["info"].get("model.target.cache.then.write_bps"))
            check(wb[0] is not None and wb[0] == wb[1], f"{label(c)}: nocache arm: the same write speed after the cache as before it {wb}")
        if arm(c) != "model":
            check(not has_step(c, "init"), f"{label(c)}: control arm: the PostgreSQL steps are left out")
            continue
        cf = series(c, "longwrite", "model.target.cache_full")
        check(cf is not None and cf["v"][0] == 0 and 1 in cf["v"],
              f"{label(c)}: the long write ran the cache full (model.target.cache_full 0 -> 1)")
        for st in ("init", "ro10", "ro", "dump", "restore"):
            check(summary(c, st) is not None and not summary(c, st)["failed"], f"{label(c)}: step {st} ran")
        check((metric(c, "init", "init_s") or 0) > 0, f"{label(c)}: pgbench -i timed")
        check(metric(c, "restore", "exit_status") == 0, f"{label(c)}: pg_restore succeeded")
        tr = metric(c, "ro", "transactions")
        check(tr == 100 * 100, f"{label(c)}: -c 100 -t 100 ran 10000 transactions ({tr})")

if spec == "dd-fdatasync":
    for c in ok_cells:
        runs = [metric(c, "benchsh", f"mb_s_run{i}") for i in (1, 2, 3)]
        check(None not in runs, f"{label(c)}: bench.sh's three dd runs measured {runs}")
        reps = c.get("reps", [])
        check(len(reps) == 3, f"{label(c)}: 3 repeats recorded ({len(reps)})")
        for rep in reps:
            st = [x for x in rep if x["name"] == "benchsh"]
            if st:
                ms = st[0]["metrics"]
                rr = [ms[f"mb_s_run{i}"]["value"] for i in (1, 2, 3)]
                check(abs(ms["mb_s"]["value"] - sum(rr) / 3) < 1e-6 * ms["mb_s"]["value"],
                      f"{label(c)}: one repeat's bench.sh figure is the mean of its runs {rr}")
        if arm(c) != "model":
            continue  # the control arm runs bench.sh only
        check(metric(c, "hdparm", "mib_s") and metric(c, "hdparm", "mib_s") > 0, f"{label(c)}: hdparm -t measured")
        check((metric(c, "seqread", "mb_s") or 0) > 0, f"{label(c)}: sequential read measured")

if spec == "wal-placement":
    for c in ok_cells:
        want = 1 if c["params"]["wal"] == "separate" else 0
        check(metric(c, "where", "wal_separate") == want, f"{label(c)}: pg_wal on its own file system == {want}")
        check(metric(c, "tpcb", "transactions") == 24 * 100, f"{label(c)}: 24 clients x 100 transactions")
        check(c["facts"]["info"].get("dev.scheduler") == c["params"]["scheduler"],
              f"{label(c)}: scheduler {c['params']['scheduler']} recorded")
        check(c["facts"]["info"].get("pg.data") == "loaded", f"{label(c)}: started from freshly loaded data (pg.data)")
        if c["params"]["wal"] == "separate":
            w = metric(c, "tpcb", "disk.walfs.w_iops")
            check(w is not None and w > 10, f"{label(c)}: the WAL device is written ({w} writes/s)")

def check_ssd_fs_blocksize():
    """001: the steps' figures and that the models held; returns the reason
    for a skip (exit 77) when the headline could not be judged because the
    4 kB build (scripts/build-pg) is missing, else None. The verdicts
    themselves are expect.json's, checked above."""
    for c in ok_cells:
        p = c["params"]
        for st in ("warmup", "ro"):
            h = metric(c, st, "cache_hit_ratio")
            check(h is not None and 0 < h <= 1, f"{label(c)}: {st} cache hit ratio {h}")
            s = series(c, st, "tps")
            check(s is not None and len(s["v"]) >= 2, f"{label(c)}: {st} tps over time")
        if p["dev"] != "hdd":  # the disk model reads so little that what it read stays cached
            h = metric(c, "ro", "cache_hit_ratio") or 1.0
            check(h < 0.9, f"{label(c)}: the data does not fit the server's memory (hit ratio {h:.3f})")
        rd = metric(c, "ro", "disk_r_iops") or 0.0
        check(rd > 0, f"{label(c)}: select-only reaches the device ({rd:.0f} reads/s)")
        if arm(c) == "iops":
            bps = size_bytes(c["facts"]["info"].get("model.target.read_bps") or "0") or 0
            check(bps >= 1 << 30, f"{label(c)}: iops arm: the read bandwidth limit lifted ({bps} bytes/s)")
        if arm(c) != "none":
            u = metric(c, "ro", "model.target.utilisation")
            check(u is not None, f"{label(c)}: select-only's model utilisation recorded ({u})")
            # the throttle held (10 %: the kernel's 100 ms slices)
            check(u is None or u <= 1.1, f"{label(c)}: the model held the device (utilisation {u})")
    # the model_scale rule (the spec's header): the control arm's reads/s
    # >= 1.25 x the scaled SSD's read_iops; shown, judged by bind: instead
    ctl = one(lambda p: p["arm"] == "none" and p["blcksz"] == "8k")
    ssd = one(lambda p: p["arm"] == "model" and p["dev"] == "ssd" and p["blcksz"] == "8k")
    if ctl and ssd:
        info = ssd["facts"]["info"]
        free = metric(ctl, "ro", "disk_r_iops") or 0.0
        cap = float(info.get("model.target.read_iops") or 0)  # the applied limit, model_scale included
        print(f"info model_scale rule: without a model {free:.0f} reads/s; the scaled SSD allows {cap:.0f}/s "
              f"({free / cap if cap else 0:.2f}x, the rule wants >= 1.25x)")
    missing = [c for c in cells if c["status"] == "skipped" and c["params"].get("blcksz") == "4k"]
    if missing:
        return f"ssd-fs-blocksize: the headline (4 kB vs 8 kB db blocks) is SKIP: {missing[0].get('error')}"
    return None


skip_001 = check_ssd_fs_blocksize() if spec == "ssd-fs-blocksize" else None


# ---- the system monitor, sampled around every step ----
for c in ok_cells:
    for s in c["summary"]:
        if s.get("skipped"):
            continue
        ms = s["metrics"]
        cpu = [ms.get(k, {}).get("value") for k in ("sys_usr_pct", "sys_sys_pct", "sys_iowait_pct",
                                                     "sys_idle_pct", "sys_steal_pct")]
        if None in cpu:
            # /proc/stat counts in clock ticks (10 ms): a step shorter than
            # a few ticks may have no CPU time to share out.
            took = [ms.get(k, {}).get("value") for k in ("elapsed_s", "seconds")]
            short = any(t is not None and t < 0.05 for t in took)
            check(short, f"{label(c)}: step {s['step']} has the monitor's CPU figures")
            continue
        check(abs(sum(cpu) - 100) < 0.5, f"{label(c)}: step {s['step']} CPU shares sum to 100 ({sum(cpu):.2f})")
        if spec == "ssd-fs-blocksize" and s["workload"] == "pgbench":
            need = ["disk_util_pct", "disk_await_ms", "disk_read_mb_s", "disk_write_mb_s", "sys_busy_pct"]
            check(all(k in ms for k in need), f"{label(c)}: step {s['step']} has {need}")
    if spec == "ssd-fs-blocksize":
        s = series(c, "ro", "disk_util_pct")
        check(s is not None and len(s["v"]) >= 2, f"{label(c)}: ro has a disk utilisation time series")

print(f"{spec}: {failures} failed check(s)")
if failures:
    sys.exit(1)
if skip_001:
    print("skip: " + skip_001)
    sys.exit(77)
if inconclusive:
    # a skip, never a pass: the run could not tell (a busy machine, models that did not bind)
    print(f"skip: {spec}: {len(inconclusive)} headline(s) INCONCLUSIVE: " + "; ".join(inconclusive))
    sys.exit(77)
sys.exit(0)
