# SPDX-License-Identifier: GPL-2.0-or-later
"""The subjects of the event workloads, each started alone on the tree.

Every subject gets the same folder, the same file names (but for a tag) and the same
writer; files a workload created are removed before the next subject starts, so each
one sees the same tree.
"""
import os
import shutil

from event_sources import CuratordEvents, WatchmanEvents, drain
from peers.inotifywait import InotifywaitEvents

SUBJECTS = ["curatord", "inotifywait", "watchman", "watchman-settle-1"]


def start_subject(ctx, key):
    if key == "curatord":
        return CuratordEvents(ctx.curatord_live()).start()
    if key == "inotifywait":
        ctx.stop_all()
        return InotifywaitEvents(ctx.tree, ctx.run_dir, ctx.env).start()
    if key == "watchman":
        return WatchmanEvents(ctx.watchman_live(None), ctx.tree).start()
    if key == "watchman-settle-1":
        return WatchmanEvents(ctx.watchman_live(1), ctx.tree).start()
    raise KeyError(key)


def relative(ctx, path: str) -> str:
    return os.path.relpath(path, ctx.tree)


def clean_events_dir(ctx, source):
    """Removes what the workload wrote and lets the subject settle on it."""
    for name in os.listdir(ctx.events_dir):
        path = os.path.join(ctx.events_dir, name)
        if os.path.isdir(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)
    drain(source, quiet=0.1, limit=10.0)
