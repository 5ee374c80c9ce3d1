#!/usr/bin/env python3
"""check.py SPEC OUTDIR: check a small-profile run of a published experiment.

Reads OUTDIR/results.json and OUTDIR/report.md of `benchgrid run
specs/SPEC.yaml` and checks, with the standard library only:
  - every planned cell ran and is ok (the lvm cells of dd-fdatasync may be
    skipped, with a reason, where the machine has no device-mapper);
  - every recorded step of every ok cell succeeded and has its metrics;
  - report.md holds the steps, every pivot table the spec asks for, its
    charts, and the published-vs-measured table;
  - every cell's recorded file system type and block size are the ones the
    cell asked for (and the database block size, where it is a parameter);
  - the publication's shapes, which the device models make hold here:
    every ratio/order entry of `expect:` (without xfail) is PASS in
    report.md's Reproduction section, or SKIP because no cell of the small
    profile is on one side; plus per-spec checks (000: phase 1 with
    fdatasync faster than phase 2 after the SLC cache, the dd sweep and the
    long write fall when the cache runs out; 002: 2MB slower than 4GB, the
    Ceph model keeps several times the local disk's tps; 001: flat tps, the
    device reached; 004: the separate WAL slower);
  - every cell with a device model recorded it (model.*.backend);
  - the system monitor's figures of every step (always checked).
Prints one line per check and exits 1 when any failed."""
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
    for s in cell.get("summary", []):
        if s["step"] == step:
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
    allowed = (spec == "dd-fdatasync" and c["status"] == "skipped" and c["params"].get("layout") == "lvm"
               and "device-mapper" in (c.get("error") or ""))
    check(allowed, f"{spec}: cell {label(c)} is {c['status']}: {c.get('error')}")

# ---- steps and their metrics ----
base = {"io": ["mb_s", "iops", "lat_p99_us", "seconds"],
        "pgbench": ["tps", "transactions", "lat_mean_ms"],
        "exec": ["exit_status", "elapsed_s"]}
for c in ok_cells:
    bad = [s["step"] for s in c["summary"] if s["failed"]]
    check(not bad, f"{label(c)}: no step failed ({bad})")
    for s in c["summary"]:
        if s["workload"] == "pgbench" and "init_s" in s["metrics"]:
            continue  # a data load
        missing = [m for m in base.get(s["workload"], []) if m not in s["metrics"]]
        check(not missing, f"{label(c)}: step {s['step']} has {base.get(s['workload'])} (missing {missing})")

# ---- report.md ----
for sec in ("## Steps", "## Pivot tables", "## Charts", "## Published vs measured"):
    check(sec in md, f"{spec}: report.md has '{sec}'")
pivots = (R.get("report") or {}).get("pivot") or []
if isinstance(pivots, dict):
    pivots = [pivots]
for p in pivots:
    title = p.get("title") or p["value"]
    check(f"### {title}" in md, f"{spec}: report.md has the pivot table '{title}'")
    st, mname = p["value"].split(".", 1)
    for c in ok_cells:
        if "{" in mname:  # an axis from metric names: at least one metric of the family
            pre, post = mname.split("{", 1)[0], mname.split("}", 1)[1]
            names = summary(c, st)["metrics"] if summary(c, st) else {}
            found = [k for k in names if k.startswith(pre) and k.endswith(post) and len(k) > len(pre + post)]
            check(len(found) >= 2, f"{label(c)}: {p['value']} measured for the pivot ({len(found)} values)")
        else:
            check(metric(c, st, mname) is not None, f"{label(c)}: {p['value']} measured for the pivot")
charts = (R.get("report") or {}).get("charts") or []
svgs = [f for f in os.listdir(out) if re.fullmatch(r"chart-\d+\.svg", f)]
check(len(svgs) >= len(charts if isinstance(charts, list) else [charts]),
      f"{spec}: {len(svgs)} chart files for {len(charts)} charts")
m = re.search(r"(\d+) PASS, (\d+) FAIL, (\d+) XFAIL, (\d+) XPASS, (\d+) SKIP", md)
check(m is not None and sum(int(x) for x in m.groups()) > 0, f"{spec}: published vs measured has rows")

