#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""CPU seconds of one confirmed batch (issues 14 and 15): `delete.prepare` +
`delete.confirm` of a batch of photos (groups by default: 10 000 photos are 15 001
files), several curatord builds interleaved (ABAB) with `gio trash` and `mv -t` of the
same files, on a journaled ext4 loop image. On a host shared with builds the wall times
of bench/run.py swing by 2x; CPU seconds much less. A supporting figure beside
bench/run.py's trash workload, not a replacement.

    batch_cpu_ab.py NAME:BINARY[:KEY=VALUE...] ...
                                       (KEY=VALUE: that daemon's own environment; env N=20000 filler photos, BATCH=10000, REPS=3,
                                        BATCH_GROUPS=1 (0: a batch of lone photos on a root with
                                        `groups: false`), PEERS=1, THREADS=1 (CPU per
                                        daemon thread name: the batch's helper threads take
                                        the name of their job, so a helper's CPU shows under
                                        the job it ran last), PERF=NAME (perf record of that
                                        subject's batches into /tmp/batch-perf-REP.data,
                                        PERFARGS="-g -F 2000", with "-a" every CPU; a summary
                                        is printed),
                                        UNDO=1 (the batch's undo timed too, and traced
                                        by PERF/STRACE instead of the batch),
                                        STRACE=NAME (strace of its first batch into
                                        /tmp/batch-strace.txt, STRACEARGS="-c"),
                                        TIMELINE=1 (each batch's own last log line: where
                                        its time went, BatchTimeline),
                                        BUFFERED_IO=1 (the loop device through the page cache, as
                                        `mount -o loop`, not with direct I/O: bench/run.py
                                        --loop-buffered-io),
                                        STATE_DIR=DIR (the daemons' state, sockets and logs
                                        under DIR, another file system, instead of beside
                                        the photos),
                                        COLD=NAME,... (those subjects start cold each time, their
                                        state removed: the index built by the scan, as
                                        bench/run.py's live daemon has it, instead of loaded))

curatord's figure is the daemon's user+sys CPU (every thread, from /proc) from the
prepare's request to the confirm's answer, the capture reader done with the new photos
first; a peer's is its children's rusage. Each subject is started for its turn only
(a warm restart), so that no other daemon watches the tree while it works."""
import atexit
import os
import resource
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_tree  # noqa: E402
import procs  # noqa: E402
import stats  # noqa: E402
from curatord_client import Daemon  # noqa: E402
from scratch_fs import ScratchFS  # noqa: E402

N = int(os.environ.get("N", "20000"))
BATCH = int(os.environ.get("BATCH", "10000"))
REPS = int(os.environ.get("REPS", "3"))
GROUPS = os.environ.get("BATCH_GROUPS", "1") == "1"  # not GROUPS: bash keeps that name for itself
PEERS = os.environ.get("PEERS", "1") == "1"
THREADS = os.environ.get("THREADS", "1") == "1"
PERF = os.environ.get("PERF")
STRACE = os.environ.get("STRACE")
UNDO = os.environ.get("UNDO") == "1"  # also the batch's undo, timed (and traced instead of the batch)
TIMELINE = os.environ.get("TIMELINE") == "1"
STATE_DIR = os.environ.get("STATE_DIR")
COLD = set(filter(None, os.environ.get("COLD", "").split(",")))
TICK = os.sysconf("SC_CLK_TCK")


def thread_cpu(pid):
    """CPU seconds per thread name of a process."""
    return procs.cpu_by_thread_name(pid)


def process_cpu(pid, split=False):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    if split:
        return int(f[11]) / TICK, int(f[12]) / TICK
    return (int(f[11]) + int(f[12])) / TICK


def system_cpu():
    """CPU seconds the whole machine spent busy (every CPU, /proc/stat), kernel threads included."""
    f = open("/proc/stat").readline().split()[1:]
    busy = sum(int(x) for i, x in enumerate(f[:8]) if i not in (3, 4))  # all but idle and iowait
    return busy / TICK


def children_cpu():
    """User and system CPU seconds of the finished children so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime, r.ru_stime


def indexed_ids(client, root_name, rel, size):
    deadline = time.monotonic() + 300
    while True:
        client.request("sync", timeout=120)
        ids = [p["id"] for p in client.request("list", root=root_name, folder=rel, recursive=True, timeout=120)["photos"]]
        if len(ids) == size:
            return ids
        if time.monotonic() > deadline:
            raise TimeoutError("indexed %d of %d" % (len(ids), size))
        time.sleep(0.05)


def batch_log_line(path, batch):
    """The daemon's last line about batch `batch` (its timeline), or ""."""
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return ""
    lines = [l for l in text if ("batch %s " % batch) in l and " in " in l]
    return lines[-1] if lines else ""


def curatord_batch(name, subject, tree, run, env, rep):
    binary, extra = subject
    env = dict(env, **extra)
    opts = {} if GROUPS else {"groups": False}
    d = Daemon(binary, [tree], run, env, name=name, root_options=opts, options={"thumbnails": False})
    if name in COLD:
        shutil.rmtree(d.state_dir, ignore_errors=True)
    d.start()
    client = d.connect()
    tracer = None
    try:
        d.wait_scanned(client)
        rel = "zz-%s-%d" % (name, rep)
        folder = os.path.join(tree, rel)
        files = len(gen_tree.make_batch(folder, BATCH, seed=rep, groups=GROUPS))
        ids = indexed_ids(client, client.request("status")["roots"][0]["name"], rel, BATCH)
        d.wait_capture_done(client)
        os.sync()

        def trace():
            if PERF == name:
                args = os.environ.get("PERFARGS", "-g -F 2000").split()
                # "-a" (every CPU: what an off-CPU analysis of sched_switch needs) or this daemon.
                target = [] if "-a" in args else ["-p", str(d.pid)]
                started = subprocess.Popen(["perf", "record"] + args + ["-o", "/tmp/batch-perf-%d.data" % rep] + target,
                                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                time.sleep(1.0)
                return started
            if STRACE == name and rep == 0:
                started = subprocess.Popen(["strace"] + os.environ.get("STRACEARGS", "-c").split() + ["-f", "-o", "/tmp/batch-strace.txt",
                                           "-p", str(d.pid)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(1.0)
                return started
            return None

        def untrace(tracer):
            if tracer is not None:
                tracer.send_signal(2)
                err = tracer.communicate(timeout=300)[1]
                if tracer.returncode not in (0, None) and err:
                    print(err.decode(errors="replace")[-800:])

        if not UNDO:
            tracer = trace()
        before, threads, split = process_cpu(d.pid), thread_cpu(d.pid), process_cpu(d.pid, split=True)
        machine = system_cpu()
        # Each request to its answer's arrival, decoding left out, as bench/run.py's trash workload.
        prepared, plan = client.timed_request("delete.prepare", ids=ids, timeout=600)
        cpu_prepare = process_cpu(d.pid) - before
        confirmed, batch = client.timed_request("delete.confirm", token=plan["token"], timeout=600)
        wall = prepared + confirmed
        cpu = process_cpu(d.pid) - before
        machine = system_cpu() - machine
        after = thread_cpu(d.pid)
        user, system = (a - b for a, b in zip(process_cpu(d.pid, split=True), split))
        untrace(tracer)
        tracer = None
        if batch.get("trashed") != files:
            raise RuntimeError("%s trashed %s of %d files" % (name, batch.get("trashed"), files))
        per_thread = {k: after.get(k, 0) - threads.get(k, 0) for k in after}
        out = dict(wall=wall, cpu=cpu, machine_cpu=machine, user=user, system=system, prepare_wall=prepared, prepare_cpu=cpu_prepare, files=files,
                   threads={k: v for k, v in per_thread.items() if v > 0})
        if TIMELINE:
            out["timeline"] = batch_log_line(d.log_path, batch["batch"])
        if UNDO:
            # The undo of that batch, the photos indexed again first (as the harness's trash workload does).
            d.wait_capture_done(client)
            os.sync()
            tracer = trace()
            before, threads = process_cpu(d.pid), thread_cpu(d.pid)
            t0 = time.perf_counter()
            _, undo = client.timed_request("undo", batch=batch["batch"], timeout=600)
            out["undo_wall"] = time.perf_counter() - t0
            out["undo_cpu"] = process_cpu(d.pid) - before
            after = thread_cpu(d.pid)
            untrace(tracer)
            tracer = None
            if undo.get("restored") != files:
                raise RuntimeError("%s restored %s of %d files" % (name, undo.get("restored"), files))
            out["undo_threads"] = {k: v for k, v in ((k, after.get(k, 0) - threads.get(k, 0)) for k in after) if v > 0}
        return out
    finally:
        client.close()
        d.stop()
        shutil.rmtree(os.path.join(env["XDG_DATA_HOME"], "Trash"), ignore_errors=True)
        shutil.rmtree(os.path.join(tree, "zz-%s-%d" % (name, rep)), ignore_errors=True)


def peer_batch(cmd, base, rep, env):
    paths = gen_tree.make_batch(os.path.join(base, "b-%d" % rep), BATCH, seed=rep, groups=GROUPS)
    os.sync()
    full = cmd(base) + ["--"]
    c0, t0 = children_cpu(), time.perf_counter()
    subprocess.run(full + [os.fsdecode(p) for p in paths], env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    user, system = (a - b for a, b in zip(children_cpu(), c0))
    shutil.rmtree(base, ignore_errors=True)
    shutil.rmtree(os.path.join(env["XDG_DATA_HOME"], "Trash"), ignore_errors=True)
    return dict(wall=wall, cpu=user + system, user=user, system=system)


def main():
    # NAME:BINARY, or NAME:BINARY:KEY=VALUE:... for settings of that subject's daemon
    # environment alone (CURATORD_BATCH_CHUNK=4096, say).
    subjects = []
    for arg in sys.argv[1:]:
        name, binary, *settings = arg.split(":")
        subjects.append((name, (binary, dict(kv.split("=", 1) for kv in settings))))
    if not subjects:
        sys.exit(__doc__)
    # A million filler photos need the 1M tier's image: room and 1.5 inodes a photo.
    big = N > 200000
    with ScratchFS("loop-ext4", 15 if big else 4, inodes=max(1_500_000, N * 3 // 2) if big else None,
                   direct_io=os.environ.get("BUFFERED_IO") != "1") as fs:
        tree, run, home = fs.path("tree"), fs.path("run"), fs.path("home")
        if STATE_DIR:
            # The daemons' sockets, state (index, journal) and logs elsewhere: the
            # journal's syncs no longer commit the photos' file system's journal.
            run = os.path.join(STATE_DIR, "batch-ab-%d" % os.getpid())
            atexit.register(shutil.rmtree, run, True)
        for d in (run, home):
            os.makedirs(d)
        gen_tree.generate(tree, N, seed=1)
        env = procs.private_env(home, os.path.join(home, "rt"))
        peers = []
        if PEERS:
            peers = [("gio trash", lambda base: ["gio", "trash"]),
                     ("mv -t", lambda base: (os.makedirs(os.path.join(base, "dest"), exist_ok=True),
                                             ["mv", "-t", os.path.join(base, "dest")])[1])]
        res = {name: [] for name, _ in subjects}
        res.update({name: [] for name, _ in peers})
        loads = []
        for rep in range(REPS):
            order = [("c", s) for s in subjects] + [("p", p) for p in peers]
            order = order[rep % len(order):] + order[:rep % len(order)]
            loads.append(os.getloadavg()[0])
            for kind, (name, what) in order:
                if kind == "c":
                    r = curatord_batch(name, what, tree, run, env, rep)
                else:
                    r = peer_batch(what, fs.path("peer"), rep, env)
                res[name].append(r)
                extra = " (user %.3f, sys %.3f)" % (r["user"], r["system"])
                if "prepare_cpu" in r:
                    extra = " (user %.3f, sys %.3f; prepare %.3f s wall, %.3f s CPU; the whole machine %.3f s CPU)" % (
                        r["user"], r["system"], r["prepare_wall"], r["prepare_cpu"], r["machine_cpu"])
                    if THREADS:
                        extra += " " + ", ".join("%s %.2f" % kv for kv in sorted(r["threads"].items(), key=lambda kv: -kv[1]))
                    if "undo_wall" in r:
                        extra += "; undo wall %.3f s, CPU %.3f s" % (r["undo_wall"], r["undo_cpu"])
                        if THREADS:
                            extra += " " + ", ".join("%s %.2f" % kv for kv in sorted(r["undo_threads"].items(), key=lambda kv: -kv[1]))
                print("rep %d %-12s wall %.3f s  CPU %.3f s%s" % (rep + 1, name, r["wall"], r["cpu"], extra), flush=True)
                if r.get("timeline"):
                    print("    " + r["timeline"], flush=True)
        files = gen_tree.batch_files(BATCH, GROUPS)
        print("\n%d photos (%d files), %s; filler tree %d photos; load %.1f-%.1f; %d reps" % (
            BATCH, files, "groups" if GROUPS else "groups off", N, min(loads), max(loads), REPS))
        for name, runs in res.items():
            print("%-12s wall median %.3f s  CPU median %.3f s [%.3f-%.3f] (user %.3f, sys %.3f)  CPU per file %.1f us" % (
                name, stats.median([r["wall"] for r in runs]), stats.median([r["cpu"] for r in runs]),
                min(r["cpu"] for r in runs), max(r["cpu"] for r in runs), stats.median([r["user"] for r in runs]),
                stats.median([r["system"] for r in runs]), stats.median([r["cpu"] for r in runs]) / files * 1e6))
        if UNDO:
            for name, _ in subjects:
                print("%-12s undo wall median %.3f s [%.3f-%.3f]  CPU median %.3f s" % (
                    name, stats.median([r["undo_wall"] for r in res[name]]), min(r["undo_wall"] for r in res[name]),
                    max(r["undo_wall"] for r in res[name]), stats.median([r["undo_cpu"] for r in res[name]])))
        first = subjects[0][0]
        for name in list(res)[1:]:
            ratios = [a["cpu"] / b["cpu"] for a, b in zip(res[first], res[name])]
            walls = [a["wall"] / b["wall"] for a, b in zip(res[first], res[name])]
            print("%s / %-12s CPU x%.2f [%.2f-%.2f]  wall x%.2f [%.2f-%.2f]" % (
                first, name, stats.median(ratios), min(ratios), max(ratios), stats.median(walls), min(walls), max(walls)))
        if PERF:
            for rep in range(REPS):
                data = "/tmp/batch-perf-%d.data" % rep
                if os.path.exists(data):
                    out = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "dso,symbol",
                                          "--stdio", "-g", "none", "--percent-limit", "0.7"],
                                         capture_output=True, text=True).stdout
                    print("\n== perf, rep %d ==\n%s" % (rep + 1, "\n".join(l for l in out.splitlines() if l and not l.startswith("#"))))
        if STRACE and os.path.exists("/tmp/batch-strace.txt") and "-c" in os.environ.get("STRACEARGS", "-c"):
            print("\n== strace -c -f ==\n" + open("/tmp/batch-strace.txt").read())


if __name__ == "__main__":
    main()
