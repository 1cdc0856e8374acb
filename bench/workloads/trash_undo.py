# SPDX-License-Identifier: GPL-2.0-or-later
"""A confirmed batch of 10 000 photos to the trash (journal durable), and its undo.

curatord: `delete.prepare` with the photos' ids, then `delete.confirm` with the token
(the time is both; confirm alone is shown too), then `undo` of that batch. Peers work
on an identical batch outside the watched root: `trash-put` and `gio trash` (one run
each over all the files), `mv -t` into one folder (the rename floor); for undo,
`trash-restore` once per file (capped: each run reads the whole trash, so the total
is extrapolated from the capped runs) and a plain rename-back loop.
Each repetition runs curatord's batch and undo and every peer's, in turns first.
When this build of curatord has no delete commands, its part is skipped and said so.
"""
import os
import resource
import shutil
import time

import gen_tree
import procs
import stats
from curatord_client import NotAvailable
from peers import trash_tools

KEY = "trash"
TITLE = "confirmed batch to the trash, and its undo"
# Asks the live curatord (an idle daemon that has indexed the tree): with --perf it is
# brought up before the profile starts, so that its start-up is not in it.
USES_LIVE_DAEMON = True
UNDO_KEY = "undo"
MV = "mv -t (rename floor)"


def _trash_dir(ctx):
    return os.path.join(ctx.env["XDG_DATA_HOME"], "Trash")


def _empty_trash(ctx):
    shutil.rmtree(_trash_dir(ctx), ignore_errors=True)


def _curatord_rep(ctx, client, root_name, rep):
    """One batch and its undo: {"total", "confirm", "undo"} seconds, or None when this
    build has no delete commands (the skips are recorded)."""
    r, n, size = ctx.results, ctx.n, ctx.batch_size
    rel = "zz-batch-%d" % rep
    folder = os.path.join(ctx.tree, rel)
    files = len(gen_tree.make_batch(folder, size, seed=rep, groups=ctx.groups_on))
    try:
        ids = _indexed_ids(client, root_name, rel, size)
        # An idle daemon, as every other timed request of the harness gets: the
        # capture-time reader otherwise reads the EXIF of the 10 000 photos just made
        # during the timed delete.prepare (the peers have no such background work).
        ctx.daemon.wait_capture_done(client)
        _settle()
        try:
            # Each answer is timed to its arrival; decoding it (10 000 items)
            # is the Python client's work and is left out, as for `list`.
            # CPU seconds of the daemon (every thread) from the prepare's request to the
            # confirm's answer: steadier than wall time on a shared host.
            cpu0 = procs.cpu_seconds(ctx.daemon.pid)
            prepared, plan = client.timed_request("delete.prepare", ids=ids, timeout=600)
            confirmed, batch = client.timed_request("delete.confirm", token=plan["token"], timeout=600)
            cpu = procs.cpu_seconds(ctx.daemon.pid) - cpu0
        except NotAvailable as e:
            r.skip(KEY, n, "curatord", "delete.prepare/delete.confirm not available in this build (%s)" % e.code)
            r.skip(UNDO_KEY, n, "curatord", "needs delete.confirm, not available in this build")
            ctx.log("trash: curatord has no delete commands in this build; skipped")
            return None
        # `trashed` counts files: every member of each group.
        if batch.get("trashed") != files:
            raise RuntimeError("delete.confirm trashed %s of %d files (%d photos)" % (batch.get("trashed"), files, size))
        left = sum(1 for _, _, files in os.walk(folder) for _ in files)
        if left:
            raise RuntimeError("%d files still in the batch folder after delete.confirm" % left)
        out = {"total": prepared + confirmed, "confirm": confirmed, "undo": None, "cpu": cpu}
        try:
            out["undo"], undo = client.timed_request("undo", batch=batch["batch"], timeout=600)
        except NotAvailable as e:
            r.skip(UNDO_KEY, n, "curatord", "undo not available in this build (%s)" % e.code)
            undo = None
        if undo is not None and undo.get("restored") != files:
            raise RuntimeError("undo restored %s of %d files (%d photos)" % (undo.get("restored"), files, size))
        return out
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        client.request("sync", timeout=120)
        _empty_trash(ctx)


def _settle():
    """Writes back the batch just generated before anything is timed: curatord's
    journal syncs the file system, which would otherwise also write the 10 000
    new files out (0.3 s that belong to the harness, not to any subject)."""
    os.sync()


