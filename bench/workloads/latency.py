# SPDX-License-Identifier: GPL-2.0-or-later
"""One file created -> its event at a subscriber, p50 and p99 over 200 trials per repetition.

Each trial writes one small photo (open, write, close) into an existing folder and
times from just before the open to the moment the notification is read. Trials run
one after another, so nothing coalesces except by the subject's own settle delay.
Each repetition runs every subject in turn, each alone on the tree.
"""
import os
import time

import stats
from context import write_file
from event_sources import collect
from workloads.event_subjects import SUBJECTS, clean_events_dir, relative, start_subject

KEY = "latency"
TITLE = "one file created -> event, p50/p99"


def _one_rep(ctx, source, rep):
    """(p50 ms, p99 ms, trials missed) of one repetition on a started source."""
    latencies, missed = [], 0
    for i in range(ctx.trials):
        path = os.path.join(ctx.events_dir, "lat-%d-%04d.jpg" % (rep, i))
        t0 = time.perf_counter()
        write_file(path)
        seen = collect(source, {relative(ctx, path)}, timeout=2.0)
        if seen:
            latencies.append((min(seen.values()) - t0) * 1000)
        else:
            missed += 1
    if not latencies:
        raise RuntimeError("%s reported none of %d files" % (source.name, ctx.trials))
    clean_events_dir(ctx, source)
    return stats.percentile(latencies, 50), stats.percentile(latencies, 99), missed


def run(ctx):
    r, n = ctx.results, ctx.n
    got = {key: [] for key in SUBJECTS}
    names = {}
    for rep in range(ctx.reps):
        for key in stats.rotated(SUBJECTS, rep):
            source = start_subject(ctx, key)
            names[key] = source.name
            try:
                got[key].append(_one_rep(ctx, source, rep))
            finally:
                source.close()
            p50, p99, missed = got[key][-1]
            ctx.log("latency rep %d %s: p50 %.3f ms p99 %.3f ms (missed %d)" % (rep + 1, source.name, p50, p99, missed))
            if key == "curatord" and missed:
                raise RuntimeError("curatord missed %d single-file events" % missed)
    for key in SUBJECTS:
        r.add(KEY, n, names[key], "p50", "ms", [x[0] for x in got[key]], interleaved=True)
        r.add(KEY, n, names[key], "p99", "ms", [x[1] for x in got[key]], interleaved=True)
        missed = sum(x[2] for x in got[key])
        if missed:
            r.note(KEY, n, "%s: %d of %d trials got no event within 2 s" % (names[key], missed, ctx.trials * ctx.reps))
    p50 = r.find(KEY, n, "curatord", "p50").median
    p99 = r.find(KEY, n, "curatord", "p99").median
    r.verdict(KEY, n, "p50 <= 1 ms, p99 <= 5 ms", p50 <= 1.0 and p99 <= 5.0, "p50 %.3f ms, p99 %.3f ms" % (p50, p99),
              set_for="issue 6 at 100 000")
