# SPDX-License-Identifier: GPL-2.0-or-later
"""A confirmed batch of 10 000 photos to the trash (journal durable), and its undo.

curatord: `delete.prepare` with the photos' ids, then `delete.confirm` with the token
(the time is both; confirm alone is shown too), then `undo` of that batch. Peers work
on an identical batch outside the watched root: `trash-put` and `gio trash` (one run
each over all the files), `mv -t` into one folder (the rename floor); for undo,
`trash-restore` once per file (capped: each run reads the whole trash, so the total
is extrapolated from the capped runs) and a plain rename-back loop.
When this build of curatord has no delete commands, its part is skipped and said so.
"""
import os
import shutil
import time

import gen_tree
import stats
from curatord_client import NotAvailable
from peers import trash_tools

KEY = "trash"
TITLE = "confirmed batch to the trash, and its undo"
UNDO_KEY = "undo"


def _trash_dir(ctx):
    return os.path.join(ctx.env["XDG_DATA_HOME"], "Trash")


def _empty_trash(ctx):
    shutil.rmtree(_trash_dir(ctx), ignore_errors=True)


def _curatord(ctx):
    r, n, size = ctx.results, ctx.n, ctx.batch_size
    daemon = ctx.curatord_live()
    client = daemon.connect()
    totals, confirms, undos = [], [], []
    try:
        root_name = client.request("status")["roots"][0]["name"]
        for rep in range(ctx.args.trash_reps):
            rel = "zz-batch-%d" % rep
            folder = os.path.join(ctx.tree, rel)
            gen_tree.make_batch(folder, size, seed=rep)
            try:
                ids = _indexed_ids(client, root_name, rel, size)
                _settle()
                try:
                    # Each answer is timed to its arrival; decoding it (10 000 items)
                    # is the Python client's work and is left out, as for `list`.
                    prepared, plan = client.timed_request("delete.prepare", ids=ids, timeout=600)
                    confirmed, batch = client.timed_request("delete.confirm", token=plan["token"], timeout=600)
                except NotAvailable as e:
                    r.skip(KEY, n, "curatord", "delete.prepare/delete.confirm not available in this build (%s)" % e.code)
                    r.skip(UNDO_KEY, n, "curatord", "needs delete.confirm, not available in this build")
                    ctx.log("trash: curatord has no delete commands in this build; skipped")
                    return
                if batch.get("trashed") != size:
                    raise RuntimeError("delete.confirm trashed %s of %d photos" % (batch.get("trashed"), size))
                left = sum(1 for _, _, files in os.walk(folder) for _ in files)
                if left:
                    raise RuntimeError("%d files still in the batch folder after delete.confirm" % left)
                totals.append(prepared + confirmed)
                confirms.append(confirmed)
                try:
                    undone, undo = client.timed_request("undo", batch=batch["batch"], timeout=600)
                    undos.append(undone)
                except NotAvailable as e:
                    r.skip(UNDO_KEY, n, "curatord", "undo not available in this build (%s)" % e.code)
                    undo = None
                if undo is not None and undo.get("restored") != size:
                    raise RuntimeError("undo restored %s of %d photos" % (undo.get("restored"), size))
                ctx.log("trash curatord rep %d: batch %.3f s (confirm %.3f s), undo %s" % (
                    rep + 1, prepared + confirmed, confirmed, "%.3f s" % undos[-1] if undos else "n/a"))
            finally:
                shutil.rmtree(folder, ignore_errors=True)
                client.request("sync", timeout=120)
                _empty_trash(ctx)
    finally:
        client.close()
    r.add(KEY, n, "curatord", "batch time", "s", totals,
          note="delete.prepare + delete.confirm, each to the arrival of its answer (decoded after, untimed)")
    r.add(KEY, n, "curatord", "delete.confirm alone", "s", confirms)
    if undos:
        r.add(UNDO_KEY, n, "curatord", "undo whole batch", "s", undos)


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


