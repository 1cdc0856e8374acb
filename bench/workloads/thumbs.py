# SPDX-License-Identifier: GPL-2.0-or-later
"""Thumbnails: curatord against vipsthumbnail and gdk-pixbuf-thumbnailer.

The set: camera-sized photos from bench/sample_photos.py (1000 12 MP JPEGs, one in
four turned 90 degrees by EXIF, 20 HEICs, 20 DNGs with an embedded preview; --quick:
20, 2, 2), made once and kept (bench/thumb_corpus.py says where). Each repetition
(--thumbs-reps, default 2) runs the three subjects on the JPEGs at the same time
(--no-thumbs-together: one after the other, in an order that rotates from one
repetition to the next), then curatord and vipsthumbnail on the HEICs, in turns
first, and curatord on the DNGs:

- curatord: the real daemon with the JPEGs' folder as its root and a fresh thumbnail
  cache, from the end of its scan and capture times (when its background starts) to
  the last photo's thumbnails; its `curatord-thumbnailer` worker (one libvips
  thread) makes two sizes a photo, normal and large.
- vipsthumbnail: one process for the whole list (its usual use), VIPS_CONCURRENCY=1,
  256 px, its default PNG. It cannot read RAW files (it would thumbnail a DNG's tiny
  IFD0 image): DNGs are curatord's alone.
- gdk-pixbuf-thumbnailer: one process per photo, as GNOME's thumbnail factory runs
  it, 256 px. Debian's gdk-pixbuf has no HEIF or RAW loader: JPEGs only.

Priority (--thumbs-priority): curatord runs its worker at nice 19 and SCHED_IDLE,
which on a host whose cores other work keeps busy gets next to no CPU (a run at idle
priority under a load of 20 did not finish a repetition in 24 minutes). By default
the harness lifts the worker to its own priority and runs the peers at it too;
`idle` runs every subject at nice 19 and SCHED_IDLE instead.

Per core = photos / CPU seconds (user + system) of the subject's process tree (the
daemon and its worker; the peer's processes): what a core buys, whatever else the
shared machine runs, so it holds under load where wall time does not (wall rates
are given too).
The daemon's resident memory is sampled every 50 ms while it makes the JPEGs'
thumbnails, against its size with thumbnails off on the same folder. Peak RSS of the
worker on one photo alone (a 12 MP JPEG, and a JPEG whose header claims 60000 x 60000,
refused before decoding). Then the contact sheet of 200 of the photos from a warm
cache, by `curatord-thumbnailer sheet` (what `curatorctl sheet` runs): time to the
first page and to the last.

Thumbnails do not depend on the tree: the workload measures once, at the first N.
"""
import hashlib
import json
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

import procs
import stats
import thumb_corpus
from thumb_corpus import ThumbDaemon

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


def _run_daemon(ctx, work, folder, count, reps_note=None):
    """The real daemon on `folder` with a fresh thumbnail cache: from the moment its
    scan and capture times are done (when the background starts) until every photo's
    thumbnails are made. (wall s, CPU s of the daemon + its worker, daemon's peak RSS
    kB, daemon's RSS at that start kB, photos made, failures)."""
    cache = os.path.join(work, "daemon-cache", "thumbnails")
    _fresh_dir(cache)
    d = ThumbDaemon(ctx, os.path.join(work, "daemon-run"), [folder], True, cache).start()
    try:
        d.wait_settled()
        start = d.thumbnails()
        cpu0, t0, at_start = d.tree_cpu(), time.monotonic(), d.rss_kb()
        peak, made, s = at_start, 0, start
        deadline = t0 + 3600
        lift = ctx.args.thumbs_priority != "idle"
        asked = 0.0
        while time.monotonic() < deadline:
            if lift:
                _lift(d.worker_pids())
            peak = max(peak, d.rss_kb())
            # The status request costs the daemon a little CPU: once a second.
            if time.monotonic() - asked >= 1.0:
                asked = time.monotonic()
                s = d.thumbnails()
                made = s["ready"] + s["failed"] - start["ready"] - start["failed"]
                if s["backlog"] == 0 and s["ready"] + s["failed"] >= count:
                    break
            time.sleep(0.05)
        else:
            raise RuntimeError("the daemon made %d of %d thumbnails in an hour" % (made, count))
        wall, cpu = time.monotonic() - t0, d.tree_cpu() - cpu0
        peak = max(peak, d.rss_kb())
        return wall, cpu, peak, at_start, made, s["failed"]
    finally:
        d.stop()