# ---- what each cell ran on ----
for c in ok_cells:
    info = c["facts"]["info"]
    p = c["params"]
    want_fs = p.get("fs") or {"usb-nvme-slc-cache": "ext4", "tablespace-shared-buffers": "ext4"}.get(spec)
    check(any(k.startswith("model.") and k.endswith(".backend") for k in info),
          f"{label(c)}: the device model was applied and recorded (model.*.backend)")
    check(info.get("fs.type") == want_fs, f"{label(c)}: recorded fs.type {info.get('fs.type')} == {want_fs}")
    if "fs_block" in p:
        check(size_bytes(info.get("fs.block_size")) == size_bytes(p["fs_block"]),
              f"{label(c)}: recorded fs.block_size {info.get('fs.block_size')} == {p['fs_block']}")
    if spec == "wal-placement":
        check(info.get("fs.block_size") == "4096" and info.get("walfs.fs.block_size") == "4096",
              f"{label(c)}: both file systems have 4 KiB blocks")
        check(info.get("walfs.fs.type") == p["fs"], f"{label(c)}: WAL file system is {p['fs']}")
    if spec == "tablespace-shared-buffers":
        check(info.get("local.fs.type") == "ext4" and info.get("ceph.fs.type") == "ext4",
              f"{label(c)}: tablespace file systems local, ceph = ext4 ({info.get('local.fs.type')}, {info.get('ceph.fs.type')})")
        check(info.get("model.local.write_iops") == "100" and info.get("model.ceph.write_iops") == "520",
              f"{label(c)}: models local (100 writes/s) and ceph (520) applied")
    if "blcksz" in p:
        check(size_bytes(info.get("pg.block_size")) == size_bytes(p["blcksz"]),
              f"{label(c)}: server block size {info.get('pg.block_size')} == {p['blcksz']}")
    if "shared_buffers" in p:
        check(size_bytes(info.get("pg.setting.shared_buffers")) == size_bytes(p["shared_buffers"]),
              f"{label(c)}: server shared_buffers {info.get('pg.setting.shared_buffers')} == {p['shared_buffers']}")


# ---- the shape ----
def by(pred):
    return [c for c in ok_cells if pred(c["params"])]


def one(pred):
    cs = by(pred)
    return cs[0] if cs else None


def halves(v):
    """mean of the first and of the second half of a series"""
    h = len(v) // 2
    return sum(v[:h]) / max(h, 1), sum(v[h:]) / max(len(v) - h, 1)


# the ratio and order entries: their verdicts in report.md's Reproduction table
def reproduction_rows():
    sec = md.split("## Reproduction", 1)
    if len(sec) < 2:
        return []
    body = sec[1].split("\n## ", 1)[0].split("### Pairs", 1)[0]
    rows = []
    for line in body.splitlines():
        if not line.startswith("| ") or line.startswith("| #") or line.startswith("|---"):
            continue
        cols = [x.strip() for x in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cols) >= 7 and cols[0].isdigit():
            rows.append({"n": int(cols[0]), "checked": cols[2], "measured": cols[3], "published": cols[4],
                         "verdict": cols[5], "note": cols[6]})
    return rows


entries = R.get("expect") or []
rows = reproduction_rows()
check(rows, f"{spec}: report.md's Reproduction section has rows")
for n, e in enumerate(entries, 1):
    if not isinstance(e, dict) or not ("ratio" in e or "order" in e):
        continue
    mine = [r for r in rows if r["n"] == n]
    if not check(len(mine) == 1, f"{spec}: expect #{n} ({'ratio' if 'ratio' in e else 'order'}) has one row in Reproduction"):
        continue
    r = mine[0]
    what = f"{spec}: expect #{n} {r['checked']}: measured {r['measured']}, published {r['published']}: {r['verdict']}"
    if e.get("xfail"):
        check(r["verdict"] in ("XFAIL", "XPASS", "SKIP"), what)
    elif r["verdict"] == "SKIP":
        # only where the small profile has no cell on one side (another build, full-only cells, no device-mapper)
        check("no cell of this run matches" in r["note"], what + f" ({r['note']})")
    else:
        check(r["verdict"] == "PASS", what)

