#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""curatord's benchmark harness (issues 6 and 14): curatord and its peers on the same trees, same run.

    bench/run.py                      # N = 10 000 and 100 000, 5 repetitions
    bench/run.py --quick              # N = 1000, 1 repetition (CI: checks nothing broke, times nothing)
    bench/run.py --n 100000 --reps 3 --workloads cold,warm,memory --write-doc
    bench/run.py --n 1000000 --per-folder 100 --reps 3   # the million-photo tier (make bench-1m)
    bench/run.py --n 100000 --workloads cold --perf cold # and a perf profile of curatord's cold starts

Every workload with peers is interleaved: each repetition runs curatord and then each
peer back to back, and ratios are taken within a repetition; targets are judged on
the median of those per-run ratios. The machine (CPU model, cores, kernel, inotify
limits, load average) and the scratch filesystem are recorded with the figures.

Runs as root on a loop-mounted journaled ext4 image (or --fs tmpfs), always unmounted
and removed at the end, Ctrl-C included. Exit status: 0 when every workload ran
(targets missed or not), 1 when a workload broke (with --quick: broke on its retry too), 2 on a setup error, 130 on Ctrl-C.
"""
import argparse
import json
import os
import shlex
import shutil
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import baseline  # noqa: E402
import machine  # noqa: E402
import native  # noqa: E402
import procs  # noqa: E402
import report  # noqa: E402
from context import Context  # noqa: E402
from peers import install  # noqa: E402
from peers.watchman import WatchmanError  # noqa: E402
from profiler import Profiler  # noqa: E402
from results import Results  # noqa: E402
from scratch_fs import KINDS, NotEnoughSpace, ScratchFS  # noqa: E402
from workloads import (burst, camera_import, cold_start, concurrent, duplicates, flood, index_size,  # noqa: E402
                       latency, list_all, memory, small_request, status_scan, thumbs, thumbs_load, trash_undo,
                       warm_restart)

REPO = os.path.dirname(HERE)
# Run order matters: the index is measured right after a cold start, memory after the listing.
WORKLOADS = [cold_start, index_size, warm_restart, status_scan, latency, burst, camera_import, flood.ROOT, flood.TREE,
             list_all, small_request, concurrent, memory, trash_undo, thumbs, thumbs_load, duplicates]
ALIASES = {"undo": "trash"}
TITLES = {w.KEY: w.TITLE for w in WORKLOADS}
TITLES[trash_undo.UNDO_KEY] = "undo of that batch"
ORDER = [w.KEY for w in WORKLOADS] + [trash_undo.UNDO_KEY]
# With --groups-off-peer these run once, grouping on: the trash batch is of groups (each
# a RAW+JPEG pair or a photo alone, some with a sidecar), compared with gio trash of its files.
UNPAIRED_GROUPS_OFF = {trash_undo.KEY}


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
    p.add_argument("--thumbs-reps", type=int, default=2,
                   help="repetitions of the thumbnail workloads (default 2; each runs three thumbnailers over "
                        "1000 12 MP JPEGs, a few CPU minutes)")
    p.add_argument("--thumbs-set", default="1000,20,20", metavar="JPEG,HEIC,DNG",
                   help="how many of the kept sample photos the thumbnail workloads use (default 1000,20,20; made "
                        "once, the first time: a 12 MP HEIC takes minutes to encode on a loaded host)")
    p.add_argument("--thumbs-priority", choices=["normal", "idle"], default="normal",
                   help="the thumbnailers' priority in the thumbs workload: normal (default; curatord's worker is "
                        "lifted from SCHED_IDLE to it) or idle (all at nice 19 and SCHED_IDLE, as curatord runs its "
                        "worker: starved on a loaded host). Per-CPU-second figures do not depend on it")
    p.add_argument("--thumbs-together", action=argparse.BooleanOptionalAction, default=True,
                   help="run the three thumbnailers on the JPEGs at the same time (default) rather than one after "
                        "the other")
    p.add_argument("--write-doc", action="store_true", help="rewrite the results block of docs/BENCHMARKS.md")
    p.add_argument("--doc", default=os.path.join(REPO, "docs", "BENCHMARKS.md"))
    p.add_argument("--per-folder", type=int, default=None,
                   help="photos a folder in the generated tree (default 20 to 200; the 1M tier uses 100)")
    p.add_argument("--flood", type=int, default=None,
                   help="files the flood workloads write at full speed (default 50 000; 2000 with --quick)")
    p.add_argument("--perf", default="", metavar="WORKLOADS",
                   help="comma-separated workloads during which curatord is profiled with `perf record -g` "
                        "(a summary is written beside the figures; its times then include perf's overhead)")
    p.add_argument("--fs", choices=KINDS, default="loop-ext4", help="scratch filesystem (default loop-ext4)")
    p.add_argument("--loop-buffered-io", action="store_true",
                   help="the loop device reads and writes its image through the page cache, as `mount -o loop` does "
                        "(the harness before 2026-12-04): every block written back is copied into the image file's "
                        "page cache and written back again by the file system below, which no disk does. By default "
                        "it uses direct I/O (losetup --direct-io)")
    p.add_argument("--image-gb", type=int, default=None,
                   help="size of the sparse loop image / tmpfs (default 2 quick, 6 up to 200 000 photos, more above)")
    p.add_argument("--inodes", type=int, default=None,
                   help="mkfs.ext4 -N for the loop image (default one per 4 KiB; 1.5 per photo, at least 1 500 000, "
                        "above 200 000 photos)")
    p.add_argument("--scratch-dir", default=None, help="where the scratch image is made (default the system's /tmp)")
    p.add_argument("--binary", default=os.path.join(REPO, ".build", "release", "curatord"))
    p.add_argument("--baseline-bin", metavar="PATH", default=None,
                   help="an earlier curatord (the binary, or the build folder holding it), run as the peer "
                        "'curatord@base': each repetition of each workload runs both builds back to back, alternating "
                        "which goes first, and 'curatord ÷ this' compares them (a before/after table under the same "
                        "load; targets are not judged)")
    p.add_argument("--groups-off-peer", action="store_true",
                   help="run this curatord with `groups: false` on its root as the peer 'curatord@groups-off' "
                        "(issue 15): interleaved like --baseline-bin, 'curatord ÷ this' is grouping on over off; "
                        "the trash workload runs unpaired (its batch is of groups, which a groups-off root lists "
                        "file by file)")
    p.add_argument("--root-option", action="append", default=[], metavar="KEY=JSON",
                   help="a setting of curatord's root for the whole run, e.g. groups=false (repeatable; the daemon "
                        "then reads a configuration file the harness writes); with --groups-off-peer, of this "
                        "curatord's root only")
    p.add_argument("--json-out", default=None,
                   help="where to keep the raw results (default bench/results/run-DATE.json, plus last.json)")
    p.add_argument("--merge", metavar="JSON",
                   help="a previous run's --json-out: keep its results except the workloads this run measures "
                        "(to redo one workload without redoing all)")
    p.add_argument("--render", metavar="JSON",
                   help="run nothing: print the report of a previous run's results file (and with --write-doc "
                        "write its table into --doc), as that run recorded its machine and commands")
    p.add_argument("--no-install", action="store_true", help="do not apt-get install missing peers")
    args = p.parse_args(argv)
    if args.quick:
        args.n, args.reps, args.thumbs_reps = "1000", 1, 1
    if args.trash_reps is None:
        args.trash_reps = args.reps
    if args.flood is None:
        args.flood = 2000 if args.quick else 50000
    if args.baseline_bin is not None and os.path.isdir(args.baseline_bin):
        args.baseline_bin = os.path.join(args.baseline_bin, "curatord")
    args.root_options = {}
    for item in args.root_option:
        key, _, value = item.partition("=")
        try:
            args.root_options[key.strip()] = json.loads(value)
        except ValueError:
            p.error("--root-option %s: the value must be JSON (false, 300, \"raw\")" % item)
    if args.baseline_bin is not None and args.groups_off_peer:
        p.error("--baseline-bin and --groups-off-peer are one peer each: give one")
    args.ns = [int(x) for x in str(args.n).split(",") if x.strip()]
    try:
        args.thumbs_set = tuple(int(x) for x in args.thumbs_set.split(","))
    except ValueError:
        args.thumbs_set = ()
    if len(args.thumbs_set) != 3 or min(args.thumbs_set) < 1 or args.thumbs_set[0] < 200:
        p.error("--thumbs-set: three counts, JPEG (at least 200: the sheet takes 200), HEIC and DNG, each at least 1")
    if args.reps < 1 or args.trash_reps < 1 or not args.ns or min(args.ns) < 100:
        p.error("need --reps >= 1 and every N >= 100")
    if args.flood < 1 or (args.per_folder is not None and args.per_folder < 1):
        p.error("need --flood >= 1 and --per-folder >= 1")
    if args.workloads == "all":
        args.selected = list(WORKLOADS)
    else:
        keys = [ALIASES.get(k.strip(), k.strip()) for k in args.workloads.split(",") if k.strip()]
        unknown = [k for k in keys if k not in TITLES]
        if unknown:
            p.error("unknown workload(s) %s; known: %s" % (", ".join(unknown), ", ".join(ORDER)))
        args.selected = [w for w in WORKLOADS if w.KEY in keys]
    args.perf_workloads = [ALIASES.get(k.strip(), k.strip()) for k in args.perf.split(",") if k.strip()]
    unknown = [k for k in args.perf_workloads if k not in TITLES]
    if unknown:
        p.error("unknown workload(s) for --perf: %s" % ", ".join(unknown))
    top = max(args.ns)
    # What the run writes into the image at most: each photo and sidecar a 4 KiB block
    # and an inode, the index, the flood and the batches, ext4's own tables and journal.
    args.need_gb = (top * 1.15 * 4.6e3 + (args.flood + 4 * 10000) * 4.6e3 + top * 300) / (1 << 30) + 1.0
    if args.image_gb is None:
        args.image_gb = 2 if top <= 20000 else 6 if top <= 200000 else int(args.need_gb * 2) + 2
    if args.inodes is None and top > 200000:
        args.inodes = max(1500000, int(top * 1.5))
    return args


def log(text):
    print("[%s] %s" % (time.strftime("%H:%M:%S"), text), file=sys.stderr, flush=True)


def render(args) -> int:
    """The report (and doc block) of a results file, without running anything."""
    with open(args.render) as f:
        saved = json.load(f)
    results = Results.from_json(saved["results"])
    print(report.console(results, TITLES, ORDER))
    if args.write_doc:
        host = saved.get("machine")
        if host is None:
            log("%s has no machine record (written by an older harness): cannot write the doc from it" % args.render)
            return 2
        commands = saved.get("commands", [saved.get("command", "?")])
        env_lines = report.environment(saved.get("filesystem", "?"), commands, host, host["loadavg_at_end"],
                                       when=saved.get("date"), soft=saved.get("software"))
        report.write_doc(args.doc, report.markdown(results, TITLES, ORDER, env_lines))
        log("wrote %s" % args.doc)
    return 0


def main(argv=None) -> int:
    args = parse(argv)
    if args.render:
        return render(args)
    command = "bench/run.py " + " ".join(shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv))
    if not os.access(args.binary, os.X_OK):
        log("no curatord binary at %s: build it first (swift build -c release, or make bench)" % args.binary)
        return 2
    if args.baseline_bin is not None and not os.access(args.baseline_bin, os.X_OK):
        log("no curatord binary at %s (--baseline-bin)" % args.baseline_bin)
        return 2
    if args.fs != "none" and os.geteuid() != 0:
        log("mounting a scratch filesystem needs root; run as root or pass --fs none (figures then distorted)")
        return 2
    if not args.no_install:
        still = install.ensure(log)
        if still:
            log("missing peers: %s (apt-get install -y %s)" % (", ".join(still), " ".join(still)))
            return 2
    blocked = procs.install_signal_handlers()
    if blocked:
        log("started with signals blocked (%s): unblocked for the run and its children" %
            ", ".join(getattr(s, "name", str(s)) for s in blocked))
    results = Results()
    host = machine.describe()
    log("machine: %s; inotify max_queued_events %s; load average %.2f" % (
        machine.one_line(host), host["inotify_max_queued_events"], host["loadavg_at_start"][0]))
    if native.fastfiles() is None:
        log("no C helper (%s): trees and floods are written in Python, slower" % native.why_not())
    profiler = None
    if args.perf_workloads:
        profiler = Profiler(args.perf_workloads, os.path.join(HERE, "results", time.strftime("perf-%Y%m%d-%H%M%S")), log)
        if not profiler.check():
            profiler = None
    scratch = ScratchFS(args.fs, args.image_gb, base_dir=args.scratch_dir, inodes=args.inodes, need_gb=args.need_gb,
                        direct_io=not args.loop_buffered_io)
    sampler = machine.LoadSampler().start()
    run_started = time.monotonic()
    interrupted = False
    try:
        free_gb = shutil.disk_usage(scratch.workdir).free / (1 << 30)
        log("disk: %.1f GiB free under %s; this run writes about %.1f GiB at most into its %d GiB sparse image" % (
            free_gb, os.path.dirname(scratch.workdir), args.need_gb, args.image_gb))
        try:
            scratch.open()
        except NotEnoughSpace as e:
            log(str(e))
            return 2
        log("scratch filesystem: %s at %s" % (scratch.description, scratch.mountpoint))
        ctx = Context(args, scratch, os.path.abspath(args.binary), results)
        ctx.profiler = profiler
        ctx.root_options = args.root_options or None
        for n in args.ns:
            ctx.set_tree(n)
            for w in args.selected:
                ctx.log("workload %s: %s (load average %.2f)" % (w.KEY, w.TITLE, os.getloadavg()[0]))
                t0 = time.monotonic()
                if profiler is not None and profiler.wants(w.KEY):
                    if getattr(w, "USES_LIVE_DAEMON", False):
                        ctx.curatord_live(alone=False)
                    live = ctx.daemon.pid if ctx.daemon is not None and ctx.daemon.alive() else None
                    profiler.begin(w.KEY, n, live)
                for attempt in (1, 2):
                    ctx.daemons = []
                    mark = results.mark()
                    try:
                        if args.baseline_bin is not None:
                            baseline.run_paired(ctx, w, os.path.abspath(args.baseline_bin))
                        elif args.groups_off_peer and w.KEY not in UNPAIRED_GROUPS_OFF:
                            baseline.run_paired(ctx, w, baseline.groups_off_peer(ctx.binary))
                        elif args.groups_off_peer:
                            w.run(ctx)
                            results.note(w.KEY, n, "groups on/off run: this workload ran with grouping on only")
                        else:
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
                        if attempt == 1 and args.quick:
                            # CI's run times nothing and exists so the harness cannot rot: a
                            # workload that breaks on a retry too is broken; one that breaks
                            # once (a shared machine's neighbour) is said, not fatal.
                            results.rollback(mark)
                            why = "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:300] if str(e) else "")
                            results.note(w.KEY, n, "broke once (%s); the workload was run again" % why)
                            ctx.log("%s broke once; running it again:\n%s" % (w.KEY, traceback.format_exc()))
                            continue
                        results.broken.append((w.KEY, n, "%s: %s" % (type(e).__name__, e)))
                        ctx.log("BROKEN %s: %s\n%s" % (w.KEY, e, traceback.format_exc()))
                        break
                if profiler is not None and profiler.active is not None:
                    ctx.stop_all()  # perf ends with the process it records
                    profiler.end(results)
                low, high = sampler.between(t0, time.monotonic())
                results.load.append((w.KEY, n, low, high))
                ctx.log("workload %s done in %.1f s (load average %.1f–%.1f)" % (
                    w.KEY, time.monotonic() - t0, low, high))
            ctx.stop_all()
    except KeyboardInterrupt:
        interrupted = True
        log("interrupted: stopping children and unmounting")
    finally:
        sampler.stop()
        procs.stop_all()
        scratch.close()
    low, high = sampler.between(run_started, time.monotonic())
    host["load_range"] = "%.1f–%.1f" % (low, high)
    host["loadavg_at_end"] = list(os.getloadavg())
    soft = report.software()
    commands = [command]
    run_date = time.strftime("%Y-%m-%d %H:%M %Z")
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
            json.dump({"commands": commands, "date": run_date, "machine": host, "software": soft,
                       "filesystem": scratch.description,
                       "method": report.METHOD, "results": results.to_json()}, f, indent=1)
    if args.write_doc and not interrupted:
        env_lines = report.environment(scratch.description, commands, host, host["loadavg_at_end"], when=run_date,
                                       soft=soft)
        report.write_doc(args.doc, report.markdown(results, TITLES, ORDER, env_lines))
        log("wrote %s" % args.doc)
    if interrupted:
        return 130
    if results.broken:
        log("%d workload(s) broke: %s" % (len(results.broken), ", ".join("%s@%d" % (w, n) for w, n, _ in results.broken)))
        # Each one's error again at the end, where a truncated log still shows it.
        for w, n, why in results.broken:
            log("  %s@%d: %s" % (w, n, why.splitlines()[0][:400] if why else "?"))
        return 1
    log("all workloads ran (timings are not pass/fail)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
