# SPDX-License-Identifier: GPL-2.0-or-later
"""Resident memory with the tree indexed, after a list-all and small requests.

VmRSS (now) and VmHWM (peak) from /proc/PID/status, for curatord (restarted afresh on
its index, its scan done) and for a fresh watchman server (its crawl done) after the
same queries (watchman's full records: what curatord's
listing says). Both are up on the idle tree; each repetition asks both, in turns
first. MB here is 10^6 bytes. Memory right after the first scan, and after that
scan and a full listing (issue 14's target), is in the `cold` workload.
"""
import os

import procs
import stats
from workloads.cold_start import cold_start_once
from workloads.list_all import WATCHMAN_RECORD, curatord_list_all, watchman_list_all

KEY = "memory"
TITLE = "resident memory after the listing"


def _mb(kib: int) -> float:
    return kib * 1024 / 1e6


def run(ctx):
    r, n = ctx.results, ctx.n
    # Fresh servers: what the workloads before left in the live daemon (a run with the
    # 16 clients before it read 47 MB here, one without 37 MB) is not this figure.
    ctx.stop_all()
    # Always a restart on an index (a run of this workload alone would otherwise measure
    # the daemon that made the first scan; the `cold` workload does that).
    if not os.path.exists(os.path.join(ctx.new_daemon().state_dir, "index.sqlite")):
        cold_start_once(ctx)
    daemon, server = ctx.both_live()
    c, w = daemon.connect(), server.client()
    got = {"curatord": [], "watchman": []}
    try:
        def curatord():
            curatord_list_all(ctx, c, check=False)
            for _ in range(100):
                c.request("hello")
            got["curatord"].append((procs.status_kb(daemon.pid, "VmRSS"), procs.status_kb(daemon.pid, "VmHWM")))

        def watchman():
            watchman_list_all(ctx, w, WATCHMAN_RECORD, check=False)
            for _ in range(100):
                w.command("version")
            got["watchman"].append((procs.status_kb(server.pid, "VmRSS"), procs.status_kb(server.pid, "VmHWM")))
        for rep in range(ctx.reps):
            for step in stats.rotated([curatord, watchman], rep):
                step()
    finally:
        c.close()
        w.close()
    for who, rows in got.items():
        r.add(KEY, n, who, "VmRSS", "MB", [_mb(rss) for rss, _ in rows], interleaved=True)
        r.add(KEY, n, who, "VmHWM (peak)", "MB", [_mb(hwm) for _, hwm in rows], interleaved=True)
    rss = r.find(KEY, n, "curatord", "VmRSS").median
    hwm = r.find(KEY, n, "curatord", "VmHWM (peak)").high
    wrss = r.find(KEY, n, "watchman", "VmRSS").median
    whwm = r.find(KEY, n, "watchman", "VmHWM (peak)").high
    detail = "VmRSS %.1f MB (peak %.1f) vs watchman %.1f MB (peak %.1f)" % (rss, hwm, wrss, whwm)
    r.verdict(KEY, n, "below watchman's, and <= 40 MB", rss < wrss and rss <= 40, detail, set_for="issue 6 at 100 000")
