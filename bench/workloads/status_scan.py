# SPDX-License-Identifier: GPL-2.0-or-later
"""`status` answered while the first scan runs (issue 14: up to 126 ms at a million
photos, the state lock being held per folder step).

A cold start, and a client that connects as soon as the socket answers and sends
`status` in a loop, one request in flight and 1 ms between an answer and the next
request (a client polling as fast as it sensibly would), until the answer says the
scan is done. Each request is timed from sending to the whole answer's arrival. The
scan under this load is timed as well: polling takes the state lock too, and what it
costs the scan shows beside the plain cold start of the `cold` workload.
No peer has this question; the target is absolute (p99 <= 10 ms).
"""
import shutil
import time

import stats
from context import sync_disks
from curatord_client import scan_done

KEY = "status"
TITLE = "status during the cold scan, p50/p99"
PAUSE = 0.001
MIN_ANSWERS = 20


def status_during_scan(ctx):
    """(latencies in ms of the requests answered during the scan, scan seconds)."""
    ctx.stop_all()
    daemon = ctx.new_daemon()
    shutil.rmtree(daemon.state_dir, ignore_errors=True)
    sync_disks()
    daemon.start()
    latencies = []
    try:
        client = daemon.connect(timeout=60)
        try:
            deadline = time.monotonic() + 1800
            while True:
                elapsed, status = client.timed_request("status", timeout=60)
                if scan_done(status, ctx.expected_photos):
                    return latencies, time.monotonic() - daemon.started_at
                latencies.append(elapsed * 1000)
                if time.monotonic() > deadline:
                    raise TimeoutError("the scan did not finish within 30 minutes")
                time.sleep(PAUSE)
        finally:
            client.close()
    finally:
        daemon.stop()


def run(ctx):
    r, n = ctx.results, ctx.n
    p50s, p99s, highs, counts, scans = [], [], [], [], []
    for rep in range(ctx.reps):
        latencies, scan = status_during_scan(ctx)
        if not latencies:
            latencies = [0.0]  # the scan ended before the first answer (tiny trees)
        p50s.append(stats.percentile(latencies, 50))
        p99s.append(stats.percentile(latencies, 99))
        highs.append(max(latencies))
        counts.append(len(latencies))
        scans.append(scan)
        ctx.log("status during the scan rep %d: %d answers, p50 %.2f ms, p99 %.2f ms, max %.2f ms; scan %.3f s" % (
            rep + 1, counts[-1], p50s[-1], p99s[-1], highs[-1], scan))
    r.add(KEY, n, "curatord", "status p50", "ms", p50s)
    r.add(KEY, n, "curatord", "status p99", "ms", p99s)
    r.add(KEY, n, "curatord", "status max", "ms", highs)
    r.add(KEY, n, "curatord", "status answers during the scan", "count", counts)
    r.add(KEY, n, "curatord", "scan time while polled", "s", scans)
    p99 = r.find(KEY, n, "curatord", "status p99").median
    # A scan of a small tree is over after a few answers: nothing to judge a p99 on.
    r.verdict(KEY, n, "status p99 <= 10 ms during the scan", p99 <= 10 if stats.median(counts) >= MIN_ANSWERS else None,
              "p99 %.2f ms (p50 %.2f ms, worst %.1f ms) over %d answers a scan" % (
                  p99, stats.median(p50s), max(highs), int(stats.median(counts))),
              set_for="issue 14 at 1 000 000")
