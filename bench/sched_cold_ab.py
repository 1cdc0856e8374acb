#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Cold starts of several curatord builds (or one build grouped and not) in turn, each
thread's run time from schedstat when `status` says the scan is done: which thread the
scan waits on, and whether a change moved the wall or only the CPU. A supporting figure
for issue 15's grouping on / off beside bench/run.py, whose per-run medians move with
the host by more than small changes do.

    sched_cold_ab.py NAME:BINARY:on|off ...   (env REPS=4 DIR=/tmp/curatord-groups-ab)

The tree is the one bench/groups_cpu_ab.py makes under DIR (run it once first). The
subjects run in turn, the order reversed every other repetition; the first is compared
with each of the others (the median of the per-repetition ratios) by wall, by the run
time of the walker and of the index thread ("curatord-walk", "curatord-watch"), and by
the two together."""
import collections
import os
import shutil
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ab_tree import ABTree  # noqa: E402
from curatord_client import Daemon  # noqa: E402

REPS = int(os.environ.get("REPS", "4"))


def thread_times(pid: int) -> dict:
    """Per thread name: [run ns, runqueue wait ns, switches] summed over its threads."""
    out = {}
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/comm" % (pid, tid)) as f:
                comm = f.read().strip()
            with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                run, wait, switches = map(int, f.read().split())
        except OSError:
            continue  # the thread ended meanwhile
        totals = out.setdefault(comm, [0, 0, 0])
        totals[0] += run
        totals[1] += wait
        totals[2] += switches
    return out


def main():
    ab = ABTree()
    subjects = [arg.split(":") for arg in sys.argv[1:]]
    if len(subjects) < 2 or any(len(s) != 3 or s[2] not in ("on", "off") for s in subjects):
        sys.exit(__doc__)
    samples = {name: collections.defaultdict(list) for name, _, _ in subjects}
    for rep in range(REPS):
        for name, binary, groups in (subjects if rep % 2 == 0 else subjects[::-1]):
            daemon = Daemon(binary, [ab.tree], ab.run_dir, ab.env, name=name,
                            root_options={} if groups == "on" else {"groups": False}, options={"thumbnails": False})
            shutil.rmtree(daemon.state_dir, ignore_errors=True)
            os.sync()
            daemon.start()
            client = daemon.connect()
            # Grouped, the root lists groups; ungrouped, every photo file.
            daemon.wait_scanned(client, ab.expected_photos(groups == "on"))
            wall = time.monotonic() - daemon.started_at
            times = thread_times(daemon.pid)
            client.close()
            daemon.stop()
            samples[name]["wall"].append(wall * 1e3)
            for comm, (run, wait, switches) in times.items():
                samples[name][comm + " run"].append(run / 1e6)
                samples[name][comm + " wait"].append(wait / 1e6)
                samples[name][comm + " switches"].append(switches)
            walker_and_index = times.get("curatord-walk", [0])[0] + times.get("curatord-watch", [0])[0]
            samples[name]["walker+index run"].append(walker_and_index / 1e6)
            print("rep %d %-10s wall %.0f ms" % (rep, name, wall * 1e3), flush=True)
    keys = sorted(set(k for s in samples.values() for k in s))
    print("%-32s" % "median (ms)" + "".join("%12s" % name for name, _, _ in subjects))
    for key in keys:
        print("%-32s" % key + "".join("%12.1f" % statistics.median(samples[name][key]) if samples[name][key] else "%12s" % "-"
                                      for name, _, _ in subjects))
    first = subjects[0][0]
    for name, _, _ in subjects[1:]:
        for key in ("wall", "curatord-watch run", "curatord-walk run", "walker+index run"):
            ratios = [a / b for a, b in zip(samples[first][key], samples[name][key])]
            print("%s / %s %-20s median x%.3f [%.3f-%.3f]" % (first, name, key, statistics.median(ratios), min(ratios), max(ratios)))


if __name__ == "__main__":
    main()
