# SPDX-License-Identifier: GPL-2.0-or-later
"""50 000 files written at full speed into the root (issue 14: 61 000 files/s overflowed
the inotify queue twice and rescanned a million photos twice; watchman was in sync
0.4 ms after the last write).

Two workloads, two shapes of the same burst:

- `flood`: every file straight into the root folder, which is watched before the
  first write, so that each file raises its events (create, close) through the
  kernel queue: the hardest case for the queue.
- `flood-tree`: into a new folder of the root, in new sub-folders of 100, as `tar -x`
  or `rsync` of a library does: a watcher finds most files by scanning the new
  folders, since they are written before it can add their watches.

A C writer (native/fastfiles.c) creates, writes and closes one file after the other
as fast as it can; the rate it reached is recorded. Then, for curatord: `sync`
(read-your-writes: answered once every change made before it is in the index, the
rescan after an overflow included) and `status` until the index holds every file;
the time runs from the last close to that answer. For watchman: a query synced to
now (its cookie) for the files changed since a clock taken before the writes, until
it lists them all. Queue overflows and full rescans are counted from `status`
(`overflows`, `rescans`) and, for watchman, from the "Recrawled this watch N times"
warning its answers carry.

Each repetition runs curatord and watchman, in turns first, each alone on the tree; the subject is
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

WATCHMAN = "watchman"
RECRAWLS = re.compile(r"Recrawled this watch (\d+) times?")
FILE_SIZE = 512


def write_flood(folder: str, count: int, per_folder: int, prefix: str = ""):
    """Writes the files; returns (perf_counter time before the first create, after the
    last close, "c" or "python")."""
    helper = native.fastfiles()
    if helper is not None:
        r = subprocess.run([helper, "flood", folder, str(count), str(per_folder), str(FILE_SIZE), prefix],
                           capture_output=True, text=True, timeout=1800)
        if r.returncode != 0:
            raise RuntimeError("fastfiles flood failed: %s" % r.stderr.strip()[-300:])
        first_ns, last_ns = (int(x) for x in r.stdout.split())
        return first_ns / 1e9, last_ns / 1e9, "c"
    data = b"\xff\xd8" + b"\x00" * (FILE_SIZE - 2)
    if per_folder or not os.path.isdir(folder):
        os.mkdir(folder)
    into = folder
    first = time.perf_counter()
    for i in range(count):
        if per_folder and i % per_folder == 0:
            into = os.path.join(folder, "part-%05d" % (i // per_folder))
            os.mkdir(into)
        fd = os.open(os.path.join(into, "%sIMG_%06d.JPG" % (prefix, i)), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(fd, data)
        os.close(fd)
    return first, time.perf_counter(), "python"


def _root_totals(status):
    roots = status.get("roots") or []
    return (sum(r.get("photos", 0) for r in roots), status.get("overflows", 0), status.get("rescans", 0))


def _recrawls(answer) -> int:
    m = RECRAWLS.search(answer.get("warning") or "") if isinstance(answer, dict) else None
    return int(m.group(1)) if m else 0


class Flood:
    """One shape of the burst: `per_folder` 0 writes straight into the root."""

    def __init__(self, key: str, title: str, per_folder: int):
        self.KEY = key
        self.TITLE = title
        self.per_folder = per_folder

    def _target(self, ctx, rep):
        """(the folder to write into, the prefix of the names, a function that removes them)."""
        if self.per_folder == 0:
            prefix = "flood-%d-" % rep

            def remove():
                with os.scandir(ctx.tree) as entries:
                    for e in entries:
                        if e.name.startswith(prefix):
                            os.unlink(e.path)
            return ctx.tree, prefix, remove
        folder = os.path.join(ctx.tree, "zz-flood-%d" % rep)
        return folder, "", lambda: shutil.rmtree(folder, ignore_errors=True)

    def _curatord(self, ctx, rep) -> dict:
        daemon = ctx.curatord_live()
        client = daemon.connect()
        folder, prefix, remove = self._target(ctx, rep)
        try:
            photos0, overflows0, rescans0 = _root_totals(client.request("status"))
            first, last, writer = write_flood(folder, ctx.flood_size, self.per_folder, prefix)
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
            remove()

    def _watchman(self, ctx, rep) -> dict:
        server = ctx.watchman_live(None)
        client = server.client()
        folder, prefix, remove = self._target(ctx, rep)
        try:
            before = client.command("query", ctx.tree, {"expression": ["false"], "fields": ["name"],
                                                        "sync_timeout": 600000}, timeout=700)
            first, last, writer = write_flood(folder, ctx.flood_size, self.per_folder, prefix)
            deadline = time.perf_counter() + 600
            while True:
                # Only what changed since the clock: a query of the whole tree would time
                # its evaluation over every file, not the settling.
                client.send(["query", ctx.tree, {"since": before["clock"], "expression": ["type", "f"],
                                                 "fields": ["name"], "sync_timeout": 1800000}])
                pdu = client.raw_response(1900)
                arrived = time.perf_counter()
                answer = bser.loads(pdu)
                if "error" in answer:
                    raise RuntimeError("watchman query: %s" % answer["error"])
                names = answer.get("files") or []
                got = sum(1 for name in names if os.path.basename(name).startswith(prefix + "IMG_"))
                if got >= ctx.flood_size:
                    break
                if arrived > deadline:
                    raise TimeoutError("watchman listed %d of the %d files" % (got, ctx.flood_size))
                time.sleep(0.002)
            recrawls = _recrawls(answer) - _recrawls(before)
            return {"rate": ctx.flood_size / (last - first), "after_last": arrived - last, "writer": writer,
                    "overflows": recrawls, "rescans": recrawls}
        finally:
            client.close()
            ctx.stop_watchmen()
            remove()

    def run(self, ctx):
        r, n, key = ctx.results, ctx.n, self.KEY
        runs = {"curatord": [], WATCHMAN: []}
        for rep in range(ctx.reps):
            for step in stats.rotated([lambda: runs["curatord"].append(self._curatord(ctx, rep)),
                                       lambda: runs[WATCHMAN].append(self._watchman(ctx, rep))], rep):
                step()
            c, w = runs["curatord"][-1], runs[WATCHMAN][-1]
            ctx.log("%s rep %d: curatord in sync %.1f ms after the last write (%.0f files/s written, %d overflows, "
                    "%d rescans); watchman %.1f ms (%.0f files/s, %d recrawls)" % (
                        key, rep + 1, c["after_last"] * 1000, c["rate"], c["overflows"], c["rescans"],
                        w["after_last"] * 1000, w["rate"], w["rescans"]))
        for who, rows in runs.items():
            r.add(key, n, who, "all indexed after the last write", "ms", [x["after_last"] * 1000 for x in rows],
                  interleaved=True)
        for who, rows in runs.items():
            # Named for the writer: its rate is the load, not a figure of the subject.
            r.add(key, n, "the writer, %s watching" % who, "write rate reached", "files/s",
                  [x["rate"] for x in rows], higher_is_better=True, interleaved=True)
        r.add(key, n, "curatord", "inotify queue overflows", "count", [x["overflows"] for x in runs["curatord"]],
              interleaved=True)
        r.add(key, n, "curatord", "full rescans", "count", [x["rescans"] for x in runs["curatord"]], interleaved=True)
        r.add(key, n, WATCHMAN, "recrawls (its answer to an overflow)", "count",
              [x["rescans"] for x in runs[WATCHMAN]], interleaved=True)
        writers = {x["writer"] for rows in runs.values() for x in rows}
        r.note(key, n, "%d files of %d B %s, written by %s; curatord: `sync` then `status` until every file is "
                       "indexed; watchman: a synced query of what changed since a clock taken before the writes, "
                       "until it lists them all" % (
                           ctx.flood_size, FILE_SIZE,
                           "in new sub-folders of %d of a new folder of the root" % self.per_folder
                           if self.per_folder else "straight into the (watched) root folder",
                           " and ".join("the C writer (create, write, close)" if w == "c" else "Python (no C compiler)"
                                        for w in sorted(writers))))
        cur = runs["curatord"]
        t = r.find(key, n, "curatord", "all indexed after the last write")
        x = r.ratios(key, n, "curatord", "all indexed after the last write", WATCHMAN)
        ok = max(v["overflows"] for v in cur) == 0 and max(v["rescans"] for v in cur) == 0 and t.median <= 1000
        r.verdict(key, n, "no queue overflow, no full rescan; all indexed within 1 s after the last write", ok,
                  "%.0f ms (worst %.0f ms), x%.2f watchman's %s; overflows %s, rescans %s; written at %.0f files/s" % (
                      t.median, t.high, stats.median(x) if x else float("nan"), stats.spread(x),
                      ", ".join(str(v["overflows"]) for v in cur), ", ".join(str(v["rescans"]) for v in cur),
                      stats.median([v["rate"] for v in cur])),
                  set_for="issue 14 at 1 000 000 (50 000 files)")


ROOT = Flood("flood", "files written at full speed straight into the root", 0)
TREE = Flood("flood-tree", "files written at full speed into new folders of 100 (tar -x of a library)", 100)
