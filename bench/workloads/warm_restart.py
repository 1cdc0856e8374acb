# SPDX-License-Identifier: GPL-2.0-or-later
"""Warm restart: the same tree unchanged, restart on the existing index until the scan is done.

Nothing changed, so curatord should only walk and stat (no file re-read, no index
write); `find -printf` is that floor. Each repetition runs both, in turns first.
"""
import os
import time

import stats
from context import sync_disks
from peers.find_walk import find_walk_seconds
from workloads.cold_start import cold_start_once

KEY = "warm"
TITLE = "warm restart on an unchanged tree"
FIND = "find -printf (walk + stat)"


def warm_restart_once(ctx) -> float:
    ctx.stop_all()
    sync_disks()
    daemon = ctx.new_daemon().start()
    try:
        client = daemon.connect()
        try:
            daemon.wait_scanned(client, ctx.expected_photos)
            return time.monotonic() - daemon.started_at
        finally:
            client.close()
    finally:
        daemon.stop()


def run(ctx):
    r, n = ctx.results, ctx.n
    ctx.stop_all()
    if not os.path.exists(os.path.join(ctx.new_daemon().state_dir, "index.sqlite")):
        cold_start_once(ctx)  # an index to restart on (not recorded)
    times, finds = [], []
    for rep in range(ctx.reps):
        for step in stats.rotated([lambda: times.append(warm_restart_once(ctx)),
                                   lambda: finds.append(sync_disks() or find_walk_seconds(ctx.tree, ctx.env))],
                                  rep):
            step()
        ctx.log("warm restart rep %d: curatord %.3f s, find %.3f s" % (rep + 1, times[-1], finds[-1]))
    r.add(KEY, n, "curatord", "time", "s", times, interleaved=True)
    r.add(KEY, n, FIND, "time", "s", finds, interleaved=True)
    x = r.ratios(KEY, n, "curatord", "time", FIND)
    c = r.find(KEY, n, "curatord", "time").median
    r.verdict(KEY, n, "at most 2x find", stats.median(x) <= 2,
              "%.3f s; x%.2f find %s" % (c, stats.median(x), stats.spread(x)),
              set_for="issue 6 at 100 000; issue 14 at 1 000 000")
