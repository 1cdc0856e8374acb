# SPDX-License-Identifier: GPL-2.0-or-later
"""Warm restart: the same tree unchanged, restart on the existing index until the scan is done.

Nothing changed, so curatord should only walk and stat (no file re-read, no index
write); `find -printf` is that floor.
"""
import os
import time

from peers.find_walk import find_walk_seconds
from workloads.cold_start import cold_start_once

KEY = "warm"
TITLE = "warm restart on an unchanged tree"


def run(ctx):
    r, n = ctx.results, ctx.n
    ctx.stop_all()
    if not os.path.exists(os.path.join(ctx.new_daemon().state_dir, "index.sqlite")):
        cold_start_once(ctx)  # an index to restart on (not recorded)
    times = []
    for rep in range(ctx.reps):
        daemon = ctx.new_daemon().start()
        try:
            client = daemon.connect()
            try:
                daemon.wait_scanned(client, ctx.expected_photos)
                times.append(time.monotonic() - daemon.started_at)
            finally:
                client.close()
        finally:
            daemon.stop()
        ctx.log("warm restart curatord rep %d: %.3f s" % (rep + 1, times[-1]))
    r.add(KEY, n, "curatord", "time", "s", times)
    finds = [find_walk_seconds(ctx.tree, ctx.env) for _ in range(ctx.reps)]
    r.add(KEY, n, "find -printf (walk + stat)", "time", "s", finds)
    c, f = r.find(KEY, n, "curatord", "time").median, r.find(KEY, n, "find -printf (walk + stat)", "time").median
    r.verdict(KEY, n, "at most 2x find (set for 100k)", c <= 2 * f, "%.3f s vs find %.3f s (x%.2f)" % (c, f, c / f))
