#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Resident memory of curatord after a cold start and one full listing (issue 14's
"resident memory after the scan and a full listing"), several builds interleaved (ABAB)
on one kept tree: bench/run.py's cold workload reads the same VmRSS, once per peer
repetition and on a tree it makes anew each run; this compares builds only, and can
break the figure down by mapping.

    rss_ab.py NAME:BINARY ...   (env N=1000000 REPS=2 PER_FOLDER=<n> as run.py's --per-folder,
                                 DIR=/tmp/curatord-rss-ab; MAPS=1 also prints, per subject,
                                 the resident memory by mapping: anonymous, the binary, each library)

The tree (bench/gen_tree.py, seed 1) is made once under DIR and kept. Each subject
starts with no state, waits for the scan, lists every photo with full records, then
VmRSS is read (and VmHWM, the peak); the first subject is compared with each other."""
import collections
import json
import os
import shutil
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_tree
import procs
from curatord_client import Daemon

N = int(os.environ.get("N", "1000000"))
REPS = int(os.environ.get("REPS", "2"))
PER_FOLDER = int(os.environ["PER_FOLDER"]) if os.environ.get("PER_FOLDER") else None
base = os.environ.get("DIR", "/tmp/curatord-rss-ab")
tree = os.path.join(base, "tree")
manifest_path = os.path.join(base, "manifest.json")
os.makedirs(os.path.join(base, "home"), exist_ok=True)
os.makedirs(os.path.join(base, "run"), exist_ok=True)
if not os.path.exists(manifest_path):
    json.dump(gen_tree.generate(tree, N, seed=1, per_folder=PER_FOLDER), open(manifest_path, "w"))
manifest = json.load(open(manifest_path))
env = procs.private_env(os.path.join(base, "home"), os.path.join(base, "home", "rt"))


def by_mapping(pid: int) -> collections.Counter:
    """Resident KB per mapping: "[anon]" for anonymous memory, a file's base name otherwise."""
    out = collections.Counter()
    current = None
    for line in open("/proc/%d/smaps" % pid):
        fields = line.split()
        if "-" in fields[0] and not fields[0].endswith(":"):
            name = fields[5] if len(fields) > 5 else "[anon]"
            current = os.path.basename(name) if name.startswith("/") else name
        elif fields[0] == "Rss:":
            out[current] += int(fields[1])
    return out


subjects = [spec.split(":", 1) for spec in sys.argv[1:]]
if not subjects:
    sys.exit(__doc__)
results = {name: {"rss": [], "hwm": []} for name, _ in subjects}
for rep in range(REPS):
    for name, binary in (subjects if rep % 2 == 0 else subjects[::-1]):
        daemon = Daemon(binary, [tree], os.path.join(base, "run"), env, name="rss-" + name, options={"thumbnails": False})
        shutil.rmtree(daemon.state_dir, ignore_errors=True)
        daemon.start()
        try:
            client = daemon.connect()
            daemon.wait_scanned(client, manifest["groups"])
            client.send(client.request_line("list"))
            client.raw_response(timeout=600)
            rss, hwm = procs.status_kb(daemon.pid, "VmRSS") / 1024, procs.status_kb(daemon.pid, "VmHWM") / 1024
            mappings = by_mapping(daemon.pid) if os.environ.get("MAPS") == "1" else None
            client.close()
        finally:
            daemon.stop()
        results[name]["rss"].append(rss)
        results[name]["hwm"].append(hwm)
        print("rep %d %-12s VmRSS %.1f MB (peak %.1f MB) after the scan and a full listing" % (rep, name, rss, hwm), flush=True)
        for mapping, kb in (mappings.most_common(6) if mappings else []):
            print("    %-28s %7.1f MB" % (mapping, kb / 1024))
reference = subjects[0][0]
for name, _ in subjects:
    print("%-12s VmRSS median %.1f MB [%.1f-%.1f], peak %.1f MB" % (name, statistics.median(results[name]["rss"]),
          min(results[name]["rss"]), max(results[name]["rss"]), statistics.median(results[name]["hwm"])))
for name, _ in subjects[1:]:
    ratios = [a / b for a, b in zip(results[reference]["rss"], results[name]["rss"])]
    print("%s / %s VmRSS: median x%.3f [%.3f-%.3f]" % (reference, name, statistics.median(ratios), min(ratios), max(ratios)))
