# SPDX-License-Identifier: GPL-2.0-or-later
"""List every photo over the socket, timed until the whole answer has arrived.

curatord: `list` with no view arguments (all photos, full records), and with
`fields: ["path"]`. watchman, over its BSER socket (it cannot answer this tree in JSON,
see peers/bser.py): `query` with the fields of a record that it has (name, size,
mtime_ns, type, ino), and with the names only. Like is compared with like: records
with records, paths with names. Decoding the answer is left out of all timings.
"""
import json
import time

from peers import bser

KEY = "list"
# What watchman can say of each file that curatord's full record says of a photo
# (curatord's id, position and root have no watchman counterpart; ino is its identity).
WATCHMAN_RECORD = ("name", "size", "mtime_ns", "type", "ino")
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


def watchman_list_all(ctx, client, fields=("name",)):
    t0 = time.perf_counter()
    client.send(["query", ctx.tree, {"fields": list(fields)}])
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
        wfull = [watchman_list_all(ctx, wc, WATCHMAN_RECORD) for _ in range(samples)]
    finally:
        wc.close()
    r.add(KEY, n, "watchman (BSER)", "list all", "ms", [t * 1000 for t, _, _ in wfull])
    r.add(KEY, n, "watchman (BSER)", "list all, paths only", "ms", [t * 1000 for t, _, _ in wm])
    r.note(KEY, n, "answer sizes: curatord %.1f MB JSON for %d photos (id, path, size, mtime_ns, type, position, root; "
                   "folder sections)%s; watchman %.1f MB BSER for %d entries (every file and folder) with fields %s "
                   "(the facts of curatord's record that watchman has), %.1f MB with the names only" % (
                       cur[0][1] / 1e6, ctx.expected_photos,
                       ", %.1f MB with `fields: [\"path\"]`" % (names[0][1] / 1e6) if all(names) else "",
                       wfull[0][1] / 1e6, wfull[0][2], json.dumps(list(WATCHMAN_RECORD)), wm[0][1] / 1e6))
    c = r.find(KEY, n, "curatord", "list all").median
    w = r.find(KEY, n, "watchman (BSER)", "list all").median
    p = r.find(KEY, n, "curatord", "list all, paths only")
    wn = r.find(KEY, n, "watchman (BSER)", "list all, paths only").median
    ok = c <= w and (p is None or p.median <= wn)
    r.verdict(KEY, n, "list-all no slower than watchman's (the same facts, and names only)", ok,
              "records %.1f ms vs watchman %.1f ms (x%.2f)%s" % (
                  c, w, c / w, "; paths only %.1f ms vs names only %.1f ms (x%.2f)" % (p.median, wn, p.median / wn)
                  if p else ""))
