# SPDX-License-Identifier: GPL-2.0-or-later
"""Reading whole frames (a JSON line, a BSER PDU) off a non-blocking socket with a deadline."""

import select
import time


def read_frame(sock, buffer: bytearray, split, timeout: float, peer: str):
    """The next frame as bytes, or None when `timeout` passes first.

    `split(buffer, start)` says where a whole frame ends in the buffered bytes: a
    pair (end of the frame's payload, bytes it takes up) or None while it is
    incomplete; bytes before `start` were looked at already (a 15 MB line arrives
    in a hundred reads, and searching it from the beginning after each one would
    time this client, not the server).
    """
    deadline = time.monotonic() + timeout
    start = 0
    while True:
        cut = split(buffer, start)
        if cut is not None:
            end, used = cut
            frame = bytes(memoryview(buffer)[:end])
            del buffer[:used]
            return frame
        start = len(buffer)
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([sock], [], [], left)
        if not ready:
            return None
        chunk = sock.recv(1 << 20)
        if not chunk:
            raise ConnectionError("%s closed the connection" % peer)
        buffer += chunk
