# SPDX-License-Identifier: GPL-2.0-or-later
"""A camera import: mkdir, then 1000 files written into it at once; 5 runs; count misses.

The files are written right after the mkdir, before any watcher can have added a
watch on the new folder: a watcher must scan the folder once watched (curatord,
watchman) or it misses the files written before (inotifywait -r). Each run goes to
every subject in turn, each alone on the tree.
"""
import os
import time

import stats
from context import write_file
from event_sources import collect
from workloads.event_subjects import SUBJECTS, clean_events_dir, relative, start_subject

KEY = "import"
TITLE = "camera import: mkdir + 1000 files, 5 runs"
RUNS = 5


def _one_run(ctx, source, run_no):
    """(ms from the last write to the last event or None, files missed)."""
    count = ctx.burst_size
    folder = os.path.join(ctx.events_dir, "import-%d" % run_no)
    os.mkdir(folder)
    paths = [os.path.join(folder, "DSC_%04d.JPG" % i) for i in range(count)]
    for p in paths:
        write_file(p)
    t_last = time.perf_counter()
    # A peer that misses files (inotifywait -r) waits this out every run: shorter when
    # only checking that nothing broke.
    timeout = 5.0 if source.name == "curatord" or not ctx.quick else 1.0
    seen = collect(source, {relative(ctx, p) for p in paths}, timeout=timeout)
    clean_events_dir(ctx, source)
    return (max(0.0, (max(seen.values()) - t_last) * 1000) if seen else None), count - len(seen)


def run(ctx):
    r, n = ctx.results, ctx.n
    got = {key: [] for key in SUBJECTS}
    names = {}
    for run_no in range(RUNS):
        for key in stats.rotated(SUBJECTS, run_no):
            source = start_subject(ctx, key)
            names[key] = source.name
            try:
                got[key].append(_one_run(ctx, source, run_no))
            finally:
                source.close()
        ctx.log("import run %d: missed %s" % (run_no + 1, ", ".join(
            "%s %d" % (names[k], got[k][-1][1]) for k in SUBJECTS)))
    for key in SUBJECTS:
        r.add(KEY, n, names[key], "files missed per run", "files", [m for _, m in got[key]], interleaved=True)
        tails = [t for t, _ in got[key]]
        if all(t is not None for t in tails):
            r.add(KEY, n, names[key], "last event after last write", "ms", tails, interleaved=True)
        elif any(t is not None for t in tails):
            r.add(KEY, n, names[key], "last event after last write", "ms", [t for t in tails if t is not None])
    lost = r.find(KEY, n, "curatord", "files missed per run").samples
    r.verdict(KEY, n, "none missed, ever", max(lost) == 0, "missed per run: %s" % ", ".join("%d" % x for x in lost),
              set_for="issue 6")
