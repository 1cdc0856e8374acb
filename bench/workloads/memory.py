# SPDX-License-Identifier: GPL-2.0-or-later
"""Resident memory with the tree indexed, after a list-all and small requests.

VmRSS (now) and VmHWM (peak) from /proc/PID/status, for curatord and for the
watchman server after the same queries. MB here is 10^6 bytes.
"""
import procs
from workloads.list_all import curatord_list_all, watchman_list_all

KEY = "memory"
TITLE = "resident memory after the listing"


def _mb(kib: int) -> float:
    return kib * 1024 / 1e6


def run(ctx):
    r, n = ctx.results, ctx.n
    daemon = ctx.curatord_live()
    c = daemon.connect()
    try:
        curatord_list_all(ctx, c)
        for _ in range(100):
            c.request("hello")
        rss, hwm = procs.status_kb(daemon.pid, "VmRSS"), procs.status_kb(daemon.pid, "VmHWM")
    finally:
        c.close()
    server = ctx.watchman_live(None)
    w = server.client()
    try:
        watchman_list_all(ctx, w)
        for _ in range(100):
            w.command("version")
        wrss, whwm = procs.status_kb(server.pid, "VmRSS"), procs.status_kb(server.pid, "VmHWM")
    finally:
        w.close()
    r.add(KEY, n, "curatord", "VmRSS", "MB", [_mb(rss)])
    r.add(KEY, n, "curatord", "VmHWM (peak)", "MB", [_mb(hwm)])
    r.add(KEY, n, "watchman", "VmRSS", "MB", [_mb(wrss)])
    r.add(KEY, n, "watchman", "VmHWM (peak)", "MB", [_mb(whwm)])
    ok = rss < wrss and _mb(rss) <= 40
    r.verdict(KEY, n, "below watchman's, and <= 40 MB (set for 100k)", ok,
              "VmRSS %.1f MB (peak %.1f) vs watchman %.1f MB (peak %.1f)" % (_mb(rss), _mb(hwm), _mb(wrss), _mb(whwm)))
