# SPDX-License-Identifier: GPL-2.0-or-later
"""`--perf WORKLOAD`: a `perf record -g` profile of curatord during chosen workloads,
and a short summary of what dominates, written beside the figures.

Every curatord the workload starts (or the live one it uses) gets its own `perf
record -p PID`, attached right after the spawn; when the workload ends the recorders
are stopped and their reports merged, weighted by sample counts: the threads, the
functions with the most samples of their own ("self") and those under which the
most samples fall ("inclusive", from the call graphs). Swift names are demangled.

Sampling is on the `cycles` event when the machine has hardware counters and on
`cpu-clock` otherwise (virtual machines often have none: `perf stat -e instructions
true` then says `<not supported>`). The profiled workload's own timings include
perf's overhead (a few per cent), so profile in a run of its own.
"""
import os
import re
import shutil
import signal
import subprocess
import time

import procs

FREQUENCY = 2000  # samples per second and thread: enough to rank, half of perf's default data
SWIFT_DEMANGLE = ["swift-demangle", "/opt/swift/usr/bin/swift-demangle"]
# Frames every thread's samples fall under: they say nothing of where the time goes.
TRAMPOLINES = ("start_thread", "SystemThread.detach", "__clone", "clone3", "SystemThread.start")


class PerfUnavailable(Exception):
    pass


def _perf_works(log) -> str:
    """The event to sample on; raises PerfUnavailable with the reason otherwise."""
    if shutil.which("perf") is None:
        if os.geteuid() == 0 and shutil.which("apt-get"):
            log("perf is missing: apt-get install -y linux-perf")
            env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
            subprocess.run(["apt-get", "install", "-y", "-q", "linux-perf"], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=900)
        if shutil.which("perf") is None:
            raise PerfUnavailable("perf is not installed (Debian: apt-get install linux-perf)")
    r = subprocess.run(["perf", "stat", "-x,", "-e", "cycles", "true"], capture_output=True, text=True, timeout=60)
    event = "cycles" if r.returncode == 0 and "<not supported>" not in r.stderr and "<not counted>" not in r.stderr \
        else "cpu-clock"
    probe = "/tmp/curatord-bench-perf-probe-%d.data" % os.getpid()
    try:
        r = subprocess.run(["perf", "record", "-q", "-g", "-e", event, "-o", probe, "--", "true"],
                           capture_output=True, text=True, timeout=60)
    finally:
        if os.path.exists(probe):
            os.unlink(probe)
    if r.returncode != 0:
        raise PerfUnavailable("`perf record -e %s` does not work here: %s" % (event, r.stderr.strip()[-300:]))
    return event


class Profiler:
    def __init__(self, workloads, out_dir: str, log):
        self.workloads = set(workloads)
        self.out_dir = out_dir
        self.log = log
        self.event = None
        self.active = None        # (workload, n) being profiled
        self.recorders = []       # (perf process, data file)
        self.thread_names = {}    # tid -> name of the threads that existed when perf attached

    def check(self) -> bool:
        """Whether perf can profile here; says why not once, clearly, otherwise."""
        try:
            self.event = _perf_works(self.log)
        except (PerfUnavailable, OSError, subprocess.TimeoutExpired) as e:
            self.log("--perf: no profile will be taken: %s" % e)
            return False
        self.log("--perf: sampling curatord on %s%s during %s" % (
            self.event, "" if self.event == "cycles" else " (no hardware counters here)", ", ".join(sorted(self.workloads))))
        return True

    def wants(self, workload: str) -> bool:
        return workload in self.workloads

    def begin(self, workload: str, n: int, live_pid=None):
        self.active = (workload, n)
        self.recorders = []
        if live_pid is not None:
            self.attach(live_pid)

    def attach(self, pid: int):
        """Starts recording `pid` (a curatord just spawned, or the live one)."""
        if self.active is None:
            return
        workload, n = self.active
        # perf names threads by the comm events it sees; those of threads made before it
        # attached show as ":TID" in its report, so their names are read here.
        try:
            for tid in os.listdir("/proc/%d/task" % pid):
                with open("/proc/%d/task/%s/comm" % (pid, tid)) as f:
                    self.thread_names[":" + tid] = f.read().strip()
        except OSError:
            pass
        folder = os.path.join(self.out_dir, "perf-%s-%d" % (workload, n))
        os.makedirs(folder, exist_ok=True)
        data = os.path.join(folder, "curatord-%d.data" % (len(self.recorders) + 1))
        log = open(data + ".log", "wb")
        try:
            p = procs.spawn(["perf", "record", "-q", "-g", "-e", self.event, "-F", str(FREQUENCY), "-p", str(pid),
                             "-o", data], stdout=log, stderr=log)
        finally:
            log.close()
        self.recorders.append((p, data))
        _wait_attached(p)

    def end(self, results):
        """Stops the recorders of the workload and records the merged summary."""
        if self.active is None:
            return
        workload, n = self.active
        self.active = None
        for p, _ in self.recorders:
            # perf writes its file on SIGINT (and when the recorded process exits).
            procs.stop(p, sig=signal.SIGINT, timeout=120)
        files = [d for _, d in self.recorders if os.path.exists(d) and os.path.getsize(d) > 0]
        if not files:
            self.log("--perf: no profile was recorded during %s" % workload)
            return
        t0 = time.monotonic()
        summary = summarize(files, self.event, self.thread_names)
        path = os.path.join(os.path.dirname(files[0]), "summary.txt")
        with open(path, "w") as f:
            f.write("perf record -g -e %s -F %d of curatord during workload %s at N=%d\n" % (
                self.event, FREQUENCY, workload, n))
            f.write("data: %s\n\n" % ", ".join(os.path.basename(x) for x in files))
            f.write("\n".join(summary["lines"]) + "\n")
            if len(files) > 1:
                # Each daemon on its own too (a workload may start several kinds: the cold
                # starts with and without a subscriber, in the order they ran).
                for data in files:
                    one = summarize([data], self.event, self.thread_names)
                    f.write("\n\n=== %s alone: %d samples\n\n" % (os.path.basename(data), one["samples"]))
                    f.write("\n".join(one["top"]) + "\n")
        results.profiles.append({"workload": workload, "n": n, "event": self.event, "samples": summary["samples"],
                                 "summary": os.path.relpath(path), "top": summary["top"]})
        results.note(workload, n, "perf was attached to curatord during this workload (%s, %d Hz): its times include "
                                  "the profiler's overhead" % (self.event, FREQUENCY))
        self.log("--perf: %d samples of curatord during %s summarized in %.1f s: %s" % (
            summary["samples"], workload, time.monotonic() - t0, path))


