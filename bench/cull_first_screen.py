#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`curatorctl cull` on a large root (issue 17): the first screen, a key press, the CLI's memory.

    bench/cull_first_screen.py                       # 100 000 photos, 5 starts, release build
    bench/cull_first_screen.py --n 10000 --reps 3 --bin .build/debug
    bench/cull_first_screen.py --dir /var/tmp/cull-100k   # the tree made once, kept for later runs

What it does, in a scratch directory (removed at the end):

1. a root of N photos, 100 to a folder (`YYYY/Fnnnn/IMG_nnnnn.JPG`, tiny files: the
   index and the protocol care about names, not pixels);
2. *warm thumbnails*: the freedesktop.org `normal` thumbnail of every photo written
   straight into the private XDG cache (a 128x96 PNG carrying Thumb::URI, Thumb::MTime
   and Thumb::Size, as the thumbnailer writes them), so that the daemon finds every
   one valid and makes none; the run waits until its background pass has looked at
   them all (`status` backlog 0);
   (made once with --dir DIR and kept there for later runs);
3. curatord (release) on that root, then per repetition a private tmux server whose
   pane (200x50, TERM=xterm-256color: Unicode-block art) runs
   `curatorctl cull` with CURATORCTL_CULL_TIMING set. The shell records the
   wall-clock time just before it execs curatorctl; cull writes a line when the first
   screen is complete (every cell on it with its name and its thumbnail drawn) and one
   per key when its frame is sent, each with the peak RSS so far.
   first screen = time of that line - time before exec (process start, dynamic
   linking, connecting, the requests, drawing). Keys: l, j, PageDown x5, G, g, each
   sent once the previous one's frame came.

Prints one JSON object per repetition and a summary (median, worst); exit status 1
when a repetition timed out.
"""
import argparse
import hashlib
import json
import os
import shutil
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import zlib

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEYS = ["l", "j", "PageDown", "PageDown", "PageDown", "PageDown", "PageDown", "G", "g"]


def png(width: int, height: int, text: dict, seed: int) -> bytes:
    """An RGB PNG with a gradient (so that chafa has colours to work on) and text chunks."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            rows += bytes(((x * 2 + seed * 37) & 255, (y * 2 + seed * 11) & 255, (x + y + seed * 5) & 255))
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    for key, value in text.items():
        out += chunk(b"tEXt", key.encode() + b"\0" + value.encode())
    return out + chunk(b"IDAT", zlib.compress(bytes(rows), 1)) + chunk(b"IEND", b"")


def uri(path: str) -> str:
    return "file://" + urllib.parse.quote(path, safe="/!$&'()*+,:=@")