if spec == "tablespace-shared-buffers":
    for tbs in ("local", "ceph"):
        big = one(lambda p: p["tbs"] == tbs and p["shared_buffers"] == "4GB")
        small = one(lambda p: p["tbs"] == tbs and p["shared_buffers"] == "2MB")
        if big and small:
            t4, t2 = metric(big, "tpcb", "tps"), metric(small, "tpcb", "tps")
            check(t2 < t4, f"tablespace {tbs}: shared_buffers 2MB gives lower TPC-B tps than 4GB ({t2:.0f} < {t4:.0f})")
            h4, h2 = metric(big, "tpcb", "cache_hit_ratio"), metric(small, "tpcb", "cache_hit_ratio")
            check(h2 < h4, f"tablespace {tbs}: 2MB has the lower cache hit ratio ({h2:.3f} < {h4:.3f})")
    lo, ce = one(lambda p: p["tbs"] == "local" and p["shared_buffers"] == "2MB"), one(
        lambda p: p["tbs"] == "ceph" and p["shared_buffers"] == "2MB")
    if check(lo and ce, "both 2MB cells ran"):
        r = ratio(metric(ce, "tpcb", "tps"), metric(lo, "tpcb", "tps"))
        check(r > 2, f"2MB: the Ceph model keeps several times the local disk's tps ({r:.2f}x, published 4.3x)")
        u = ratio(metric(lo, "tpcb", "stmt6_ms"), metric(ce, "tpcb", "stmt6_ms"))
        check(u > 2, f"2MB: UPDATE pgbench_accounts slower on the local disk ({u:.2f}x, published 5.85x)")
        rd = metric(lo, "tpcb", "disk.local.r_iops")
        check(rd is not None and rd > 10, f"2MB local: the tablespace device is read ({rd} reads/s): the memory limit works")
    for c in ok_cells:
        check(all(metric(c, "tpcb", f"stmt{i}_ms") is not None for i in range(1, 12)),
              f"{label(c)}: per-statement latencies stmt1_ms..stmt11_ms")

