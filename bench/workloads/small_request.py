# SPDX-License-Identifier: GPL-2.0-or-later
"""A small request on an open connection: round-trip p50 and p99.

curatord: `hello`; watchman: `version`. One request in flight; the client is Python,
whose own share of each round trip (a few tens of microseconds) is in both figures.
Both servers are up on the idle tree; each repetition asks both, in turns first.
"""
import time

import stats

KEY = "small"
TITLE = "small request round trip on an open connection"
# Asks the live curatord (an idle daemon that has indexed the tree): with --perf it is
# brought up before the profile starts, so that its start-up is not in it.
USES_LIVE_DAEMON = True
WARMUP = 200


def _round_trips(send, receive, count):
    out = []
    for _ in range(count):
        t0 = time.perf_counter()
        send()
        receive()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def run(ctx):
    r, n = ctx.results, ctx.n
    count = 500 if ctx.quick else 2000
    daemon, server = ctx.both_live()
    c, w = daemon.connect(), server.client()
    line = c.request_line("hello")
    got = {"curatord": [], "watchman (BSER)": []}
    try:
        def curatord(k):
            return _round_trips(lambda: c.send(line), lambda: c.raw_response(5), k)

        def watchman(k):
            return _round_trips(lambda: w.send(["version"]), lambda: w.raw_response(5), k)
        curatord(WARMUP)
        watchman(WARMUP)
        for rep in range(ctx.reps):
            for step in stats.rotated([lambda: got["curatord"].append(curatord(count)),
                                       lambda: got["watchman (BSER)"].append(watchman(count))], rep):
                step()
    finally:
        c.close()
        w.close()
    for name, reps in got.items():
        r.add(KEY, n, name, "round trip p50", "ms", [stats.percentile(x, 50) for x in reps], interleaved=True)
        r.add(KEY, n, name, "round trip p99", "ms", [stats.percentile(x, 99) for x in reps], interleaved=True)
    p50 = r.find(KEY, n, "curatord", "round trip p50").median
    r.verdict(KEY, n, "p50 <= 0.2 ms", p50 <= 0.2, "p50 %.3f ms" % p50, set_for="issue 6 at 100 000")
