# timed: run a command and measure the CPU time it used after a deadline
# (sourced by lua_e2e.sh, lua_bounded.sh and lua_signal_loop.sh).
#
# The Lua budget is wall time; a loaded machine can hold the process off the
# CPU past it, so the bounds are on the CPU time it used after the deadline
# (its own and its children's: /proc/PID/stat then, wait4 at the end). The
# deadline is marked when the budget has passed since the start (no later
# than the real one, which also waits for the start-up): what the process
# used in between only adds to what is judged.
#
# timed LOG [--mark AFTER | --kill SIG AFTER] CMD...: run CMD (its output to
# LOG); print "RC WALL CPU": its exit status, and the wall and CPU seconds
# from AFTER seconds after the start (from the start without either; with
# --kill, SIG is sent then). With TIMED_LIMIT=S in the environment, a CMD
# still running S seconds after the start is killed (SIGKILL; RC -9): a
# test tells "ends" from "hangs" without hanging itself.
timed() {
	python3 - "$@" <<'PY'
import os, signal, sys, time
log, a = sys.argv[1], sys.argv[2:]
sig, after = None, None
if a[0] == "--kill":
    sig, after, a = getattr(signal, "SIG" + a[1]), float(a[2]), a[3:]
elif a[0] == "--mark":
    after, a = float(a[1]), a[2:]
limit = float(os.environ.get("TIMED_LIMIT", "0") or 0)
t0 = time.monotonic()
start = t0
fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
pid = os.fork()
if pid == 0:
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    try:
        os.execvp(a[0], a)
    finally:
        os._exit(127)
os.close(fd)
cpu0 = 0.0
if after is not None:
    time.sleep(max(0.0, t0 + after - time.monotonic()))
    try:  # gone already: it used nothing after the mark
        f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
        cpu0 = sum(int(x) for x in f[11:15]) / os.sysconf("SC_CLK_TCK")  # utime stime cutime cstime
    except OSError:
        cpu0 = None
    t0 = time.monotonic()
    if sig:
        os.kill(pid, sig)
while True:
    wpid, st, ru = os.wait4(pid, os.WNOHANG if limit else 0)
    if wpid == pid:
        break
    if time.monotonic() - start > limit:
        os.kill(pid, signal.SIGKILL)
        _, st, ru = os.wait4(pid, 0)
        break
    time.sleep(0.05)
cpu = ru.ru_utime + ru.ru_stime
print(os.waitstatus_to_exitcode(st), "%.2f" % (time.monotonic() - t0), "%.2f" % (cpu - cpu0 if cpu0 is not None else 0))
PY
}
