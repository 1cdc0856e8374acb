# SPDX-License-Identifier: GPL-2.0-or-later
"""The trash peers: trash-put, gio trash, mv into one folder, trash-restore, a rename-back loop.

All run with the harness's private HOME/XDG_DATA_HOME on the scratch filesystem, so
they use a home trash on the same filesystem as the files (a rename, as curatord does)
and never the real one. None of them fsyncs anything; curatord's journal does.
"""
import os
import subprocess
import time


def _arg_chunks(paths, reserve: int = 64 * 1024):
    """Splits a path list so each command line fits in ARG_MAX (one chunk for 10 000 paths here)."""
    limit = os.sysconf("SC_ARG_MAX") - reserve
    chunk, size = [], 0
    for p in paths:
        cost = len(p) + 1 + 8  # the string, its NUL, its argv pointer
        if chunk and size + cost > limit:
            yield chunk
            chunk, size = [], 0
        chunk.append(p)
        size += cost
    if chunk:
        yield chunk


def run_batch(cmd, paths, env, timeout: float = 1800.0):
    """Runs `cmd + paths` (in as few runs as ARG_MAX allows); returns (seconds, runs)."""
    runs = 0
    t0 = time.perf_counter()
    for chunk in _arg_chunks(paths):
        r = subprocess.run(cmd + list(chunk), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=timeout)
        if r.returncode != 0:
            raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), r.returncode, r.stderr[-500:]))
        runs += 1
    return time.perf_counter() - t0, runs


def trash_put(paths, env):
    return run_batch(["trash-put", "--"], paths, env)


def gio_trash(paths, env):
    return run_batch(["gio", "trash", "--"], paths, env)


def mv_into(paths, dest, env):
    return run_batch(["mv", "-t", dest, "--"], paths, env)


def trash_restore_each(paths, env, cwd, timeout: float = 300.0):
    """One `trash-restore PATH` per file, answering its prompt with 0. Returns seconds per run."""
    times = []
    for p in paths:
        t0 = time.perf_counter()
        r = subprocess.run(["trash-restore", p], input=b"0\n", env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=timeout)
        times.append(time.perf_counter() - t0)
        if r.returncode != 0 or not os.path.exists(p):
            raise RuntimeError("trash-restore did not restore %r: %s" % (p, r.stderr[-300:]))
    return times


def rename_back(pairs):
    """The floor of an undo: one rename(2) per file, in a loop. Returns seconds."""
    t0 = time.perf_counter()
    for src, dst in pairs:
        os.rename(src, dst)
    return time.perf_counter() - t0
