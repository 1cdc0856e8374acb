#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write a folder of small, real sample photos for curatord's quick start and tests.

Usage: make-sample-photos.py DIR [--count N] [--seed S] [--manifest FILE]

Every JPEG is a valid baseline JPEG of a few hundred bytes (one grey 8x8 block)
with an APP1 EXIF segment holding DateTimeOriginal; a comment segment makes
each file different. Beside them: PNGs, a RAW+JPEG pair with an .xmp sidecar,
names with spaces, non-ASCII and non-UTF-8 bytes, JPEGs without a usable date,
and the junk a real share collects (.DS_Store, Thumbs.db, AppleDouble files,
Synology @eaDir thumbnails). The output depends only on the arguments.

--manifest writes JSON describing each file (path, type, the capture time it
carries), so tests can check what the daemon reads back.

Python 3 standard library only.
"""

import argparse
import base64
import calendar
import json
import os
import random
import struct
import sys
import zlib

# EXIF tags written here.
TAG_MAKE = 0x010F
TAG_MODEL = 0x0110
TAG_DATE_TIME = 0x0132
TAG_EXIF_IFD = 0x8769
TAG_DATE_TIME_ORIGINAL = 0x9003
TAG_DATE_TIME_DIGITIZED = 0x9004

TYPE_ASCII = 2
TYPE_LONG = 4

EVENTS = [
    ("2023", "12-christmas", 2023, 12),
    ("2024", "05-beach", 2024, 5),
    ("2024", "08-mountains", 2024, 8),
    ("2025", "01-snow", 2025, 1),
]


def exif_date(t):
    """(y, m, d, H, M, S) as EXIF writes it."""
    return "%04d:%02d:%02d %02d:%02d:%02d" % t


def wire_date(t):
    """(y, m, d, H, M, S) as curatord reports it."""
    return "%04d-%02d-%02dT%02d:%02d:%02d" % t


def tiff_block(primary, exif, big_endian=False):
    """A TIFF structure: IFD0 with `primary` ASCII tags and, when `exif` is not
    empty, a pointer to an EXIF IFD with those. Tags are {tag: bytes}."""
    order = ">" if big_endian else "<"
    out = bytearray(b"MM\x00\x2a" if big_endian else b"II\x2a\x00")
    out += struct.pack(order + "I", 8)

    def ifd_size(count, values):
        data = sum((len(v) + 1 + 1) // 2 * 2 for v in values if len(v) + 1 > 4)
        return 2 + 12 * count + 4 + data

    def ifd(entries, offset):
        # entries: list of (tag, type, count, value bytes), sorted by tag
        entries = sorted(entries)
        table = bytearray(struct.pack(order + "H", len(entries)))
        data = bytearray()
        data_offset = offset + 2 + 12 * len(entries) + 4
        for tag, kind, count, value in entries:
            table += struct.pack(order + "HHI", tag, kind, count)
            if len(value) <= 4:
                table += value + b"\x00" * (4 - len(value))
            else:
                table += struct.pack(order + "I", data_offset)
                if len(value) % 2:
                    value += b"\x00"  # values start on word boundaries
                data += value
                data_offset += len(value)
        table += struct.pack(order + "I", 0)  # no next IFD
        return bytes(table + data)

    primary_entries = [(tag, TYPE_ASCII, len(v) + 1, v + b"\x00") for tag, v in primary.items()]
    exif_offset = 8 + ifd_size(len(primary_entries) + (1 if exif else 0), list(primary.values()))
    if exif:
        primary_entries.append((TAG_EXIF_IFD, TYPE_LONG, 1, struct.pack(order + "I", exif_offset)))
    out += ifd(primary_entries, 8)
    if exif:
        out += ifd([(tag, TYPE_ASCII, len(v) + 1, v + b"\x00") for tag, v in exif.items()], exif_offset)
    return bytes(out)


def camera_tiff(date, big_endian=False):
    """The EXIF a camera writes: make, model and the three dates (all the same)."""
    text = exif_date(date).encode("ascii") if isinstance(date, tuple) else date
    return tiff_block(
        {TAG_MAKE: b"CuratorSample", TAG_MODEL: b"Sample-1", TAG_DATE_TIME: text},
        {TAG_DATE_TIME_ORIGINAL: text, TAG_DATE_TIME_DIGITIZED: text},
        big_endian,
    )


def segment(marker, payload):
    assert len(payload) + 2 <= 0xFFFF
    return struct.pack(">BBH", 0xFF, marker, len(payload) + 2) + payload


# One grey 8x8 block, baseline: quantisation table of ones, a frame of one
# component, and Huffman tables with a single 1-bit code each (DC category 0,
# AC end-of-block), so the entropy-coded data is "0", "0" padded with ones.
JPEG_IMAGE = (
    segment(0xDB, b"\x00" + b"\x01" * 64)
    + segment(0xC0, bytes([8, 0, 8, 0, 8, 1, 1, 0x11, 0]))
    + segment(0xC4, bytes([0x00, 1] + [0] * 15 + [0x00]))
    + segment(0xC4, bytes([0x10, 1] + [0] * 15 + [0x00]))
    + segment(0xDA, bytes([1, 1, 0x00, 0, 63, 0]))
    + bytes([0b00111111])
    + b"\xff\xd9"
)


def jpeg(tiff, comment):
    """A JPEG with `tiff` in an APP1 EXIF segment (none when tiff is None)."""
    out = b"\xff\xd8"
    if tiff is not None:
        out += segment(0xE1, b"Exif\x00\x00" + tiff)
    out += segment(0xFE, comment.encode("utf-8"))
    return out + JPEG_IMAGE


def png(rgb):
    """A valid 1x1 RGB PNG."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00" + bytes(rgb))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def fake_nef(date, rng):
    """Not a real NEF, but TIFF-shaped like one: the EXIF at the start, then noise."""
    return camera_tiff(date) + rng.randbytes(2048)


