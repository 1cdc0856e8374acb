# SPDX-License-Identifier: GPL-2.0-or-later
"""BSER v1, watchman's binary encoding, written from its published description.

Why not JSON: watchman 4.9 drops the whole answer of a query (no response on the
JSON socket, exit 1 from `watchman -j`) as soon as one file name is not valid UTF-8,
and the benchmark tree has such names. BSER strings are bytes, so it answers; it is
also the encoding watchman's own CLI uses, so it is the peer's best case.
"""
import struct

_ARRAY, _OBJECT, _STRING = 0x00, 0x01, 0x02
_INT8, _INT16, _INT32, _INT64 = 0x03, 0x04, 0x05, 0x06
_REAL, _TRUE, _FALSE, _NULL, _TEMPLATE, _SKIP = 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C
_UTF8 = 0x0D  # BSER v2 only; accepted when decoding

MAGIC = b"\x00\x01"


def _int(n: int) -> bytes:
    if -0x80 <= n <= 0x7F:
        return struct.pack("=Bb", _INT8, n)
    if -0x8000 <= n <= 0x7FFF:
        return struct.pack("=Bh", _INT16, n)
    if -0x80000000 <= n <= 0x7FFFFFFF:
        return struct.pack("=Bi", _INT32, n)
    return struct.pack("=Bq", _INT64, n)


def _encode(value, out: bytearray):
    if value is None:
        out.append(_NULL)
    elif value is True:
        out.append(_TRUE)
    elif value is False:
        out.append(_FALSE)
    elif isinstance(value, int):
        out += _int(value)
    elif isinstance(value, float):
        out += struct.pack("=Bd", _REAL, value)
    elif isinstance(value, (bytes, str)):
        data = value.encode("utf-8", "surrogateescape") if isinstance(value, str) else value
        out.append(_STRING)
        out += _int(len(data))
        out += data
    elif isinstance(value, (list, tuple)):
        out.append(_ARRAY)
        out += _int(len(value))
        for item in value:
            _encode(item, out)
    elif isinstance(value, dict):
        out.append(_OBJECT)
        out += _int(len(value))
        for k, v in value.items():
            _encode(k, out)
            _encode(v, out)
    else:
        raise TypeError("cannot encode %r as BSER" % type(value))


def dumps(value) -> bytes:
    """One PDU: magic, length, payload."""
    payload = bytearray()
    _encode(value, payload)
    return MAGIC + _int(len(payload)) + bytes(payload)


_INT_FORMATS = {_INT8: ("=b", 1), _INT16: ("=h", 2), _INT32: ("=i", 4), _INT64: ("=q", 8)}


def _read_int(buf, at):
    fmt, size = _INT_FORMATS[buf[at]]
    return struct.unpack_from(fmt, buf, at + 1)[0], at + 1 + size


def _decode(buf, at, text):
    kind = buf[at]
    if kind in _INT_FORMATS:
        return _read_int(buf, at)
    if kind in (_STRING, _UTF8):
        n, at = _read_int(buf, at + 1)
        raw = bytes(buf[at:at + n])
        # Names are bytes on Linux: keep them exact (surrogateescape) unless told not to.
        return (raw.decode("utf-8", "surrogateescape") if text else raw), at + n
    if kind == _ARRAY:
        n, at = _read_int(buf, at + 1)
        items = []
        for _ in range(n):
            v, at = _decode(buf, at, text)
            items.append(v)
        return items, at
    if kind == _OBJECT:
        n, at = _read_int(buf, at + 1)
        obj = {}
        for _ in range(n):
            k, at = _decode(buf, at, True)
            v, at = _decode(buf, at, text)
            obj[k] = v
        return obj, at
    if kind == _REAL:
        return struct.unpack_from("=d", buf, at + 1)[0], at + 9
    if kind == _TRUE:
        return True, at + 1
    if kind == _FALSE:
        return False, at + 1
    if kind == _NULL:
        return None, at + 1
    if kind == _TEMPLATE:
        keys, at = _decode(buf, at + 1, True)
        n, at = _read_int(buf, at)
        rows = []
        for _ in range(n):
            row = {}
            for k in keys:
                if buf[at] == _SKIP:
                    at += 1
                    continue
                row[k], at = _decode(buf, at, text)
            rows.append(row)
        return rows, at
    raise ValueError("unknown BSER type 0x%02x at %d" % (kind, at))


def pdu_length(buf) -> int:
    """Total length of the PDU at the start of `buf`, or -1 if its header is incomplete."""
    if len(buf) < 3:
        return -1
    if bytes(buf[:2]) not in (b"\x00\x01", b"\x00\x02"):
        raise ValueError("not a BSER PDU: %r" % bytes(buf[:8]))
    at = 2
    if buf[:2] == b"\x00\x02":
        at += 4  # v2 capabilities
    if len(buf) < at + 1 or len(buf) < at + 1 + _INT_FORMATS.get(buf[at], ("", 8))[1]:
        return -1
    n, end = _read_int(buf, at)
    return end + n


def loads(pdu, text: bool = True):
    at = 2 + (4 if pdu[:2] == b"\x00\x02" else 0)
    _, at = _read_int(pdu, at)
    value, _ = _decode(pdu, at, text)
    return value
