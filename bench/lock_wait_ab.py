#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""How long a request that needs the state lock waits while a first scan runs, for
several curatord builds in turn: a cold start, and a client that sends `selection`
(a session command: it runs whole under the lock) in a loop, 1 ms between an answer
and the next request, until `status` says the scan is done. `status` itself does
not take the lock (bench/workloads/status_scan.py times it); this is what every
other command meets. A supporting figure beside bench/run.py (the 7th stop of
2026-12-05: SQLite's checkpoints inside the scan's commits held the lock).

    lock_wait_ab.py NAME:BINARY ...   (env REPS=4 DIR=/tmp/curatord-groups-ab)

The tree is the one bench/groups_cpu_ab.py makes under DIR (run it once first),
indexed with groups on. The subjects run in turn, the order reversed every other
repetition; each repetition's p50, p99 and longest wait are printed, then those of
every request of a subject's repetitions together."""
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ab_tree import ABTree  # noqa: E402
from curatord_client import Daemon, scan_done  # noqa: E402

REPS = int(os.environ.get("REPS", "4"))


def waits_during_scan(binary: str, name: str, ab: ABTree) -> list:
    """Milliseconds of each `selection` answered during one cold start."""
    daemon = Daemon(binary, [ab.tree], ab.run_dir, ab.env, name=name, options={"thumbnails": False})
    shutil.rmtree(daemon.state_dir, ignore_errors=True)
    os.sync()
    daemon.start()
    waits = []
    try:
        client = daemon.connect()
        try:
            while True:
                elapsed, _ = client.timed_request("selection")
                waits.append(elapsed * 1e3)
                if scan_done(client.request("status")):
                    return waits
                time.sleep(0.001)
        finally:
            client.close()
    finally:
        daemon.stop()


def summary(waits: list) -> str:
    w = sorted(waits)
    return "n %d p50 %.2f p99 %.2f max %.2f ms" % (len(w), w[len(w) // 2], w[int(len(w) * 0.99)], w[-1])


def main():
    subjects = [arg.split(":", 1) for arg in sys.argv[1:]]
    if not subjects or any(len(s) != 2 for s in subjects):
        sys.exit(__doc__)
    ab = ABTree()
    every = {name: [] for name, _ in subjects}
    for rep in range(REPS):
        for name, binary in (subjects if rep % 2 == 0 else subjects[::-1]):
            waits = waits_during_scan(binary, name, ab)
            every[name] += waits
            print("rep %d %-10s %s" % (rep, name, summary(waits)), flush=True)
    for name, _ in subjects:
        print("all %-10s %s" % (name, summary(every[name])))


if __name__ == "__main__":
    main()
