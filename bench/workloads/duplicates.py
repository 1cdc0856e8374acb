# SPDX-License-Identifier: GPL-2.0-or-later
"""Exact duplicates of a tree of N photos with 2 % duplicates, cold page cache (issue 53).

The tree is `dup_tree.py`'s (its own, beside the benchmark's tree): photos of
distinct sizes, 2 % exact copies, 1 % decoys of a shared size, 0.2 % copies with one
byte changed. Each repetition runs, back to back and in rotated order, with the page
cache dropped (`sync; echo 3 > /proc/sys/vm/drop_caches`) before each:

- curatord from an empty state directory, timed from spawning it until the scan is
  done, no content read is pending (`hash_pending` 0) and a listing of
  `duplicates: true` holds every copy of the truth (so: index, hash, answer);
- `jdupes -r -q TREE` (output to a file), until it exits;
- `rdfind -dryrun true -makeresultsfile false TREE`, until it exits.

Every subject's answer is checked against the truth (sets found), so a fast wrong
answer is not a result.
"""
import os
import re
import shutil
import subprocess
import time

import dup_tree
import stats
from curatord_client import Daemon, scan_done

KEY = "dups"
TITLE = "exact duplicates, cold cache: index and hash vs jdupes -r, rdfind"
JDUPES = "jdupes -r"
RDFIND = "rdfind -dryrun true"


def drop_caches():
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def _tree(ctx):
    """The duplicates tree of the current N, made once per N."""
    root = ctx.scratch.path("dups-%d" % ctx.n)
    cached = getattr(ctx, "dup_manifest", None)
    if cached is not None and cached["root"] == root:
        return cached
    shutil.rmtree(root, ignore_errors=True)
    t0 = time.monotonic()
    manifest = dup_tree.generate(root, ctx.n, seed=1)
    os.sync()
    ctx.log("duplicates tree: %d photos (%d copies, %d decoys, %d near copies), %.1f GB, written in %.1f s" % (
        manifest["photos"], manifest["copies"], manifest["decoys"], manifest["near"], manifest["bytes"] / 1e9,
        time.monotonic() - t0))
    ctx.dup_manifest = manifest
    return manifest


def curatord_once(ctx, manifest, timeout: float = 1200.0):
    """(seconds to the duplicates answered, seconds to scan done)."""
    daemon = Daemon(ctx.binary, [manifest["root"]], ctx.run_dir, ctx.env, name="curatord-dups",
                    options={"thumbnails": False})
    ctx.daemons.append(daemon)
    if ctx.profiler is not None and ctx.profiler.active is not None:
        daemon.on_start = ctx.profiler.attach
    shutil.rmtree(daemon.state_dir, ignore_errors=True)
    drop_caches()
    daemon.start()
    try:
        client = daemon.connect()
        try:
            deadline = daemon.started_at + timeout
            scanned = None
            while time.monotonic() < deadline:
                status = client.request("status", timeout=60)
                if scanned is None and scan_done(status, manifest["photos"]):
                    scanned = time.monotonic() - daemon.started_at
                if scanned is not None and (status.get("hash_pending") or 0) == 0:
                    found = client.request("list", timeout=60, filter={"duplicates": True}, limit=0)["total"]
                    if found == manifest["in_sets"]:
                        return time.monotonic() - daemon.started_at, scanned
                time.sleep(0.02)
            raise TimeoutError("curatord did not find the duplicates within %.0f s" % timeout)
        finally:
            client.close()
    finally:
        daemon.stop()


def _run_peer(ctx, cmd, out_path, timeout: float = 1200.0) -> float:
    drop_caches()
    with open(out_path, "wb") as out:
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, env=ctx.env, cwd=ctx.run_dir, check=True,
                       timeout=timeout)
        return time.perf_counter() - t0


def jdupes_once(ctx, manifest) -> float:
    out = os.path.join(ctx.run_dir, "jdupes.out")
    seconds = _run_peer(ctx, ["jdupes", "-r", "-q", manifest["root"]], out)
    with open(out, "rb") as f:
        sets = [s for s in f.read().split(b"\n\n") if s.strip()]
    if len(sets) != len(manifest["sets"]):
        raise RuntimeError("jdupes found %d sets, the tree has %d" % (len(sets), len(manifest["sets"])))
    return seconds


def rdfind_once(ctx, manifest) -> float:
    out = os.path.join(ctx.run_dir, "rdfind.out")
    seconds = _run_peer(ctx, ["rdfind", "-dryrun", "true", "-makeresultsfile", "false", manifest["root"]], out)
    with open(out, "rb") as f:
        said = re.search(rb"you have (\d+) files that are not unique", f.read())
    # rdfind counts every file of a set, the first too.
    if said is None or int(said.group(1)) != manifest["in_sets"]:
        raise RuntimeError("rdfind found %s files in sets, the tree has %d" % (
            said.group(1).decode() if said else "no", manifest["in_sets"]))
    return seconds


def run(ctx):
    r, n = ctx.results, ctx.n
    if os.geteuid() != 0:
        r.skip(KEY, n, "curatord", "dropping the page cache needs root")
        return
    for tool in ("jdupes", "rdfind"):
        if shutil.which(tool) is None:
            r.skip(KEY, n, tool, "%s is not installed (apt-get install %s)" % (tool, tool))
            return
    ctx.stop_all()
    manifest = _tree(ctx)
    got = {"curatord": [], JDUPES: [], RDFIND: []}
    scans = []
    steps = {"curatord": lambda: curatord_once(ctx, manifest), JDUPES: lambda: jdupes_once(ctx, manifest),
             RDFIND: lambda: rdfind_once(ctx, manifest)}
    for rep in range(ctx.reps):
        for name in stats.rotated(list(steps), rep):
            value = steps[name]()
            if name == "curatord":
                value, scanned = value
                scans.append(scanned)
            got[name].append(value)
        ctx.log("dups rep %d: curatord %.2f s (scan done at %.2f s), jdupes %.2f s, rdfind %.2f s (load %.1f)" % (
            rep + 1, got["curatord"][-1], scans[-1], got[JDUPES][-1], got[RDFIND][-1], os.getloadavg()[0]))
    r.add(KEY, n, "curatord", "time", "s", got["curatord"], interleaved=True,
          note="spawn, empty state, to the duplicates listed")
    r.add(KEY, n, "curatord", "time to scan done", "s", scans, interleaved=True)
    r.add(KEY, n, JDUPES, "time", "s", got[JDUPES], interleaved=True)
    r.add(KEY, n, RDFIND, "time", "s", got[RDFIND], interleaved=True)
    r.note(KEY, n, "tree: %d photos, %d exact copies (%d sets), %d decoys of a shared size, %d near copies, %.1f GB; "
                   "page cache dropped before each run" % (
                       manifest["photos"], manifest["copies"], len(manifest["sets"]), manifest["decoys"],
                       manifest["near"], manifest["bytes"] / 1e9))
    x_j = r.ratios(KEY, n, "curatord", "time", JDUPES)
    x_r = r.ratios(KEY, n, "curatord", "time", RDFIND)
    j, d = stats.median(x_j), stats.median(x_r)
    r.verdict(KEY, n, "at most 0.5x jdupes -r and rdfind -dryrun true, cold cache", j <= 0.5 and d <= 0.5,
              "%.2f s; x%.2f jdupes %s, x%.2f rdfind %s" % (
                  r.find(KEY, n, "curatord", "time").median, j, stats.spread(x_j), d, stats.spread(x_r)),
              set_for="issue 53 at 100 000")
