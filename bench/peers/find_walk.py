# SPDX-License-Identifier: GPL-2.0-or-later
"""`find -printf` over the tree: the walk-and-stat floor a shell script pays.

The format asks for size, mtime and inode, so find stats every entry as curatord
does; output goes to /dev/null so that terminal or pipe speed is not measured.
"""
import subprocess
import time


def find_walk_seconds(root: str, env: dict, timeout: float = 600.0) -> float:
    with open("/dev/null", "wb") as null:
        t0 = time.perf_counter()
        subprocess.run(["find", root, "-printf", "%P\\t%s\\t%T@\\t%i\\n"], stdout=null, env=env,
                       check=True, timeout=timeout)
        return time.perf_counter() - t0