def _wait_attached(p, timeout: float = 10.0):
    """Waits until perf holds its event descriptors (it has attached), so that the
    process it records is let go only then."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and p.poll() is None:
        try:
            fds = os.listdir("/proc/%d/fd" % p.pid)
        except OSError:
            fds = []
        for fd in fds:
            try:
                if os.readlink("/proc/%d/fd/%s" % (p.pid, fd)) == "anon_inode:[perf_event]":
                    time.sleep(0.05)  # the other threads' and the dummy events follow at once
                    return
            except OSError:
                pass
        time.sleep(0.005)


_ROW = re.compile(r"^\s*([\d.]+)%\s+(?:([\d.]+)%\s+)?(\d+)\s+(.*\S)\s*$")


def _report(data: str, *args) -> list:
    """Rows (percentages..., samples, name) of `perf report --stdio` on one file."""
    cmd = ["perf", "report", "-i", data, "--stdio", "-n", "-g", "none"] + list(args)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, errors="replace")
    rows = []
    for line in r.stdout.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        m = _ROW.match(line)
        if m:
            first, second, samples, name = m.groups()
            rows.append((float(first), float(second) if second else None, int(samples), name))
    return rows


def summarize(files, event: str, thread_names=None, top: int = 12) -> dict:
    """Threads, self and inclusive symbols over all files, by samples."""
    thread_names = thread_names or {}
    total = 0
    threads, selfs, inclusive = {}, {}, {}
    for data in files:
        by_thread = _report(data, "--no-children", "--sort", "comm")
        file_total = sum(samples for _, _, samples, _ in by_thread)
        total += file_total
        for _, _, samples, name in by_thread:
            name = thread_names.get(name, name)
            threads[name] = threads.get(name, 0) + samples
        for _, _, samples, name in _report(data, "--no-children", "--sort", "dso,sym", "--percent-limit", "0.2"):
            selfs[name] = selfs.get(name, 0) + samples
        # With --children the first percentage is the inclusive one (the sample column is self).
        for children, _, _, name in _report(data, "--children", "--sort", "sym", "--percent-limit", "1"):
            inclusive[name] = inclusive.get(name, 0) + children / 100.0 * file_total
    if total == 0:
        return {"samples": 0, "lines": ["(no samples)"], "top": ["(no samples)"]}
    readable = _demangle(set(threads) | set(selfs) | set(inclusive))

    def table(title, counts, limit, merge=True):
        # Self samples of symbols that read the same (specializations) add up; inclusive
        # ones do not (both may be in one call chain), so those stay one row each.
        merged = {}
        for name, c in counts.items():
            shown = readable.get(name, name)
            if not any(t in shown for t in TRAMPOLINES):
                key = shown if merge else (shown, name)
                merged[key] = merged.get(key, 0) + c
        rows = sorted(merged.items(), key=lambda kv: -kv[1])[:limit]
        return [title] + ["  %5.1f %%  %s" % (100.0 * c / total, key if merge else key[0]) for key, c in rows]

    top_lines = (table("threads (share of all samples):", threads, 6)
                 + table("self (samples in the function itself):", selfs, top)
                 + table("inclusive (samples under the function, call graphs):", inclusive, top, merge=False))
    full_lines = (table("threads:", threads, 50) + [""] + table("self:", selfs, 60) + [""]
                  + table("inclusive:", inclusive, 60, merge=False))
    return {"samples": total, "top": top_lines, "lines": full_lines}


def _demangle(names) -> dict:
    """{name: readable name} for Swift symbols (swift-demangle --simplified), when available."""
    names = sorted(names)
    tool = next((t for t in SWIFT_DEMANGLE if shutil.which(t) or os.path.exists(t)), None)
    if tool is None or not names:
        return {}
    r = subprocess.run([tool, "--simplified"], input="\n".join(names), capture_output=True, text=True, timeout=120)
    out = r.stdout.splitlines() if r.returncode == 0 else []
    return dict(zip(names, out)) if len(out) == len(names) else {}
