# SPDX-License-Identifier: GPL-2.0-or-later
"""16 clients at once, each on its own connection with one small request in flight.

Clients are 16 processes (not threads: Python's lock would serialize them) running a
closed loop for a fixed time; the figure is total answers per second. The daemon's
own CPU time over the run is read from /proc, so the report can say how much of the
2 cores the clients took. Both servers are up on the idle tree; each repetition loads
both, in turns first.
"""
import multiprocessing
import resource
import socket
import time

import procs
import stats
from peers import bser

KEY = "concurrent"
TITLE = "16 clients at once, small requests"
# Asks the live curatord (an idle daemon that has indexed the tree): with --perf it is
# brought up before the profile starts, so that its start-up is not in it.
USES_LIVE_DAEMON = True
CLIENTS = 16


def _client(path, request, framing, start_at, end_at, queue):
    """One closed-loop client; always reports (a count, or the error that stopped it)."""
    try:
        queue.put(_closed_loop(path, request, framing, start_at, end_at))
    except Exception as e:  # reported to the parent, which fails the workload
        queue.put("%s: %s" % (type(e).__name__, e))


def _closed_loop(path, request, framing, start_at, end_at):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(path)
    buf = bytearray()

    def one():
        s.sendall(request)
        while True:
            if framing == "line":
                at = buf.find(b"\n")
                if at >= 0:
                    del buf[:at + 1]
                    return
            else:
                size = bser.pdu_length(buf)
                if 0 <= size <= len(buf):
                    del buf[:size]
                    return
            chunk = s.recv(65536)
            if not chunk:
                raise ConnectionError("server closed the connection")
            buf.extend(chunk)

    one()
    while time.monotonic() < start_at:
        time.sleep(0.001)
    count = 0
    while time.monotonic() < end_at:
        one()
        count += 1
    s.close()
    return count


def _load(path, request, framing, pid, seconds):
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    start_at = time.monotonic() + 0.5
    end_at = start_at + seconds
    workers = [ctx.Process(target=_client, args=(path, request, framing, start_at, end_at, queue))
               for _ in range(CLIENTS)]
    for w in workers:
        w.start()
    time.sleep(max(0.0, start_at - time.monotonic()))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu0 = procs.cpu_seconds(pid)
    deadline = end_at + 30
    answers = [queue.get(timeout=max(0.1, deadline - time.monotonic())) for _ in workers]
    cpu1 = procs.cpu_seconds(pid)
    for w in workers:
        w.join(timeout=10)
        if w.is_alive():
            w.kill()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    errors = [a for a in answers if isinstance(a, str)]
    if errors:
        raise RuntimeError("%d of %d clients failed: %s" % (len(errors), CLIENTS, errors[0]))
    total = sum(answers)
    # The clients' CPU (joined children only), spread over the measured interval.
    clients = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / seconds
    return total / seconds, (cpu1 - cpu0) / seconds, clients


def run(ctx):
    r, n = ctx.results, ctx.n
    seconds = 1.0 if ctx.quick else 3.0
    daemon, server = ctx.both_live()
    request = b'{"id":1,"cmd":"hello"}\n'
    cur, wm = [], []
    for rep in range(ctx.reps):
        for step in stats.rotated([lambda: cur.append(_load(daemon.socket_path, request, "line", daemon.pid, seconds)),
                                   lambda: wm.append(_load(server.sockname, bser.dumps(["version"]), "bser", server.pid,
                                                           seconds))], rep):
            step()
    for name, rows in (("curatord", cur), ("watchman (BSER)", wm)):
        r.add(KEY, n, name, "requests/s, 16 clients", "req/s", [x for x, _, _ in rows], higher_is_better=True,
              interleaved=True)
        r.add(KEY, n, name, "server CPU (cores busy)", "cores", [c for _, c, _ in rows], interleaved=True)
        r.add(KEY, n, name, "16 Python clients' CPU (cores busy)", "cores", [k for _, _, k in rows], interleaved=True)
    r.note(KEY, n, "the clients are Python and share the 2 cores with the server: the rates are what the server "
                   "delivers while its clients take the CPU shown, a lower bound of its capacity")
    rate = r.find(KEY, n, "curatord", "requests/s, 16 clients").median
    r.verdict(KEY, n, ">= 20 000 requests/s in total", rate >= 20000, "%.0f req/s" % rate,
              set_for="issue 6 at 100 000")
