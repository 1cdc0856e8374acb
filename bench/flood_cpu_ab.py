#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The flood of issue 14 (50 000 files written at full speed into a root) for several
curatord builds interleaved (ABAB), on a journaled ext4 loop image: how long after the
last write each is in sync, and the CPU of each daemon thread during the flood. A
supporting figure beside bench/run.py's flood workloads, quicker to repeat (a smaller
tree; what the flood costs per file does not depend much on the index's size once the
scans ask the index only about what they walk).

    flood_cpu_ab.py NAME:BINARY ...    (env N=20000 photos in the tree, COUNT=50000 files,
                                        PER=0 straight into the root folder, or PER=100
                                        into new folders of 100 (tar -x), REPS=3,
                                        PERF=NAME (perf record of that subject's floods
                                        into /tmp/flood-perf-REP.data, PERFARGS="-g -F 2000"))
"""
import os
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_tree  # noqa: E402
import procs  # noqa: E402
from curatord_client import Daemon  # noqa: E402
from scratch_fs import ScratchFS  # noqa: E402
from workloads.flood import write_flood  # noqa: E402

N = int(os.environ.get("N", "20000"))
COUNT = int(os.environ.get("COUNT", "50000"))
PER = int(os.environ.get("PER", "0"))
REPS = int(os.environ.get("REPS", "3"))
PERF = os.environ.get("PERF")


def indexed(client) -> int:
    return sum(r.get("photos", 0) for r in client.request("status")["roots"])


def flood(name, binary, tree, run, env, expected, rep):
    d = Daemon(binary, [tree], run, env, name=name, options={"thumbnails": False})
    d.start()
    client = d.connect()
    prefix = "flood-%s-%d-" % (name, rep)
    target = os.path.join(tree, "zz-" + prefix) if PER else tree
    try:
        d.wait_scanned(client, expected)
        d.wait_capture_done(client, timeout=300)
        before = procs.cpu_by_thread_name(d.pid)
        photos = indexed(client)
        tracer = None
        if PERF == name:
            tracer = subprocess.Popen(["perf", "record"] + os.environ.get("PERFARGS", "-g -F 2000").split()
                                      + ["-o", "/tmp/flood-perf-%d.data" % rep, "-p", str(d.pid)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(1.0)
        first, last, _ = write_flood(target, COUNT, PER, "" if PER else prefix)
        client.request("sync", timeout_ms=1_800_000, timeout=1900)
        while indexed(client) < photos + COUNT:
            time.sleep(0.002)
        lag = time.perf_counter() - last
        if tracer is not None:
            tracer.send_signal(2)
            tracer.wait()
        after = procs.cpu_by_thread_name(d.pid)
        cpu = {k: after.get(k, 0) - before.get(k, 0) for k in after}
        return dict(lag=lag, rate=COUNT / (last - first), cpu=cpu)
    finally:
        client.close()
        d.stop()
        if PER:
            shutil.rmtree(target, ignore_errors=True)
        else:
            for entry in os.scandir(tree):
                if entry.name.startswith(prefix) and entry.is_file():
                    os.unlink(entry.path)


def main():
    subjects = [tuple(s.split(":", 1)) for s in sys.argv[1:]]
    if not subjects:
        sys.exit(__doc__)
    with ScratchFS("loop-ext4", 4) as fs:
        tree, run, home = fs.path("tree"), fs.path("run"), fs.path("home")
        for d in (run, home):
            os.makedirs(d)
        manifest = gen_tree.generate(tree, N, seed=1)
        env = procs.private_env(home, os.path.join(home, "rt"))
        res = {name: [] for name, _ in subjects}
        for rep in range(REPS):
            for name, binary in (subjects if rep % 2 == 0 else subjects[::-1]):
                r = flood(name, binary, tree, run, env, manifest["groups"], rep)
                res[name].append(r)
                threads = ", ".join("%s %.2f" % kv for kv in sorted(r["cpu"].items(), key=lambda kv: -kv[1]) if kv[1] > 0.005)
                print("rep %d %-10s in sync %.3f s after the last write (%.0f files/s)  %s" % (
                    rep + 1, name, r["lag"], r["rate"], threads), flush=True)
        print("\n%d files %s, tree of %d photos, %d reps" % (
            COUNT, "in new folders of %d" % PER if PER else "into the root folder", N, REPS))
        for name, runs in res.items():
            print("%-10s in sync median %.3f s after the last write; watch thread median %.3f s of CPU" % (
                name, statistics.median(r["lag"] for r in runs), statistics.median(r["cpu"].get("curatord-watch", 0) for r in runs)))


if __name__ == "__main__":
    main()
