# SPDX-License-Identifier: GPL-2.0-or-later
"""50 000 files written at full speed into the root, as `tar -x` or `rsync` of a library
does (issue 14: 61 000 files/s overflowed the inotify queue twice and rescanned a
million photos twice; watchman was in sync 0.4 ms after the last write).

A C writer (native/fastfiles.c) creates, writes and closes one file after the other in
a new folder of the root, in sub-folders of 100 (`--flood-per-folder`), as fast as it
can; the rate it reached is recorded. Then, for curatord: `sync` (read-your-writes:
answered once every change made before it is in the index, the rescan after an
overflow included) and `status` until the index holds every file; the time runs from
the last close to that answer. For watchman: a query synced to now (its cookie) for
the files under the new folder, until it lists them all. Queue overflows and full
rescans are counted from `status` (`overflows`, `rescans`) and, for watchman, from the
"Recrawled this watch N times" warning its answers carry.

Each repetition runs curatord, then watchman, each alone on the tree; the subject is
stopped before the written files are removed, so that the removal's own flood of
events lands on no one.
"""
import os
import re
import shutil
import subprocess
import time

import native
import stats
from peers import bser

KEY = "flood"
TITLE = "files written at full speed into the root"
WATCHMAN = "watchman"
RECRAWLS = re.compile(r"Recrawled this watch (\d+) times?")
FILE_SIZE = 512


