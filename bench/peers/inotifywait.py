# SPDX-License-Identifier: GPL-2.0-or-later
"""`inotifywait -m -r` as a peer event source: what a shell script watching a folder sees.

It reports close_write and moved_to (a file complete in the folder, the same moment
curatord reports `added`). Its recursive mode adds a watch for a new directory only
after it has seen that directory's creation, so files written into the directory in
between are never reported: the camera-import workload counts those.
"""
import os
import select
import subprocess
import time

import procs


class InotifywaitEvents:
    name = "inotifywait -m -r"

    def __init__(self, root: str, run_dir: str, env: dict):
        self.root = root.rstrip("/") + "/"
        self.stderr_path = os.path.join(run_dir, "inotifywait.stderr")
        self.env = env
        self.process = None
        self.buffer = b""

    def start(self, timeout: float = 120.0):
        err = open(self.stderr_path, "wb")
        try:
            self.process = procs.spawn(
                ["inotifywait", "-m", "-r", "--format", "%w%f\t%e", "-e", "close_write", "-e", "moved_to", self.root],
                env=self.env, stdout=subprocess.PIPE, stderr=err)
        finally:
            err.close()
        os.set_blocking(self.process.stdout.fileno(), False)
        # It prints "Watches established." on stderr once its recursive setup is done.
        procs.wait_until(lambda: self._established(), timeout, 0.01, "inotifywait to set up its watches")
        return self

    def _established(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError("inotifywait exited with %s: %s" % (self.process.returncode, open(self.stderr_path).read()))
        with open(self.stderr_path, "rb") as f:
            return b"Watches established" in f.read()

    def poll(self, timeout: float):
        """(relative path, arrival time) of the events available within `timeout`."""
        fd = self.process.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], max(0.0, timeout))
        if not ready:
            return []
        now = time.perf_counter()
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            raise ConnectionError("inotifywait closed its output")
        self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        out = []
        for line in lines:
            path = line.split(b"\t", 1)[0].decode("utf-8", "surrogateescape")
            if path.startswith(self.root):
                out.append((path[len(self.root):], now))
        return out

    def close(self):
        if self.process is not None:
            procs.stop(self.process, timeout=5)
            self.process.stdout.close()
            self.process = None