def _daemon_idle_kb(ctx, work, folder) -> int:
    """The daemon's VmRSS on the same folder with thumbnails off, once its scan and
    capture times are done and it has sat 2 s: the size the 64 MB budget is over."""
    d = ThumbDaemon(ctx, os.path.join(work, "daemon-idle"), [folder], False,
                    os.path.join(work, "daemon-idle-cache", "thumbnails")).start()
    try:
        d.wait_settled()
        time.sleep(2)
        return d.rss_kb()
    finally:
        d.stop()


def _prefix(ctx) -> list:
    """The peers' priority: the worker's own (nice 19, SCHED_IDLE) with
    --thumbs-priority idle; else the harness's (the worker is lifted to it too)."""
    return IDLE if ctx.args.thumbs_priority == "idle" else []


def _measured_run(cmd, env, what) -> float:
    """Runs `cmd` to its end; the CPU seconds of it and its descendants (wait4's
    rusage: its own, not that of other children running at the same time)."""
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            err.seek(0)
            raise RuntimeError("%s failed (%d): %s" % (what, p.returncode, err.read().decode(errors="replace").strip()[:300]))
    return usage.ru_utime + usage.ru_stime


def _run_vipsthumbnail(ctx, files, out_dir):
    _fresh_dir(out_dir)
    env = dict(ctx.env, VIPS_CONCURRENCY="1")
    cpu, t0 = 0.0, time.perf_counter()
    # In chunks, to stay clear of the argument-length limit.
    for i in range(0, len(files), 200):
        cpu += _measured_run(_prefix(ctx) + ["vipsthumbnail", "-s", "256", "-o", os.path.join(out_dir, "%s.png")]
                             + files[i:i + 200], env, "vipsthumbnail")
    return time.perf_counter() - t0, cpu


def _run_gdk(ctx, files, out_dir):
    _fresh_dir(out_dir)
    cpu, t0 = 0.0, time.perf_counter()
    for i, path in enumerate(files):
        out = os.path.join(out_dir, "%d.png" % i)
        cpu += _measured_run(_prefix(ctx) + ["gdk-pixbuf-thumbnailer", "-s", "256", _uri(path), out], ctx.env,
                             "gdk-pixbuf-thumbnailer on %s" % path)
        if not os.path.exists(out):
            raise RuntimeError("gdk-pixbuf-thumbnailer wrote nothing for %s" % path)
    return time.perf_counter() - t0, cpu


