# SPDX-License-Identifier: GPL-2.0-or-later
"""watchman as a peer: a private server process and a BSER client for its socket.

The server gets its own --sockname/--statefile/--logfile/--pidfile under the run
directory and, when a setting is wanted (settle 1 ms), its own WATCHMAN_CONFIG_FILE,
so nothing global (/etc/watchman.json, the user's state) is read or touched.
"""
import collections
import json
import os
import select
import socket
import time

import framing
import procs
from peers import bser


class WatchmanError(Exception):
    pass


class WatchmanClient:
    def __init__(self, path: str, timeout: float = 5.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.sock.setblocking(False)
        self.buffer = bytearray()
        self.unilateral = collections.deque()

    def fileno(self):
        return self.sock.fileno()

    def send(self, command):
        data = bser.dumps(command)
        self.sock.setblocking(True)
        try:
            self.sock.sendall(data)
        finally:
            self.sock.setblocking(False)

    def read_pdu(self, timeout: float):
        """The next whole PDU (bytes), or None after `timeout`."""
        return framing.read_frame(self.sock, self.buffer, _split_pdu, timeout, "watchman")

    def raw_response(self, timeout: float) -> bytes:
        """The next non-unilateral PDU, undecoded (decoding stays out of timings)."""
        deadline = time.monotonic() + timeout
        while True:
            pdu = self.read_pdu(max(0.0, deadline - time.monotonic()))
            if pdu is None:
                raise TimeoutError("no answer from watchman within %.1f s" % timeout)
            if len(pdu) < 65536:
                value = bser.loads(pdu)
                if isinstance(value, dict) and (value.get("unilateral") or "subscription" in value and "clock" in value
                                                and "subscribe" not in value):
                    self.unilateral.append(value)
                    continue
            return pdu

    def command(self, *args, timeout: float = 120.0):
        self.send(list(args))
        value = bser.loads(self.raw_response(timeout))
        if isinstance(value, dict) and "error" in value:
            raise WatchmanError("%s: %s" % (args[0], value["error"]))
        return value

    def next_unilateral(self, timeout: float):
        if self.unilateral:
            return self.unilateral.popleft()
        pdu = self.read_pdu(timeout)
        if pdu is None:
            return None
        return bser.loads(pdu)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class WatchmanServer:
    """One watchman server; `settle_ms` sets the settle period through a private config file."""

    def __init__(self, run_dir: str, env: dict, name: str = "watchman", settle_ms=None):
        self.dir = os.path.join(run_dir, name)
        os.makedirs(self.dir, exist_ok=True)
        self.sockname = os.path.join(self.dir, "sock")
        self.env = dict(env)
        config_path = os.path.join(self.dir, "watchman.json")
        config = {} if settle_ms is None else {"settle": settle_ms}
        with open(config_path, "w") as f:
            json.dump(config, f)
        self.env["WATCHMAN_CONFIG_FILE"] = config_path
        self.settle_ms = settle_ms
        self.process = None
        self.pid = None

    def start(self, timeout: float = 30.0):
        cmd = ["watchman", "--foreground", "--no-save-state",
               "--sockname=" + self.sockname,
               "--statefile=" + os.path.join(self.dir, "state"),
               "--logfile=" + os.path.join(self.dir, "log"),
               "--pidfile=" + os.path.join(self.dir, "pid"),
               "--log-level", "0"]
        out = open(os.path.join(self.dir, "stdout"), "ab")
        try:
            self.process = procs.spawn(cmd, env=self.env, stdout=out, stderr=out)
        finally:
            out.close()
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError("watchman exited with %s: %s" % (self.process.returncode, self.log_tail()))
            try:
                c = self.client()
                break
            except (FileNotFoundError, ConnectionRefusedError):
                if time.monotonic() >= deadline:
                    raise TimeoutError("watchman did not open its socket")
                time.sleep(0.01)
        try:
            self.pid = int(c.command("get-pid")["pid"])
        finally:
            c.close()
        return self

    def client(self) -> WatchmanClient:
        return WatchmanClient(self.sockname)

    def watch_and_crawl(self, root: str, timeout: float = 600.0) -> float:
        """Seconds from `watch` until a query synced to now answers, i.e. the crawl is done."""
        c = self.client()
        try:
            t0 = time.perf_counter()
            c.command("watch", root, timeout=timeout)
            c.command("query", root, {"expression": ["false"], "fields": ["name"],
                                      "sync_timeout": int(timeout * 1000)}, timeout=timeout)
            return time.perf_counter() - t0
        finally:
            c.close()

    def unwatch(self, root: str):
        c = self.client()
        try:
            c.command("watch-del", root)
        finally:
            c.close()

    def stop(self):
        if self.process is None:
            return
        try:
            c = self.client()
            try:
                c.send(["shutdown-server"])
                c.read_pdu(5.0)
            finally:
                c.close()
        except OSError:
            pass
        procs.stop(self.process, timeout=10)
        self.process = None

    def log_tail(self, lines: int = 10) -> str:
        try:
            with open(os.path.join(self.dir, "log"), "rb") as f:
                return b"\n".join(f.read().splitlines()[-lines:]).decode("utf-8", "replace")
        except OSError:
            return "(no log)"


def _split_pdu(buffer: bytearray, start: int = 0):
    n = bser.pdu_length(buffer)
    return (n, n) if 0 <= n <= len(buffer) else None
