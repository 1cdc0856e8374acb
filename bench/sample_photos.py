#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Camera-like sample photos for the thumbnail tests and benchmark, made with the
`vips` command-line tool (libvips-tools) and nothing else: no Pillow.

    sample_photos.py jpeg OUT.jpg [--width 4000 --height 3000] [--orientation 6] [--date "2024:05:01 12:00:00"]
    sample_photos.py marker OUT.jpg [--width 600 --height 400] [--orientation 6]
    sample_photos.py heic OUT.heic [--width 4000 --height 3000] [--marker]
    sample_photos.py dng OUT.dng [--preview-width 1600 --preview-height 1200] [--orientation 6] [--no-preview]
                             [--raw-width 256 --raw-height 192]
    sample_photos.py set DIR [--jpeg 1000 --heic 20 --dng 20] [--jobs 2]

`jpeg` is a 12 MP camera JPEG: photo-like content (smooth colour fields, edges and
sensor-like noise, about 3-4 MB at quality 92, cut from a shared texture so that
every file differs), an EXIF block with Make, Model, Orientation and
DateTimeOriginal, pixels stored as the sensor saw them (the orientation tag says how
to turn them upright, as cameras do).

`marker` is a small picture whose top-left quarter is pure red and the rest blue,
stored so that after its EXIF orientation is applied the red quarter is top-left: a
test can tell from a thumbnail's pixels whether the rotation was applied.

`dng` is a minimal but real DNG (a TIFF): IFD0 with a small RGB thumbnail, a
16-bit Bayer raw image in a SubIFD (small: nothing reads it but a full decoder),
and in another SubIFD the embedded JPEG preview, which is what curatord's
thumbnailer must use. LibRaw opens it and finds the preview like any camera's
DNG. Its preview is the marker picture, so orientation can be checked too.