def xmp_sidecar(date, rating):
    return (
        '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/">\n'
        ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
        '  <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"\n'
        '    xmlns:exif="http://ns.adobe.com/exif/1.0/"\n'
        '    xmp:Rating="%d" exif:DateTimeOriginal="%s"/>\n'
        " </rdf:RDF>\n"
        "</x:xmpmeta>\n"
        '<?xpacket end="w"?>\n' % (rating, wire_date(date))
    ).encode("utf-8")


def random_times(rng, year, month, count):
    """`count` sorted capture times within one month, as cameras number them."""
    days = calendar.monthrange(year, month)[1]
    seconds = sorted(rng.randrange(days * 86400) for _ in range(count))
    return [
        (year, month, 1 + s // 86400, s % 86400 // 3600, s % 3600 // 60, s % 60)
        for s in seconds
    ]


class Writer:
    def __init__(self, root):
        self.root = os.fsencode(root)
        self.entries = []

    def write(self, relpath, data, kind, photo_type=None, capture=None, mtime=None):
        """relpath is str or bytes (for names that are not UTF-8)."""
        rel = relpath if isinstance(relpath, bytes) else relpath.encode("utf-8")
        path = os.path.join(self.root, rel)
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
        except OSError as error:
            # Some filesystems refuse names that are not UTF-8: skip that one file.
            if isinstance(relpath, bytes):
                print("make-sample-photos: skipped %r: %s" % (relpath, error.strerror), file=sys.stderr)
                return
            raise
        if mtime is None:
            mtime = capture or (2024, 1, 1, 12, 0, 0)
        stamp = calendar.timegm(mtime)
        os.utime(path, (stamp, stamp))
        try:
            text = rel.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        self.entries.append({
            "path": text,
            "path_base64": base64.b64encode(rel).decode("ascii"),
            "kind": kind,
            "type": photo_type,
            "capture": wire_date(capture) if capture else None,
        })


def generate(root, count, seed):
    rng = random.Random(seed)
    out = Writer(root)

    def photo(relpath, date, big_endian=False):
        data = jpeg(camera_tiff(date, big_endian), "curatord sample %s seed %d" % (relpath, seed))
        out.write(relpath, data, "photo", "jpeg", date)

    # Camera JPEGs, spread over the events, numbered in capture order.
    per_event = [count // len(EVENTS) + (1 if i < count % len(EVENTS) else 0) for i in range(len(EVENTS))]
    number = 1
    for (year_dir, event, year, month), n in zip(EVENTS, per_event):
        for date in random_times(rng, year, month, n):
            photo("%s/%s/IMG_%04d.JPG" % (year_dir, event, number), date, big_endian=number % 5 == 0)
            number += 1

    beach = random_times(rng, 2024, 5, 3)
    photo("2024/05-beach/Beach day 1.jpg", beach[0])
    photo("2024/05-beach/Été à Nice.jpg", beach[1])
    # Latin-1 "café": a name that is not UTF-8, as old cameras and shares produce.
    out.write(b"unsorted/caf\xe9.jpg", jpeg(camera_tiff(beach[2]), "latin-1 name"), "photo", "jpeg", beach[2])

    # A RAW+JPEG pair and the editor's sidecar.
    raw_date = random_times(rng, 2024, 8, 1)[0]
    out.write("2024/08-mountains/DSC_1234.NEF", fake_nef(raw_date, rng), "photo", "nef", raw_date)
    photo("2024/08-mountains/DSC_1234.JPG", raw_date)
    out.write("2024/08-mountains/DSC_1234.xmp", xmp_sidecar(raw_date, 4), "sidecar", mtime=raw_date)

    # PNGs carry no EXIF: indexed without a capture time.
    for relpath in ["2024/05-beach/Screenshot_20240503.png", "2023/12-christmas/card.png", "unsorted/diagram.png"]:
        out.write(relpath, png([rng.randrange(256) for _ in range(3)]), "photo", "png")

    # JPEGs without a usable date.
    out.write("unsorted/no-exif.jpg", jpeg(None, "no exif"), "photo", "jpeg")
    out.write("unsorted/clock-not-set.jpg", jpeg(camera_tiff(b"0000:00:00 00:00:00"), "clock not set"),
              "photo", "jpeg")

    # Junk that must not be indexed.
    out.write(".DS_Store", b"\x00\x00\x00\x01Bud1" + rng.randbytes(64), "junk")
    out.write("2024/05-beach/.DS_Store", b"\x00\x00\x00\x01Bud1" + rng.randbytes(64), "junk")
    out.write("2023/12-christmas/Thumbs.db", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + rng.randbytes(64), "junk")
    out.write("2024/05-beach/._IMG_0007.JPG", b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        ", "junk")
    out.write("2024/05-beach/@eaDir/IMG_0007.JPG/SYNOFILE_THUMB_M.jpg",
              jpeg(camera_tiff(beach[0]), "synology thumbnail"), "junk")
    return out.entries


def main():
    parser = argparse.ArgumentParser(description="Write small, real sample photos for curatord.")
    parser.add_argument("dir", help="folder to write into (created if missing)")
    parser.add_argument("--count", type=int, default=24, help="number of camera JPEGs (default 24)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--manifest", help="write a JSON description of the files here")
    args = parser.parse_args()
    if args.count < 0:
        parser.error("--count must not be negative")
    if os.path.exists(args.dir) and not os.path.isdir(args.dir):
        parser.error("%s exists and is not a folder" % args.dir)

    entries = generate(args.dir, args.count, args.seed)
    if args.manifest:
        with open(args.manifest, "w", encoding="utf-8") as f:
            json.dump({"seed": args.seed, "files": entries}, f, indent=1, ensure_ascii=False)
            f.write("\n")
    photos = sum(1 for e in entries if e["kind"] == "photo")
    print("wrote %d files (%d photos) to %s" % (len(entries), photos, args.dir))


if __name__ == "__main__":
    main()
