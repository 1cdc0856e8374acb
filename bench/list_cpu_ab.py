#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""CPU time of a full listing (`list`, every photo, full records) of the benchmark
tree: the daemon's (all its threads' time on a CPU, /proc/PID/task/*/schedstat, in
nanoseconds, before and after) and
this client's (reading the answer off the socket; and, apart, decoding it with
`json.loads`), with the answer's bytes and wall time, several subjects interleaved
(ABAB, all daemons up at once on the same idle tree). On a host shared with builds
wall times swing by 2x, CPU seconds much less: a supporting figure for the listing
of issues 14 and 15 beside bench/run.py's `list` workload, not a replacement.

    list_cpu_ab.py NAME:BINARY:on|off[:FIELD,FIELD...] ...
        (env N=100000 REPS=5 LISTS=3 DIR=/tmp/curatord-list-ab PER_FOLDER=<n> as bench/run.py's --per-folder;
         LISTS=1 REPS=40: one listing per subject in turn, its caches cold, as a client lists after other work;
         FIELDS: that subject's listings ask for only those keys, as `list`'s `fields`)

Each repetition lists LISTS times per subject; the first subject is compared with
each other (median of per-repetition ratios). The tree (bench/gen_tree.py, seed 1)
is made once under DIR and kept."""
import json, os, shutil, statistics, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_tree
import procs
from curatord_client import Daemon

N = int(os.environ.get("N", "100000"))
REPS = int(os.environ.get("REPS", "5"))
LISTS = int(os.environ.get("LISTS", "3"))
PER_FOLDER = int(os.environ["PER_FOLDER"]) if os.environ.get("PER_FOLDER") else None
base = os.environ.get("DIR", "/tmp/curatord-list-ab")
tree = os.path.join(base, "tree")
run = os.path.join(base, "run"); home = os.path.join(base, "home")
os.makedirs(run, exist_ok=True); os.makedirs(home, exist_ok=True)
mf = os.path.join(base, "manifest.json")
if not os.path.exists(mf):
    json.dump(gen_tree.generate(tree, N, seed=1, per_folder=PER_FOLDER), open(mf, "w"))
m = json.load(open(mf))
env = procs.private_env(home, os.path.join(home, "rt"))
def cpu(pid):
    return procs.cpu_seconds_precise(pid)


subjects = []
for spec in sys.argv[1:]:
    name, binary, groups, *fields = spec.split(":")
    d = Daemon(binary, [tree], run, env, name=name, root_options={} if groups == "on" else {"groups": False},
               options={"thumbnails": False})
    shutil.rmtree(d.state_dir, ignore_errors=True)
    d.start()
    c = d.connect()
    d.wait_scanned(c, m["groups"] if groups == "on" else N)
    d.wait_capture_done(c)
    subjects.append((name, d, c, fields[0].split(",") if fields else None))
keys = ("daemon", "client", "decode", "wall")
res = {s[0]: {k: [] for k in keys} for s in subjects}
size = {}
try:
    for rep in range(REPS):
        for name, d, c, fields in (subjects if rep % 2 == 0 else subjects[::-1]):
            d0, c0, t0 = cpu(d.pid), time.process_time(), time.perf_counter()
            lines = []
            for _ in range(LISTS):
                c.send(c.request_line("list", fields=fields) if fields else c.request_line("list"))
                lines.append(c.raw_response(timeout=600))
            wall = (time.perf_counter() - t0) / LISTS
            daemon, client = (cpu(d.pid) - d0) / LISTS, (time.process_time() - c0) / LISTS
            c1 = time.process_time()
            answer = json.loads(lines[0])
            decode = time.process_time() - c1
            assert answer["ok"] and answer["result"]["total"] == len(answer["result"]["photos"]), answer.get("error")
            size[name] = len(lines[0])
            if rep == 0:
                group = next((p for p in answer["result"]["photos"] if "members" in p), None)
                print("%s: %d photos, %.2f MB; a group: %s" % (name, answer["result"]["total"], size[name] / 1e6,
                                                              json.dumps(group, separators=(",", ":"))), flush=True)
            del answer, lines
            for k, v in zip(keys, (daemon, client, decode, wall)):
                res[name][k].append(v)
            print("rep %d %-10s daemon %.0f ms client %.0f ms decode %.0f ms wall %.0f ms load %.1f" % (
                rep, name, daemon * 1000, client * 1000, decode * 1000, wall * 1000, os.getloadavg()[0]), flush=True)
finally:
    for _, d, c, _ in subjects:
        c.close(); d.stop()
ref = subjects[0][0]
for name, *_ in subjects:
    print("%s: %.2f MB; medians %s" % (name, size[name] / 1e6,
          ", ".join("%s %.1f ms" % (k, statistics.median(res[name][k]) * 1000) for k in keys)))
for name, *_ in subjects[1:]:
    for k in keys:
        ratios = [a / b for a, b in zip(res[ref][k], res[name][k]) if b > 0]
        if ratios:
            print("%s / %s %s: median x%.3f [%.3f-%.3f]" % (ref, name, k, statistics.median(ratios), min(ratios), max(ratios)))