def make_root(root: str, cache: str, n: int) -> None:
    # Both sizes the daemon's background pass keeps of every photo (`normal`, `large`).
    sizes = {"normal": (128, 96), "large": (256, 192)}
    for size in sizes:
        os.makedirs(os.path.join(cache, "thumbnails", size), mode=0o700)
    body = b"\xff\xd8\xff\xe0" + b"\x00" * 252
    # One image per colour variant and size; only the text chunks differ between photos.
    pixels = {}
    for i in range(n):
        folder = os.path.join(root, "%d" % (2000 + i // 10000), "F%04d" % (i // 100))
        if i % 100 == 0:
            os.makedirs(folder)
        path = os.path.join(folder, "IMG_%05d.JPG" % i)
        with open(path, "wb") as f:
            f.write(body)
        st = os.stat(path)
        u = uri(path)
        text = b""
        for key, value in (("Thumb::URI", u), ("Thumb::MTime", str(int(st.st_mtime))), ("Thumb::Size", str(st.st_size))):
            kv = key.encode() + b"\0" + value.encode()
            text += struct.pack(">I", len(kv)) + b"tEXt" + kv + struct.pack(">I", zlib.crc32(b"tEXt" + kv) & 0xFFFFFFFF)
        name = hashlib.md5(u.encode()).hexdigest() + ".png"
        for size, (width, height) in sizes.items():
            key = (size, i % 16)
            if key not in pixels:
                pixels[key] = png(width, height, {}, i % 16)
            image = pixels[key]
            # The text chunks go right after IHDR (8 + 25 bytes), before IDAT, as the thumbnailer writes them.
            with open(os.path.join(cache, "thumbnails", size, name), "wb") as f:
                f.write(image[:33] + text + image[33:])


def request(sock_path: str, command: dict) -> dict:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.connect(sock_path)
        s.sendall((json.dumps(dict(command, id=1)) + "\n").encode())
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(1 << 20)
            if not chunk:
                break
            data += chunk
    answer = json.loads(data)
    if not answer.get("ok"):
        raise RuntimeError("curatord: %r" % answer)
    return answer["result"]


def wait_ready(sock_path: str, n: int, timeout: float) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            st = request(sock_path, {"cmd": "status"})
            thumbs = st.get("thumbnails", {})
            if not st["scanning"] and st["photos"] == n and thumbs.get("backlog", 1) == 0 and thumbs.get("ready", 0) >= n:
                return
        except (OSError, ValueError):
            pass
        time.sleep(0.5)
    raise RuntimeError("curatord did not index %d photos with their thumbnails in %.0f s" % (n, timeout))


def timing_lines(path: str) -> list:
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return []
    out = []
    for line in lines:
        fields = dict(part.split("=", 1) for part in line.split())
        out.append(fields)
    return out


def wait_for(predicate, timeout: float, what: str):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.005)
    raise TimeoutError(what)


def one_start(work: str, ctl: str, sock_path: str, env: dict, rep: int) -> dict:
    d = os.path.join(work, "runs", "tmux%d" % rep)
    os.makedirs(d)
    timing = os.path.join(d, "timing")
    t0 = os.path.join(d, "t0")
    script = os.path.join(d, "run.sh")
    with open(script, "w") as f:
        f.write("date +%%s%%N > %s\nCURATORCTL_CULL_TIMING=%s exec %s --socket %s cull\n" % (t0, timing, ctl, sock_path))
    tsock = os.path.join(d, "tmux.sock")
    tenv = dict(env, TERM="xterm-256color")
    tenv.pop("TMUX", None)

    def tmux(*args):
        subprocess.run(["tmux", "-S", tsock] + list(args), env=tenv, check=True, stdout=subprocess.DEVNULL)

    tmux("-f", "/dev/null", "new-session", "-d", "-x", "200", "-y", "50", "/bin/sh " + script)
    try:
        first = wait_for(lambda: [l for l in timing_lines(timing) if "first_frame_ms" in l], 30, "the first screen")[0]
        with open(t0) as f:
            start_ns = int(f.read().strip())
        result = {
            "first_screen_ms": (int(first["wall_ns"]) - start_ns) / 1e6,
            "first_frame_in_process_ms": float(first["first_frame_ms"]),
            "keys_ms": [],
        }
        for key in KEYS:
            seen = len([l for l in timing_lines(timing) if "key_ms" in l])
            tmux("send-keys", "-t", "0", key)
            wait_for(lambda: len([l for l in timing_lines(timing) if "key_ms" in l]) > seen, 10, "the frame of " + key)
            time.sleep(0.05)
        lines = timing_lines(timing)
        result["keys_ms"] = [round(float(l["key_ms"]), 1) for l in lines if "key_ms" in l]
        result["peak_rss_mb"] = max(int(l["max_rss_kb"]) for l in lines) * 1024 / 1e6
        tmux("send-keys", "-t", "0", "q")
        return result
    finally:
        subprocess.run(["tmux", "-S", tsock, "kill-server"], env=tenv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--n", type=int, default=100000)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--bin", default=os.path.join(REPO, ".build", "release"))
    p.add_argument("--dir", default=None,
                   help="make the tree (photos, thumbnails, the daemon's state) here once and keep it for later runs "
                        "(default: a scratch directory removed at the end)")
    args = p.parse_args()
    curatord = os.path.join(args.bin, "curatord")
    ctl = os.path.join(args.bin, "curatorctl")
    for path in (curatord, ctl):
        if not os.access(path, os.X_OK):
            print("%s: not built (swift build -c release)" % path, file=sys.stderr)
            return 2
    work = os.path.abspath(args.dir) if args.dir else tempfile.mkdtemp(prefix="cull-bench-")
    daemon = None
    failed = False
    try:
        home = os.path.join(work, "home")
        made = os.path.join(work, "made-%d" % args.n)
        env = dict(os.environ, HOME=home, XDG_DATA_HOME=os.path.join(home, "data"), XDG_STATE_HOME=os.path.join(home, "state"),
                   XDG_CONFIG_HOME=os.path.join(home, "config"), XDG_CACHE_HOME=os.path.join(home, "cache"),
                   XDG_RUNTIME_DIR=home)
        root = os.path.join(work, "photos")
        if not os.path.exists(made):
            if os.path.exists(home) or os.path.exists(root):
                raise SystemExit("%s holds another tree: give an empty or new --dir" % work)
            for key in ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
                os.makedirs(env[key], mode=0o700)
            t = time.time()
            make_root(root, env["XDG_CACHE_HOME"], args.n)
            open(made, "w").close()
            print("# %d photos and their thumbnails written in %.1f s" % (args.n, time.time() - t), file=sys.stderr)
        config = os.path.join(home, "curatord.json5")
        with open(config, "w") as f:
            f.write('{ roots: [{ name: "pics", path: "%s" }] }\n' % root)
        sock_path = os.path.join(home, "curatord.sock")
        daemon = subprocess.Popen([curatord, "--config", config, "--socket", sock_path, "--state-dir", env["XDG_STATE_HOME"]],
                                  env=env, stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "curatord.log"), "w"))
        t = time.time()
        wait_ready(sock_path, args.n, 900)
        print("# curatord ready in %.1f s" % (time.time() - t), file=sys.stderr)
        runs = []
        for rep in range(args.reps):
            try:
                run = one_start(work, ctl, sock_path, env, rep)
            except TimeoutError as e:
                print(json.dumps({"rep": rep, "timeout": str(e)}))
                failed = True
                continue
            run["uptime"] = open("/proc/loadavg").read().split()[:3]
            print(json.dumps(run))
            runs.append(run)
            time.sleep(0.5)
        if runs:
            firsts = [r["first_screen_ms"] for r in runs]
            keys = [k for r in runs for k in r["keys_ms"]]
            print(json.dumps({
                "n": args.n, "reps": len(runs),
                "first_screen_ms": {"median": round(statistics.median(firsts), 1), "worst": round(max(firsts), 1)},
                "key_ms": {"median": round(statistics.median(keys), 1), "worst": round(max(keys), 1)},
                "peak_rss_mb": round(max(r["peak_rss_mb"] for r in runs), 1),
            }))
    finally:
        if daemon:
            daemon.terminate()
            daemon.wait(30)
        if args.dir:
            shutil.rmtree(os.path.join(work, "runs"), ignore_errors=True)
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
