#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""CPU time of curatord (user+sys of every thread but the capture reader, from /proc,
read when `status` says the scan is done) for a cold index and a warm restart of the
benchmark tree, several subjects interleaved (ABAB): on a host shared with builds the
wall times of bench/run.py swing by 2x, CPU seconds much less. A supporting figure
for issue 15's grouping on / off, not a replacement of bench/run.py.

    groups_cpu_ab.py NAME:BINARY:on|off[:TREE] ...   (env N=100000 REPS=4 DIR=/tmp/curatord-groups-ab;
                                               EXIF=1 counts the capture reader too;
                                               PERF=1 records a cpu-clock profile of each cold start)

The first subject is compared with each of the others (median of per-repetition ratios).
The tree (bench/gen_tree.py, seed 1) is made once under DIR and kept. A subject given a
TREE of its own indexes that folder instead and is waited for with the tree's counts, so
leave out only files that are no photos: a copy without every `.xmp` (`cp -al`, then
delete them) tells what the sidecars cost."""
import json, os, shutil, signal, statistics, subprocess, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_tree
import procs
import profiler
from curatord_client import Daemon
N = int(os.environ.get("N", "100000"))
REPS = int(os.environ.get("REPS", "4"))
base = os.environ.get("DIR", "/tmp/curatord-groups-ab")
tree = os.path.join(base, "tree")
run = os.path.join(base, "run"); home = os.path.join(base, "home")
os.makedirs(run, exist_ok=True); os.makedirs(home, exist_ok=True)
mf = os.path.join(base, "manifest.json")
if not os.path.exists(mf):
    m = gen_tree.generate(tree, N, seed=1)
    json.dump(m, open(mf, "w"))
m = json.load(open(mf))
env = procs.private_env(home, os.path.join(home, "rt"))
subjects = []
for spec in sys.argv[1:]:
    name, binary, groups, *own = spec.split(":", 3)  # a TREE may hold colons
    subjects.append((name, binary, groups == "on", own[0] if own else tree))
def cpu(pid):
    """CPU of every thread but the capture reader (it reads EXIF beside the scan, as long as the scan lasts)."""
    exif = os.environ.get("EXIF") == "1"
    return sum(seconds for comm, seconds in procs.cpu_by_thread_name(pid).items() if exif or "exif" not in comm)
res = {s[0]: {"cold": [], "warm": [], "coldwall": [], "warmwall": []} for s in subjects}
for rep in range(REPS):
    order = subjects if rep % 2 == 0 else subjects[::-1]
    for name, binary, groups, subject_tree in order:
        opts = {} if groups else {"groups": False}
        d = Daemon(binary, [subject_tree], run, env, name=name, root_options=opts, options={"thumbnails": False})
        shutil.rmtree(d.state_dir, ignore_errors=True)
        os.sync()
        expected = m["groups"] if groups else N
        for phase in ("cold", "warm"):
            recorders = []
            d.on_start = None
            if os.environ.get("PERF") == "1" and phase == os.environ.get("PHASE", "cold"):
                # Attached before curatord runs (the daemon waits for it): attached after
                # the spawn, perf missed the threads made meanwhile, and with them the scan.
                def attach(pid, name=name, phase=phase, rep=rep):
                    p = subprocess.Popen(["perf", "record", "-q", "-g", "-e", "cpu-clock", "-F", "1999", "-p", str(pid), "-o",
                                          os.path.join(base, "prof-%s-%s-%d.data" % (name, phase, rep))],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    profiler._wait_attached(p)
                    recorders.append(p)
                d.on_start = attach
            d.start()
            c = d.connect(); d.wait_scanned(c, expected)
            perf = recorders[0] if recorders else None
            if perf is not None:
                perf.send_signal(signal.SIGINT); perf.wait()
            wall = time.monotonic() - d.started_at
            t = cpu(d.pid); c.close(); d.stop()
            res[name][phase].append(t); res[name][phase + "wall"].append(wall)
            print("rep %d %-10s %s cpu %.2f s wall %.2f s load %.1f" % (rep, name, phase, t, wall, os.getloadavg()[0]), flush=True)
print(json.dumps(res))
ref = subjects[0][0]
for name, _, _, _ in subjects[1:]:
    for phase in ("cold", "warm", "coldwall", "warmwall"):
        ratios = [a / b for a, b in zip(res[ref][phase], res[name][phase])]
        print("%s / %s %s: median x%.3f [%.3f-%.3f]; medians %.2f / %.2f" % (ref, name, phase, statistics.median(ratios),
              min(ratios), max(ratios), statistics.median(res[ref][phase]), statistics.median(res[name][phase])))
