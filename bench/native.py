# SPDX-License-Identifier: GPL-2.0-or-later
"""The small C helper (native/fastfiles.c), compiled on first use into bench/out/.

Without a C compiler (or when it fails) `fastfiles()` returns None and the callers
write their files in Python, slower, and say so.
"""
import os
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "native", "fastfiles.c")
OUT_DIR = os.path.join(HERE, "out")
BINARY = os.path.join(OUT_DIR, "fastfiles")

_checked = None
_why_not = ""


def fastfiles():
    """The helper's path, built if missing or older than its source; None if it cannot be."""
    global _checked, _why_not
    if _checked is not None:
        return _checked or None
    _checked = ""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if os.path.exists(BINARY) and os.path.getmtime(BINARY) >= os.path.getmtime(SOURCE):
        _checked = BINARY
    elif compiler is None:
        _why_not = "no C compiler (cc, gcc or clang) found"
    else:
        os.makedirs(OUT_DIR, exist_ok=True)
        tmp = BINARY + ".tmp-%d" % os.getpid()
        r = subprocess.run([compiler, "-O2", "-Wall", "-o", tmp, SOURCE], capture_output=True, text=True)
        if r.returncode == 0:
            os.replace(tmp, BINARY)
            _checked = BINARY
        else:
            _why_not = "%s failed: %s" % (compiler, r.stderr.strip()[-300:])
    return _checked or None


def why_not() -> str:
    """Why `fastfiles()` returned None."""
    return _why_not
