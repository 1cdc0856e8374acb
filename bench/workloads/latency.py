# SPDX-License-Identifier: GPL-2.0-or-later
"""One file created -> its event at a subscriber, p50 and p99 over 200 trials per repetition.

Each trial writes one small photo (open, write, close) into an existing folder and
times from just before the open to the moment the notification is read. Trials run
one after another, so nothing coalesces except by the subject's own settle delay.
"""
import os
import time

import stats
from context import write_file
from event_sources import collect
from workloads.event_subjects import SUBJECTS, clean_events_dir, relative, start_subject

KEY = "latency"
TITLE = "one file created -> event, p50/p99"


def run(ctx):
    r, n = ctx.results, ctx.n
    for key in SUBJECTS:
        source = start_subject(ctx, key)
        p50s, p99s, missed = [], [], 0
        try:
            for rep in range(ctx.reps):
                latencies = []
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
                p50s.append(stats.percentile(latencies, 50))
                p99s.append(stats.percentile(latencies, 99))
                clean_events_dir(ctx, source)
            ctx.log("latency %s: p50 %.3f ms p99 %.3f ms (missed %d)" % (source.name, p50s[-1], p99s[-1], missed))
        finally:
            source.close()
        r.add(KEY, n, source.name, "p50", "ms", p50s)
        r.add(KEY, n, source.name, "p99", "ms", p99s)
        if missed:
            r.note(KEY, n, "%s: %d of %d trials got no event within 2 s" % (source.name, missed, ctx.trials * ctx.reps))
        if key == "curatord" and missed:
            raise RuntimeError("curatord missed %d single-file events" % missed)
    p50 = r.find(KEY, n, "curatord", "p50").median
    p99 = r.find(KEY, n, "curatord", "p99").median
    r.verdict(KEY, n, "p50 <= 1 ms, p99 <= 5 ms", p50 <= 1.0 and p99 <= 5.0, "p50 %.3f ms, p99 %.3f ms" % (p50, p99))
