# SPDX-License-Identifier: GPL-2.0-or-later
"""List every photo over the socket, timed until the whole answer has arrived.

curatord: `list` with no view arguments (all photos, full records), and with
`fields: ["path"]`. watchman, over its BSER socket (it cannot answer this tree in JSON,
see peers/bser.py): `query` with the fields of a record that it has (name, size,
mtime_ns, type, ino), and with the names only. Like is compared with like: records
with records, paths with names. Decoding the answer is left out of all timings.
Both servers are up on the idle tree; each repetition asks both, in turns first.
"""
import json
import time

import stats
from peers import bser

KEY = "list"
# What watchman can say of each file that curatord's full record says of a photo
# (curatord's id, position and root have no watchman counterpart; ino is its identity).
WATCHMAN_RECORD = ("name", "size", "mtime_ns", "type", "ino")
TITLE = "list all photos over the socket"
# Asks the live curatord (an idle daemon that has indexed the tree): with --perf it is
# brought up before the profile starts, so that its start-up is not in it.
USES_LIVE_DAEMON = True


def curatord_list_all(ctx, client, fields=None, check=True):
    """(seconds to the whole answer's arrival, its bytes), or None when this build ignores
    `fields`. With `check`, the answer is decoded (untimed) and its count verified; a
    million photos make a 150 MB answer, so repetitions check its size instead."""
    t0 = time.perf_counter()
    client.send(client.request_line("list", fields=fields) if fields else client.request_line("list"))
    line = client.raw_response(timeout=600)
    elapsed = time.perf_counter() - t0
    if not check:
        if not line.startswith(b'{"id":') or b'"ok":true' not in line[:64]:
            raise RuntimeError("list failed: %s" % line[:300])
        return elapsed, len(line)
    answer = json.loads(line)
    if not answer.get("ok"):
        raise RuntimeError("list failed: %s" % answer.get("error"))
    got = len(answer["result"]["photos"])
    if got != ctx.expected_photos or answer["result"]["total"] != ctx.expected_photos:
        raise RuntimeError("list returned %d photos (total %s), expected %d" % (
            got, answer["result"]["total"], ctx.expected_photos))
    if fields and set(answer["result"]["photos"][0]) - set(fields) - {"path_raw"}:
        return None  # a build without `fields` ignores it and sends whole records
    return elapsed, len(line)


def watchman_list_all(ctx, client, fields=("name",), check=True):
    """(seconds to the whole answer's arrival, its bytes, entries or None unchecked)."""
    t0 = time.perf_counter()
    client.send(["query", ctx.tree, {"fields": list(fields)}])
    pdu = client.raw_response(timeout=600)
    elapsed = time.perf_counter() - t0
    if not check:
        return elapsed, len(pdu), None
    files = bser.loads(pdu)["files"]
    if len(files) < ctx.expected_photos:
        raise RuntimeError("watchman listed %d files, fewer than %d photos" % (len(files), ctx.expected_photos))
    return elapsed, len(pdu), len(files)


def _same_size(kind, first, later):
    # watchman's answer carries its clock, whose digits grow now and then.
    if abs(later[1] - first[1]) > 64:
        raise RuntimeError("%s answered %d bytes, %d the first time, on an unchanged tree" % (kind, later[1], first[1]))


def run(ctx):
    r, n = ctx.results, ctx.n
    samples = max(ctx.reps, 3)
    daemon, server = ctx.both_live()
    client, wc = daemon.connect(), server.client()
    cur, names, wfull, wnames = [], [], [], []
    try:
        # Each repetition: curatord's records and paths, watchman's records and names, in turns first.
        for rep in range(samples):
            check = rep == 0

            def curatord():
                cur.append(curatord_list_all(ctx, client, check=check))
                names.append(curatord_list_all(ctx, client, fields=["path"], check=check) if all(names) else None)

            def watchman():
                wfull.append(watchman_list_all(ctx, wc, WATCHMAN_RECORD, check=check))
                wnames.append(watchman_list_all(ctx, wc, check=check))
            for step in stats.rotated([curatord, watchman], rep):
                step()
            if rep:
                _same_size("curatord list", cur[0], cur[-1])
                _same_size("watchman query", wfull[0], wfull[-1])
            ctx.log("list rep %d: curatord %.1f ms (paths %s), watchman %.1f ms (names %.1f ms)" % (
                rep + 1, cur[-1][0] * 1000, "%.1f ms" % (names[-1][0] * 1000) if names[-1] else "n/a",
                wfull[-1][0] * 1000, wnames[-1][0] * 1000))
    finally:
        client.close()
        wc.close()
    r.add(KEY, n, "curatord", "list all", "ms", [t * 1000 for t, _ in cur], interleaved=True)
    if all(names):
        r.add(KEY, n, "curatord", "list all, paths only", "ms", [t * 1000 for t, _ in names], interleaved=True)
    else:
        r.skip(KEY, n, "curatord (paths only)", "this build ignores `fields` in list")
    r.add(KEY, n, "watchman (BSER)", "list all", "ms", [t * 1000 for t, _, _ in wfull], interleaved=True)
    r.add(KEY, n, "watchman (BSER)", "list all, paths only", "ms", [t * 1000 for t, _, _ in wnames], interleaved=True)
    r.note(KEY, n, "answer sizes: curatord %.1f MB JSON for %d photos (id, path, size, mtime_ns, type, position, root; "
                   "folder sections)%s; watchman %.1f MB BSER for %d entries (every file and folder) with fields %s "
                   "(the facts of curatord's record that watchman has), %.1f MB with the names only" % (
                       cur[0][1] / 1e6, ctx.expected_photos,
                       ", %.1f MB with `fields: [\"path\"]`" % (names[0][1] / 1e6) if all(names) else "",
                       wfull[0][1] / 1e6, wfull[0][2], json.dumps(list(WATCHMAN_RECORD)), wnames[0][1] / 1e6))
    x = r.ratios(KEY, n, "curatord", "list all", "watchman (BSER)")
    xp = r.ratios(KEY, n, "curatord", "list all, paths only", "watchman (BSER)")
    c = r.find(KEY, n, "curatord", "list all").median
    w = r.find(KEY, n, "watchman (BSER)", "list all").median
    detail = "records %.1f ms vs watchman %.1f ms: x%.2f %s" % (c, w, stats.median(x), stats.spread(x))
    if xp:
        detail += "; paths only x%.2f names only %s" % (stats.median(xp), stats.spread(xp))
    r.verdict(KEY, n, "list-all no slower than watchman's (the same facts, and names only)",
              stats.median(x) <= 1 and (xp is None or stats.median(xp) <= 1), detail, set_for="issue 6 at 100 000")
    r.verdict(KEY, n, "full records at most 0.5x watchman's records of the same facts", stats.median(x) <= 0.5,
              "x%.2f %s" % (stats.median(x), stats.spread(x)), set_for="issue 14 at 1 000 000")
