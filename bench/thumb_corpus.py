# SPDX-License-Identifier: GPL-2.0-or-later
"""The thumbnail workloads' photos and the daemon they run.

The corpus (bench/sample_photos.py: 1000 camera JPEGs of 12 MP, 20 HEICs, 20 DNGs;
--quick 20, 2, 2) takes about 20 minutes to make on two cores, so it is made once and
kept, outside the scratch filesystem, in
`$CURATORD_BENCH_SAMPLES` (default `$XDG_CACHE_HOME/curatord-bench`, else
`~/.cache/curatord-bench`) under `samples-v<generator version>/`: a new generator
makes a new set, an unchanged one reuses it (files already there are kept, so an
interrupted set is finished, not redone). Beside the flat set, `by-kind/<kind>-<count>`
holds hard links to the files of one kind, so that a daemon can be given the JPEGs alone as a root.

`ThumbDaemon` is the real curatord on such roots with a configuration of its own (its
thumbnail cache, state and socket in a run folder of the scratch filesystem).
"""
import json
import os
import shutil
import time

import procs
import sample_photos
from curatord_client import CuratordClient

KINDS = ("jpeg", "heic", "dng")


def cache_root() -> str:
    explicit = os.environ.get("CURATORD_BENCH_SAMPLES")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "curatord-bench")


def corpus(quick: bool, log, counts=None) -> dict:
    """{"jpeg": [...], "heic": [...], "dng": [...], "dirs": {kind: folder}}: the set,
    made if missing, with its by-kind folders of hard links. `counts` (JPEG, HEIC,
    DNG) takes the first of each kind of the full set (a 12 MP HEIC takes minutes to
    encode on a loaded host)."""
    top = os.path.join(cache_root(), "samples-v%d" % sample_photos.GENERATOR_VERSION, "quick" if quick else "full")
    counts = (20, 2, 2) if quick and not counts else counts or (1000, 20, 20)
    if quick:
        counts = tuple(min(c, q) for c, q in zip(counts, (20, 2, 2)))
    t0 = time.monotonic()
    made = sample_photos.sample_set(top, *counts, jobs=os.cpu_count() or 1, log=log)
    if time.monotonic() - t0 > 5:
        log("sample photos made in %.0f s, kept in %s" % (time.monotonic() - t0, top))
        os.sync()
    dirs = {}
    for kind in KINDS:
        folder = os.path.join(top, "by-kind", "%s-%d" % (kind, len(made[kind])))
        os.makedirs(folder, exist_ok=True)
        linked = []
        for path in made[kind]:
            link = os.path.join(folder, os.path.basename(path))
            if not os.path.exists(link):
                os.link(path, link)
            linked.append(link)
        made[kind] = linked
        dirs[kind] = folder
    made["dirs"] = dirs
    return made


def thumbnailer(ctx) -> str:
    """The curatord-thumbnailer the daemon under test runs: the one beside its binary."""
    return os.path.join(os.path.dirname(ctx.binary), "curatord-thumbnailer")


def thumbnailer_missing(ctx):
    """Why curatord can make no thumbnails here (no thumbnailer beside the binary), or
    None: without it the daemon runs and never makes one."""
    if os.access(thumbnailer(ctx), os.X_OK):
        return None
    return "no curatord-thumbnailer next to %s (swift build -c release)" % ctx.binary


class ThumbDaemon:
    """curatord with `"thumbnails": thumbnails` on `roots`, its cache at `cache`."""

    def __init__(self, ctx, run_dir: str, roots: list, thumbnails: bool, cache: str):
        self.ctx = ctx
        shutil.rmtree(run_dir, ignore_errors=True)
        os.makedirs(run_dir, mode=0o700)
        self.config = os.path.join(run_dir, "curatord.json5")
        with open(self.config, "w") as f:
            json.dump({"roots": [{"name": "r%d" % i, "path": p} for i, p in enumerate(roots)],
                       "thumbnails": thumbnails, "thumbnail_dir": cache}, f)
        self.log_path = os.path.join(run_dir, "curatord.log")
        self.socket = os.path.join(run_dir, "curatord.sock")
        self.state = os.path.join(run_dir, "state")
        self.process = None
        self.client = None

    def start(self, timeout: float = 60.0):
        with open(self.log_path, "ab") as log:
            self.process = procs.spawn([self.ctx.binary, "--config", self.config, "--socket", self.socket,
                                        "--state-dir", self.state], env=self.ctx.env, stdout=log, stderr=log)
        self.client = self.connect(timeout)
        return self

    def connect(self, timeout: float = 60.0) -> CuratordClient:
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError("curatord exited with %s; log: %s" % (self.process.returncode, self.log_path))
            try:
                return CuratordClient(self.socket)
            except (FileNotFoundError, ConnectionRefusedError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    @property
    def pid(self) -> int:
        return self.process.pid

    def settled(self) -> bool:
        s = self.client.request("status", timeout=30)
        return not s.get("scanning") and all((r.get("capture_pending") or 0) == 0 and r.get("last_scan_ms") is not None
                                             for r in s.get("roots") or [])

    def wait_settled(self, timeout: float = 600.0):
        procs.wait_until(self.settled, timeout=timeout, interval=0.1, what="scan and capture times")

    def thumbnails(self) -> dict:
        return self.client.request("status", timeout=30)["thumbnails"]

    def worker_pids(self) -> list:
        return procs.children(self.pid)

    def tree_cpu(self) -> float:
        """CPU seconds of the daemon and its curatord-thumbnailer worker."""
        return procs.tree_cpu_seconds(self.pid)

    def rss_kb(self) -> int:
        return procs.status_kb(self.pid, "VmRSS")

    def stop(self):
        if self.client is not None:
            self.client.close()
            self.client = None
        if self.process is not None:
            procs.stop(self.process, timeout=30)
            self.process = None
