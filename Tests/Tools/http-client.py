#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""An HTTP client for the web gateway's end-to-end tests, over real TCP with the
standard library's http.client. One JSON argument says what to do; one JSON line on
stdout says what came back. The Swift tests (WebGatewayTests) assert on it.

  request  {"port", "method", "path", "headers"?, "body"? | "body_size"? | "chunks"? | "declared_length"?,
            "tls"?: {"ca", "max_version"?}}
           -> {"status", "headers": {name: [values]}, "body", "length", "sha256"}  or {"error"}
  events   {"port", "cookie", "create", "expect", "timeout"?}: opens the event stream,
           creates the file `create` once subscribed, and waits for the `added` event
           whose photo's path is `expect` -> {"status", "headers", "event", "id"}
  first    {"port", "cookie", "last_event_id"?, "timeout"?}: the stream's first event
           -> {"status", "headers", "event", "id"}
  stall    {"port", "cookie", "ready"}: opens the event stream with a tiny receive
           buffer, writes `ready` when the answer's head came, and then never reads
           again (until killed).
"""
import hashlib
import http.client
import json
import socket
import ssl
import sys
import time


def head(response):
    headers = {}
    for name, value in response.getheaders():
        headers.setdefault(name.lower(), []).append(value)
    return {"status": response.status, "headers": headers}


def connection(spec):
    """HTTP, or HTTPS when spec has "tls": {"ca": PEM trusted, "max_version"?: "1.2"}."""
    tls = spec.get("tls")
    if not tls:
        return http.client.HTTPConnection("127.0.0.1", spec["port"], timeout=spec.get("timeout", 20))
    context = ssl.create_default_context(cafile=tls["ca"])
    if "max_version" in tls:
        context.maximum_version = {"1.1": ssl.TLSVersion.TLSv1_1, "1.2": ssl.TLSVersion.TLSv1_2}[tls["max_version"]]
        context.minimum_version = ssl.TLSVersion.MINIMUM_SUPPORTED
    return http.client.HTTPSConnection("127.0.0.1", spec["port"], timeout=spec.get("timeout", 20), context=context)


def request(spec):
    conn = connection(spec)
    headers = dict(spec.get("headers", {}))
    try:
        if "chunks" in spec:
            # A chunked body: no Content-Length ahead.
            conn.putrequest(spec["method"], spec["path"], skip_host="Host" in headers, skip_accept_encoding=True)
            for name, value in headers.items():
                conn.putheader(name, value)
            conn.putheader("Transfer-Encoding", "chunked")
            conn.endheaders()
            for size in spec["chunks"]:
                conn.send(b"%x\r\n" % size + b" " * size + b"\r\n")
            conn.send(b"0\r\n\r\n")
        elif "declared_length" in spec:
            # Only the head, announcing a body that never comes: the answer must not
            # wait for it.
            conn.putrequest(spec["method"], spec["path"], skip_host="Host" in headers, skip_accept_encoding=True)
            for name, value in headers.items():
                conn.putheader(name, value)
            conn.putheader("Content-Length", str(spec["declared_length"]))
            conn.endheaders()
        else:
            body = spec.get("body")
            if "body_size" in spec:
                body = b"{" + b" " * (spec["body_size"] - 2) + b"}"
            conn.request(spec["method"], spec["path"], body=body, headers=headers)
        response = conn.getresponse()
        out = head(response)
        if isinstance(conn.sock, ssl.SSLSocket):
            out["tls_version"] = conn.sock.version()
            out["compression"] = conn.sock.compression()
        body = response.read()
        out["body"] = body.decode("utf-8", "replace")
        # Bytes (a photo) are compared by these.
        out["length"] = len(body)
        out["sha256"] = hashlib.sha256(body).hexdigest()
        return out
    except (OSError, http.client.HTTPException) as error:
        return {"error": repr(error)}
    finally:
        conn.close()


def first(spec):
    """The stream's first event (with "last_event_id", as a reconnecting EventSource
    sends it) -> {"status", "headers", "event", "id"}."""
    conn, response = open_stream(spec)
    out = head(response)
    deadline = time.monotonic() + spec.get("timeout", 20)
    data, event_id = [], None
    while time.monotonic() < deadline:
        line = response.readline()
        if not line:
            out["error"] = "the stream ended"
            return out
        line = line.decode("utf-8").rstrip("\r\n")
        if line.startswith("id: "):
            event_id = line[len("id: "):]
        elif line.startswith("data: "):
            data.append(line[len("data: "):])
        elif line == "" and data:
            out["event"] = json.loads("\n".join(data))
            out["id"] = event_id
            return out
    out["error"] = "no event in time"
    return out


def open_stream(spec, receive_buffer=None):
    conn = http.client.HTTPConnection("127.0.0.1", spec["port"], timeout=spec.get("timeout", 20))
    if receive_buffer:
        conn.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        conn.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        conn.sock.settimeout(spec.get("timeout", 20))
        conn.sock.connect(("127.0.0.1", spec["port"]))
    headers = {"Cookie": "curator_session=" + spec["cookie"], "Accept": "text/event-stream"}
    if "last_event_id" in spec:
        headers["Last-Event-ID"] = spec["last_event_id"]
    conn.request("GET", "/api/v1/events", headers=headers)
    return conn, conn.getresponse()


def events(spec):
    conn, response = open_stream(spec)
    out = head(response)
    if response.status != 200:
        out["body"] = response.read().decode("utf-8", "replace")
        return out
    deadline = time.monotonic() + spec.get("timeout", 20)
    created = False
    data = []
    event_id = None
    while time.monotonic() < deadline:
        line = response.readline()
        if not line:
            out["error"] = "the stream ended"
            return out
        line = line.decode("utf-8").rstrip("\r\n")
        if line.startswith(":") and not created:
            # Subscribed: what happens from now on is sent.
            with open(spec["create"], "wb") as f:
                f.write(b"web photo")
            created = True
        elif line.startswith("id: "):
            event_id = line[len("id: "):]
        elif line.startswith("data: "):
            data.append(line[len("data: "):])
        elif line == "" and data:
            event = json.loads("\n".join(data))
            data = []
            if event.get("event") == "added" and event.get("photo", {}).get("path") == spec["expect"]:
                out["event"] = event
                out["id"] = event_id
                return out
    out["error"] = "no added event for %s in time" % spec["expect"]
    return out


def stall(spec):
    conn, response = open_stream(spec, receive_buffer=4096)
    with open(spec["ready"], "w") as f:
        f.write(str(response.status))
    while True:
        time.sleep(3600)


def main():
    mode, spec = sys.argv[1], json.loads(sys.argv[2])
    if mode == "stall":
        stall(spec)
    result = {"request": request, "events": events, "first": first}[mode](spec)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