if spec == "usb-nvme-slc-cache":
    for c in ok_cells:
        d, r = metric(c, "iob_read_dropped", "mb_s"), metric(c, "iob_read_cached", "mb_s")
        check(d < r, f"{label(c)}: read after drop_caches {d:.0f} MB/s slower than cached read {r:.0f} MB/s")
        w, wc = metric(c, "iob_write_sync", "mb_s"), metric(c, "iob_write_cached", "mb_s")
        if c["params"]["drive"] != "sata":
            # the publication's order on the 600p: phase 1 (fdatasync, partly into
            # the refilled SLC cache) 233 MB/s > phase 2 (cached, after the cache)
            # 134 MB/s (the SATA SSD's small cache falls to 300 MB/s, close to its 400)
            check(w > 1.2 * wc,
                  f"{label(c)}: write with fdatasync {w:.0f} MB/s faster than the cached write after the cache {wc:.0f} MB/s")
        check(metric(c, "iob_write_cached", "sync_over_cached") is not None, f"{label(c)}: phase 1 / phase 2 recorded")
        sweep = [k for k in summary(c, "ddsweep")["metrics"] if re.fullmatch(r"mb_s_\d+k", k)]
        check(sorted(sweep, key=lambda k: int(k[5:-1])) == [f"mb_s_{n}k" for n in (4, 8, 16, 32, 64, 128, 256, 512, 1024)],
              f"{label(c)}: dd sweep 4k..1024k measured ({len(sweep)} sizes)")
        s = series(c, "longwrite", "mb_s")
        check(s is not None and len(s["v"]) >= 10, f"{label(c)}: long write has a MB/s time series")
        cf = series(c, "longwrite", "model.target.cache_full")
        check(cf is not None and cf["v"][0] == 0 and 1 in cf["v"],
              f"{label(c)}: the long write ran the cache full (model.target.cache_full 0 -> 1)")
        for st in ("init", "ro10", "ro", "dump", "restore"):
            check(summary(c, st) is not None and not summary(c, st)["failed"], f"{label(c)}: step {st} ran")
        check(metric(c, "init", "init_s") > 0, f"{label(c)}: pgbench -i timed")
        check(metric(c, "restore", "exit_status") == 0, f"{label(c)}: pg_restore succeeded")
        tr = metric(c, "ro", "transactions")
        check(tr == 100 * 100, f"{label(c)}: -c 100 -t 100 ran 10000 transactions ({tr})")
    ext = one(lambda p: p["drive"] == "external")
    if check(ext is not None, "the external 600p cell ran"):
        m = lambda k: metric(ext, "ddsweep", k) or 0.0  # missing: the checks below fail, not crash
        before = max(m("mb_s_64k"), m("mb_s_128k"))
        check(0 < m("mb_s_1024k") < 0.5 * before,
              f"external: the dd sweep collapses once the cache is used up (1024k {m('mb_s_1024k'):.0f} MB/s < half of 64k/128k {before:.0f})")
        v = (series(ext, "longwrite", "mb_s") or {}).get("v") or [0.0, 0.0]
        first, last = halves(v)
        check(last < 0.8 * first, f"external: the long write's MB/s falls when the cache runs out ({first:.0f} -> {last:.0f})")

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
        check(metric(c, "hdparm", "mib_s") and metric(c, "hdparm", "mib_s") > 0, f"{label(c)}: hdparm -t measured")
        check((metric(c, "seqread", "mb_s") or 0) > 0, f"{label(c)}: sequential read measured")
        dd = metric(c, "dd", "mb_s") or float("inf")
        check(dd < 520, f"{label(c)}: dd with fdatasync held by the Micron model ({dd:.0f} MB/s <= 460 MiB/s)")

if spec == "wal-placement":
    for c in ok_cells:
        want = 1 if c["params"]["wal"] == "separate" else 0
        check(metric(c, "where", "wal_separate") == want, f"{label(c)}: pg_wal on its own file system == {want}")
        check(metric(c, "tpcb", "transactions") == 24 * 300, f"{label(c)}: 24 clients x 300 transactions")
        check(c["facts"]["info"].get("dev.scheduler") == c["params"]["scheduler"],
              f"{label(c)}: scheduler {c['params']['scheduler']} recorded")
        check(c["facts"]["info"].get("pg.data") == "loaded", f"{label(c)}: started from freshly loaded data (pg.data)")
    sep = one(lambda p: p["wal"] == "separate")
    dat = one(lambda p: p["wal"] == "data" and p["planner"] == "default")
    if check(sep and dat, "wal=separate and wal=data ran"):
        w = metric(sep, "tpcb", "disk.walfs.w_iops")
        check(w is not None and w > 100, f"wal=separate: the WAL device is written ({w} writes/s)")

if spec == "ssd-fs-blocksize":
    for c in ok_cells:
        for st in ("warmup", "ro", "rw"):
            h = metric(c, st, "cache_hit_ratio")
            check(h is not None and 0 < h <= 1, f"{label(c)}: {st} cache hit ratio {h}")
            s = series(c, st, "tps")
            check(s is not None and len(s["v"]) >= 4, f"{label(c)}: {st} tps over time")
        v = series(c, "ro", "tps")["v"]
        first, last = halves(v)
        check(0.7 < first / last < 1.43, f"{label(c)}: select-only tps flat over time ({first:.0f} then {last:.0f})")
        rd = metric(c, "ro", "disk_r_iops")
        check(rd is not None and rd > 1000, f"{label(c)}: select-only reaches the device ({rd} reads/s)")
        h = metric(c, "ro", "cache_hit_ratio")
        check(h < 0.9, f"{label(c)}: the data does not fit the server's memory (hit ratio {h:.3f})")

# ---- the system monitor, sampled around every step ----
for c in ok_cells:
    for s in c["summary"]:
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
sys.exit(1 if failures else 0)
