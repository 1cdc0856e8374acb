# SPDX-License-Identifier: GPL-2.0-or-later
"""Thumbnails: curatord's thumbnailer against vipsthumbnail and gdk-pixbuf-thumbnailer.

The set: camera-sized photos from bench/sample_photos.py (1000 12 MP JPEGs, one in
four turned 90 degrees by EXIF, 20 HEICs, 20 DNGs with an embedded preview; --quick:
20, 2, 2), made on the scratch filesystem and removed afterwards. Every subject makes
one 256-pixel ("large") PNG per photo, and every repetition runs curatord's
thumbnailer and then each peer, back to back, on the same files:

- curatord: the `curatord-thumbnailer` worker (built next to the curatord binary,
  `swift build -c release`), driven directly as the daemon will drive it, since the
  daemon does not run it yet: one SOCK_SEQPACKET job per photo, the photo and the
  cache directory passed as descriptors, answers read back, freedesktop thumbnails
  written and stamped. One libvips thread, at idle priority (nice 19, SCHED_IDLE),
  PNG at zlib level 1.
- vipsthumbnail: one process for the whole list (its usual use), VIPS_CONCURRENCY=1,
  its default PNG (zlib level 6), under the same nice 19 and SCHED_IDLE; on the JPEGs
  and the HEICs. It cannot read RAW files (it would thumbnail a DNG's tiny IFD0
  image): DNGs are curatord's alone.
- gdk-pixbuf-thumbnailer: one process per photo, as GNOME's thumbnail factory runs
  it, same priority. Debian's gdk-pixbuf has no HEIF or RAW loader: JPEGs only.

Thumbnails per second per core = photos / CPU seconds (user + system) of the
subject's processes: what a core buys, whatever else the shared machine runs. The
wall-clock rate is given too. Peak RSS is the worker's VmHWM over the whole set and
on one photo alone (a 12 MP JPEG, and a JPEG whose header claims 60000 x 60000,
refused before decoding). Then the contact sheet of 200 of those photos, rendered
by `curatord-thumbnailer sheet` from the thumbnails just made (a warm cache): time
to the first page and to the last.

Thumbnails do not depend on the tree: the workload measures once, at the first N.
Making the set takes a while (about 20 minutes on 2 shared cores); with
CURATORD_BENCH_SAMPLES=DIR it is made there once and kept for later runs.
"""
import hashlib
import json
import os
import resource
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse

import procs

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, HERE)
import sample_photos  # noqa: E402

KEY = "thumbs"
TITLE = "thumbnails of camera photos (12 MP JPEG, HEIC, DNG) and a contact sheet"
IDLE = ["nice", "-n", "19", "chrt", "--idle", "0"]
_measured = []  # the N at which this run measured, once


def _uri(path: str) -> str:
    return "file://" + urllib.parse.quote(path, safe="/!$&'()*+,:=@")


def _mb(kib: int) -> float:
    return kib * 1024 / 1e6


def _children_cpu():
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


class Worker:
    """curatord-thumbnailer over a SOCK_SEQPACKET socket pair, as ThumbnailerProcess runs it."""

    def __init__(self, binary: str, env: dict):
        self.parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.process = procs.spawn([binary], env=env, stdin=child.fileno(), stdout=child.fileno())
        child.close()
        self.parent.settimeout(120)
        hello = json.loads(self.parent.recv(1 << 16))
        if not hello.get("ready"):
            raise RuntimeError("curatord-thumbnailer did not start: %r" % hello)
        self.next_id = 1

    def make(self, path: str, cache_fd: int, sizes=("large",)) -> dict:
        fd = os.open(path, os.O_RDONLY)
        try:
            job = {"id": self.next_id, "uri": _uri(path), "sizes": list(sizes)}
            self.next_id += 1
            socket.send_fds(self.parent, [json.dumps(job).encode()], [fd, cache_fd])
        finally:
            os.close(fd)
        reply = self.parent.recv(1 << 16)
        if not reply:
            raise RuntimeError("curatord-thumbnailer died on %s" % path)
        return json.loads(reply)

    def cpu(self) -> float:
        return procs.cpu_seconds(self.process.pid)

    def peak_kb(self) -> int:
        return procs.status_kb(self.process.pid, "VmHWM")

    def close(self):
        self.parent.close()
        procs.stop(self.process, timeout=10)


