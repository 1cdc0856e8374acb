# SPDX-License-Identifier: GPL-2.0-or-later
"""Index size on disk per photo, after a cold start and a clean stop.

Counts every file of the state directory except SQLite's `-shm` (a shared-memory
index of the WAL, not data): the database and whatever WAL a stop leaves behind.
"""
import os

from workloads.cold_start import cold_start_once

KEY = "index"
TITLE = "index size on disk"


def state_bytes(state_dir: str):
    files = {}
    for name in sorted(os.listdir(state_dir)):
        path = os.path.join(state_dir, name)
        if os.path.isfile(path) and not name.endswith("-shm"):
            files[name] = os.path.getsize(path)
    return files


def run(ctx):
    r, n = ctx.results, ctx.n
    ctx.stop_all()
    state_dir = ctx.new_daemon().state_dir
    if not os.path.exists(os.path.join(state_dir, "index.sqlite")):
        cold_start_once(ctx)
    files = state_bytes(state_dir)
    total = sum(files.values())
    per_photo = total / ctx.expected_photos
    r.add(KEY, n, "curatord", "state dir bytes per photo", "B/photo", [per_photo])
    r.note(KEY, n, "state dir after a clean stop: " + ", ".join("%s %d B" % kv for kv in files.items()))
    r.verdict(KEY, n, "at most 300 bytes per photo", per_photo <= 300, "%.0f B/photo (%d B for %d photos)" % (
        per_photo, total, ctx.expected_photos), set_for="issue 6")
