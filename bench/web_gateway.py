#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""curatord-web against nginx, side by side (issue 51).

    bench/web_gateway.py [--bin .build/release] [--photos 10000] [--seconds 10] [--rounds 3]
                         [--connections 50] [--api 2000] [--json OUT] [--web BIN] [--before BIN]

`--web` is the gateway binary (default: the one in --bin), measured twice: as it
runs by default, and with `--keep-files 0` (no file kept: every request a
`photo.open`, what a browser's first look at each photo costs); `--before` a second
binary (an earlier build). All in the same rounds against the same daemon and nginx,
so that a change is seen as a ratio on a shared machine.

1. N small JPEGs in a scratch folder (one sample, copied), curatord (release) on it,
   waited for until every `normal` thumbnail is made.
2. Thumbnails served warm, keep-alive, `--connections` clients, by `wrk` with a Lua
   script cycling through every photo: curatord-web's `GET /photo/<id>/normal?v=...`
   (signed in; a `photo.open` on the daemon's socket and the descriptor streamed, or,
   asked again within --keep-files, the descriptor kept from then) against
   nginx-light serving the same PNGs from the cache directory (sendfile, one worker
   per core). Each run preceded by --warmup seconds of the same, not counted. Rounds
   interleaved, the order alternating.
3. An API round trip (`toggle` of one photo in select mode, HTTP keep-alive, one client): p50, p99.
4. The gateway's RSS (VmRSS) idle, and holding 200 keep-alive connections.
5. An event to `--streams` event streams (signed in, one user: each stream a daemon
   connection, so the daemon's max_clients_per_user is raised): `toggle` through the
   API, timed from the request to its `selection` event read on every stream.

Needs wrk and nginx-light (scripts/install-deps.sh); run as root or as a user that
may bind a loopback port. Prints a Markdown table for docs/BENCHMARKS.md.
"""
import argparse
import http.client
import json
import os
import platform
import re
import select
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import procs  # noqa: E402
from curatord_client import Daemon  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cpu_model() -> str:
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def fan_out(port: int, cookie: str, streams: int, events: int, ids: list) -> dict:
    """`streams` event streams open on one gateway; `events` times a `toggle` through the
    API, each timed from its request being sent to its `selection` event read on every
    stream (read as it comes, by one select loop)."""
    host = b"Host: 127.0.0.1:%d\r\n" % port
    socks = []
    for _ in range(streams):
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(b"GET /api/v1/events HTTP/1.1\r\n" + host + b"Cookie: " + cookie.encode() + b"\r\n\r\n")
        socks.append(s)
    seen = {s: b"" for s in socks}
    deadline = time.monotonic() + 60
    waiting = set(socks)
    while waiting and time.monotonic() < deadline:
        for s in select.select(list(waiting), [], [], 1)[0]:
            seen[s] += s.recv(65536)
            if b" 200 " not in seen[s][:20] and b"\r\n" in seen[s]:
                raise RuntimeError("an event stream was refused: %r" % seen[s][:200])
            if b": subscribed" in seen[s]:
                waiting.discard(s)
    if waiting:
        raise RuntimeError("%d of %d event streams never said they were subscribed" % (len(waiting), streams))
    api = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"Cookie": cookie, "X-Curator": "1", "Content-Type": "application/json"}
    api.request("POST", "/api/v1/mode", body=json.dumps({"mode": "select"}), headers=headers)
    api.getresponse().read()
    marker = b'"event":"selection"'
    latencies, missed = [], 0
    for i in range(events):
        for s in socks:
            seen[s] = b""
        t0 = time.perf_counter()
        api.request("POST", "/api/v1/toggle", body=json.dumps({"ids": [ids[i % len(ids)]]}), headers=headers)
        waiting = set(socks)
        while waiting and time.perf_counter() - t0 < 5:
            for s in select.select(list(waiting), [], [], 0.5)[0]:
                seen[s] += s.recv(65536)
                if marker in seen[s]:
                    latencies.append((time.perf_counter() - t0) * 1000)
                    waiting.discard(s)
        missed += len(waiting)
        api.getresponse().read()
        time.sleep(0.05)
    for s in socks:
        s.close()
    latencies.sort()
    return {"streams": streams, "events": events, "missed": missed,
            "p50_ms": latencies[len(latencies) // 2], "p99_ms": latencies[int(len(latencies) * 0.99) - 1],
            "max_ms": latencies[-1]}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_photos(folder: str, count: int):
    os.makedirs(folder, exist_ok=True)
    sample = os.path.join(folder, "sample.jpg")
    subprocess.run([sys.executable, os.path.join(REPO, "bench", "sample_photos.py"), "marker", sample,
                    "--width", "640", "--height", "480"], check=True)
    for i in range(count - 1):
        shutil.copyfile(sample, os.path.join(folder, "IMG_%05d.JPG" % i))


def wait_thumbnails(client, count: int, timeout: float):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        t = client.request("status").get("thumbnails") or {}
        if t.get("backlog") == 0 and t.get("ready", 0) >= count:
            return
        time.sleep(0.5)
    raise TimeoutError("thumbnails not made within %.0f s: %r" % (timeout, t))


def check(port: int, paths: list, headers: dict):
    """Every address answers 200 before anything is timed."""
    conn = http.client.HTTPConnection("127.0.0.1", port)
    for path in paths:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        body = response.read()
        if response.status != 200:
            raise RuntimeError("%s on port %d answered %d: %r" % (path, port, response.status, body[:200]))
    conn.close()


def wrk(url: str, paths: list, headers: dict, seconds: int, connections: int, scratch: str) -> dict:
    listing = os.path.join(scratch, "paths-%d.txt" % abs(hash(url)))
    with open(listing, "w") as f:
        f.write("\n".join(paths) + "\n")
    script = os.path.join(scratch, "cycle-%d.lua" % abs(hash(url)))
    with open(script, "w") as f:
        f.write("paths = {}\nfor line in io.lines(%s) do paths[#paths + 1] = line end\n" % json.dumps(listing))
        f.write("counter = math.random(#paths)\n")
        for name, value in headers.items():
            f.write("wrk.headers[%s] = %s\n" % (json.dumps(name), json.dumps(value)))
        f.write("request = function()\n  counter = counter % #paths + 1\n  return wrk.format(nil, paths[counter])\nend\n")
    out = subprocess.run(["wrk", "-t2", "-c%d" % connections, "-d%ds" % seconds, "--latency", "-s", script, url],
                         check=True, capture_output=True, text=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    latency = {}
    for pct in ("50", "99"):
        m = re.search(r"\s%s%%\s+([\d.]+)(us|ms|s)" % pct, out)
        scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[m.group(2)]
        latency[pct] = float(m.group(1)) * scale
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": rps, "p50_ms": latency["50"], "p99_ms": latency["99"], "non2xx": int(errors.group(1)) if errors else 0}


def start_nginx(root: str, port: int, scratch: str):
    conf = os.path.join(scratch, "nginx.conf")
    with open(conf, "w") as f:
        f.write("""user root;
worker_processes auto;
daemon off;
pid %(s)s/nginx.pid;
error_log %(s)s/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  keepalive_timeout 60;
  client_body_temp_path %(s)s/nginx-body;
  proxy_temp_path %(s)s/nginx-proxy;
  fastcgi_temp_path %(s)s/nginx-fastcgi;
  uwsgi_temp_path %(s)s/nginx-uwsgi;
  scgi_temp_path %(s)s/nginx-scgi;
  types { image/png png; }
  server { listen 127.0.0.1:%(p)d; root %(r)s; }
}
""" % {"s": scratch, "p": port, "r": root})
    p = procs.spawn(["nginx", "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    procs.wait_until(lambda: connectable(port), timeout=10, what="nginx to listen")
    return p


def connectable(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def rss_kib(pid: int) -> int:
    return procs.status_kb(pid, "VmRSS")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", default=os.path.join(REPO, ".build", "release"))
    p.add_argument("--photos", type=int, default=10000)
    p.add_argument("--seconds", type=int, default=10)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--connections", type=int, default=50)
    p.add_argument("--warmup", type=int, default=3, help="seconds of wrk before each measured run, not counted")
    p.add_argument("--api", type=int, default=2000)
    p.add_argument("--streams", type=int, default=100, help="event streams open for the fan-out (0: not measured)")
    p.add_argument("--events", type=int, default=50, help="events timed to every stream")
    p.add_argument("--json")
    p.add_argument("--web", help="the curatord-web binary (default: BIN/curatord-web)")
    p.add_argument("--before", help="another curatord-web binary, measured in the same rounds")
    p.add_argument("--perf", metavar="DIR", help="after the rounds, one more wrk run per gateway under `perf record -g` "
                   "of it and the daemon; the data and a report into DIR")
    args = p.parse_args()
    for tool in ("wrk", "nginx"):
        if shutil.which(tool) is None:
            sys.exit("%s is not installed (scripts/install-deps.sh)" % tool)
    procs.install_signal_handlers()
    scratch = tempfile.mkdtemp(prefix="curatord-webbench-")
    try:
        home = os.path.join(scratch, "home")
        runtime = os.path.join(scratch, "run")
        os.makedirs(runtime, mode=0o700)
        env = procs.private_env(home, runtime)
        photos = os.path.join(scratch, "photos")
        make_photos(photos, args.photos)
        # Each event stream is a daemon connection of the same user.
        daemon = Daemon(os.path.join(args.bin, "curatord"), [photos], scratch, env,
                        options={"max_clients": 512, "max_clients_per_user": max(16, args.streams + 16)}).start()
        client = daemon.connect()
        daemon.wait_scanned(client, expected_photos=args.photos)
        wait_thumbnails(client, args.photos, timeout=3600)
        ids = [ph["id"] for ph in client.request("list", fields=["id"], limit=args.photos)["photos"]]

        binary = args.web or os.path.join(args.bin, "curatord-web")
        gateways = {"curatord-web": (binary, ["--max-streams", str(max(8, args.streams))]),
                    "--keep-files 0": (binary, ["--keep-files", "0"])}
        if args.before:
            gateways["before"] = (args.before, [])
        started = {}
        for name, (binary, extra) in gateways.items():
            port = free_port()
            web = procs.spawn([binary, "--socket", daemon.socket_path, "--port", str(port), "--max-connections", "256"] + extra,
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            address = web.stdout.readline().decode().strip()
            token = address.split("token=", 1)[1]
            conn = http.client.HTTPConnection("127.0.0.1", port)
            conn.request("GET", "/login?token=" + token)
            answer = conn.getresponse()
            answer.read()
            cookie = answer.getheader("Set-Cookie").split(";", 1)[0]
            started[name] = {"web": web, "port": port, "cookie": cookie}
        time.sleep(1)
        for name, g in started.items():
            g["idle_rss"] = rss_kib(g["web"].pid)

        # Versioned addresses, as a page makes them from a listing.
        listed = client.request("list", fields=["id", "mtime_ns", "size"], limit=args.photos)["photos"]
        gateway_paths = ["/photo/%d/normal?v=%d-%d" % (ph["id"], ph["mtime_ns"], ph["size"]) for ph in listed]
        cache = os.path.join(env["XDG_CACHE_HOME"], "thumbnails")
        nginx_paths = ["/normal/" + name for name in sorted(os.listdir(os.path.join(cache, "normal")))]
        nginx_port = free_port()
        nginx = start_nginx(cache, nginx_port, scratch)

        for g in started.values():
            check(g["port"], gateway_paths, {"Cookie": g["cookie"]})
        check(nginx_port, nginx_paths, {})

        names = list(started) + ["nginx"]
        rounds = {name: [] for name in names}
        for r in range(args.rounds):
            order = names[r % len(names):] + names[:r % len(names)]
            for who in order:
                # Warm, as the issue asks: a short pass first, not counted (for nginx the
                # page cache, for the gateway its kept files, which outlive no round).
                for seconds in (args.warmup, args.seconds):
                    if seconds == 0:
                        continue
                    if who == "nginx":
                        result = wrk("http://127.0.0.1:%d" % nginx_port, nginx_paths, {}, seconds, args.connections, scratch)
                    else:
                        g = started[who]
                        result = wrk("http://127.0.0.1:%d" % g["port"], gateway_paths, {"Cookie": g["cookie"]}, seconds,
                                     args.connections, scratch)
                rounds[who].append(result)
                print("round %d %s: %s load %s" % (r + 1, who, result, os.getloadavg()), file=sys.stderr)
        for g in started.values():
            g["busy_rss"] = rss_kib(g["web"].pid)
        if args.perf:
            os.makedirs(args.perf, exist_ok=True)
            for name, g in started.items():
                data = os.path.join(args.perf, name + ".data")
                recorder = subprocess.Popen(["perf", "record", "-F", "999", "-g", "-o", data, "-p",
                                             "%d,%d" % (g["web"].pid, daemon.process.pid), "--", "sleep", str(args.seconds)],
                                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                wrk("http://127.0.0.1:%d" % g["port"], gateway_paths, {"Cookie": g["cookie"]}, args.seconds, args.connections, scratch)
                recorder.wait()
                with open(os.path.join(args.perf, name + ".txt"), "w") as out:
                    subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children", "--percent-limit", "0.7",
                                    "--sort", "comm,dso,symbol", "-g", "none"], stdout=out, stderr=subprocess.DEVNULL)

        # API round trip: select one photo, over one keep-alive connection; the
        # gateways in turn, a block of each at a time.
        api = {}
        for name, g in started.items():
            headers = {"Cookie": g["cookie"], "X-Curator": "1", "Content-Type": "application/json"}
            conn = http.client.HTTPConnection("127.0.0.1", g["port"])
            conn.request("POST", "/api/v1/mode", body=json.dumps({"mode": "select"}), headers=headers)
            conn.getresponse().read()
            g["api_conn"], g["api_headers"], g["times"] = conn, headers, []
        block = max(1, args.api // 10)
        for i in range(args.api):
            for name, g in (list(started.items()) if (i // block) % 2 == 0 else list(reversed(started.items()))):
                body = json.dumps({"ids": [ids[i % len(ids)]]})
                t0 = time.perf_counter()
                g["api_conn"].request("POST", "/api/v1/toggle", body=body, headers=g["api_headers"])
                response = g["api_conn"].getresponse()
                response.read()
                g["times"].append((time.perf_counter() - t0) * 1000)
                if response.status != 200:
                    raise RuntimeError("toggle answered %d" % response.status)
        for name, g in started.items():
            times = sorted(g["times"])
            api[name] = {"p50_ms": times[len(times) // 2], "p99_ms": times[int(len(times) * 0.99) - 1]}

        # 200 connections held open, each after one request.
        for name, g in started.items():
            held = []
            for _ in range(200):
                c = http.client.HTTPConnection("127.0.0.1", g["port"])
                c.request("GET", gateway_paths[0], headers={"Cookie": g["cookie"]})
                c.getresponse().read()
                held.append(c)
            time.sleep(1)
            g["held_rss"] = rss_kib(g["web"].pid)
            for c in held:
                c.close()

        # Last: a closed stream's connection stays suspended until its next keep-alive
        # comment shows it gone, so the 200 above would not fit after it.
        streams = fan_out(started["curatord-web"]["port"], started["curatord-web"]["cookie"], args.streams, args.events,
                          ids) if args.streams else None
        print("fan-out: %s" % streams, file=sys.stderr)

        summary = {
            "cpu": cpu_model(), "cores": os.cpu_count(), "photos": args.photos, "connections": args.connections,
            "seconds": args.seconds, "rounds": rounds, "load": os.getloadavg(),
            "nginx_rps_median": statistics.median(x["rps"] for x in rounds["nginx"]),
            "nginx_p99_ms_median": statistics.median(x["p99_ms"] for x in rounds["nginx"]),
            "gateways": {}, "fan_out": streams,
        }
        for name, g in started.items():
            rps = statistics.median(x["rps"] for x in rounds[name])
            summary["gateways"][name] = {
                "rps_median": rps, "ratio": rps / summary["nginx_rps_median"],
                "p99_ms_median": statistics.median(x["p99_ms"] for x in rounds[name]), "api": api[name],
                "rss_kib": {"idle": g["idle_rss"], "after_load": g["busy_rss"], "200_connections": g["held_rss"]},
            }
        print(json.dumps(summary, indent=1))
        if args.json:
            with open(args.json, "w") as f:
                json.dump(summary, f, indent=1)
        print("\n| | requests/s (median of %d) | ratio to nginx | p99 ms | API p50 / p99 ms | RSS idle / 200 conns, MB |" % args.rounds)
        print("|---|---|---|---|---|---|")
        for name, g in summary["gateways"].items():
            print("| %s | %.0f | %.2fx | %.2f | %.2f / %.2f | %.1f / %.1f |" % (
                name, g["rps_median"], g["ratio"], g["p99_ms_median"], g["api"]["p50_ms"], g["api"]["p99_ms"],
                g["rss_kib"]["idle"] / 1024, g["rss_kib"]["200_connections"] / 1024))
        print("| nginx-light | %.0f | 1x | %.2f | | |" % (summary["nginx_rps_median"], summary["nginx_p99_ms_median"]))
        if streams:
            print("\nAn event to %d streams (%d events): p50 %.1f ms, p99 %.1f ms, max %.1f ms, %d missed" % (
                streams["streams"], streams["events"], streams["p50_ms"], streams["p99_ms"], streams["max_ms"], streams["missed"]))
        for g in started.values():
            procs.stop(g["web"])
        procs.stop(nginx)
        daemon.stop()
    finally:
        procs.stop_all()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
