# SPDX-License-Identifier: GPL-2.0-or-later
"""Event sources with one shape, so that the event workloads treat curatord and its
peers alike: `start()`, `poll(timeout) -> [(relative path, arrival time)]`, `close()`.
Arrival times are taken in this process when the notification is read, with the same
clock (perf_counter) as the writes, for every subject.
"""
import time

from curatord_client import Daemon
from peers.watchman import WatchmanServer


class CuratordEvents:
    """A `subscribe` connection; `added` (and `moved` in) events name the new photo."""

    def __init__(self, daemon: Daemon):
        self.daemon = daemon
        self.name = "curatord"
        self.client = None

    def start(self):
        self.client = self.daemon.connect()
        self.client.request("subscribe")
        return self

    def poll(self, timeout: float):
        out = []
        event = self.client.next_event(max(0.0, timeout))
        while event is not None:
            now = time.perf_counter()
            if event.get("event") in ("added", "moved") and event.get("photo"):
                out.append((event["photo"]["path"], now))
            event = self.client.next_event(0) if (self.client.events or self.client.buffer) else None
        return out

    def close(self):
        if self.client:
            self.client.close()


class WatchmanEvents:
    """A watchman subscription from "now" on, files only."""

    def __init__(self, server: WatchmanServer, root: str):
        self.server = server
        self.root = root
        settle = server.settle_ms
        self.name = "watchman (settle %s)" % ("default 20 ms" if settle is None else "%g ms" % settle)
        self.client = None

    def start(self):
        self.client = self.server.client()
        clock = self.client.command("clock", self.root, {"sync_timeout": 30000})["clock"]
        self.client.command("subscribe", self.root, "bench",
                            {"expression": ["type", "f"], "fields": ["name", "exists"], "since": clock})
        return self

    def poll(self, timeout: float):
        out = []
        message = self.client.next_unilateral(max(0.0, timeout))
        while message is not None:
            now = time.perf_counter()
            for f in message.get("files") or []:
                if f.get("exists"):
                    out.append((f["name"], now))
            message = self.client.next_unilateral(0) if (self.client.unilateral or self.client.buffer) else None
        return out

    def close(self):
        if self.client:
            self.client.close()


def collect(source, expected: set, timeout: float, seen: dict = None) -> dict:
    """Reads events until every expected path was reported or `timeout` passed.
    Returns {path: first arrival time} for the expected paths seen."""
    seen = {} if seen is None else seen
    deadline = time.perf_counter() + timeout
    while len(seen) < len(expected):
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        for path, t in source.poll(min(left, 0.5)):
            if path in expected and path not in seen:
                seen[path] = t
    return seen


def drain(source, quiet: float = 0.05, limit: float = 5.0):
    """Discards events until none came for `quiet` seconds (bounded by `limit`)."""
    deadline = time.perf_counter() + limit
    while time.perf_counter() < deadline:
        if not source.poll(quiet):
            return
