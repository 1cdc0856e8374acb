# SPDX-License-Identifier: GPL-2.0-or-later
"""A camera import: mkdir, then 1000 files written into it at once; 5 runs; count misses.

The files are written right after the mkdir, before any watcher can have added a
watch on the new folder: a watcher must scan the folder once watched (curatord,
watchman) or it misses the files written before (inotifywait -r).
"""
import os
import time

from context import write_file
from event_sources import collect
from workloads.event_subjects import SUBJECTS, clean_events_dir, relative, start_subject

KEY = "import"
TITLE = "camera import: mkdir + 1000 files, 5 runs"
RUNS = 5


def run(ctx):
    r, n = ctx.results, ctx.n
    count = ctx.burst_size
    for key in SUBJECTS:
        source = start_subject(ctx, key)
        missed, tails = [], []
        try:
            for run_no in range(RUNS):
                folder = os.path.join(ctx.events_dir, "import-%d" % run_no)
                os.mkdir(folder)
                paths = [os.path.join(folder, "DSC_%04d.JPG" % i) for i in range(count)]
                for p in paths:
                    write_file(p)
                t_last = time.perf_counter()
                seen = collect(source, {relative(ctx, p) for p in paths}, timeout=5.0)
                missed.append(count - len(seen))
                if seen:
                    tails.append(max(0.0, (max(seen.values()) - t_last) * 1000))
                clean_events_dir(ctx, source)
            ctx.log("import %s: missed %s" % (source.name, missed))
        finally:
            source.close()
        r.add(KEY, n, source.name, "files missed per run", "files", missed)
        if tails:
            r.add(KEY, n, source.name, "last event after last write", "ms", tails)
    lost = r.find(KEY, n, "curatord", "files missed per run").samples
    r.verdict(KEY, n, "none missed, ever", max(lost) == 0, "missed per run: %s" % ", ".join("%d" % x for x in lost))