def write_flood(folder: str, count: int, per_folder: int):
    """Writes the files; returns (perf_counter time before the first create, after the
    last close, "c" or "python")."""
    helper = native.fastfiles()
    if helper is not None:
        r = subprocess.run([helper, "flood", folder, str(count), str(per_folder), str(FILE_SIZE)],
                           capture_output=True, text=True, timeout=1800)
        if r.returncode != 0:
            raise RuntimeError("fastfiles flood failed: %s" % r.stderr.strip()[-300:])
        first_ns, last_ns = (int(x) for x in r.stdout.split())
        return first_ns / 1e9, last_ns / 1e9, "c"
    data = b"\xff\xd8" + b"\x00" * (FILE_SIZE - 2)
    os.mkdir(folder)
    into = folder
    first = time.perf_counter()
    for i in range(count):
        if per_folder and i % per_folder == 0:
            into = os.path.join(folder, "part-%05d" % (i // per_folder))
            os.mkdir(into)
        fd = os.open(os.path.join(into, "IMG_%06d.JPG" % i), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(fd, data)
        os.close(fd)
    return first, time.perf_counter(), "python"


def _root_totals(status):
    roots = status.get("roots") or []
    return (sum(r.get("photos", 0) for r in roots), status.get("overflows", 0), status.get("rescans", 0))


def curatord_once(ctx, rel: str) -> dict:
    daemon = ctx.curatord_live()
    client = daemon.connect()
    folder = os.path.join(ctx.tree, rel)
    try:
        photos0, overflows0, rescans0 = _root_totals(client.request("status"))
        first, last, writer = write_flood(folder, ctx.flood_size, ctx.flood_per_folder)
        # At once: anything the daemon still has to do shows in this answer's arrival.
        client.request("sync", timeout_ms=1_800_000, timeout=1900)
        indexed = time.perf_counter()
        deadline = indexed + 600
        while True:
            photos, overflows, rescans = _root_totals(client.request("status"))
            if photos >= photos0 + ctx.flood_size:
                break
            if time.perf_counter() > deadline:
                raise TimeoutError("curatord indexed %d of the %d files 10 minutes after sync" % (
                    photos - photos0, ctx.flood_size))
            time.sleep(0.002)
            indexed = time.perf_counter()
        return {"rate": ctx.flood_size / (last - first), "after_last": indexed - last, "writer": writer,
                "overflows": overflows - overflows0, "rescans": rescans - rescans0}
    finally:
        client.close()
        ctx.stop_curatord()
        shutil.rmtree(folder, ignore_errors=True)


def _recrawls(answer) -> int:
    m = RECRAWLS.search(answer.get("warning") or "") if isinstance(answer, dict) else None
    return int(m.group(1)) if m else 0


def watchman_once(ctx, rel: str) -> dict:
    server = ctx.watchman_live(None)
    client = server.client()
    folder = os.path.join(ctx.tree, rel)
    try:
        before = client.command("query", ctx.tree, {"expression": ["false"], "fields": ["name"],
                                                    "sync_timeout": 600000}, timeout=700)
        first, last, writer = write_flood(folder, ctx.flood_size, ctx.flood_per_folder)
        deadline = time.perf_counter() + 600
        while True:
            client.send(["query", ctx.tree, {"relative_root": rel, "expression": ["type", "f"], "fields": ["name"],
                                             "sync_timeout": 1800000}])
            pdu = client.raw_response(1900)
            arrived = time.perf_counter()
            answer = bser.loads(pdu)
            if "error" in answer:
                raise RuntimeError("watchman query: %s" % answer["error"])
            if len(answer.get("files") or []) >= ctx.flood_size:
                break
            if arrived > deadline:
                raise TimeoutError("watchman listed %d of the %d files" % (len(answer.get("files") or []),
                                                                           ctx.flood_size))
            time.sleep(0.002)
        return {"rate": ctx.flood_size / (last - first), "after_last": arrived - last, "writer": writer,
                "overflows": _recrawls(answer) - _recrawls(before), "rescans": _recrawls(answer) - _recrawls(before)}
    finally:
        client.close()
        ctx.stop_watchmen()
        shutil.rmtree(folder, ignore_errors=True)


def run(ctx):
    r, n = ctx.results, ctx.n
    runs = {"curatord": [], WATCHMAN: []}
    for rep in range(ctx.reps):
        rel = "zz-flood-%d" % rep
        runs["curatord"].append(curatord_once(ctx, rel))
        runs[WATCHMAN].append(watchman_once(ctx, rel))
        c, w = runs["curatord"][-1], runs[WATCHMAN][-1]
        ctx.log("flood rep %d: curatord in sync %.1f ms after the last write (%.0f files/s written, %d overflows, "
                "%d rescans); watchman %.1f ms (%.0f files/s, %d recrawls)" % (
                    rep + 1, c["after_last"] * 1000, c["rate"], c["overflows"], c["rescans"], w["after_last"] * 1000,
                    w["rate"], w["rescans"]))
    for who, rows in runs.items():
        r.add(KEY, n, who, "all indexed after the last write", "ms", [x["after_last"] * 1000 for x in rows],
              interleaved=True)
    for who, rows in runs.items():
        # Named for the writer: its rate is the load, not a figure of the subject.
        r.add(KEY, n, "the writer, %s watching" % who, "write rate reached", "files/s", [x["rate"] for x in rows],
              higher_is_better=True, interleaved=True)
    r.add(KEY, n, "curatord", "inotify queue overflows", "count", [x["overflows"] for x in runs["curatord"]],
          interleaved=True)
    r.add(KEY, n, "curatord", "full rescans", "count", [x["rescans"] for x in runs["curatord"]], interleaved=True)
    r.add(KEY, n, WATCHMAN, "recrawls (its answer to an overflow)", "count",
          [x["rescans"] for x in runs[WATCHMAN]], interleaved=True)
    writers = {x["writer"] for rows in runs.values() for x in rows}
    r.note(KEY, n, "%d files of %d B in a new folder of the root, %s, written by %s; curatord: `sync` then `status` "
                   "until every file is indexed; watchman: a synced query of the new folder until it lists them all" % (
                       ctx.flood_size, FILE_SIZE,
                       "in sub-folders of %d" % ctx.flood_per_folder if ctx.flood_per_folder else "all in one folder",
                       " and ".join("the C writer (create, write, close)" if w == "c" else "Python (no C compiler)"
                                    for w in sorted(writers))))
    cur = runs["curatord"]
    worst_overflows = max(x["overflows"] for x in cur)
    worst_rescans = max(x["rescans"] for x in cur)
    t = r.find(KEY, n, "curatord", "all indexed after the last write")
    x = r.ratios(KEY, n, "curatord", "all indexed after the last write", WATCHMAN)
    r.verdict(KEY, n, "no queue overflow, no full rescan; all indexed within 1 s after the last write",
              worst_overflows == 0 and worst_rescans == 0 and t.median <= 1000,
              "%.0f ms (worst %.0f ms), x%.2f watchman's %s; overflows %s, rescans %s; written at %.0f files/s" % (
                  t.median, t.high, stats.median(x) if x else float("nan"), stats.spread(x),
                  ", ".join(str(v["overflows"]) for v in cur), ", ".join(str(v["rescans"]) for v in cur),
                  stats.median([v["rate"] for v in cur])),
              set_for="issue 14 at 1 000 000 (50 000 files)")
