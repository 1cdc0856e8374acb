#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`photo.open` on curatord's socket, as the web gateway makes it: one request line,
the answer line and the descriptors passed with it (SCM_RIGHTS). One JSON line on
stdout for the Swift tests (WebPhotoTests):

  photo-open.py SOCKET REQUEST_JSON
  -> {"answer": {...}, "fds": N, "writable": bool, "length": N, "sha256": HEX, "head": HEX}

`writable`: whether the passed descriptor was open for writing; `length`, `sha256`
and `head` (its first 8 bytes) are of what it reads from its start; `jpeg_size`
([width, height] by its frame header) when that is a JPEG.
"""
import array
import fcntl
import hashlib
import json
import os
import socket
import sys


def main():
    path, request = sys.argv[1], sys.argv[2]
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(30)
    s.connect(path)
    s.sendall(request.encode() + b"\n")
    data = b""
    fds = []
    while not data.endswith(b"\n"):
        chunk, ancillary, _, _ = s.recvmsg(1 << 16, socket.CMSG_SPACE(8 * array.array("i").itemsize))
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                passed = array.array("i")
                passed.frombytes(payload[:len(payload) - len(payload) % passed.itemsize])
                fds.extend(passed)
        if not chunk:
            break
        data += chunk
    out = {"answer": json.loads(data.decode()), "fds": len(fds)}
    if fds:
        fd = fds[0]
        out["writable"] = (fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE) != os.O_RDONLY
        content = b""
        offset = 0
        while True:
            piece = os.pread(fd, 1 << 20, offset)
            if not piece:
                break
            content += piece
            offset += len(piece)
        out["length"] = len(content)
        out["sha256"] = hashlib.sha256(content).hexdigest()
        out["head"] = content[:8].hex()
        size = jpeg_size(content)
        if size:
            out["jpeg_size"] = size
    for fd in fds:
        os.close(fd)
    print(json.dumps(out))


def jpeg_size(content):
    """[width, height] from a JPEG's first frame header, or None."""
    if content[:2] != b"\xff\xd8":
        return None
    at = 2
    while at + 9 <= len(content) and content[at] == 0xFF:
        marker = content[at + 1]
        if marker in (0xC0, 0xC1, 0xC2):
            return [int.from_bytes(content[at + 7:at + 9], "big"), int.from_bytes(content[at + 5:at + 7], "big")]
        if marker == 0xDA:
            return None
        at += 2 + int.from_bytes(content[at + 2:at + 4], "big")
    return None


if __name__ == "__main__":
    main()