def _lift(pids):
    """The worker (every thread) from nice 19 and SCHED_IDLE to the harness's own
    priority, as the peers run with --thumbs-priority normal."""
    for pid in pids:
        try:
            tids = [int(t) for t in os.listdir("/proc/%d/task" % pid)]
        except OSError:
            continue
        for tid in tids:
            try:
                if os.sched_getscheduler(tid) != os.SCHED_OTHER:
                    os.sched_setscheduler(tid, os.SCHED_OTHER, os.sched_param(0))
                if os.getpriority(os.PRIO_PROCESS, tid) != 0:
                    os.setpriority(os.PRIO_PROCESS, tid, 0)
            except OSError:
                pass


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
    missing = thumb_corpus.thumbnailer_missing(ctx)
    if missing:
        r.skip(KEY, n, "curatord", missing)
        return
    binary = thumb_corpus.thumbnailer(ctx)
    work = ctx.scratch.path("thumbs")
    try:
        made = thumb_corpus.corpus(ctx.quick, ctx.log, ctx.args.thumbs_set)
        _measure(ctx, binary, made, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _measure(ctx, binary, made, work):
    r, n = ctx.results, ctx.n
    jpegs, heics, dngs, dirs = made["jpeg"], made["heic"], made["dng"], made["dirs"]
    if not heics or not dngs:
        raise RuntimeError("the sample set has no HEIC or no DNG")
    reps = ctx.args.thumbs_reps
    subjects = ["curatord", "vipsthumbnail", "gdk-pixbuf-thumbnailer"]
    per_core = {k: [] for k in subjects}
    wall_rate = {k: [] for k in subjects}
    heic_rate = {"curatord": [], "vipsthumbnail": []}
    dng_rate, peaks, at_start = [], [], []
    idle_kb = _daemon_idle_kb(ctx, work, dirs["jpeg"])

    def curatord_jpegs():
        wall, cpu, peak, start_kb, count, failed = _run_daemon(ctx, work, dirs["jpeg"], len(jpegs))
        if failed:
            raise RuntimeError("curatord failed on %d of the JPEGs (log in %s)" % (failed, work))
        per_core["curatord"].append(count / cpu)
        wall_rate["curatord"].append(count / wall)
        peaks.append(peak)
        at_start.append(start_kb)

    def vips_jpegs():
        wall, cpu = _run_vipsthumbnail(ctx, jpegs, os.path.join(work, "vipsthumbnail"))
        per_core["vipsthumbnail"].append(len(jpegs) / cpu)
        wall_rate["vipsthumbnail"].append(len(jpegs) / wall)

    def gdk_jpegs():
        wall, cpu = _run_gdk(ctx, jpegs, os.path.join(work, "gdk"))
        per_core["gdk-pixbuf-thumbnailer"].append(len(jpegs) / cpu)
        wall_rate["gdk-pixbuf-thumbnailer"].append(len(jpegs) / wall)

    steps = {"curatord": curatord_jpegs, "vipsthumbnail": vips_jpegs, "gdk-pixbuf-thumbnailer": gdk_jpegs}
    for rep in range(reps):
        if ctx.args.thumbs_together:
            # All three at once, on the same files: the neighbours' load falls on each
            # alike, and a repetition takes a third of the wall time on a loaded host.
            t0, errors = time.monotonic(), []

            def guarded(step):
                try:
                    step()
                except Exception as e:  # re-raised below, in this thread
                    errors.append(e)
            threads = [threading.Thread(target=guarded, args=(steps[k],)) for k in stats.rotated(subjects, rep)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            if errors:
                raise errors[0]
            ctx.log("thumbs rep %d, together on %d JPEGs in %.0f s (load %.1f): %s" % (
                rep + 1, len(jpegs), time.monotonic() - t0, os.getloadavg()[0],
                ", ".join("%s %.1f/CPU s" % (k, per_core[k][-1]) for k in subjects)))
        else:
            for subject in stats.rotated(subjects, rep):
                t0 = time.monotonic()
                steps[subject]()
                ctx.log("thumbs rep %d: %s on %d JPEGs: %.1f per CPU s, %.1f/s wall (%.0f s, load %.1f)" % (
                    rep + 1, subject, len(jpegs), per_core[subject][-1], wall_rate[subject][-1],
                    time.monotonic() - t0, os.getloadavg()[0]))
        # The few HEICs and DNGs: curatord and vipsthumbnail back to back, in turns first.
        for first in stats.rotated(["curatord", "vipsthumbnail"], rep):
            if first == "curatord":
                _, cpu, _, _, count, failed = _run_daemon(ctx, work, dirs["heic"], len(heics))
                if failed:
                    raise RuntimeError("curatord failed on %d HEICs" % failed)
                heic_rate["curatord"].append(count / cpu)
            else:
                _, cpu = _run_vipsthumbnail(ctx, heics, os.path.join(work, "vipsthumbnail-heic"))
                heic_rate["vipsthumbnail"].append(len(heics) / cpu)
        _, cpu, _, _, count, failed = _run_daemon(ctx, work, dirs["dng"], len(dngs))
        if failed:
            raise RuntimeError("curatord failed on %d DNGs" % failed)
        dng_rate.append(count / cpu)

    label = "%d JPEG 12 MP" % len(jpegs)
    for subject in subjects:
        r.add(KEY, n, subject, "%s: thumbnails per CPU second" % label, "/s", per_core[subject],
              higher_is_better=True, interleaved=True)
    how = "all three at once" if ctx.args.thumbs_together else "one after the other"
    for subject in subjects:
        r.add(KEY, n, subject, "%s: thumbnails/s (wall, %s, %s priority)" % (label, how, ctx.args.thumbs_priority), "/s",
              wall_rate[subject], higher_is_better=True, interleaved=True)
    for subject in heic_rate:
        r.add(KEY, n, subject, "%d HEIC 12 MP: thumbnails per CPU second" % len(heics), "/s", heic_rate[subject],
              higher_is_better=True, interleaved=True)
    r.add(KEY, n, "curatord", "%d DNG (embedded preview): thumbnails per CPU second" % len(dngs), "/s", dng_rate,
          higher_is_better=True)
    r.add(KEY, n, "curatord", "daemon RSS idle, %d photos indexed (thumbnails off)" % len(jpegs), "MB", [_mb(idle_kb)])
    r.add(KEY, n, "curatord", "daemon peak RSS while making the JPEGs' thumbnails", "MB", [_mb(k) for k in peaks])
    r.skip(KEY, n, "vipsthumbnail", "DNG: it reads a DNG's 160-pixel IFD0 image, not the preview; not compared")
    r.skip(KEY, n, "gdk-pixbuf-thumbnailer", "no HEIF or RAW loader in Debian's gdk-pixbuf; JPEG compared only")

    # Peak RSS of the worker on one photo, a fresh worker each.
    cache = os.path.join(work, "cache", "thumbnails")
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

    # The contact sheet of 200 photos from a warm cache: the large thumbnails made
    # for it first (directly by the worker), then the sheet rendered `reps` times.
    photos = jpegs[:200]
    _fill_cache(ctx, binary, photos, cache)
    first, total, cpu, pages = [], [], [], 0
    for _ in range(max(3, reps)):
        f, t, c, pages = _sheet(ctx, binary, photos, cache, work)
        first.append(f)
        total.append(t)
        cpu.append(c * 1000)
    r.add(KEY, n, "curatord", "sheet of %d photos: first page" % len(photos), "ms", first)
    r.add(KEY, n, "curatord", "sheet of %d photos: all %d pages" % (len(photos), pages), "ms", total)
    r.add(KEY, n, "curatord", "sheet of %d photos: CPU" % len(photos), "ms", cpu)

    ratios = [a / b for a, b in zip(per_core["curatord"], per_core["vipsthumbnail"])]
    r.verdict(KEY, n, "per core at least as fast as vipsthumbnail (JPEG)", stats.median(ratios) >= 1.0,
              "%.1f vs %.1f thumbnails per CPU second, x%.2f %s" % (
                  stats.median(per_core["curatord"]), stats.median(per_core["vipsthumbnail"]), stats.median(ratios),
                  stats.spread(ratios)))
    over = _mb(max(peaks) - idle_kb)
    r.verdict(KEY, n, "daemon RSS while making thumbnails within 64 MB of idle", over <= 64,
              "idle %.1f MB, peak %.1f MB (+%.1f MB) over %d JPEGs" % (_mb(idle_kb), _mb(max(peaks)), over, len(jpegs)))
    first_ms = stats.median(first)
    r.verdict(KEY, n, "first contact sheet of %d photos, warm cache, under 1 s" % len(photos),
              first_ms < 1000 if not ctx.quick else None,
              "first page %.0f ms, all %d pages %.0f ms (CPU %.0f ms)" % (
                  first_ms, pages, stats.median(total), stats.median(cpu)))
    r.note(KEY, n, "curatord is the real daemon on a folder of the photos, measured from the end of its scan and "
                   "capture times to the last thumbnail: CPU of the daemon and its curatord-thumbnailer worker "
                   "(which makes two sizes, normal and large, per photo; the peers make one, 256 px); one thread each; "
                   "%s; %s; corpus made once by bench/sample_photos.py (generator version %d) and kept in %s" % (
                       "the three subjects on the JPEGs at the same time" if ctx.args.thumbs_together
                       else "the subjects one after the other, in rotating order",
                       "every subject at nice 19 and SCHED_IDLE" if ctx.args.thumbs_priority == "idle"
                       else "every subject at the harness's priority (the worker lifted from its SCHED_IDLE: at idle "
                            "priority a loaded host starves all three)",
                       sample_photos.GENERATOR_VERSION, thumb_corpus.cache_root()))


def _fill_cache(ctx, binary, photos, cache_root):
    _fresh_dir(cache_root)
    cache_fd = os.open(cache_root, os.O_RDONLY | os.O_DIRECTORY)
    worker = Worker(binary, ctx.env)
    try:
        for path in photos:
            result = worker.make(path, cache_fd)
            if result.get("status") != "written":
                raise RuntimeError("curatord-thumbnailer on %s: %r" % (path, result))
    finally:
        worker.close()
        os.close(cache_fd)
