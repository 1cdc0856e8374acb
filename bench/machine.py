# SPDX-License-Identifier: GPL-2.0-or-later
"""What machine a run was taken on, and how loaded it was meanwhile.

Figures from different hosts differ (issue 14: the peers ran 1.5-2x faster on a Xeon
than on the EPYC the first table was made on), so every run records the CPU, the
kernel, the limits that shape a watcher (inotify queue and watches) and the load
average, which on a shared host says how much the absolute times can be trusted.
"""
import os
import platform
import threading
import time


def _cpuinfo() -> dict:
    """The first processor's fields of /proc/cpuinfo (every core has the same here)."""
    fields = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if not line.strip():
                    if fields:
                        break
                    continue
                key, _, value = line.partition(":")
                fields[key.strip()] = value.strip()
    except OSError:
        pass
    return fields


def _read(path: str, default=None):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return default


def _meminfo_gib() -> float:
    text = _read("/proc/meminfo", "")
    for line in text.splitlines():
        if line.startswith("MemTotal:"):
            return round(int(line.split()[1]) / 1024 / 1024, 1)
    return 0.0


def _physical_cores() -> int:
    """Distinct (physical id, core id) pairs; 0 when /proc/cpuinfo does not say."""
    pairs = set()
    phys = core = None
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "physical id":
                    phys = value.strip()
                elif key == "core id":
                    core = value.strip()
                elif not line.strip() and core is not None:
                    pairs.add((phys, core))
                    phys = core = None
    except OSError:
        return 0
    if core is not None:
        pairs.add((phys, core))
    return len(pairs)


def describe() -> dict:
    cpu = _cpuinfo()
    flags = cpu.get("flags", "").split()
    return {
        "cpu_model": cpu.get("model name", "unknown CPU"),
        "cpu_vendor": cpu.get("vendor_id", ""),
        "cpu_family_model_stepping": "%s/%s/%s" % (cpu.get("cpu family", "?"), cpu.get("model", "?"),
                                                   cpu.get("stepping", "?")),
        "cpu_mhz": cpu.get("cpu MHz", ""),
        "cache": cpu.get("cache size", ""),
        "virtual_machine": "hypervisor" in flags,
        "cpus_online": os.cpu_count() or 0,
        "cpus_usable": len(os.sched_getaffinity(0)),
        "physical_cores": _physical_cores(),
        "memory_gib": _meminfo_gib(),
        "kernel": platform.release(),
        "kernel_version": platform.version(),
        "inotify_max_queued_events": _int(_read("/proc/sys/fs/inotify/max_queued_events")),
        "inotify_max_user_watches": _int(_read("/proc/sys/fs/inotify/max_user_watches")),
        "inotify_max_user_instances": _int(_read("/proc/sys/fs/inotify/max_user_instances")),
        "loadavg_at_start": list(os.getloadavg()),
    }


def _int(text):
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


def one_line(m: dict) -> str:
    """"Intel(R) Xeon(R) Processor (6/85/7), 2 CPUs (VM), 23.5 GiB RAM, Linux 6.1.0"."""
    return "%s (family/model/stepping %s%s), %d CPUs%s, %.1f GiB RAM, Linux %s" % (
        m["cpu_model"], m["cpu_family_model_stepping"], ", %s" % m["cache"] if m.get("cache") else "",
        m["cpus_online"], " (a virtual machine)" if m.get("virtual_machine") else "", m["memory_gib"], m["kernel"])


class LoadSampler:
    """Samples the 1-minute load average every few seconds on a thread, so that each
    workload can say how loaded the host was while it ran (other work shares the cores)."""

    def __init__(self, interval: float = 5.0):
        self.interval = interval
        self.samples = []           # (monotonic time, 1-minute load)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="load-sampler", daemon=True)

    def start(self):
        self._thread.start()
        return self

    def _run(self):
        while not self._stop.is_set():
            self.samples.append((time.monotonic(), os.getloadavg()[0]))
            self._stop.wait(self.interval)

    def between(self, t0: float, t1: float):
        """(min, max) of the 1-minute load sampled in [t0, t1] and at its ends."""
        values = [v for t, v in self.samples if t0 <= t <= t1] + [os.getloadavg()[0]]
        return min(values), max(values)

    def stop(self):
        self._stop.set()