def _indexed_ids(client, root_name, rel, size, timeout: float = 120.0):
    """The ids of the batch's photos once curatord has indexed all of them."""
    deadline = time.monotonic() + timeout
    while True:
        client.request("sync", timeout=120)
        listing = client.request("list", root=root_name, folder=rel, recursive=True, timeout=120)
        ids = [p["id"] for p in listing["photos"]]
        if len(ids) == size:
            return ids
        if time.monotonic() > deadline:
            raise TimeoutError("curatord indexed %d of the %d batch photos" % (len(ids), size))
        time.sleep(0.05)


def _children_cpu() -> float:
    """User + system CPU seconds of the harness's finished children so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _timed_peer(run):
    """Runs a peer's batch: (seconds, its CPU seconds, what `run` returned)."""
    cpu0 = _children_cpu()
    seconds, runs = run()
    return seconds, _children_cpu() - cpu0, runs


def _peers_rep(ctx, rep) -> dict:
    """trash-put (and trash-restore on a few of its files), gio trash, mv -t and the
    rename-back loop on identical batches outside the watched root: seconds each."""
    size = ctx.batch_size
    base = ctx.scratch.path("peer-batch")
    out = {}
    try:
        paths = gen_tree.make_batch(os.path.join(base, "trash-put-%d" % rep), size, seed=rep, groups=ctx.groups_on)
        _settle()
        out["put"], out["put_cpu"], runs = _timed_peer(lambda: trash_tools.trash_put(paths, ctx.env))
        _check_gone(paths, "trash-put")
        out["restore_runs"] = trash_tools.trash_restore_each(paths[:ctx.restore_cap], ctx.env, cwd=base)
        _empty_trash(ctx)
        paths = gen_tree.make_batch(os.path.join(base, "gio-%d" % rep), size, seed=rep, groups=ctx.groups_on)
        _settle()
        out["gio"], out["gio_cpu"], _ = _timed_peer(lambda: trash_tools.gio_trash(paths, ctx.env))
        _check_gone(paths, "gio trash")
        _empty_trash(ctx)
        paths = gen_tree.make_batch(os.path.join(base, "mv-%d" % rep), size, seed=rep, groups=ctx.groups_on)
        _settle()
        dest = os.path.join(base, "mv-dest-%d" % rep)
        os.mkdir(dest)
        out["mv"], out["mv_cpu"], _ = _timed_peer(lambda: trash_tools.mv_into(paths, dest, ctx.env))
        _check_gone(paths, "mv")
        out["back"] = trash_tools.rename_back([(os.path.join(os.fsencode(dest), os.path.basename(p)), p)
                                               for p in paths])
        out["put_runs"] = runs
        return out
    finally:
        shutil.rmtree(base, ignore_errors=True)
        _empty_trash(ctx)


def _check_gone(paths, who):
    left = [p for p in paths if os.path.lexists(p)]
    if left:
        raise RuntimeError("%s left %d of %d files in place" % (who, len(left), len(paths)))


