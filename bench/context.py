# SPDX-License-Identifier: GPL-2.0-or-later
"""What every workload shares: the scratch filesystem, the tree of the current N, a
private environment, and the long-lived subjects (curatord, watchman servers).

Subjects that watch the tree run one at a time (`curatord_live`, `watchman_live`)
in every workload that changes the tree: on 2 cores a second watcher handling the
same inotify events would take CPU from the one being measured. Workloads that only
ask questions of an idle tree (list, memory, small requests, 16 clients) keep
curatord and one watchman up together (`alone=False`) so that they can alternate
between them repetition by repetition without restarting either.
"""
import os
import shutil
import sys
import time

import gen_tree
import procs
from baseline import PEER_DAEMONS
from curatord_client import Daemon
from peers.watchman import WatchmanServer


class Context:
    def __init__(self, args, scratch, binary: str, results):
        self.args = args
        self.quick = args.quick
        self.reps = args.reps
        self.binary = binary
        # The daemon's name (socket, state directory): "curatord", or the baseline's in a --baseline-bin run.
        self.daemon_name = "curatord"
        # Settings of the daemon's root ({"groups": False} for the groups-off peer), or None.
        self.root_options = None
        # Thumbnails are made in the background by default since issues 16-17: the thumbs
        # workload measures them (with a configuration of its own); everywhere else they
        # would take the shared cores from the scan or listing being timed and change the
        # listing (`thumbnail: true`) between two answers on an unchanged tree.
        self.daemon_options = {"thumbnails": False}
        self.scratch = scratch
        self.results = results
        self.run_dir = scratch.path("run")
        self.home = scratch.path("home")
        for d in (self.run_dir, self.home):
            os.makedirs(d, exist_ok=True)
        self.env = procs.private_env(self.home, os.path.join(self.run_dir, "xdg-runtime"))
        self.n = None
        self.tree = None
        self.manifest = None
        self.daemon = None
        self.daemons = []  # every daemon started for the current workload attempt
        self.watchmen = {}
        self.profiler = None  # set by run.py with --perf: attaches to each curatord started

    # MARK: sizes that --quick shrinks

    @property
    def trials(self) -> int:
        return 50 if self.quick else 200

    @property
    def batch_size(self) -> int:
        return min(10000, self.n)

    @property
    def burst_size(self) -> int:
        return 1000

    @property
    def restore_cap(self) -> int:
        return 5 if self.quick else 20

    @property
    def flood_size(self) -> int:
        return self.args.flood

    # MARK: the tree

    def set_tree(self, n: int):
        """Generates the tree of `n` photos (after removing the previous one)."""
        self.stop_all()
        if self.tree and os.path.isdir(self.tree):
            shutil.rmtree(self.tree, ignore_errors=True)
        self.n = n
        self.tree = self.scratch.path("tree-%d" % n)
        # A new tree gets a new index: the previous tree's root would otherwise stay in
        # it (a root that goes away is kept, offline) and count in `status`.
        for name in ("curatord",) + PEER_DAEMONS:
            shutil.rmtree(self.new_daemon(name).state_dir, ignore_errors=True)
        t0 = time.monotonic()
        self.manifest = gen_tree.generate(self.tree, n, seed=1, per_folder=self.args.per_folder)
        os.makedirs(self.events_dir, exist_ok=True)
        generated = time.monotonic() - t0
        sync_disks()
        self.log("generated %d photos (%d listed with groups: %d RAW+JPEG pairs) + %d other files (%d .xmp sidecars) "
                 "in %d folders in %.1f s (%s writer), written back in %.1f s" % (
            self.manifest["photos"], self.manifest["groups"], self.manifest["pairs"], self.manifest["other_files"],
            self.manifest["sidecars"], self.manifest["directories"], generated,
            self.manifest["writer"], time.monotonic() - t0 - generated))

    @property
    def events_dir(self) -> str:
        """An existing folder of the tree where event workloads write their files."""
        return os.path.join(self.tree, "zz-events")

    @property
    def groups_on(self) -> bool:
        return (self.root_options or {}).get("groups", True) is not False

    @property
    def expected_photos(self) -> int:
        """What the daemon lists and counts: the tree's groups when its root groups
        (a RAW and its JPEG are one photo), else every photo file."""
        return self.manifest["groups"] if self.groups_on else self.manifest["photos"]

    # MARK: subjects

    def new_daemon(self, name: str = None) -> Daemon:
        name = name or self.daemon_name
        daemon = Daemon(self.binary, [self.tree], self.run_dir, self.env, name=name, root_options=self.root_options,
                        options=self.daemon_options)
        if self.profiler is not None and self.profiler.active is not None:
            daemon.on_start = self.profiler.attach
        self.daemons.append(daemon)
        return daemon

    def curatord_stopped_from_outside(self) -> bool:
        return any(d.stopped_from_outside() for d in self.daemons)

    def curatord_live(self, alone: bool = True) -> Daemon:
        """A curatord that has indexed the tree; with `alone`, no other watcher runs."""
        if alone:
            self.stop_watchmen()
        if self.daemon and self.daemon.alive():
            return self.daemon
        self.daemon = self.new_daemon().start()
        client = self.daemon.connect()
        try:
            self.daemon.wait_scanned(client, self.expected_photos)
            # Measure an idle daemon: the background capture-time reader (resumed at every
            # start) would otherwise still be busy, and each batch it applies voids the
            # sorted views a listing reuses.
            self.daemon.wait_capture_done(client, timeout=300)
        finally:
            client.close()
        return self.daemon

    def stop_curatord(self):
        if self.daemon:
            self.daemon.stop()
            self.daemon = None

    def watchman_live(self, settle_ms=None, alone: bool = True) -> WatchmanServer:
        """A watchman server (default settle, or the given one) watching the tree; with
        `alone`, no other watcher runs (another watchman never does)."""
        if alone:
            self.stop_curatord()
        for key in [k for k in self.watchmen if k != settle_ms]:
            self.watchmen.pop(key).stop()
        server = self.watchmen.get(settle_ms)
        if server is None:
            name = "watchman" if settle_ms is None else "watchman-settle-%g" % settle_ms
            server = WatchmanServer(self.run_dir, self.env, name=name, settle_ms=settle_ms).start()
            server.watch_and_crawl(self.tree)
            self.watchmen[settle_ms] = server
        return server

    def both_live(self):
        """curatord and the default watchman, both up on the idle tree: for workloads that
        only ask questions, alternating between the two in each repetition. curatord is
        started first and has finished its scan before watchman crawls."""
        daemon = self.curatord_live(alone=False)
        return daemon, self.watchman_live(None, alone=False)

    def stop_watchmen(self):
        for key in list(self.watchmen):
            self.watchmen.pop(key).stop()

    def stop_all(self):
        self.stop_curatord()
        self.stop_watchmen()

    # MARK: output

    def log(self, text: str):
        stamp = time.strftime("%H:%M:%S")
        n = "" if self.n is None else " N=%d" % self.n
        print("[%s%s] %s" % (stamp, n, text), file=sys.stderr, flush=True)


def sync_disks():
    """Flushes dirty pages so that one workload's writeback does not land in the next's timing."""
    os.sync()


def write_file(path, data: bytes = b"\xff\xd8" + b"\x00" * 510):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)