def _fresh_dir(path: str) -> str:
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path, mode=0o700)
    return path


def _run_curatord(ctx, binary, files, cache_root):
    _fresh_dir(cache_root)
    cache_fd = os.open(cache_root, os.O_RDONLY | os.O_DIRECTORY)
    worker = Worker(binary, ctx.env)
    try:
        t0 = time.perf_counter()
        failed = []
        for path in files:
            result = worker.make(path, cache_fd)
            if result.get("status") != "written":
                failed.append("%s: %s" % (os.path.basename(path), result.get("reason") or result.get("status")))
        wall = time.perf_counter() - t0
        return wall, worker.cpu(), worker.peak_kb(), failed
    finally:
        worker.close()
        os.close(cache_fd)


def _run_vipsthumbnail(ctx, files, out_dir):
    _fresh_dir(out_dir)
    env = dict(ctx.env, VIPS_CONCURRENCY="1")
    before = _children_cpu()
    t0 = time.perf_counter()
    # In chunks, to stay clear of the argument-length limit.
    for i in range(0, len(files), 200):
        r = subprocess.run(IDLE + ["vipsthumbnail", "-s", "256", "-o", os.path.join(out_dir, "%s.png")] + files[i:i + 200],
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            raise RuntimeError("vipsthumbnail failed: %s" % r.stderr.strip()[:300])
    return time.perf_counter() - t0, _children_cpu() - before


def _run_gdk(ctx, files, out_dir):
    _fresh_dir(out_dir)
    before = _children_cpu()
    t0 = time.perf_counter()
    for i, path in enumerate(files):
        out = os.path.join(out_dir, "%d.png" % i)
        r = subprocess.run(IDLE + ["gdk-pixbuf-thumbnailer", "-s", "256", _uri(path), out], env=ctx.env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0 or not os.path.exists(out):
            raise RuntimeError("gdk-pixbuf-thumbnailer failed on %s: %s" % (path, r.stderr.strip()[:300]))
    return time.perf_counter() - t0, _children_cpu() - before


def _peak_on_one(ctx, binary, path, cache_root) -> (int, dict):
    _fresh_dir(cache_root)
    cache_fd = os.open(cache_root, os.O_RDONLY | os.O_DIRECTORY)
    worker = Worker(binary, ctx.env)
    try:
        idle = worker.peak_kb()
        result = worker.make(path, cache_fd, sizes=("normal", "large", "x-large", "xx-large"))
        return idle, worker.peak_kb(), result
    finally:
        worker.close()
        os.close(cache_fd)


def _huge_header(source: str, target: str):
    """A copy of a small JPEG whose SOF claims 60000 x 60000 pixels."""
    data = bytearray(open(source, "rb").read())
    at = 2
    while at + 9 < len(data):
        marker, length = data[at + 1], int.from_bytes(data[at + 2:at + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2):
            data[at + 5:at + 9] = (60000).to_bytes(2, "big") * 2
            break
        at += 2 + length
    with open(target, "wb") as f:
        f.write(bytes(data))


def _daemon(ctx, samples, work, limit=300, timeout=600.0):
    """The real daemon on the sample folder: its own resident memory idle (thumbnails
    off) and while its worker makes thumbnails (on, a fresh cache), and the rate of
    the background, photos made per second of wall time, until `limit` photos are done.

    Two runs of the same binary on the same index: the first with
    `"thumbnails": false` gives the idle size (after the scan and the capture times);
    the second makes them, and VmRSS of curatord itself (not the worker) is sampled
    every 100 ms."""
    from curatord_client import CuratordClient

    def run_daemon(thumbnails):
        run = _fresh_dir(os.path.join(work, "daemon-run-" + ("on" if thumbnails else "off")))
        config = os.path.join(run, "curatord.json5")
        with open(config, "w") as f:
            json.dump({"roots": [{"name": "samples", "path": samples}], "thumbnails": thumbnails,
                       "thumbnail_dir": os.path.join(work, "daemon-cache", "thumbnails")}, f)
        log = open(os.path.join(run, "curatord.log"), "ab")
        sock = os.path.join(run, "curatord.sock")
        p = procs.spawn([ctx.binary, "--config", config, "--socket", sock, "--state-dir", os.path.join(work, "daemon-state")],
                        env=ctx.env, stdout=log, stderr=log)
        log.close()
        procs.wait_until(lambda: os.path.exists(sock), timeout=60, what="the daemon's socket")
        deadline = time.monotonic() + 60
        while True:
            try:
                client = CuratordClient(sock)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.01)
        return p, client

    def settled(client):
        s = client.request("status", timeout=30)
        return not s.get("scanning") and all((r.get("capture_pending") or 0) == 0 and r.get("last_scan_ms") is not None
                                             for r in s.get("roots") or [])

    p, client = run_daemon(False)
    try:
        procs.wait_until(lambda: settled(client), timeout=timeout, interval=0.2, what="scan and capture times")
        time.sleep(2)
        idle = procs.status_kb(p.pid, "VmRSS")
    finally:
        client.close()
        procs.stop(p, timeout=30)

    _fresh_dir(os.path.join(work, "daemon-cache", "thumbnails"))
    p, client = run_daemon(True)
    try:
        procs.wait_until(lambda: settled(client), timeout=timeout, interval=0.2, what="scan and capture times")
        start = client.request("status", timeout=30)["thumbnails"]
        total = start["backlog"] + start["ready"] + start["failed"]
        cpu0, t0, peak, made = procs.cpu_seconds(p.pid), time.monotonic(), 0, 0
        while time.monotonic() - t0 < timeout:
            peak = max(peak, procs.status_kb(p.pid, "VmRSS"))
            s = client.request("status", timeout=30)["thumbnails"]
            made = s["ready"] + s["failed"] - start["ready"] - start["failed"]
            if made >= limit or s["backlog"] == 0:
                break
            time.sleep(0.1)
        wall = time.monotonic() - t0
        daemon_cpu = procs.cpu_seconds(p.pid) - cpu0
    finally:
        client.close()
        procs.stop(p, timeout=30)
    return {"idle_kb": idle, "peak_kb": peak, "made": made, "wall": wall, "daemon_cpu": daemon_cpu, "photos": total}


def _sheet(ctx, binary, photos, cache_root, work):
    """The sheet of `photos` (200) in five folders, some selected, one folder protected."""
    items = []
    per = max(1, len(photos) // 5)
    selected = 0
    for folder in range(5):
        chunk = photos[folder * per:(folder + 1) * per] if folder < 4 else photos[4 * per:]
        items.append({"folder": "2024/%02d Camera import" % (folder + 1), "count": len(chunk)})
        for path in chunk:
            position = photos.index(path) + 1
            name = hashlib.md5(_uri(path).encode()).hexdigest() + ".png"
            item = {"thumbnail": os.path.join(cache_root, "large", name), "position": position,
                    "label": os.path.basename(path), "protected": folder == 2}
            if position % 9 == 4 and folder != 2:
                selected += 1
                item["badge"] = selected
            items.append(item)
    spec = os.path.join(work, "sheet.json")
    with open(spec, "w") as f:
        json.dump(items, f)
    out = os.path.join(work, "sheet.png")
    before = _children_cpu()
    r = subprocess.run([binary, "sheet", spec, "-o", out, "--title", "bench: %d photos" % len(photos)], env=ctx.env,
                       capture_output=True, text=True)
    cpu = _children_cpu() - before
    if r.returncode != 0:
        raise RuntimeError("curatord-thumbnailer sheet failed: %s" % r.stderr.strip()[:300])
    report = json.loads(r.stdout)
    return report["first_page_ms"], report["ms"], cpu, len(report["pages"])


def run(ctx):
    r, n = ctx.results, ctx.n
    if _measured:
        r.note(KEY, n, "thumbnails do not depend on the tree: measured once, at N=%d" % _measured[0])
        return
    _measured.append(n)
    binary = os.path.join(os.path.dirname(ctx.binary), "curatord-thumbnailer")
    if not os.access(binary, os.X_OK):
        r.skip(KEY, n, "curatord", "no curatord-thumbnailer next to %s (swift build -c release)" % ctx.binary)
        return
    work = ctx.scratch.path("thumbs")
    kept = os.environ.get("CURATORD_BENCH_SAMPLES")
    samples = os.path.join(kept, "quick" if ctx.quick else "full") if kept else os.path.join(work, "samples")
    counts = (20, 2, 2) if ctx.quick else (1000, 20, 20)
    try:
        t0 = time.monotonic()
        made = sample_photos.sample_set(samples, *counts, jobs=os.cpu_count() or 1, log=ctx.log)
        ctx.log("sample photos ready in %.0f s" % (time.monotonic() - t0))
        os.sync()
        _measure(ctx, binary, made, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _measure(ctx, binary, made, work):
    r, n = ctx.results, ctx.n
    jpegs, heics, dngs = made["jpeg"], made["heic"], made["dng"]
    everything = jpegs + heics + dngs
    if not heics or not dngs:
        raise RuntimeError("the sample set has no HEIC or no DNG")
    cache = os.path.join(work, "cache", "thumbnails")
    per_core = {"curatord": [], "vipsthumbnail": [], "gdk-pixbuf-thumbnailer": []}
    wall_rate = {k: [] for k in per_core}
    heic_rate = {"curatord": [], "vipsthumbnail": []}
    dng_rate, per_core_all, peaks_jpeg, peaks_other = [], [], [], []
    for rep in range(ctx.reps):
        # curatord on the JPEGs, the HEICs and the DNGs; then each peer on what it reads.
        wall, cpu, peak, failed = _run_curatord(ctx, binary, jpegs, cache)
        if failed:
            raise RuntimeError("curatord-thumbnailer failed on %d JPEGs: %s" % (len(failed), "; ".join(failed[:3])))
        per_core["curatord"].append(len(jpegs) / cpu)
        wall_rate["curatord"].append(len(jpegs) / wall)
        peaks_jpeg.append(_mb(peak))
        cpu_all = cpu
        for kind, files, rates in (("HEIC", heics, heic_rate["curatord"]), ("DNG", dngs, dng_rate)):
            _, cpu, peak, failed = _run_curatord(ctx, binary, files, os.path.join(work, "cache-" + kind, "thumbnails"))
            if failed:
                raise RuntimeError("curatord-thumbnailer failed on %s: %s" % (kind, "; ".join(failed[:3])))
            rates.append(len(files) / cpu)
            peaks_other.append(_mb(peak))
            cpu_all += cpu
        per_core_all.append(len(everything) / cpu_all)

        wall, cpu = _run_vipsthumbnail(ctx, jpegs, os.path.join(work, "vipsthumbnail"))
        per_core["vipsthumbnail"].append(len(jpegs) / cpu)
        wall_rate["vipsthumbnail"].append(len(jpegs) / wall)
        _, cpu = _run_vipsthumbnail(ctx, heics, os.path.join(work, "vipsthumbnail-heic"))
        heic_rate["vipsthumbnail"].append(len(heics) / cpu)

        wall, cpu = _run_gdk(ctx, jpegs, os.path.join(work, "gdk"))
        per_core["gdk-pixbuf-thumbnailer"].append(len(jpegs) / cpu)
        wall_rate["gdk-pixbuf-thumbnailer"].append(len(jpegs) / wall)
        ctx.log("thumbs rep %d: JPEG curatord %.1f/s/core, vipsthumbnail %.1f/s/core, gdk-pixbuf %.1f/s/core" % (
            rep + 1, per_core["curatord"][-1], per_core["vipsthumbnail"][-1], per_core["gdk-pixbuf-thumbnailer"][-1]))

    label = "%d JPEG 12 MP" % len(jpegs)
    for subject in per_core:
        r.add(KEY, n, subject, "%s: thumbnails/s per core" % label, "/s", per_core[subject], higher_is_better=True)
    for subject in per_core:
        r.add(KEY, n, subject, "%s: thumbnails/s (wall)" % label, "/s", wall_rate[subject], higher_is_better=True)
    for subject in heic_rate:
        r.add(KEY, n, subject, "%d HEIC 12 MP: thumbnails/s per core" % len(heics), "/s", heic_rate[subject],
              higher_is_better=True)
    r.add(KEY, n, "curatord", "%d DNG (embedded preview): thumbnails/s per core" % len(dngs), "/s", dng_rate,
          higher_is_better=True)
    r.add(KEY, n, "curatord", "all %d: thumbnails/s per core" % len(everything), "/s", per_core_all, higher_is_better=True)
    r.add(KEY, n, "curatord", "worker peak RSS over the JPEGs", "MB", peaks_jpeg)
    r.add(KEY, n, "curatord", "worker peak RSS over the HEICs, DNGs", "MB", peaks_other)
    r.skip(KEY, n, "vipsthumbnail", "DNG: it reads a DNG's 160-pixel IFD0 image, not the preview; not compared")
    r.skip(KEY, n, "gdk-pixbuf-thumbnailer", "no HEIF or RAW loader in Debian's gdk-pixbuf; JPEG compared only")

    # Peak RSS on one photo, a fresh worker each.
    idle, one, result = _peak_on_one(ctx, binary, jpegs[0], os.path.join(work, "one", "thumbnails"))
    if result.get("status") != "written":
        raise RuntimeError("12 MP JPEG: %r" % result)
    small = os.path.join(work, "small.jpg")
    sample_photos.marker_jpeg(small, 600, 400)
    huge = os.path.join(work, "huge.jpg")
    _huge_header(small, huge)
    _, hostile, result = _peak_on_one(ctx, binary, huge, os.path.join(work, "two", "thumbnails"))
    if result.get("code") != "too_large":
        raise RuntimeError("60000x60000 header: %r" % result)
    r.add(KEY, n, "curatord", "worker RSS idle (VmHWM before a job)", "MB", [_mb(idle)])
    r.add(KEY, n, "curatord", "worker peak RSS, one 12 MP JPEG (4 sizes)", "MB", [_mb(one)])
    r.add(KEY, n, "curatord", "worker peak RSS, 60000x60000 header", "MB", [_mb(hostile)])

    # The contact sheet of 200 photos from the warm cache the last curatord run left.
    first, total, cpu, pages = [], [], [], 0
    photos = jpegs[:200]
    for _ in range(ctx.reps):
        f, t, c, pages = _sheet(ctx, binary, photos, cache, work)
        first.append(f)
        total.append(t)
        cpu.append(c * 1000)
    r.add(KEY, n, "curatord", "sheet of %d photos: first page" % len(photos), "ms", first)
    r.add(KEY, n, "curatord", "sheet of %d photos: all %d pages" % (len(photos), pages), "ms", total)
    r.add(KEY, n, "curatord", "sheet of %d photos: CPU" % len(photos), "ms", cpu)

    ours = r.find(KEY, n, "curatord", "%s: thumbnails/s per core" % label).median
    theirs = r.find(KEY, n, "vipsthumbnail", "%s: thumbnails/s per core" % label).median
    r.verdict(KEY, n, "per core at least as fast as vipsthumbnail", ours >= theirs,
              "%.1f vs %.1f thumbnails/s per core (x%.2f)" % (ours, theirs, ours / theirs))
    sheet_total = r.find(KEY, n, "curatord", "sheet of %d photos: all %d pages" % (len(photos), pages)).median
    r.verdict(KEY, n, "contact sheet of %d photos, warm cache, under 1 s" % len(photos),
              sheet_total < 1000 if not ctx.quick else None,
              "first page %.0f ms, all %d pages %.0f ms (CPU %.0f ms)" % (
                  r.find(KEY, n, "curatord", "sheet of %d photos: first page" % len(photos)).median, pages,
                  sheet_total, r.find(KEY, n, "curatord", "sheet of %d photos: CPU" % len(photos)).median))
    # The daemon itself: its resident memory while its worker makes the thumbnails.
    d = _daemon(ctx, os.path.dirname(jpegs[0]), work)
    r.add(KEY, n, "curatord", "daemon RSS idle, %d photos indexed (thumbnails off)" % d["photos"], "MB", [_mb(d["idle_kb"])])
    r.add(KEY, n, "curatord", "daemon peak RSS while making thumbnails (normal + large)", "MB", [_mb(d["peak_kb"])])
    r.add(KEY, n, "curatord", "daemon background: photos/s (wall, normal + large)", "/s", [d["made"] / d["wall"]],
          higher_is_better=True)
    r.add(KEY, n, "curatord", "daemon's own CPU per photo thumbnailed", "ms", [d["daemon_cpu"] * 1000 / max(1, d["made"])])
    r.verdict(KEY, n, "daemon RSS while making thumbnails within 64 MB of idle", _mb(d["peak_kb"] - d["idle_kb"]) <= 64,
              "idle %.1f MB, peak %.1f MB over %d photos" % (_mb(d["idle_kb"]), _mb(d["peak_kb"]), d["made"]))
    r.note(KEY, n, "the per-core rates drive the worker directly, one job at a time, as the daemon's ThumbnailerProcess "
                   "does; the daemon rows run the real daemon on the same folder (its worker at idle priority)")