`set` makes the benchmark's set: N camera JPEGs (a few turned 90 degrees), HEICs
and DNGs, in parallel, skipping files already there.
"""
import argparse
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

VIPS = shutil.which("vips") or "/usr/bin/vips"
GENERATOR_VERSION = 2


def run(*args):
    subprocess.run([VIPS] + [str(a) for a in args], check=True, stdout=subprocess.DEVNULL)


# MARK: EXIF (TIFF structure inside an APP1 segment)

_ASCII, _SHORT, _LONG, _BYTE, _RATIONAL, _SRATIONAL = 2, 3, 4, 1, 5, 10
_SIZES = {_BYTE: 1, _ASCII: 1, _SHORT: 2, _LONG: 4, _RATIONAL: 8, _SRATIONAL: 8}


class TIFFWriter:
    """A little-endian TIFF built IFD by IFD; values longer than 4 bytes and image data
    go after the IFDs, offsets filled in at the end."""

    def __init__(self):
        self.blobs = []  # (key, bytes) placed after the IFDs, word-aligned

    @staticmethod
    def _pack(typ, values):
        if typ == _ASCII:
            data = values.encode("ascii") + b"\x00"
            return data, len(data)
        if typ == _BYTE:
            return bytes(values), len(values)
        if typ == _SHORT:
            return struct.pack("<%dH" % len(values), *values), len(values)
        if typ == _LONG:
            return struct.pack("<%dI" % len(values), *values), len(values)
        if typ in (_RATIONAL, _SRATIONAL):
            fmt = "<%d%s" % (2 * len(values), "I" if typ == _RATIONAL else "i")
            flat = [x for pair in values for x in pair]
            return struct.pack(fmt, *flat), len(values)
        raise ValueError(typ)

    @staticmethod
    def _offset_keys(values):
        """The keys of an ("offset-of", key or [keys]) value, or None for a plain value."""
        if isinstance(values, tuple) and values[0] == "offset-of":
            return values[1] if isinstance(values[1], list) else [values[1]]
        return None

    def _out_of_line(self, typ, values) -> int:
        keys = self._offset_keys(values)
        size = 4 * len(keys) if keys else len(self._pack(typ, values)[0])
        return 0 if size <= 4 else size + (size & 1)

    def build(self, ifds):
        """`ifds`: list of lists of (tag, type, values); a value may be ("offset-of", key)
        or ("offset-of", [keys]): LONGs filled with where blobs or IFDs ("ifd0", "ifd1",
        ...) land. Returns the TIFF's bytes: header, each IFD followed by its
        out-of-line values, then the blobs."""
        positions = {}
        at = 8
        for index, entries in enumerate(ifds):
            positions["ifd%d" % index] = at
            at += 2 + 12 * len(entries) + 4 + sum(self._out_of_line(t, v) for _, t, v in entries)
        for key, blob in self.blobs:
            at += at & 1
            positions[key] = at
            at += len(blob)
        out = bytearray(b"II*\x00" + struct.pack("<I", 8))
        for index, entries in enumerate(ifds):
            assert len(out) == positions["ifd%d" % index]
            data_at = len(out) + 2 + 12 * len(entries) + 4
            table = bytearray(struct.pack("<H", len(entries)))
            data = bytearray()
            for tag, typ, values in sorted(entries, key=lambda e: e[0]):
                keys = self._offset_keys(values)
                if keys:
                    typ, values = _LONG, [positions[k] for k in keys]
                packed, count = self._pack(typ, values)
                if len(packed) <= 4:
                    table += struct.pack("<HHI", tag, typ, count) + packed.ljust(4, b"\x00")
                else:
                    table += struct.pack("<HHII", tag, typ, count, data_at + len(data))
                    data += packed + (b"\x00" if len(packed) & 1 else b"")
            table += struct.pack("<I", 0)  # no next IFD: SubIFDs and the EXIF IFD are pointed at
            out += table + data
        for key, blob in self.blobs:
            if len(out) & 1:
                out += b"\x00"
            assert len(out) == positions[key], (key, len(out), positions[key])
            out += blob
        return bytes(out)


def exif_app1(orientation=1, when=None, make="CuratorCam", model="Sample 12"):
    """An APP1 `Exif` segment: IFD0 (Make, Model, Orientation, pointer) and an EXIF
    IFD with DateTimeOriginal."""
    when = when or "2024:05:01 12:00:00"
    ifd0 = [
        (0x010F, _ASCII, make),
        (0x0110, _ASCII, model),
        (0x0112, _SHORT, [orientation]),
        (0x8769, _LONG, ("offset-of", "ifd1")),
    ]
    exif = [(0x9003, _ASCII, when), (0x9004, _ASCII, when)]
    tiff = TIFFWriter().build([ifd0, exif])
    payload = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def with_exif(jpeg: bytes, app1: bytes) -> bytes:
    """The JPEG with `app1` right after SOI (and any APP0 JFIF segment)."""
    assert jpeg[:2] == b"\xff\xd8", "not a JPEG"
    at = 2
    if jpeg[2:4] == b"\xff\xe0":
        at = 4 + struct.unpack(">H", jpeg[4:6])[0]
    return jpeg[:at] + app1 + jpeg[at:]


# MARK: pixels

def texture(cache_dir: str, width=9000, height=6750, seed=1) -> str:
    """A photo-like RGB texture (a .v file, made once per size and kept in
    `cache_dir`): blurred colour noise for detail, large smooth colour fields, and
    sharp-edged shapes. Intermediate files are kept 8-bit: float ones of this size
    are hundreds of megabytes. The same seed makes the same texture: a tree made
    for a test is the same tree on every run."""
    path = os.path.join(cache_dir, "texture-v%d-%dx%d-s%d.v" % (GENERATOR_VERSION, width, height, seed))
    if os.path.exists(path):
        return path
    with tempfile.TemporaryDirectory(dir=cache_dir) as tmp:
        def t(name):
            return os.path.join(tmp, name)
        bands = []
        for i, (sigma, mean) in enumerate(((34, 120), (30, 110), (36, 100))):
            run("gaussnoise", t("f.v"), width, height, "--sigma", sigma, "--mean", mean, "--seed", seed * 16 + i)
            run("cast", t("f.v"), t("n.v"), "uchar")
            os.remove(t("f.v"))
            run("gaussblur", t("n.v"), t("b%d.v" % i), 1.1, "--precision", "integer")
            bands.append(t("b%d.v" % i))
        run("bandjoin", " ".join(bands), t("noise.v"))
        for b in bands:
            os.remove(b)
        run("linear", t("noise.v"), t("noise_w.v"), "0.55 0.55 0.55", "0 0 0", "--uchar")
        os.remove(t("noise.v"))
        # Smooth colour fields: a coarse random grid (8-bit, so that what is blown up
        # from it stays 8-bit) enlarged with a smooth kernel.
        for i in range(3):
            run("gaussnoise", t("coarse%d.v" % i), width // 250 + 2, height // 250 + 2, "--sigma", 60, "--mean", 128,
                "--seed", seed * 16 + 8 + i)
        run("bandjoin", " ".join(t("coarse%d.v" % i) for i in range(3)), t("coarse3f.v"))
        run("cast", t("coarse3f.v"), t("coarse3.v"), "uchar")
        run("resize", t("coarse3.v"), t("fields.v"), 250, "--kernel", "cubic")
        run("extract_area", t("fields.v"), t("fields_c.v"), 0, 0, width, height)
        os.remove(t("fields.v"))
        run("linear", t("fields_c.v"), t("fields_w.v"), "0.6 0.45 0.5", "0 10 20", "--uchar")
        os.remove(t("fields_c.v"))
        run("add", t("noise_w.v"), t("fields_w.v"), t("sum.v"))
        os.remove(t("noise_w.v"))
        os.remove(t("fields_w.v"))
        run("cast", t("sum.v"), t("tex.v"), "uchar")
        os.remove(t("sum.v"))
        rng = random.Random(seed * 7)
        for _ in range(max(8, width * height // 1_000_000)):
            w, h = rng.randint(80, width // 10), rng.randint(80, height // 8)
            x, y = rng.randint(0, width - w), rng.randint(0, height - h)
            ink = "%d %d %d" % (rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255))
            run("draw_rect", t("tex.v"), ink, x, y, w, h, "--fill")
        os.replace(t("tex.v"), path)
    return path


def camera_jpeg(out: str, tex: str, width=4000, height=3000, seed=0, orientation=1, when=None, quality=92):
    rng = random.Random(seed)
    w, h = (width, height)
    # The texture must hold the crop (turned for portrait sensors).
    info = subprocess.run(["vipsheader", "-f", "width", tex], capture_output=True, text=True, check=True)
    tw = int(info.stdout.strip())
    info = subprocess.run(["vipsheader", "-f", "height", tex], capture_output=True, text=True, check=True)
    th = int(info.stdout.strip())
    x, y = rng.randint(0, tw - w), rng.randint(0, th - h)
    with tempfile.NamedTemporaryFile(suffix=".jpg", dir=os.path.dirname(os.path.abspath(out))) as tmp:
        run("extract_area", tex, "%s[Q=%d,strip]" % (tmp.name, quality), x, y, w, h)
        data = open(tmp.name, "rb").read()
    if when is None:
        when = "2024:%02d:%02d %02d:%02d:%02d" % (rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23),
                                                  rng.randint(0, 59), rng.randint(0, 59))
    write_atomically(out, with_exif(data, exif_app1(orientation, when)))


# Stored pixels for each EXIF orientation such that, once turned upright, the red
# quarter is top-left. (Orientation 6: the viewer turns the stored image 90 degrees
# clockwise, so red must be stored bottom-left; 8: stored top-right; 3: bottom-right.)
_STORED_RED_CORNER = {1: "tl", 2: "tr", 3: "br", 4: "bl", 5: "tl", 6: "bl", 7: "br", 8: "tr"}


def marker_image(out_v: str, width: int, height: int, orientation: int):
    """Upright it is width x height with the red quarter top-left; stored as the
    orientation says (90-degree ones stored height x width)."""
    sw, sh = (height, width) if orientation >= 5 else (width, height)
    run("black", out_v + ".b.v", sw, sh, "--bands", 3)
    run("linear", out_v + ".b.v", out_v, "1 1 1", "20 60 200", "--uchar")
    os.remove(out_v + ".b.v")
    corner = _STORED_RED_CORNER[orientation]
    qw, qh = sw // 2, sh // 2
    x = 0 if corner in ("tl", "bl") else sw - qw
    y = 0 if corner in ("tl", "tr") else sh - qh
    run("draw_rect", out_v, "255 0 0", x, y, qw, qh, "--fill")


def marker_jpeg(out: str, width=600, height=400, orientation=1, quality=95) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        v = os.path.join(tmp, "m.v")
        marker_image(v, width, height, orientation)
        run("copy", v, os.path.join(tmp, "m.jpg[Q=%d,strip]" % quality))
        data = open(os.path.join(tmp, "m.jpg"), "rb").read()
    data = with_exif(data, exif_app1(orientation))
    if out:
        write_atomically(out, data)
    return data


def heic(out: str, tex: str = None, width=4000, height=3000, seed=0, marker=False):
    with tempfile.TemporaryDirectory(dir=os.path.dirname(os.path.abspath(out))) as tmp:
        target = os.path.join(tmp, "x.heic")
        if marker:
            v = os.path.join(tmp, "m.v")
            marker_image(v, width, height, 1)
            run("heifsave", v, target, "--Q", 60, "--compression", "hevc")
        else:
            rng = random.Random(seed)
            info = subprocess.run(["vipsheader", "-f", "width", tex], capture_output=True, text=True, check=True)
            tw = int(info.stdout.strip())
            info = subprocess.run(["vipsheader", "-f", "height", tex], capture_output=True, text=True, check=True)
            th = int(info.stdout.strip())
            x, y = rng.randint(0, tw - width), rng.randint(0, th - height)
            crop = os.path.join(tmp, "c.v")
            run("extract_area", tex, crop, x, y, width, height)
            run("heifsave", crop, target, "--Q", 50, "--compression", "hevc", "--effort", 0)
        os.replace(target, out)


# MARK: DNG

def dng(out: str, preview_width=1600, preview_height=1200, orientation=1, preview=True,
        raw_width=256, raw_height=192, when="2024:05:01 12:00:00"):
    """A DNG 1.4: IFD0 = 160x120 RGB thumbnail (NewSubFileType 1) with the camera
    tags, SubIFD 1 = the 16-bit CFA raw image, SubIFD 2 = the JPEG preview."""
    with tempfile.TemporaryDirectory() as tmp:
        # The preview, upright as marker_image draws it, stored as the orientation says.
        v = os.path.join(tmp, "p.v")
        marker_image(v, preview_width, preview_height, orientation)
        run("copy", v, os.path.join(tmp, "p.jpg[Q=90,strip]"))
        preview_jpeg = open(os.path.join(tmp, "p.jpg"), "rb").read()
        run("resize", v, os.path.join(tmp, "t.v"), 160 / max(preview_width, preview_height))
        run("copy", os.path.join(tmp, "t.v"), os.path.join(tmp, "t.raw"))
        thumb = open(os.path.join(tmp, "t.raw"), "rb").read()
        tw = int(subprocess.run(["vipsheader", "-f", "width", os.path.join(tmp, "t.v")], capture_output=True,
                                text=True, check=True).stdout)
        th = int(subprocess.run(["vipsheader", "-f", "height", os.path.join(tmp, "t.v")], capture_output=True,
                                text=True, check=True).stdout)
    assert len(thumb) == tw * th * 3
    rng = random.Random(3)
    raw = struct.pack("<%dH" % (raw_width * raw_height),
                      *[rng.randint(1000, 30000) for _ in range(raw_width * raw_height)])
    w = TIFFWriter()
    w.blobs.append(("thumb", thumb))
    w.blobs.append(("raw", raw))
    if preview:
        w.blobs.append(("preview", preview_jpeg))
    ifd0 = [
        (254, _LONG, [1]),
        (256, _LONG, [tw]), (257, _LONG, [th]),
        (258, _SHORT, [8, 8, 8]), (259, _SHORT, [1]), (262, _SHORT, [2]),
        (271, _ASCII, "CuratorCam"), (272, _ASCII, "Sample DNG"),
        (273, _LONG, ("offset-of", "thumb")), (274, _SHORT, [orientation]),
        (277, _SHORT, [3]), (278, _LONG, [th]), (279, _LONG, [len(thumb)]), (284, _SHORT, [1]),
        (306, _ASCII, when),
        (330, _LONG, ("offset-of", ["ifd1", "ifd2"] if preview else ["ifd1"])),
        (50706, _BYTE, [1, 4, 0, 0]), (50707, _BYTE, [1, 1, 0, 0]),
        (50708, _ASCII, "CuratorCam Sample DNG"),
        (50721, _SRATIONAL, [(10000, 10000), (0, 10000), (0, 10000), (0, 10000), (10000, 10000), (0, 10000),
                             (0, 10000), (0, 10000), (10000, 10000)]),
        (50778, _SHORT, [21]),
    ]
    raw_ifd = [
        (254, _LONG, [0]),
        (256, _LONG, [raw_width]), (257, _LONG, [raw_height]),
        (258, _SHORT, [16]), (259, _SHORT, [1]), (262, _SHORT, [32803]),
        (273, _LONG, ("offset-of", "raw")), (277, _SHORT, [1]), (278, _LONG, [raw_height]),
        (279, _LONG, [len(raw)]), (284, _SHORT, [1]),
        (33421, _SHORT, [2, 2]), (33422, _BYTE, [0, 1, 1, 2]),
        (50717, _LONG, [65535]),
    ]
    ifds = [ifd0, raw_ifd]
    if preview:
        sw, sh = (preview_height, preview_width) if orientation >= 5 else (preview_width, preview_height)
        ifds.append([
            (254, _LONG, [1]),
            (256, _LONG, [sw]), (257, _LONG, [sh]),
            (258, _SHORT, [8, 8, 8]), (259, _SHORT, [7]), (262, _SHORT, [6]),
            (273, _LONG, ("offset-of", "preview")), (277, _SHORT, [3]), (278, _LONG, [sh]),
            (279, _LONG, [len(preview_jpeg)]), (284, _SHORT, [1]),
        ])
    write_atomically(out, w.build(ifds))


def write_atomically(path: str, data: bytes):
    tmp = path + ".part"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


# MARK: the benchmark's set

def sample_set(directory: str, jpegs: int, heics: int, dngs: int, jobs: int, log=None, texture_dir=None) -> dict:
    """N camera JPEGs (one in four turned 90 degrees by EXIF), HEICs and DNGs in
    `directory`; files already there are kept (the set is deterministic). A small
    set is cut from a smaller texture."""
    os.makedirs(directory, exist_ok=True)
    cache = texture_dir or os.path.join(directory, ".texture")
    os.makedirs(cache, exist_ok=True)
    tex = texture(cache) if jpegs > 100 else texture(cache, 4800, 3600)
    work = []
    for i in range(jpegs):
        path = os.path.join(directory, "IMG_%04d.JPG" % (i + 1))
        orientation = {3: 6, 7: 8}.get(i % 8, 1)
        work.append((path, lambda p=path, s=i, o=orientation: camera_jpeg(p, tex, seed=s, orientation=o)))
    for i in range(heics):
        path = os.path.join(directory, "IMG_%04d.HEIC" % (5001 + i))
        work.append((path, lambda p=path, s=i: heic(p, tex, seed=10000 + s)))
    for i in range(dngs):
        path = os.path.join(directory, "DSC_%04d.DNG" % (i + 1))
        orientation = 6 if i % 4 == 3 else 1
        work.append((path, lambda p=path, o=orientation: dng(p, 1600, 1200, orientation=o)))
    todo = [(p, f) for p, f in work if not os.path.exists(p)]
    if log and todo:
        log("generating %d sample photos in %s (%d jobs)" % (len(todo), directory, jobs))
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for future in [pool.submit(f) for _, f in todo]:
            future.result()
    return {"jpeg": [p for p, _ in work[:jpegs]], "heic": [p for p, _ in work[jpegs:jpegs + heics]],
            "dng": [p for p, _ in work[jpegs + heics:]]}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 1)[1])
    sub = p.add_subparsers(dest="kind", required=True)
    j = sub.add_parser("jpeg")
    j.add_argument("out")
    j.add_argument("--width", type=int, default=4000)
    j.add_argument("--height", type=int, default=3000)
    j.add_argument("--orientation", type=int, default=1)
    j.add_argument("--date", default=None)
    j.add_argument("--seed", type=int, default=0)
    j.add_argument("--texture-cache", default=tempfile.gettempdir())
    m = sub.add_parser("marker")
    m.add_argument("out")
    m.add_argument("--width", type=int, default=600)
    m.add_argument("--height", type=int, default=400)
    m.add_argument("--orientation", type=int, default=1)
    h = sub.add_parser("heic")
    h.add_argument("out")
    h.add_argument("--width", type=int, default=4000)
    h.add_argument("--height", type=int, default=3000)
    h.add_argument("--marker", action="store_true")
    h.add_argument("--texture-cache", default=tempfile.gettempdir())
    d = sub.add_parser("dng")
    d.add_argument("out")
    d.add_argument("--preview-width", type=int, default=1600)
    d.add_argument("--preview-height", type=int, default=1200)
    d.add_argument("--orientation", type=int, default=1)
    d.add_argument("--no-preview", action="store_true")
    d.add_argument("--raw-width", type=int, default=256)
    d.add_argument("--raw-height", type=int, default=192)
    s = sub.add_parser("set")
    s.add_argument("dir")
    s.add_argument("--jpeg", type=int, default=1000)
    s.add_argument("--heic", type=int, default=20)
    s.add_argument("--dng", type=int, default=20)
    s.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = p.parse_args(argv)
    if a.kind == "jpeg":
        tex = texture(a.texture_cache, a.width + 800, a.height + 600)
        camera_jpeg(a.out, tex, a.width, a.height, a.seed, a.orientation, a.date)
    elif a.kind == "marker":
        marker_jpeg(a.out, a.width, a.height, a.orientation)
    elif a.kind == "heic":
        tex = None if a.marker else texture(a.texture_cache, a.width + 800, a.height + 600)
        heic(a.out, tex, a.width, a.height, marker=a.marker)
    elif a.kind == "dng":
        dng(a.out, a.preview_width, a.preview_height, a.orientation, preview=not a.no_preview, raw_width=a.raw_width,
            raw_height=a.raw_height)
    else:
        made = sample_set(a.dir, a.jpeg, a.heic, a.dng, a.jobs, log=lambda t: print(t, file=sys.stderr))
        print("%d JPEG, %d HEIC, %d DNG in %s" % (len(made["jpeg"]), len(made["heic"]), len(made["dng"]), a.dir))


if __name__ == "__main__":
    main()
