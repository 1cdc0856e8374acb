# SPDX-License-Identifier: GPL-2.0-or-later
"""1000 files written in a burst into an existing folder -> all reported.

Measures from the close of the last file to the last notification read, and counts
files never reported within 10 s.
"""
import os
import time

from context import write_file
from event_sources import collect
from workloads.event_subjects import SUBJECTS, clean_events_dir, relative, start_subject

KEY = "burst"
TITLE = "1000 files written in a burst -> all reported"


def run(ctx):
    r, n = ctx.results, ctx.n
    count = ctx.burst_size
    for key in SUBJECTS:
        source = start_subject(ctx, key)
        tails, missed = [], []
        try:
            for rep in range(ctx.reps):
                paths = [os.path.join(ctx.events_dir, "burst-%d-%04d.jpg" % (rep, i)) for i in range(count)]
                expected = {relative(ctx, p) for p in paths}
                for p in paths:
                    write_file(p)
                t_last = time.perf_counter()
                seen = collect(source, expected, timeout=10.0)
                missed.append(count - len(seen))
                if seen:
                    tails.append(max(0.0, (max(seen.values()) - t_last) * 1000))
                clean_events_dir(ctx, source)
            ctx.log("burst %s: last event %.1f ms after last write, missed %s" % (
                source.name, tails[-1] if tails else float("nan"), missed))
        finally:
            source.close()
        if tails:
            r.add(KEY, n, source.name, "last event after last write", "ms", tails)
        r.add(KEY, n, source.name, "files not reported", "files", missed)
        if key == "curatord" and not tails:
            raise RuntimeError("curatord reported none of the burst")
    tails = r.find(KEY, n, "curatord", "last event after last write")
    lost = max(r.find(KEY, n, "curatord", "files not reported").samples)
    # Judged on the median like every timing here; the worst repetition is shown beside it.
    r.verdict(KEY, n, "all reported within 50 ms after the last write", lost == 0 and tails.median <= 50,
              "median %.1f ms (worst %.1f ms), %d not reported" % (tails.median, tails.high, lost))
