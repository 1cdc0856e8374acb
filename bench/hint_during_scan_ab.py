#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""How long a change made during a first scan waits for its event, for several curatord
builds in turn: a cold start of the tree (grouped) with a subscribed client, which, from
the first `scanned` event on, writes one small photo into that already-read folder, waits
for its `added` event, writes the next, and so on until the scan is done. A hint is applied
between scan steps, so this is what a step's length (and its tail) costs another user's
change. A supporting figure beside bench/run.py (the eighth stop: the walker's second
queued group lengthens a step's tail).

    hint_during_scan_ab.py NAME:BINARY ...   (env REPS=6 DIR=/tmp/curatord-groups-ab)

The tree is the one bench/groups_cpu_ab.py makes under DIR (run it once first); the files
written are removed after each start. The subjects run in turn, the order reversed every
other repetition; p50, p90 and the longest wait of each subject's changes are printed."""
import collections
import os
import shutil
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ab_tree import ABTree  # noqa: E402
from curatord_client import Daemon  # noqa: E402

REPS = int(os.environ.get("REPS", "6"))


def one_start(daemon: Daemon, tree: str, label: str) -> list:
    """The waits (ms) of the changes written during one cold start."""
    waits, folder, written, n = [], None, None, 0
    client = daemon.connect()
    try:
        client.request("subscribe")
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            event = client.next_event(0.005)
            if event is None:
                pass
            elif event.get("event") == "scanned" and folder is None:
                folder = event["folder"]["path"]
            elif event.get("event") == "added" and written and event["photo"]["path"] == written[0]:
                waits.append((time.monotonic() - written[1]) * 1e3)
                written = None
            elif event.get("event") == "scan" and event.get("state") == "done":
                break
            if folder is not None and written is None:
                relative = (folder + "/" if folder else "") + "hint-during-scan-%s-%d.jpg" % (label, n)
                n += 1
                with open(os.path.join(tree, relative), "wb") as f:
                    f.write(b"\xff\xd8" + b"\0" * 510)
                written = (relative, time.monotonic())
    finally:
        client.close()
        if folder is not None:
            where = os.path.join(tree, folder)
            for name in os.listdir(where):
                if name.startswith("hint-during-scan-"):
                    os.unlink(os.path.join(where, name))
    return waits


def main():
    ab = ABTree()
    subjects = [arg.split(":", 1) for arg in sys.argv[1:]]
    if not subjects or any(len(s) != 2 for s in subjects):
        sys.exit(__doc__)
    waits = collections.defaultdict(list)
    for rep in range(REPS):
        for name, binary in (subjects if rep % 2 == 0 else subjects[::-1]):
            daemon = Daemon(binary, [ab.tree], ab.run_dir, ab.env, name=name, options={"thumbnails": False})
            shutil.rmtree(daemon.state_dir, ignore_errors=True)
            os.sync()
            daemon.start()
            try:
                got = one_start(daemon, ab.tree, name)
            finally:
                daemon.stop()
            waits[name] += got
            print("rep %d %-10s %d changes, longest %.1f ms" % (rep, name, len(got), max(got, default=0)), flush=True)
    for name, _ in subjects:
        v = sorted(waits[name])
        if v:
            print("all %-10s n %d p50 %.1f p90 %.1f max %.1f ms" % (name, len(v), statistics.median(v),
                                                                   v[int(len(v) * 0.9)], v[-1]))


if __name__ == "__main__":
    main()
