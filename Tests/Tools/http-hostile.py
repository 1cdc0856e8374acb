#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hostile HTTP for the web gateway's tests (WebHostileTests), over raw TCP sockets.
One JSON argument; one JSON line on stdout.

  fuzz   {"port", "cookie"}: malformed requests, one connection each
         -> {"answers": [{"name", "status" | "closed" | "timeout"}]}
  hold   {"port", "count", "seconds", "trickle"?}: opens `count` connections that send
         nothing (or, with "trickle", one byte of a never-ending head every second),
         holds them `seconds`, and reports how many the server closed meanwhile
         -> {"opened", "closed_by_server"}
"""
import json
import resource
import select
import socket
import sys
import time


def payloads(port, cookie):
    host = b"Host: 127.0.0.1:%d\r\n" % port
    auth = b"Cookie: curator_session=" + cookie.encode() + b"\r\nX-Curator: 1\r\n"
    big = b"X-Big: " + b"a" * (256 << 10) + b"\r\n"
    many = b"".join(b"X-H%d: v\r\n" % i for i in range(5000))
    return [
        ("garbage", b"\x00\xff\xfe garbage \r\n\r\n"),
        ("no version", b"GET /\r\n\r\n"),
        ("bad version", b"GET / HTTP/9.9\r\n" + host + b"\r\n"),
        ("bad method", b"G\x01T / HTTP/1.1\r\n" + host + b"\r\n"),
        ("spaces", b"GET  /  HTTP/1.1\r\n" + host + b"\r\n"),
        ("long line", b"GET /" + b"a" * (1 << 20) + b" HTTP/1.1\r\n" + host + b"\r\n"),
        ("huge header", b"GET / HTTP/1.1\r\n" + host + big + b"\r\n"),
        ("many headers", b"GET / HTTP/1.1\r\n" + host + many + b"\r\n"),
        ("header no colon", b"GET / HTTP/1.1\r\n" + host + b"NoColonHere\r\n\r\n"),
        ("no host", b"GET / HTTP/1.1\r\n\r\n"),
        ("two lengths", b"POST /api/v1/status HTTP/1.1\r\n" + host + auth + b"Content-Length: 2\r\nContent-Length: 5\r\n\r\n{}"),
        ("negative length", b"POST /api/v1/status HTTP/1.1\r\n" + host + auth + b"Content-Length: -1\r\n\r\n{}"),
        ("length and chunked", b"POST /api/v1/status HTTP/1.1\r\n" + host + auth
         + b"Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"),
        ("bad chunk size", b"POST /api/v1/status HTTP/1.1\r\n" + host + auth + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"),
        ("huge chunk size", b"POST /api/v1/status HTTP/1.1\r\n" + host + auth
         + b"Transfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n{}\r\n0\r\n\r\n"),
        ("chunk without end", b"POST /api/v1/status HTTP/1.1\r\n" + host + auth + b"Transfer-Encoding: chunked\r\n\r\n2\r\n{}XX"),
        ("unknown coding", b"POST /api/v1/status HTTP/1.1\r\n" + host + auth + b"Transfer-Encoding: gzip\r\n\r\n{}"),
        ("over the limit", b"POST /api/v1/status HTTP/1.1\r\n" + host + auth + b"Content-Length: %d\r\n\r\n" % (8 << 20)
         + b" " * (2 << 20), True),
        ("short body", b"POST /api/v1/status HTTP/1.1\r\n" + host + auth + b"Content-Length: 100\r\n\r\n{}"),
        ("bad json", b"POST /api/v1/status HTTP/1.1\r\n" + host + auth + b"Content-Length: 5\r\n\r\n{\"a\":"),
        ("nul in path", b"GET /photo/1/orig\x00inal HTTP/1.1\r\n" + host + b"\r\n"),
        ("absolute uri", b"GET http://evil.example/ HTTP/1.1\r\n" + host + b"\r\n"),
        ("pipelined junk", b"GET / HTTP/1.1\r\n" + host + b"\r\n" + b"\x16\x03\x01junk\r\n\r\n"),
        # The library answers these itself, without our headers: its answer must
        # carry nothing of the request back (a page that could run it).
        ("markup in line", b"GET /<script>alert(1)</script> HTTP/9.9\r\n" + host + b"\r\n"),
        ("markup in header", b"GET / HTTP/1.1\r\n" + host + b"<script>alert(1)</script>\r\n\r\n"),
        ("tls on plain", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 64),
    ]


def fuzz(spec):
    answers = []
    for name, payload, *head_first in payloads(spec["port"], spec["cookie"]):
        s = socket.create_connection(("127.0.0.1", spec["port"]), timeout=10)
        answer = {"name": name}
        try:
            try:
                if head_first:
                    # A refusal of the head comes before the body is read; the body
                    # sent after it would reset the connection and lose the answer.
                    head, body = payload.split(b"\r\n\r\n", 1)
                    s.sendall(head + b"\r\n\r\n")
                    if not select.select([s], [], [], 3)[0]:
                        s.sendall(body)
                else:
                    s.sendall(payload)
                s.shutdown(socket.SHUT_WR)
            except OSError:
                pass  # refused midway: what came back says the rest
            data = b""
            while len(data) < 1 << 16:
                piece = s.recv(1 << 16)
                if not piece:
                    break
                data += piece
            line = data.split(b"\r\n", 1)[0].decode("latin-1")
            if line.startswith("HTTP/1."):
                answer["status"] = int(line.split(" ")[1])
                answer["head"], _, body = data.partition(b"\r\n\r\n")
                answer["head"] = answer["head"].decode("latin-1")
                answer["body"] = body.decode("latin-1")
            else:
                answer["closed"] = True
        except socket.timeout:
            answer["timeout"] = True
        except OSError as error:
            answer["closed"] = True
            answer["error"] = repr(error)
        finally:
            s.close()
        answers.append(answer)
    return {"answers": answers}


def hold(spec):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, spec["count"] + 64)), hard))
    sockets = []
    for _ in range(spec["count"]):
        try:
            s = socket.create_connection(("127.0.0.1", spec["port"]), timeout=5)
            s.setblocking(False)
            sockets.append(s)
        except OSError:
            break
    if spec.get("ready_file"):
        # Every connection opened (under load that takes seconds): the caller's
        # clock starts here.
        with open(spec["ready_file"], "w") as f:
            f.write(str(len(sockets)))
    closed = set()
    deadline = time.monotonic() + spec["seconds"]
    head = b"GET / HTTP/1.1\r\nX-Slow: "
    sent = 0
    while time.monotonic() < deadline:
        for i, s in enumerate(sockets):
            if i in closed:
                continue
            try:
                if s.recv(4096) == b"":
                    closed.add(i)
                    continue
            except BlockingIOError:
                pass
            except OSError:
                closed.add(i)
                continue
            if spec.get("trickle"):
                try:
                    s.send(head[sent:sent + 1] if sent < len(head) else b"a")
                except OSError:
                    closed.add(i)
        sent += 1
        time.sleep(1)
    for s in sockets:
        s.close()
    return {"opened": len(sockets), "closed_by_server": len(closed)}


def main():
    mode, spec = sys.argv[1], json.loads(sys.argv[2])
    print(json.dumps({"fuzz": fuzz, "hold": hold}[mode](spec)))


if __name__ == "__main__":
    main()
