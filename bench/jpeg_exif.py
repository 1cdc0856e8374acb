# SPDX-License-Identifier: GPL-2.0-or-later
"""Tiny but valid JPEG files carrying an EXIF DateTimeOriginal, built byte by byte.

The daemon reads capture times with libexif, so the benchmark tree needs real
JPEGs whose APP1 segment parses; the image itself is one 8x8 grey block (the
smallest baseline JPEG a decoder accepts), which keeps 100 000 files cheap.
"""
import struct

_SOI = b"\xff\xd8"
_EOI = b"\xff\xd9"

# TIFF tag numbers and types used below (EXIF 2.3, section 4.6).
_TAG_MAKE = 0x010F
_TAG_MODEL = 0x0110
_TAG_EXIF_IFD = 0x8769
_TAG_DATETIME_ORIGINAL = 0x9003
_ASCII = 2
_LONG = 4


def _segment(marker: int, payload: bytes) -> bytes:
    # The length field counts itself (2 bytes) but not the marker.
    return struct.pack(">BBH", 0xFF, marker, len(payload) + 2) + payload


def _ascii(text: str) -> bytes:
    return text.encode("ascii") + b"\x00"


def _exif_app1(when: str, make: str, model: str) -> bytes:
    """An APP1 'Exif' segment: IFD0 (Make, Model, pointer) -> Exif IFD (DateTimeOriginal).

    Little-endian TIFF; every offset is from the start of the TIFF header.
    """
    make_b, model_b, when_b = _ascii(make), _ascii(model), _ascii(when)
    ifd0_at = 8
    ifd0_entries = 3
    ifd0_size = 2 + 12 * ifd0_entries + 4
    exif_at = ifd0_at + ifd0_size
    exif_entries = 1
    exif_size = 2 + 12 * exif_entries + 4
    data_at = exif_at + exif_size
    make_at = data_at
    model_at = make_at + len(make_b)
    when_at = model_at + len(model_b)

    def entry(tag, typ, count, value_or_offset):
        return struct.pack("<HHII", tag, typ, count, value_or_offset)

    tiff = b"II*\x00" + struct.pack("<I", ifd0_at)
    tiff += struct.pack("<H", ifd0_entries)
    # Entries must be sorted by tag number.
    tiff += entry(_TAG_MAKE, _ASCII, len(make_b), make_at)
    tiff += entry(_TAG_MODEL, _ASCII, len(model_b), model_at)
    tiff += entry(_TAG_EXIF_IFD, _LONG, 1, exif_at)
    tiff += struct.pack("<I", 0)  # no IFD1
    tiff += struct.pack("<H", exif_entries)
    tiff += entry(_TAG_DATETIME_ORIGINAL, _ASCII, len(when_b), when_at)
    tiff += struct.pack("<I", 0)
    tiff += make_b + model_b + when_b
    return _segment(0xE1, b"Exif\x00\x00" + tiff)


def _grey_block() -> bytes:
    """DQT, SOF0, DHT x2, SOS and the entropy-coded data of one 8x8 grey block."""
    dqt = _segment(0xDB, b"\x00" + bytes([1] * 64))
    # 8x8 pixels, one component (id 1, no subsampling, table 0).
    sof0 = _segment(0xC0, struct.pack(">BHHB", 8, 8, 8, 1) + b"\x01\x11\x00")
    # One 1-bit code per table: DC symbol 0 (difference 0), AC symbol 0 (EOB).
    counts = bytes([1] + [0] * 15)
    dht_dc = _segment(0xC4, b"\x00" + counts + b"\x00")
    dht_ac = _segment(0xC4, b"\x10" + counts + b"\x00")
    sos = _segment(0xDA, b"\x01" + b"\x01\x00" + b"\x00\x3f\x00")
    # Bits "0" (DC diff 0) and "0" (EOB), padded with ones.
    scan = b"\x3f"
    return dqt + sof0 + dht_dc + dht_ac + sos + scan


_BLOCK = _grey_block()


def jpeg_with_exif(year: int, month: int, day: int, hour: int, minute: int, second: int,
                   make: str = "NIKON CORPORATION", model: str = "NIKON D750") -> bytes:
    when = "%04d:%02d:%02d %02d:%02d:%02d" % (year, month, day, hour, minute, second)
    return _SOI + _exif_app1(when, make, model) + _BLOCK + _EOI


def read_datetime_original(data: bytes):
    """The DateTimeOriginal text of a JPEG made by `jpeg_with_exif` (a self-check, not a parser)."""
    at = data.find(b"Exif\x00\x00")
    if at < 0:
        return None
    tiff = data[at + 6:]
    ifd0 = struct.unpack_from("<I", tiff, 4)[0]
    for i in range(struct.unpack_from("<H", tiff, ifd0)[0]):
        tag, _, _, value = struct.unpack_from("<HHII", tiff, ifd0 + 2 + 12 * i)
        if tag == _TAG_EXIF_IFD:
            for j in range(struct.unpack_from("<H", tiff, value)[0]):
                t2, _, count, off = struct.unpack_from("<HHII", tiff, value + 2 + 12 * j)
                if t2 == _TAG_DATETIME_ORIGINAL:
                    return tiff[off:off + count - 1].decode("ascii")
    return None


if __name__ == "__main__":
    import sys
    blob = jpeg_with_exif(2021, 7, 14, 9, 30, 5)
    assert read_datetime_original(blob) == "2021:07:14 09:30:05"
    sys.stdout.buffer.write(blob)
