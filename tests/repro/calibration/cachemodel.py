#!/usr/bin/env python3
"""cachemodel.py LOOPNAME MAJ:MIN SIZE FAST_BPS SLOW_BPS REFILL_BPS STOPFILE: emulate a write cache on a blkio throttle."""
import sys, time, os
name, mm, size, fast, slow, refill, stop = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:7]), sys.argv[7]
f = "/sys/fs/cgroup/blkio/blkio.throttle.write_bps_device"
def setl(v): open(f, "w").write(f"{mm} {int(v)}\n")
def written(): return int(open(f"/sys/block/{name}/stat").read().split()[6]) * 512
used, last, t0, full = 0.0, written(), time.monotonic(), None
idle_since = t0
tl = t0
while not os.path.exists(stop):
    time.sleep(0.05)
    w, now = written(), time.monotonic()
    d, dt = w - last, now - tl
    last, tl = w, now
    if d > 0: used = min(size, used + d); idle_since = now
    elif now - idle_since >= 1.0: used = max(0.0, used - refill * dt)
    isfull = used >= size
    if isfull != full:
        full = isfull
        setl(slow if full else fast)
        print(f"{now - t0:7.2f}s cache_full={int(full)} used={used/1e6:.0f}MB", flush=True)