def _peers(ctx):
    r, n, size = ctx.results, ctx.n, ctx.batch_size
    base = ctx.scratch.path("peer-batch")
    put, gio, mv, back, restore_runs = [], [], [], [], []
    try:
        for rep in range(ctx.args.trash_reps):
            # trash-put, then trash-restore on a capped number of its files
            paths = gen_tree.make_batch(os.path.join(base, "trash-put-%d" % rep), size, seed=rep)
            _settle()
            t, runs = trash_tools.trash_put(paths, ctx.env)
            put.append(t)
            _check_gone(paths, "trash-put")
            restore_runs += trash_tools.trash_restore_each(paths[:ctx.restore_cap], ctx.env, cwd=base)
            _empty_trash(ctx)
            # gio trash
            paths = gen_tree.make_batch(os.path.join(base, "gio-%d" % rep), size, seed=rep)
            _settle()
            t, gio_runs = trash_tools.gio_trash(paths, ctx.env)
            gio.append(t)
            _check_gone(paths, "gio trash")
            _empty_trash(ctx)
            # mv into one folder, and the rename-back loop
            paths = gen_tree.make_batch(os.path.join(base, "mv-%d" % rep), size, seed=rep)
            _settle()
            dest = os.path.join(base, "mv-dest-%d" % rep)
            os.mkdir(dest)
            t, mv_runs = trash_tools.mv_into(paths, dest, ctx.env)
            mv.append(t)
            _check_gone(paths, "mv")
            back.append(trash_tools.rename_back([(os.path.join(os.fsencode(dest), os.path.basename(p)), p)
                                                 for p in paths]))
            ctx.log("trash peers rep %d: trash-put %.2f s (%d run), gio %.2f s, mv %.3f s, rename-back %.3f s" % (
                rep + 1, put[-1], runs, gio[-1], mv[-1], back[-1]))
            shutil.rmtree(base, ignore_errors=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
        _empty_trash(ctx)
    r.add(KEY, n, "trash-put", "batch time", "s", put)
    r.add(KEY, n, "gio trash", "batch time", "s", gio)
    r.add(KEY, n, "mv -t (rename floor)", "batch time", "s", mv)
    per_run = stats.median(restore_runs)
    r.add(UNDO_KEY, n, "trash-restore (extrapolated)", "undo whole batch", "s", [t * size for t in restore_runs])
    r.note(UNDO_KEY, n, "trash-restore ran once per file on %d files per repetition (median %.3f s per run, each run "
                        "reads the whole trash of %d entries); the batch figure is that per-run time x %d" % (
                            ctx.restore_cap, per_run, size, size))
    r.add(UNDO_KEY, n, "rename-back loop", "undo whole batch", "s", back)


def _check_gone(paths, who):
    left = [p for p in paths if os.path.lexists(p)]
    if left:
        raise RuntimeError("%s left %d of %d files in place" % (who, len(left), len(paths)))


def run(ctx):
    r, n = ctx.results, ctx.n
    _empty_trash(ctx)
    _curatord(ctx)
    _peers(ctx)
    r.note(KEY, n, "batch of %d photos in folders of 100; trash-put/gio trash/mv get all paths in one command "
                   "line; none of the peers fsyncs, curatord's journal is flushed before each step; the batch's files are "
                   "written back (sync) before each timed run" % ctx.batch_size)
    cur = r.find(KEY, n, "curatord", "batch time")
    if cur is None:
        r.verdict(KEY, n, "faster than gio trash, >= 5x faster than trash-put, within 2.5x of mv", None,
                  "not available in this build")
        r.verdict(UNDO_KEY, n, "the whole batch in under 1 s", None, "not available in this build")
        return
    c = cur.median
    g = r.find(KEY, n, "gio trash", "batch time").median
    p = r.find(KEY, n, "trash-put", "batch time").median
    m = r.find(KEY, n, "mv -t (rename floor)", "batch time").median
    r.verdict(KEY, n, "faster than gio trash, >= 5x faster than trash-put, within 2.5x of mv",
              c < g and c * 5 <= p and c <= 2.5 * m,
              "%.2f s; x%.2f gio trash's time (%.2f s), x%.2f trash-put's (%.2f s), x%.1f mv's (%.3f s)" % (
                  c, c / g, g, c / p, p, c / m, m))
    u = r.find(UNDO_KEY, n, "curatord", "undo whole batch")
    if u is None:
        r.verdict(UNDO_KEY, n, "the whole batch in under 1 s", None, "undo not available in this build")
    else:
        r.verdict(UNDO_KEY, n, "the whole batch in under 1 s", u.median < 1.0, "%.3f s" % u.median)
