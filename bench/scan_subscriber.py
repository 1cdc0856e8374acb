#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""One subscribed client during a cold start (issue 14: a subscriber made the start 85 %
slower): connects as soon as the socket answers, sends `subscribe`, and reads every
event as fast as a client can, so that the daemon is never held up by a slow reader.
It prints "waiting" once ready to connect; when its stdin closes, on SIGTERM, or when
the daemon closes the connection, one JSON line: when it connected and when the answer to `subscribe`
arrived (time.monotonic, CLOCK_MONOTONIC like the harness's), events and bytes
received, events by kind.

    scan_subscriber.py SOCKET

Run as its own process, as a real client is: on 2 cores its reading must not take
the harness's time slices, nor the harness's its own.
"""
import json
import os
import select
import signal
import socket
import sys
import time


class Stop(Exception):
    pass


def _stop(signum, frame):
    raise Stop()


def _closed(fd: int) -> bool:
    """Whether the harness closed our stdin (its way to stop us without a signal)."""
    return os.read(fd, 4096) == b""


def main(path: str) -> int:
    signal.signal(signal.SIGTERM, _stop)
    stdin = sys.stdin.fileno()
    counts = {"connected_at": None, "subscribed_at": None, "events": 0, "bytes": 0, "added": 0, "scan": 0,
              "scan_started": 0, "dropped": 0, "other": 0}
    sock = None
    print("waiting", flush=True)
    try:
        while sock is None:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(path)
                sock = s
            except (FileNotFoundError, ConnectionRefusedError):
                s.close()
                # A millisecond's wait that ends at once if the harness is done with us.
                if select.select([stdin], [], [], 0.001)[0] and _closed(stdin):
                    raise Stop()
        counts["connected_at"] = time.monotonic()
        sock.sendall(b'{"id":1,"cmd":"subscribe"}\n')
        tail = b""
        while True:
            ready = select.select([sock, stdin], [], [])[0]
            if stdin in ready and _closed(stdin):
                break
            if sock not in ready:
                continue
            chunk = sock.recv(1 << 20)
            if not chunk:
                break
            counts["bytes"] += len(chunk)
            if counts["subscribed_at"] is None and b'{"id":1,' in chunk:
                counts["subscribed_at"] = time.monotonic()
            data = tail + chunk
            cut = data.rfind(b"\n") + 1
            whole, tail = data[:cut], data[cut:]
            lines = whole.count(b"\n")
            # Counting by substring keeps up with a scan's event rate; the kinds that
            # matter here have these exact prefixes (see docs/PROTOCOL.md).
            added = whole.count(b'{"event":"added"')
            scan = whole.count(b'{"event":"scan"')
            dropped = whole.count(b'{"event":"dropped"')
            # A line that starts with an id is an answer (a photo inside an event has an id too).
            answers = whole.startswith(b'{"id":') + whole.count(b'\n{"id":')
            counts["added"] += added
            counts["scan"] += scan
            # Seen only by a client subscribed before the scan began.
            counts["scan_started"] += whole.count(b'"state":"started"')
            counts["dropped"] += dropped
            counts["events"] += lines - answers
            counts["other"] += lines - answers - added - scan - dropped
    except Stop:
        pass
    except OSError as e:
        counts["error"] = str(e)
    print(json.dumps(counts), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
