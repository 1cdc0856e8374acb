#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""curatord's benchmark harness (issue 6): curatord and its peers on the same trees, same run.

    bench/run.py                      # N = 10 000 and 100 000, 5 repetitions
    bench/run.py --quick              # N = 1000, 1 repetition (CI: checks nothing broke, times nothing)
    bench/run.py --n 100000 --reps 3 --workloads cold,warm,memory --write-doc

Runs as root on a loop-mounted journaled ext4 image (or --fs tmpfs), always unmounted
and removed at the end, Ctrl-C included. Exit status: 0 when every workload ran
(targets missed or not), 1 when a workload broke, 2 on a setup error, 130 on Ctrl-C.
"""
import argparse
import json
import os
import shlex
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import procs  # noqa: E402
import report  # noqa: E402
from context import Context  # noqa: E402
from peers import install  # noqa: E402
from peers.watchman import WatchmanError  # noqa: E402
from results import Results  # noqa: E402
from scratch_fs import KINDS, ScratchFS  # noqa: E402
from workloads import (burst, camera_import, cold_start, concurrent, index_size, latency, list_all,  # noqa: E402
                       memory, small_request, thumbs, trash_undo, warm_restart)

REPO = os.path.dirname(HERE)
# Run order matters: the index is measured right after a cold start, memory after the listing.
WORKLOADS = [cold_start, index_size, warm_restart, latency, burst, camera_import, list_all, small_request,
             concurrent, memory, trash_undo, thumbs]
ALIASES = {"undo": "trash"}
TITLES = {w.KEY: w.TITLE for w in WORKLOADS}
TITLES[trash_undo.UNDO_KEY] = "undo of that batch"
ORDER = [w.KEY for w in WORKLOADS] + [trash_undo.UNDO_KEY]


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--n", default="10000,100000", help="photo counts, comma-separated (default 10000,100000)")
    p.add_argument("--reps", type=int, default=5, help="repetitions per workload (default 5)")
    p.add_argument("--quick", action="store_true", help="N=1000, 1 repetition, smaller samples: the CI smoke run")
    p.add_argument("--workloads", default="all",
                   help="comma-separated subset of: %s (default all)" % ", ".join(ORDER))
    p.add_argument("--trash-reps", type=int, default=None,
                   help="repetitions of the trash/undo workload (default --reps; each repetition also runs "
                        "trash-put, about 5 s for 10 000 files)")
    p.add_argument("--write-doc", action="store_true", help="rewrite the results block of docs/BENCHMARKS.md")
    p.add_argument("--doc", default=os.path.join(REPO, "docs", "BENCHMARKS.md"))
    p.add_argument("--fs", choices=KINDS, default="loop-ext4", help="scratch filesystem (default loop-ext4)")
    p.add_argument("--image-gb", type=int, default=None,
                   help="size of the loop image / tmpfs (default 2 quick, 6; 6 more for the thumbs workload)")
    p.add_argument("--binary", default=os.path.join(REPO, ".build", "release", "curatord"))
    p.add_argument("--json-out", default=None,
                   help="where to keep the raw results (default bench/results/run-DATE.json, plus last.json)")
    p.add_argument("--merge", metavar="JSON",
                   help="a previous run's --json-out: keep its results except the workloads this run measures "
                        "(to redo one workload without redoing all)")
    p.add_argument("--no-install", action="store_true", help="do not apt-get install missing peers")
    args = p.parse_args(argv)
    if args.quick:
        args.n, args.reps = "1000", 1
    if args.trash_reps is None:
        args.trash_reps = args.reps
    args.ns = [int(x) for x in str(args.n).split(",") if x.strip()]
    if args.reps < 1 or args.trash_reps < 1 or not args.ns or min(args.ns) < 100:
        p.error("need --reps >= 1 and every N >= 100")
    if args.workloads == "all":
        args.selected = list(WORKLOADS)
    else:
        keys = [ALIASES.get(k.strip(), k.strip()) for k in args.workloads.split(",") if k.strip()]
        unknown = [k for k in keys if k not in TITLES]
        if unknown:
            p.error("unknown workload(s) %s; known: %s" % (", ".join(unknown), ", ".join(ORDER)))
        args.selected = [w for w in WORKLOADS if w.KEY in keys]
    if args.image_gb is None:
        args.image_gb = 2 if max(args.ns) <= 20000 else 6
        if thumbs in args.selected and not args.quick:
            args.image_gb += 6  # its 1000 camera JPEGs take about 4.5 GB

    return args


def log(text):
    print("[%s] %s" % (time.strftime("%H:%M:%S"), text), file=sys.stderr, flush=True)


def main(argv=None) -> int:
    args = parse(argv)
    command = "bench/run.py " + " ".join(shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv))
    if not os.access(args.binary, os.X_OK):
        log("no curatord binary at %s: build it first (swift build -c release, or make bench)" % args.binary)
        return 2
    if args.fs != "none" and os.geteuid() != 0:
        log("mounting a scratch filesystem needs root; run as root or pass --fs none (figures then distorted)")
        return 2
    if not args.no_install:
        still = install.ensure(log)
        if still:
            log("missing peers: %s (apt-get install -y %s)" % (", ".join(still), " ".join(still)))
            return 2
    procs.install_signal_handlers()
    results = Results()
    scratch = ScratchFS(args.fs, args.image_gb)
    interrupted = False
    try:
        scratch.open()
        log("scratch filesystem: %s at %s" % (scratch.description, scratch.mountpoint))
        ctx = Context(args, scratch, os.path.abspath(args.binary), results)
        for n in args.ns:
            ctx.set_tree(n)
            for w in args.selected:
                ctx.log("workload %s: %s" % (w.KEY, w.TITLE))
                t0 = time.monotonic()
                for attempt in (1, 2):
                    ctx.daemons = []
                    mark = results.mark()
                    try:
                        w.run(ctx)
                        break
                    except KeyboardInterrupt:
                        raise
                    except Exception as e:  # a broken workload is reported and the others still run
                        from_outside = ctx.curatord_stopped_from_outside()
                        ctx.stop_all()
                        if attempt == 1 and isinstance(e, WatchmanError):
                            # watchman poisons itself when the machine-wide inotify watch limit is
                            # hit, which other users' watchers on a shared machine can cause.
                            results.rollback(mark)
                            results.note(w.KEY, n, "watchman failed once (%s); the workload was run again" %
                                         str(e).splitlines()[0][:120])
                            ctx.log("watchman failed (%s); running %s again" % (str(e).splitlines()[0], w.KEY))
                            continue
                        if attempt == 1 and from_outside:
                            # Not curatord's fault nor ours: something else on this shared
                            # machine signalled it. Try once more, and say so.
                            results.rollback(mark)
                            results.note(w.KEY, n, "curatord was stopped by a signal from outside the harness "
                                                   "during this workload; it was run again")
                            ctx.log("curatord got a SIGTERM from outside the harness; running %s again" % w.KEY)
                            continue
                        results.broken.append((w.KEY, n, "%s: %s" % (type(e).__name__, e)))
                        ctx.log("BROKEN %s: %s\n%s" % (w.KEY, e, traceback.format_exc()))
                        break
                ctx.log("workload %s done in %.1f s" % (w.KEY, time.monotonic() - t0))
            ctx.stop_all()
    except KeyboardInterrupt:
        interrupted = True
        log("interrupted: stopping children and unmounting")
    finally:
        procs.stop_all()
        scratch.close()
    commands = [command]
    if args.merge and not interrupted:
        with open(args.merge) as f:
            previous = json.load(f)
        results = results.merged_into(Results.from_json(previous["results"]))
        commands = previous.get("commands", [previous.get("command", "?")]) + [command]
    print(report.console(results, TITLES, ORDER))
    # Every run keeps its own file (a later --quick must not overwrite the input of a --merge).
    outputs = [args.json_out] if args.json_out else [
        os.path.join(HERE, "results", time.strftime("run-%Y%m%d-%H%M%S.json")), os.path.join(HERE, "results", "last.json")]
    for path in outputs:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            json.dump({"commands": commands, "filesystem": scratch.description, "results": results.to_json()}, f,
                      indent=1)
    if args.write_doc and not interrupted:
        env_lines = report.environment(scratch.description, commands)
        report.write_doc(args.doc, report.markdown(results, TITLES, ORDER, env_lines))
        log("wrote %s" % args.doc)
    if interrupted:
        return 130
    if results.broken:
        log("%d workload(s) broke: %s" % (len(results.broken), ", ".join("%s@%d" % (w, n) for w, n, _ in results.broken)))
        return 1
    log("all workloads ran (timings are not pass/fail)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
