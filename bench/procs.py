# SPDX-License-Identifier: GPL-2.0-or-later
"""Child processes the harness starts, so that every one of them is stopped on exit.

Children run in their own session: a Ctrl-C reaches only the harness, which then
stops them in order (daemon first, then unmount) instead of racing them.
"""
import os
import signal
import subprocess
import time

_children = []


def spawn(cmd, env=None, stdout=None, stderr=None, stdin=subprocess.DEVNULL, cwd=None) -> subprocess.Popen:
    p = subprocess.Popen(cmd, env=env, stdout=stdout, stderr=stderr, stdin=stdin, cwd=cwd,
                         start_new_session=True)
    _children.append(p)
    return p


def stop(p: subprocess.Popen, sig=signal.SIGTERM, timeout: float = 10.0) -> int:
    """Signals one child, waits with a bound, then kills it. Returns its exit status."""
    if p.poll() is None:
        try:
            p.send_signal(sig)
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(timeout=10)
        except ProcessLookupError:
            pass
    if p in _children:
        _children.remove(p)
    return p.returncode


def describe(pid: int) -> str:
    """A process's state, what it waits in, and its threads' kernel stacks where
    readable (root): for the message of a child that will not stop."""
    parts = []
    try:
        with open("/proc/%d/status" % pid) as f:
            parts += [line.strip() for line in f if line.startswith(("State:", "SigBlk:", "SigIgn:", "SigCgt:"))]
        with open("/proc/%d/wchan" % pid) as f:
            parts.append("wchan: " + (f.read().strip() or "-"))
        with open("/proc/%d/stack" % pid) as f:
            parts.append("stack: " + " < ".join(line.split()[-1] for line in f if line.strip()))
    except OSError as e:
        parts.append("(%s)" % e)
    return "pid %d: %s" % (pid, "; ".join(parts))


def stop_all():
    """Stops whatever is still running, newest first (clients before servers)."""
    for p in list(reversed(_children)):
        stop(p, timeout=5.0)


def install_signal_handlers() -> list:
    """SIGTERM (e.g. from CI's timeout) takes the same clean-up path as Ctrl-C. Signals
    the harness was started with blocked are unblocked first, and returned: a blocked
    mask is inherited by every child, and a peer or client that never sees the
    SIGTERM meant to stop it hangs the run."""
    blocked = sorted(signal.pthread_sigmask(signal.SIG_SETMASK, []))

    def on_term(signum, frame):
        raise KeyboardInterrupt("signal %d" % signum)
    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGHUP, on_term)
    return blocked


def status_kb(pid: int, field: str) -> int:
    """A `kB` field of /proc/PID/status (VmRSS, VmHWM)."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (all its threads) so far."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def private_env(home: str, runtime_dir: str) -> dict:
    """The environment every benchmarked program gets: a private HOME and XDG tree
    (made here), so that the real home trash and user config are never touched and
    the trash is on the scratch filesystem with the photos (a rename, not a copy)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "HOME": home,
        "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
        "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
        "XDG_CACHE_HOME": os.path.join(home, ".cache"),
        "XDG_RUNTIME_DIR": runtime_dir,
    }
    for key in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"):
        os.makedirs(env[key], mode=0o700, exist_ok=True)
    return env


def cpu_by_thread_name(pid: int) -> dict:
    """User + system CPU seconds of a process's live threads, summed per thread name
    (curatord names its threads: curatord-walk, curatord-watch, the exif reader...)."""
    ticks = os.sysconf("SC_CLK_TCK")
    out = {}
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/stat" % (pid, tid)) as f:
                raw = f.read()
        except OSError:
            continue  # the thread ended between the listing and the read
        comm = raw[raw.index("(") + 1:raw.rindex(")")]
        fields = raw.rsplit(")", 1)[1].split()
        out[comm] = out.get(comm, 0) + (int(fields[11]) + int(fields[12])) / ticks
    return out


def cpu_seconds_precise(pid: int) -> float:
    """CPU seconds of a process's live threads, from /proc/PID/task/*/schedstat (time on
    a CPU, in nanoseconds): /proc's user and system times count 10 ms ticks, coarser
    than a listing of 100 000 photos (~25 ms)."""
    total = 0
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            continue  # the thread ended between the listing and the read
    return total / 1e9


def _stat_fields(pid: int) -> list:
    with open("/proc/%d/stat" % pid) as f:
        return f.read().rsplit(")", 1)[1].split()


def children(pid: int) -> list:
    """The live children of a process (every thread's), from /proc/PID/task/*/children."""
    out = []
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            try:
                with open("/proc/%d/task/%s/children" % (pid, tid)) as f:
                    out += [int(x) for x in f.read().split()]
            except OSError:
                pass
    except OSError:
        pass
    return out


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and of every descendant, live or reaped
    (a reaped child's time is in its parent's cutime/cstime): what the process tree
    cost, whatever else the machine ran meanwhile."""
    ticks = os.sysconf("SC_CLK_TCK")
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            fields = _stat_fields(p)
        except OSError:
            continue  # it ended between the listing and the read
        total += int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
        todo += children(p)
    return total / ticks


def wait_until(predicate, timeout: float, interval: float = 0.005, what: str = "condition"):
    """Polls `predicate` until true; raises TimeoutError naming `what` after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise TimeoutError("timed out after %.1f s waiting for %s" % (timeout, what))
        time.sleep(interval)
