# SPDX-License-Identifier: GPL-2.0-or-later
"""Speaks curatord's protocol (newline-delimited JSON on a Unix socket) and runs the daemon.

Only what the benchmarks need: one request at a time per connection, pushed event
lines kept aside for whoever waits for them, and a daemon process with its own
socket, state directory and log file (never an unread pipe: a full pipe blocks it).
"""
import collections
import json
import os
import select
import socket
import subprocess
import time

import framing
import procs


class ProtocolFailure(Exception):
    """The daemon answered `ok: false`."""

    def __init__(self, cmd, error):
        self.cmd = cmd
        self.code = (error or {}).get("code", "?")
        self.message = (error or {}).get("message", "")
        super().__init__("%s: %s: %s" % (cmd, self.code, self.message))


class NotAvailable(ProtocolFailure):
    """`unknown_command`: this build does not have the feature yet."""


class LineSocket:
    """A connected Unix stream socket read line by line, with deadlines on every read."""

    def __init__(self, path: str, timeout: float = 5.0):
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.sock.setblocking(False)
        self.buffer = bytearray()

    def fileno(self):
        return self.sock.fileno()

    def send(self, data: bytes, timeout: float = 30.0):
        view = memoryview(data)
        deadline = time.monotonic() + timeout
        while view:
            try:
                n = self.sock.send(view)
                view = view[n:]
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("send to %s timed out" % self.path)
                select.select([], [self.sock], [], left)

    def read_line(self, timeout: float):
        """The next line without its newline, or None when `timeout` passes first."""
        return framing.read_frame(self.sock, self.buffer, _split_line, timeout, self.path)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class CuratordClient(LineSocket):
    """Requests with ids; event lines that arrive meanwhile are queued for `next_event`."""

    def __init__(self, path: str, timeout: float = 5.0):
        super().__init__(path, timeout)
        self.next_id = 0
        self.events = collections.deque()

    def request_line(self, cmd: str, **args) -> bytes:
        self.next_id += 1
        body = {"id": self.next_id, "cmd": cmd}
        body.update(args)
        return json.dumps(body, separators=(",", ":")).encode() + b"\n"

    def raw_response(self, timeout: float):
        """The next response line (events set aside), undecoded: for timing big answers."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.read_line(max(0.0, deadline - time.monotonic()))
            if line is None:
                raise TimeoutError("no response from curatord within %.1f s" % timeout)
            # Events are small; a big line is the answer being waited for (and is
            # returned undecoded so that decoding stays out of the timing).
            if len(line) < 65536:
                message = json.loads(line)
                if "event" in message and "ok" not in message:
                    self.events.append(message)
                    continue
            return line

    def request(self, cmd: str, timeout: float = 60.0, **args):
        return self.timed_request(cmd, timeout, **args)[1]

    def timed_request(self, cmd: str, timeout: float = 60.0, **args):
        """(seconds from sending to the whole answer's arrival, the decoded result).
        Decoding is left out of the time, as for every large answer the harness
        times: it measures this Python client, not the server."""
        line = self.request_line(cmd, **args)
        t0 = time.perf_counter()
        self.send(line)
        raw = self.raw_response(timeout)
        elapsed = time.perf_counter() - t0
        response = json.loads(raw)
        if not response.get("ok"):
            error = response.get("error") or {}
            kind = NotAvailable if error.get("code") == "unknown_command" else ProtocolFailure
            raise kind(cmd, error)
        return elapsed, response.get("result")

    def next_event(self, timeout: float):
        if self.events:
            return self.events.popleft()
        line = self.read_line(timeout)
        if line is None:
            return None
        message = json.loads(line)
        if "event" not in message:
            raise RuntimeError("unexpected response while waiting for events: %r" % line[:200])
        return message


def scan_done(status: dict, expected_photos=None) -> bool:
    """Whether a `status` answer says every root has finished a scan (and, when given,
    that the roots hold `expected_photos`: per root, not the top-level total, which
    also counts roots no longer configured)."""
    roots = status.get("roots") or []
    done = bool(roots) and not status.get("scanning") and all(
        r.get("last_scan_ms") is not None and not r.get("scanning") for r in roots)
    return done and (expected_photos is None or sum(r.get("photos", 0) for r in roots) == expected_photos)


class Daemon:
    """One curatord process on the benchmark's roots, with its own socket and state."""

    def __init__(self, binary: str, roots, run_dir: str, env: dict, name: str = "curatord", root_options=None,
                 options=None):
        self.binary = binary
        self.roots = list(roots)
        # Settings every root gets ({"groups": False}) and top-level ones ({"thumbnails":
        # False}): given, curatord reads them from a configuration file of its own
        # (`--root` has no way to say them).
        self.root_options = dict(root_options or {})
        self.options = dict(options or {})
        self.config_path = os.path.join(run_dir, name + ".json5")
        self.socket_path = os.path.join(run_dir, name + ".sock")
        self.state_dir = os.path.join(run_dir, name + "-state")
        self.log_path = os.path.join(run_dir, name + ".log")
        self.env = env
        self.process = None
        self.started_at = None
        self.log_offset = 0
        self.stop_requested = False
        self.on_start = None  # called with the pid once spawned (the profiler attaches)

    @property
    def pid(self) -> int:
        return self.process.pid

    def start(self):
        cmd = [self.binary]
        if self.root_options or self.options:
            with open(self.config_path, "w") as f:
                json.dump(dict(self.options, roots=[dict(path=r, **self.root_options) for r in self.roots]), f, indent=1)
            cmd += ["--config", self.config_path]
        else:
            for r in self.roots:
                cmd += ["--root", r]
        cmd += ["--socket", self.socket_path, "--state-dir", self.state_dir]
        log = open(self.log_path, "ab")
        try:
            self.log_offset = log.tell()
            if self.on_start is None:
                self.started_at = time.monotonic()
                self.process = procs.spawn(cmd, env=self.env, stdout=log, stderr=log)
                return self
            # A profiler attaches before curatord runs: a shell with curatord's pid waits for
            # a line, then execs it. (perf attached after the spawn would miss the threads
            # made while it sets up, and with them the whole scan.)
            self.process = procs.spawn(["/bin/sh", "-c", 'read -r _ || exit 1; exec "$0" "$@"'] + cmd, env=self.env,
                                       stdout=log, stderr=log, stdin=subprocess.PIPE)
        finally:
            log.close()
        self.on_start(self.process.pid)
        self.started_at = time.monotonic()
        self.process.stdin.write(b"go\n")
        self.process.stdin.close()
        return self

    def stopped_from_outside(self) -> bool:
        """Exited after a SIGTERM/SIGINT that the harness did not send (its log says "stopping").
        Other engineers' test clean-ups on a shared machine have been seen to do that."""
        if self.process is None or self.stop_requested:
            return False
        try:
            with open(self.log_path, "rb") as f:
                f.seek(self.log_offset)
                return b"notice: stopping" in f.read()
        except OSError:
            return False

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def connect(self, timeout: float = 30.0) -> CuratordClient:
        """Connects once the socket answers; raises with the log's tail if the daemon died."""
        deadline = time.monotonic() + timeout
        while True:
            if not self.alive():
                raise RuntimeError("curatord exited with %s; log tail:\n%s" % (self.process.returncode, self.log_tail()))
            try:
                return CuratordClient(self.socket_path)
            except (FileNotFoundError, ConnectionRefusedError):
                if time.monotonic() >= deadline:
                    raise TimeoutError("curatord did not open %s within %.0f s" % (self.socket_path, timeout))
                time.sleep(0.002)

    def wait_scanned(self, client: CuratordClient, expected_photos=None, timeout: float = 600.0,
                     interval: float = 0.05):
        """Waits until `status` says every root has finished a scan (and, when given, holds
        the expected number of photos). Returns the final status.

        `status` is asked every `interval` and at once whenever the log file gains a
        "scanned" line: watching the log costs the daemon nothing, whereas each `status`
        takes its state lock (and walks the pending capture list), so polling it every
        few milliseconds would slow the very scan being timed."""
        deadline = time.monotonic() + timeout
        next_status = 0.0
        hints = 0
        while True:
            now = time.monotonic()
            seen = self._scanned_lines()
            if now >= next_status or seen > hints:
                hints = seen
                status = client.request("status", timeout=30)
                if scan_done(status, expected_photos):
                    return status
                next_status = time.monotonic() + interval
                if time.monotonic() >= deadline:
                    raise TimeoutError("scan not done after %.0f s (photos %s, expected %s)" % (
                        timeout, status.get("photos"), expected_photos))
                if not self.alive():
                    raise RuntimeError("curatord died during the scan; log tail:\n%s" % self.log_tail())
            time.sleep(0.001)

    def _scanned_lines(self) -> int:
        try:
            with open(self.log_path, "rb") as f:
                f.seek(self.log_offset)
                return f.read().count(b": scanned ")
        except OSError:
            return 0

    def wait_capture_done(self, client: CuratordClient, timeout: float = 600.0, interval: float = 0.02):
        deadline = time.monotonic() + timeout
        while True:
            status = client.request("status", timeout=30)
            if all((r.get("capture_pending") or 0) == 0 for r in status.get("roots") or []):
                return status
            if time.monotonic() >= deadline:
                raise TimeoutError("capture times still pending after %.0f s" % timeout)
            time.sleep(interval)

    def stop(self, timeout: float = 30.0) -> int:
        if self.process is None:
            return 0
        self.stop_requested = True
        rc = procs.stop(self.process, timeout=timeout)
        return rc

    def log_tail(self, lines: int = 20) -> str:
        try:
            with open(self.log_path, "rb") as f:
                return b"\n".join(f.read().splitlines()[-lines:]).decode("utf-8", "replace")
        except OSError:
            return "(no log)"


def _split_line(buffer: bytearray, start: int = 0):
    at = buffer.find(b"\n", start)
    return (at, at + 1) if at >= 0 else None