def run(ctx):
    r, n, size = ctx.results, ctx.n, ctx.batch_size
    _empty_trash(ctx)
    curs, peers = [], []
    available = True
    for rep in range(ctx.args.trash_reps):
        # curatord and the peers, in turns first: the live daemon is left up between
        # repetitions (the peers work outside its root, so it has nothing to do meanwhile).
        def curatord():
            nonlocal available
            daemon = ctx.curatord_live()
            client = daemon.connect()
            try:
                root_name = client.request("status")["roots"][0]["name"]
                cur = _curatord_rep(ctx, client, root_name, rep)
            finally:
                client.close()
            if cur is None:
                available = False
            else:
                curs.append(cur)
        for step in stats.rotated([curatord, lambda: peers.append(_peers_rep(ctx, rep))], rep):
            step()
        if not available:
            break
        cur, p = curs[-1], peers[-1]
        ctx.log("trash rep %d: curatord %.3f s, CPU %.3f s (confirm %.3f s, undo %s); trash-put %.2f s (%d run), gio %.2f s, "
                "CPU %.3f s, mv %.3f s, CPU %.3f s, rename-back %.3f s" % (
                    rep + 1, cur["total"], cur["cpu"], cur["confirm"], "%.3f s" % cur["undo"] if cur["undo"] is not None else "n/a",
                    p["put"], p["put_runs"], p["gio"], p["gio_cpu"], p["mv"], p["mv_cpu"], p["back"]))
    r.note(KEY, n, "batch of %d photos in folders of 100%s; trash-put/gio trash/mv get all paths (every file) in one "
                   "command line; none of the peers fsyncs, curatord's journal is flushed before each step; the batch's files are "
                   "written back (sync) before each timed run, and curatord has read their capture times" % (
                       size, ", grouped: every third a RAW+JPEG pair, every sixth with an .xmp (%d files)" % gen_tree.batch_files(size, True) if ctx.groups_on else ""))
    if not curs:
        for key, target in ((KEY, "faster than gio trash, >= 5x faster than trash-put, within 2.5x of mv"),
                            (UNDO_KEY, "the whole batch in under 1 s")):
            r.verdict(key, n, target, None, "not available in this build")
        return
    undos = [c["undo"] for c in curs if c["undo"] is not None]
    files = gen_tree.batch_files(size, ctx.groups_on)  # what each peer trashes and restores
    r.add(KEY, n, "curatord", "batch time", "s", [c["total"] for c in curs], interleaved=True,
          note="delete.prepare + delete.confirm, each to the arrival of its answer (decoded after, untimed)")
    r.add(KEY, n, "curatord", "delete.confirm alone", "s", [c["confirm"] for c in curs], interleaved=True)
    r.add(KEY, n, "trash-put", "batch time", "s", [p["put"] for p in peers], interleaved=True)
    r.add(KEY, n, "gio trash", "batch time", "s", [p["gio"] for p in peers], interleaved=True)
    r.add(KEY, n, MV, "batch time", "s", [p["mv"] for p in peers], interleaved=True)
    # CPU seconds per batch: the daemon's (every thread) and each peer process's.
    r.add(KEY, n, "curatord", "batch CPU", "s", [c["cpu"] for c in curs], interleaved=True,
          note="user + system CPU of every daemon thread from the prepare's request to the confirm's answer")
    r.add(KEY, n, "gio trash", "batch CPU", "s", [p["gio_cpu"] for p in peers], interleaved=True)
    r.add(KEY, n, MV, "batch CPU", "s", [p["mv_cpu"] for p in peers], interleaved=True)
    r.add(KEY, n, "trash-put", "batch CPU", "s", [p["put_cpu"] for p in peers], interleaved=True)
    if undos:
        r.add(UNDO_KEY, n, "curatord", "undo whole batch", "s", undos, interleaved=len(undos) == len(curs))
    restore_runs = [t for p in peers for t in p["restore_runs"]]
    r.add(UNDO_KEY, n, "trash-restore (extrapolated)", "undo whole batch", "s",
          [stats.median(p["restore_runs"]) * files for p in peers], interleaved=True)
    r.note(UNDO_KEY, n, "trash-restore ran once per file on %d files per repetition (median %.3f s per run, each run "
                        "reads the whole trash of %d entries); the batch figure is that per-run time x %d" % (
                            ctx.restore_cap, stats.median(restore_runs), files, files))
    r.add(UNDO_KEY, n, "rename-back loop", "undo whole batch", "s", [p["back"] for p in peers], interleaved=True)

    c = r.find(KEY, n, "curatord", "batch time").median
    xg = r.ratios(KEY, n, "curatord", "batch time", "gio trash")
    xp = r.ratios(KEY, n, "curatord", "batch time", "trash-put")
    xm = r.ratios(KEY, n, "curatord", "batch time", MV)
    g, p, m = stats.median(xg), stats.median(xp), stats.median(xm)
    r.verdict(KEY, n, "faster than gio trash, >= 5x faster than trash-put, within 2.5x of mv",
              g < 1 and p <= 0.2 and m <= 2.5,
              "%.2f s; x%.2f gio trash %s, x%.2f trash-put %s, x%.2f mv %s" % (
                  c, g, stats.spread(xg), p, stats.spread(xp), m, stats.spread(xm)), set_for="issue 6 at 100 000")
    r.verdict(KEY, n, "at most 2.5x mv of the same files, at most 0.5x gio trash", m <= 2.5 and g <= 0.5,
              "x%.2f mv %s, x%.2f gio trash %s" % (m, stats.spread(xm), g, stats.spread(xg)),
              set_for="issue 14 at 1 000 000")
    cg = r.ratios(KEY, n, "curatord", "batch CPU", "gio trash")
    cm = r.ratios(KEY, n, "curatord", "batch CPU", MV)
    if cg and cm and len(cg) > 1:  # a --baseline-bin run measures one repetition at a time: its table has the rows
        r.note(KEY, n, "CPU per batch: curatord %.3f s, x%.2f gio trash %s, x%.2f mv %s" % (
            r.find(KEY, n, "curatord", "batch CPU").median, stats.median(cg), stats.spread(cg), stats.median(cm),
            stats.spread(cm)))
    u = r.find(UNDO_KEY, n, "curatord", "undo whole batch")
    if u is None:
        r.verdict(UNDO_KEY, n, "the whole batch in under 1 s", None, "undo not available in this build")
    else:
        r.verdict(UNDO_KEY, n, "the whole batch in under 1 s", u.median < 1.0, "%.3f s" % u.median,
                  set_for="issue 6 at 100 000")
