# SPDX-License-Identifier: GPL-2.0-or-later
"""List every photo over the socket, timed until the whole answer has arrived.

curatord: `list` with no view arguments (all photos, full records). watchman:
`query` with `fields: ["name"]` over its BSER socket (it cannot answer this tree in
JSON, see peers/bser.py). Decoding the answer is left out of both timings.
"""
import json
import time

from peers import bser

KEY = "list"
TITLE = "list all photos over the socket"


def curatord_list_all(ctx, client, fields=None):
    t0 = time.perf_counter()
    client.send(client.request_line("list", fields=fields) if fields else client.request_line("list"))
    line = client.raw_response(timeout=300)
    elapsed = time.perf_counter() - t0
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


def watchman_list_all(ctx, client):
    t0 = time.perf_counter()
    client.send(["query", ctx.tree, {"fields": ["name"]}])
    pdu = client.raw_response(timeout=300)
    elapsed = time.perf_counter() - t0
    files = bser.loads(pdu)["files"]
    if len(files) < ctx.expected_photos:
        raise RuntimeError("watchman listed %d files, fewer than %d photos" % (len(files), ctx.expected_photos))
    return elapsed, len(pdu), len(files)


def run(ctx):
    r, n = ctx.results, ctx.n
    samples = max(ctx.reps, 3)
    daemon = ctx.curatord_live()
    client = daemon.connect()
    try:
        cur = [curatord_list_all(ctx, client) for _ in range(samples)]
        # Paths only (`fields`), the same information watchman's name listing carries.
        names = [curatord_list_all(ctx, client, fields=["path"]) for _ in range(samples)]
    finally:
        client.close()
    r.add(KEY, n, "curatord", "list all", "ms", [t * 1000 for t, _ in cur])
    if all(names):
        r.add(KEY, n, "curatord", "list all, paths only", "ms", [t * 1000 for t, _ in names])
    else:
        r.skip(KEY, n, "curatord (paths only)", "this build ignores `fields` in list")
    server = ctx.watchman_live(None)
    wc = server.client()
    try:
        wm = [watchman_list_all(ctx, wc) for _ in range(samples)]
    finally:
        wc.close()
    r.add(KEY, n, "watchman (BSER)", "list all", "ms", [t * 1000 for t, _, _ in wm])
    r.add(KEY, n, "watchman (BSER)", "list all, paths only", "ms", [t * 1000 for t, _, _ in wm])
    r.note(KEY, n, "answer sizes: curatord %.1f MB JSON for %d photos (id, path, size, mtime, type, position; "
                   "folder sections)%s; watchman %.1f MB BSER for %d entries (names only, every file and folder; "
                   "the same answer is shown on both watchman rows)" % (
                       cur[0][1] / 1e6, ctx.expected_photos,
                       ", %.1f MB with `fields: [\"path\"]`" % (names[0][1] / 1e6) if all(names) else "",
                       wm[0][1] / 1e6, wm[0][2]))
    c = r.find(KEY, n, "curatord", "list all").median
    w = r.find(KEY, n, "watchman (BSER)", "list all").median
    p = r.find(KEY, n, "curatord", "list all, paths only")
    r.verdict(KEY, n, "list-all no slower than watchman's", c <= w, "%.1f ms vs watchman %.1f ms (x%.2f)%s" % (
        c, w, c / w, "; paths only %.1f ms (x%.2f)" % (p.median, p.median / w) if p else ""))
