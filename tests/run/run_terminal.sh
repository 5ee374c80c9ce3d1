#!/usr/bin/env bash
# What `benchgrid run` prints of each finished cell (issue 27, item 4): on a
# terminal (a pty) as through a pipe, every step's line with its figures
# ("  rr: ok, iops=... lat_p99=..."), and each repetition labelled
# ("  rep 2/3"); -q prints none of it.
set -u
bg=${BENCHGRID:?}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export BENCHGRID_STATE=$t/state BENCHGRID_STORE=$t/store.db
mkdir -p "$t/w"
cat >"$t/s.yaml" <<'Y'
name: terminal-lines
matrix:
  bs: [4KiB, 8KiB]
repeat: 3
steps:
  - name: rr
    io: {rw: randread, bs: "${bs}", size: 1MiB, runtime: 0.1s, time_based: true}
Y
python3 - "$bg" "$t" <<'PY'
import os, pty, re, subprocess, sys
bg, t = sys.argv[1], sys.argv[2]
args = [bg, "run", "--work-dir", f"{t}/w", "-o", None, f"{t}/s.yaml"]

def check(name, text):
    lines = [re.sub(r"\x1b\[K", "", l) for l in re.split(r"[\r\n]+", text)]
    steps = [l for l in lines if re.match(r"^  rr: ok, iops=\S+ lat_p99=", l)]
    reps = [l for l in lines if re.match(r"^  rep [123]/3$", l)]
    assert len(steps) == 6, (name, steps, text)
    assert [l.strip() for l in reps] == ["rep 1/3", "rep 2/3", "rep 3/3"] * 2, (name, reps)
    print(f"ok   {name}: 6 step lines with iops and lat_p99, reps labelled 1/3..3/3 per cell")

# through a pipe
a = list(args); a[5] = f"{t}/pipe"
p = subprocess.run(a, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
assert p.returncode == 0, p.stdout
check("pipe", p.stdout)

# on a terminal: stderr (and stdout) on a pty, read until the child exits
a = list(args); a[5] = f"{t}/tty"
mfd, sfd = pty.openpty()
proc = subprocess.Popen(a, stdin=sfd, stdout=sfd, stderr=sfd, close_fds=True)
os.close(sfd)
out = b""
while True:
    try:
        chunk = os.read(mfd, 65536)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
rc = proc.wait()
os.close(mfd)
text = out.decode("utf-8", "replace")
assert rc == 0, text
assert "\r\x1b[K[" in text, "no progress bar drawn: not a terminal?"  # the live line
check("pty", text)

# the live figure is the step's headline: IOPS for 4 KiB random reads, MB/s
# for sequential ones (model/headline.h)
with open(f"{t}/live.yaml", "w") as f:
    f.write("""name: live-figure
steps:
  - name: rr
    io: {rw: randread, bs: 4KiB, size: 4MiB, runtime: 1.6s, time_based: true}
  - name: sr
    io: {rw: read, bs: 4KiB, size: 4MiB, runtime: 1.6s, time_based: true}
""")
mfd, sfd = pty.openpty()
proc = subprocess.Popen([bg, "run", "--work-dir", f"{t}/w", "-o", f"{t}/live", f"{t}/live.yaml"],
                        stdin=sfd, stdout=sfd, stderr=sfd, close_fds=True)
os.close(sfd)
out = b""
while True:
    try:
        chunk = os.read(mfd, 65536)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
assert proc.wait() == 0
os.close(mfd)
text = out.decode("utf-8", "replace")
live = {}
for m in re.finditer(r"\| (rr|sr) [0-9.]+s [0-9.]+ (IOPS|MB/s) \|", text):
    live.setdefault(m.group(1), set()).add(m.group(2))
assert live == {"rr": {"IOPS"}, "sr": {"MB/s"}}, (live, text)
print("ok   live figure: IOPS for 4 KiB random reads, MB/s for sequential reads")

# -q: none of it
a = list(args); a[5] = f"{t}/q"; a.insert(2, "-q")
p = subprocess.run(a, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
assert p.returncode == 0 and "rr: ok" not in p.stdout and "rep 1/3" not in p.stdout, p.stdout
print("ok   -q prints no step or rep lines")
PY
