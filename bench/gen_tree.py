#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Generates a realistic, deterministic photo tree for the benchmarks.

Layout: `YYYY/MM-event/` folders of 20-200 files (a few with a `Selects/` sub-folder),
camera and phone names (`IMG_0001.JPG`, `DSC_1234.NEF` + `.JPG` pairs with `.xmp`
sidecars, `PXL_20210714_093005123.mp4`), names with spaces and non-ASCII (and a rare
name that is not valid UTF-8, as old Samba shares have), junk (`.DS_Store`,
`Thumbs.db`), small random-content files, and about one JPEG in ten a real JPEG
with EXIF DateTimeOriginal. N counts *photo files* (what curatord indexes); sidecars and
junk come on top, and the manifest says how many. With groups (issue 15, on by default)
a RAW and its JPEG of one base name are one photo of the listing: the manifest's
`groups` is how many photos a grouping root lists, `pairs` how many of them hold more
than one photo file, `sidecars` the .xmp files (every one beside its image).

    gen_tree.py DIR --n 10000 [--seed 1] [--per-folder 100] [--writer auto|c|python]
"""
import argparse
import json
import os
import random
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import native  # noqa: E402
from jpeg_exif import jpeg_with_exif  # noqa: E402

# Mirrors the daemon's photo types (Sources/CuratorCore/Index/PhotoType.swift), so the
# manifest can say how many photos the index must end up with.
PHOTO_EXTENSIONS = {
    "jpg", "jpeg", "png", "heic", "heif", "webp", "tif", "tiff", "gif", "avif",
    "cr2", "cr3", "nef", "arw", "dng", "orf", "rw2", "raf", "mp4", "mov",
}
# The daemon's grouping places (Sources/CuratorCore/Groups/PhotoGrouping.swift).
RENDERED = {"jpg", "jpeg", "png", "heic", "heif", "webp", "tif", "tiff", "avif"}
RAW = {"cr2", "cr3", "nef", "arw", "dng", "orf", "rw2", "raf"}
CLIPS = {"mp4", "mov"}
STILLS = {"jpg", "jpeg", "heic", "heif"}
SIDECARS = {"xmp", "aae", "pp3", "dop", "thm"}

EVENTS = [
    "Birthday party", "Summer at Åre", "Noël chez mamie", "Kyoto 京都", "Wedding",
    "Hike", "Beach day", "São Paulo", "Zürich trip", "School play", "Garden",
    "Ski week", "Family dinner", "Concert", "Zoo", "Road trip", "Misc",
]
STYLES = ["iphone", "nikon_pair", "pixel", "canon", "named"]
FIRST_YEAR = 2012
# Years wrap after this one (event folders of the same month then get a number): a
# million photos would otherwise reach years whose mtimes overflow 64-bit nanoseconds.
# Trees up to about 130 000 photos never get this far and are as they always were.
LAST_YEAR = 2051


def _ext(name: bytes) -> str:
    dot = name.rfind(b".")
    return name[dot + 1:].decode("latin-1").lower() if dot > 0 else ""


def is_photo(name: bytes) -> bool:
    return _ext(name) in PHOTO_EXTENSIONS


def is_sidecar(name: bytes) -> bool:
    return _ext(name) in SIDECARS


def _fills_distinct_places(exts) -> bool:
    """Whether photos of one base name group (PhotoGrouping.fillsDistinctPlaces)."""
    if "gif" in exts:
        return False
    rendered = [e for e in exts if e in RENDERED]
    raws = sum(1 for e in exts if e in RAW)
    clips = sum(1 for e in exts if e in CLIPS)
    if len(rendered) > 1 or raws > 1 or clips > 1:
        return False
    return clips == 0 or (len(rendered) == 1 and rendered[0] in STILLS)


def count_groups(names) -> tuple:
    """(photos listed with groups on, groups of two or more photo files) in one folder:
    photos of one ASCII-case-folded base name group when they fill distinct places."""
    bases = {}
    for name in names:
        if is_photo(name):
            base = name[:name.rfind(b".")].lower()  # bytes.lower folds ASCII only, as the daemon
            bases.setdefault(base, []).append(_ext(name))
    listed = pairs = 0
    for exts in bases.values():
        if len(exts) > 1 and _fills_distinct_places(exts):
            listed += 1
            pairs += 1
        else:
            listed += len(exts)
    return listed, pairs


class Counters:
    """Per-camera file counters that wrap at 9999 like real cameras do."""

    def __init__(self):
        self.values = {}

    def next(self, camera: str) -> int:
        v = self.values.get(camera, 0) % 9999 + 1
        self.values[camera] = v
        return v


class TreeWriter:
    """Writes the files, or describes them in a plan for the C helper (`fastfiles plan`),
    which writes the same tree several times faster: a million photos is then a matter
    of seconds, not minutes of Python system calls."""

    def __init__(self, root: bytes, rng: random.Random, sink=None):
        self.root = root
        self.rng = rng
        self.sink = sink          # a binary stream taking the plan, or None: write here
        self.plan = bytearray()
        self.plan_dir = None      # the folder the plan's files go into now
        self.photos = 0
        self.others = 0
        self.bytes = 0
        self.exif = 0
        self.non_utf8 = 0
        self.groups = 0
        self.pairs = 0
        self.sidecars = 0
        self.directories = 0
        self.folders = []

    def mkdir(self, rel: bytes):
        if self.sink is None:
            os.makedirs(os.path.join(self.root, rel), exist_ok=True)
        else:
            self._enter(rel)
        self.directories += 1
        self.folders.append(rel)

    def write(self, rel_dir: bytes, name: bytes, data: bytes, mtime_ns: int):
        if self.sink is None:
            path = os.path.join(self.root, rel_dir, name)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            try:
                os.write(fd, data)
            finally:
                os.close(fd)
            # mtime = shooting time: what a camera import leaves behind.
            os.utime(path, ns=(mtime_ns, mtime_ns))
        else:
            if rel_dir != self.plan_dir:
                self._enter(rel_dir)
            self.plan += b"F" + struct.pack("<I", len(name)) + name + struct.pack("<qI", mtime_ns, len(data)) + data
            if len(self.plan) >= 1 << 20:
                self.flush()
        self.bytes += len(data)
        if is_photo(name):
            self.photos += 1
        else:
            self.others += 1
            self.sidecars += is_sidecar(name)

    def _enter(self, rel: bytes):
        self.plan += b"D" + struct.pack("<I", len(rel)) + rel
        self.plan_dir = rel

    def flush(self):
        if self.sink is not None and self.plan:
            self.sink.write(self.plan)
            self.plan.clear()

    def content(self, name: bytes, when) -> bytes:
        lower = name.lower()
        if (lower.endswith(b".jpg") or lower.endswith(b".jpeg")) and self.rng.random() < 0.1:
            self.exif += 1
            return jpeg_with_exif(*when)
        # Small files: the index cares about names and stat, not bytes.
        return self.rng.randbytes(self.rng.choice((0, 64, 300, 800, 1500, 2048)))


def _when(rng, year, month):
    return (year, month, rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59))


def _epoch_ns(when) -> int:
    import calendar
    return calendar.timegm((when[0], when[1], when[2], when[3], when[4], when[5], 0, 0, 0)) * 1_000_000_000


def _names_for(style: str, count: int, rng, counters: Counters, when, photos_left: int):
    """Yields (name, is_photo) for one folder of `style`, photos first-class, extras after."""
    out = []
    photos = 0
    i = 0
    while photos < min(count, photos_left) and i < 10 * count:
        i += 1
        if style == "iphone":
            c = counters.next("iphone")
            ext = rng.choices(["JPG", "HEIC", "MOV", "PNG"], [70, 20, 5, 5])[0]
            out.append(("IMG_%04d.%s" % (c, ext)).encode())
            photos += 1
        elif style == "nikon_pair":
            c = counters.next("nikon")
            out.append(b"DSC_%04d.NEF" % c)
            photos += 1
            if photos < min(count, photos_left):
                out.append(b"DSC_%04d.JPG" % c)
                photos += 1
            if rng.random() < 0.5:
                out.append(b"DSC_%04d.NEF.xmp" % c)
        elif style == "pixel":
            stamp = "%04d%02d%02d_%02d%02d%02d%03d" % (when[0], when[1], when[2], rng.randint(0, 23),
                                                     rng.randint(0, 59), rng.randint(0, 59), i % 1000)
            ext = "mp4" if rng.random() < 0.1 else "jpg"
            out.append(("PXL_%s.%s" % (stamp, ext)).encode())
            photos += 1
        elif style == "canon":
            c = counters.next("canon")
            out.append(b"IMG_%04d.CR2" % c)
            photos += 1
            if rng.random() < 0.3:
                out.append(b"IMG_%04d.xmp" % c)
        else:
            pattern = rng.choice(["Grand-mère à la plage %d.jpg", "photo %d (copy).jpeg", "Ölmühle %d.png",
                                  "Screenshot 2020-01-%02d at 10.00.00.png", "scan %d.tif", "かぞく %d.jpg"])
            out.append((pattern % i).encode())
            photos += 1
            if rng.random() < 0.02:
                # Latin-1 from an old share: not valid UTF-8, must still be indexed.
                out.append(b"caf\xe9 %d.jpg" % i)
                photos += 1
    return out


def generate(root: str, n_photos: int, seed: int = 1, per_folder: int = None, writer: str = "auto") -> dict:
    """Writes the tree under `root` (created if needed) and returns its manifest.

    `per_folder`: photos in each event folder (default: 20 to 200, and some `Selects/`
    sub-folders); a fixed number gives the issue's "N photos, 100 a folder" trees.
    `writer`: "c" (the C helper), "python", or "auto" (C when it can be built). Both
    write the same tree for the same seed."""
    helper = native.fastfiles() if writer in ("auto", "c") else None
    if writer == "c" and helper is None:
        raise RuntimeError("the C tree writer is not available: %s" % native.why_not())
    root_b = os.fsencode(root)
    os.makedirs(root_b, exist_ok=True)
    if helper is None:
        w = _lay_out(TreeWriter(root_b, random.Random(seed)), n_photos, per_folder)
        how = "python" + (" (%s)" % native.why_not() if writer == "auto" else "")
    else:
        proc = subprocess.Popen([helper, "plan", root_b], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        try:
            w = _lay_out(TreeWriter(root_b, random.Random(seed), sink=proc.stdin), n_photos, per_folder)
            w.flush()
        except BrokenPipeError:
            pass  # the helper failed: its message is read below
        finally:
            try:
                proc.stdin.close()
            except BrokenPipeError:
                pass
        err = proc.stderr.read()
        proc.stdout.read()
        if proc.wait() != 0:
            raise RuntimeError("fastfiles plan %s failed (%d): %s" % (root, proc.returncode, err.decode(errors="replace")))
        how = "c"
    return {
        "root": root,
        "seed": seed,
        "per_folder": per_folder,
        "writer": how,
        "photos": w.photos,
        "groups": w.groups,
        "pairs": w.pairs,
        "sidecars": w.sidecars,
        "other_files": w.others,
        "directories": w.directories,
        "bytes": w.bytes,
        "exif_jpegs": w.exif,
        "non_utf8_names": w.non_utf8,
        "folders": [f.decode("utf-8", "surrogateescape") for f in w.folders],
    }


def _lay_out(w: TreeWriter, n_photos: int, per_folder) -> TreeWriter:
    rng = w.rng
    counters = Counters()
    year, month = FIRST_YEAR, 1
    used = set()
    guard = 0
    while w.photos < n_photos and guard < n_photos + 1000:
        guard += 1
        event = rng.choice(EVENTS)
        rel = ("%04d/%02d-%s" % (year, month, event)).encode()
        k = 2
        while rel in used:
            rel = ("%04d/%02d-%s %d" % (year, month, event, k)).encode()
            k += 1
        used.add(rel)
        if rng.random() < 0.4:
            month += 1
            if month > 12:
                month, year = 1, year + 1
                if year > LAST_YEAR:
                    year = FIRST_YEAR
        w.mkdir(rel)
        style = rng.choice(STYLES)
        when = _when(rng, year, month)
        size = rng.randint(20, 200) if per_folder is None else per_folder
        _fill(w, rel, _names_for(style, size, rng, counters, when, n_photos - w.photos), when)
        if per_folder is None and rng.random() < 0.08 and w.photos < n_photos:
            sub = rel + b"/Selects"
            w.mkdir(sub)
            names = _names_for("iphone", rng.randint(20, 40), rng, counters, when, n_photos - w.photos)
            _fill(w, sub, names, when)
        # Junk the file managers of other systems leave behind.
        if rng.random() < 0.3:
            w.write(rel, b".DS_Store", rng.randbytes(6148 // 8), _epoch_ns(when))
        if rng.random() < 0.1:
            w.write(rel, b"Thumbs.db", rng.randbytes(512), _epoch_ns(when))
    return w


def _fill(w: TreeWriter, rel: bytes, names, when):
    base = _epoch_ns(when)
    listed, pairs = count_groups(names)
    w.groups += listed
    w.pairs += pairs
    for i, name in enumerate(names):
        try:
            name.decode("utf-8")
        except UnicodeDecodeError:
            w.non_utf8 += 1
        w.write(rel, name, w.content(name, when), base + i * 2_000_000_000)


def make_batch(directory: str, count: int, seed: int = 7, per_folder: int = 100, groups: bool = False) -> list:
    """`count` photos in folders of `per_folder`, for trash workloads: the paths of
    every file written.

    With `groups`, the photos are shots as a RAW+JPEG shooter leaves them: every third
    a pair (`IMG_000003.JPG` + `IMG_000003.NEF`), every sixth with its `.xmp` too, so
    that 10 000 photos are 15 001 files. Names are unique across the batch and
    fixed-width, so that moving them into one folder never collides and no name is a
    prefix of another (trash-restore matches original paths by prefix: hence the
    shot's `IMG_000006.xmp`, not `IMG_000006.NEF.xmp`).
    """
    rng = random.Random(seed)
    paths = []
    directory_b = os.fsencode(directory)
    for start in range(0, count, per_folder):
        folder = os.path.join(directory_b, b"part-%03d" % (start // per_folder))
        os.makedirs(folder, exist_ok=True)
        for i in range(start, min(start + per_folder, count)):
            path = os.path.join(folder, b"IMG_%06d.JPG" % i)
            with open(path, "wb") as f:
                if i % 10 == 0:
                    f.write(jpeg_with_exif(2023, 5, 1 + i % 28, 12, i % 60, 0))
                else:
                    f.write(rng.randbytes(800))
            paths.append(path)
            if groups and i % 3 == 0:
                for ext, size in ((b"NEF", 4000),) + (((b"xmp", 300),) if i % 6 == 0 else ()):
                    extra = os.path.join(folder, b"IMG_%06d.%s" % (i, ext))
                    with open(extra, "wb") as f:
                        f.write(rng.randbytes(size))
                    paths.append(extra)
    return paths


def batch_files(count: int, groups: bool) -> int:
    """How many files make_batch writes for `count` photos."""
    return count + ((count + 2) // 3 + (count + 5) // 6 if groups else 0)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dir")
    p.add_argument("--n", type=int, default=10000, help="number of photos")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--per-folder", type=int, default=None, help="photos per folder (default 20 to 200)")
    p.add_argument("--writer", choices=("auto", "c", "python"), default="auto")
    args = p.parse_args(argv)
    manifest = generate(args.dir, args.n, args.seed, args.per_folder, args.writer)
    manifest.pop("folders")
    json.dump(manifest, sys.stdout, ensure_ascii=False, indent=1)
    print()


if __name__ == "__main__":
    main()
