#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Marks (issue 50): reading and writing the stars, flags and labels of XMP sidecars,
each against its peer, interleaved (curatord and the peer back to back in every
repetition, the order rotated), so that the ratios hold on a shared host.

`read`: N photos (small JPEGs, 500 to a folder), each with darktable's sidecar
`NAME.EXT.xmp` holding stars, a label and a develop history. curatord = from the
daemon's start (a fresh index) until `status` says `xmp_pending` 0 with the scan done;
the peer = `exiftool -fast2 -r -XMP:Rating -XMP:Label TREE`. Target: <= 0.2x.

`rate`: 1 000 photos with sidecars; curatord = one `rate` request of the 1 000 ids
(round trip, the daemon warm); the peer = bench/native/exempi_rate.c, compiled here
with gcc against exempi, which sets xmp:Rating in the same 1 000 sidecars in a loop,
each replaced as curatord replaces one (temporary file, owner and mode, fsync,
rename, fsync of the folder). Each write changes every file. Target: <= 2x.

    swift build -c release
    bench/marks_bench.py --bin .build/release --dir /var/tmp/marks-bench --n 100000 --reps 3
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

import curatord_client
import machine
import stats

HERE = os.path.dirname(os.path.abspath(__file__))
PER_FOLDER = 500

SIDECAR = """<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:darktable="http://darktable.sf.net/"
   xmp:Rating="%(rating)d"
   xmpMM:DerivedFrom="%(name)s"
   darktable:import_timestamp="63840000000000000"
   darktable:change_timestamp="63840000000000000"
   darktable:xmp_version="5"
   darktable:raw_params="0"
   darktable:auto_presets_applied="1"
   darktable:history_end="3">
   <darktable:colorlabels>
    <rdf:Seq>
     <rdf:li>%(label)d</rdf:li>
    </rdf:Seq>
   </darktable:colorlabels>
   <darktable:history>
    <rdf:Seq>
     <rdf:li darktable:num="0" darktable:operation="colorin" darktable:enabled="1" darktable:modversion="7"
      darktable:params="gz48eJzjZBgFowABWAbaAaNgwAEAEDgABg==" darktable:multi_name="" darktable:multi_priority="0"/>
     <rdf:li darktable:num="1" darktable:operation="exposure" darktable:enabled="1" darktable:modversion="6"
      darktable:params="00000000000080b9e17a143f0000a03f00000000" darktable:multi_name="" darktable:multi_priority="0"/>
     <rdf:li darktable:num="2" darktable:operation="filmicrgb" darktable:enabled="1" darktable:modversion="6"
      darktable:params="gz14eJxjYGiwZ2BgYHJIAWIOBmYGBgYHBxgAAAnPAB0=" darktable:multi_name="" darktable:multi_priority="0"/>
    </rdf:Seq>
   </darktable:history>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>
"""


def small_jpeg(work: str) -> bytes:
    path = os.path.join(work, "one.jpg")
    if not os.path.exists(path):
        subprocess.run(["vips", "black", path, "16", "16"], check=True)
    with open(path, "rb") as f:
        return f.read()


def make_tree(top: str, n: int, jpeg: bytes) -> list:
    """N photos with their sidecars, made once (kept when the count is right)."""
    marker = os.path.join(top, ".made-%d" % n)
    names = ["d%04d/IMG_%06d.jpg" % (i // PER_FOLDER, i) for i in range(n)]
    if os.path.exists(marker):
        return names
    shutil.rmtree(top, ignore_errors=True)
    for i, name in enumerate(names):
        path = os.path.join(top, name)
        if i % PER_FOLDER == 0:
            os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(jpeg)
        with open(path + ".xmp", "w") as f:
            f.write(SIDECAR % {"rating": i % 6, "label": i % 5, "name": os.path.basename(name)})
    open(marker, "w").close()
    return names


def compile_peer(out: str) -> str:
    binary = os.path.join(out, "exempi_rate")
    source = os.path.join(HERE, "native", "exempi_rate.c")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "exempi-2.0"], check=True, capture_output=True, text=True).stdout.split()
    subprocess.run(["gcc", "-O2", "-Wall", "-o", binary, source] + flags, check=True)
    return binary


def environment(work: str) -> dict:
    home = os.path.join(work, "home")
    os.makedirs(home, exist_ok=True)
    return dict(os.environ, HOME=home, XDG_DATA_HOME=os.path.join(home, "data"), XDG_STATE_HOME=os.path.join(home, "state"),
                XDG_CONFIG_HOME=os.path.join(home, "config"), XDG_CACHE_HOME=os.path.join(home, "cache"), XDG_RUNTIME_DIR=home)


def wait_marks_read(daemon, client, timeout: float = 1800.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        status = client.request("status", timeout=60)
        if curatord_client.scan_done(status) and status.get("xmp_pending") == 0:
            return status
        if time.monotonic() > deadline or not daemon.alive():
            raise RuntimeError("marks still pending (%s); log tail:\n%s" % (status.get("xmp_pending"), daemon.log_tail()))
        time.sleep(0.05)


def read_workload(args, env, load) -> list:
    top = os.path.join(args.dir, "read")
    make_tree(top, args.n, small_jpeg(args.dir))
    rows = []
    for rep in range(args.reps):
        figures = {}
        t0 = time.monotonic()
        for subject in stats.rotated(["curatord", "exiftool"], rep):
            if subject == "curatord":
                run_dir = os.path.join(args.dir, "run-read")
                shutil.rmtree(run_dir, ignore_errors=True)
                os.makedirs(run_dir)
                daemon = curatord_client.Daemon(os.path.join(args.bin, "curatord"), [top], run_dir, env,
                                                options={"thumbnails": False})
                daemon.start()
                client = daemon.connect()
                status = wait_marks_read(daemon, client)
                figures["curatord"] = time.monotonic() - daemon.started_at
                if rep == 0:
                    rated = client.request("list", filter={"rating_min": 1}, fields=["id"], limit=1)
                    print("  check: %s photos, %s rated (expected %d)" % (status.get("photos"), rated.get("total"),
                                                                           args.n - (args.n + 5) // 6), flush=True)
                client.close()
                daemon.stop()
            else:
                start = time.monotonic()
                subprocess.run(["exiftool", "-fast2", "-r", "-XMP:Rating", "-XMP:Label", top], check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                figures["exiftool"] = time.monotonic() - start
        low, high = load.between(t0, time.monotonic())
        rows.append((figures["curatord"], figures["exiftool"], low, high))
        print("  read rep %d: curatord %.2f s, exiftool %.2f s, x%.3f (load %.1f-%.1f)" % (
            rep + 1, figures["curatord"], figures["exiftool"], figures["curatord"] / figures["exiftool"], low, high), flush=True)
    return rows


def rate_workload(args, env, load) -> list:
    top = os.path.join(args.dir, "rate")
    names = make_tree(top, args.rate_n, small_jpeg(args.dir))
    sidecars = [os.path.join(top, name + ".xmp") for name in names]
    peer = compile_peer(args.dir)
    run_dir = os.path.join(args.dir, "run-rate")
    shutil.rmtree(run_dir, ignore_errors=True)
    os.makedirs(run_dir)
    daemon = curatord_client.Daemon(os.path.join(args.bin, "curatord"), [top], run_dir, env, options={"thumbnails": False})
    daemon.start()
    client = daemon.connect()
    wait_marks_read(daemon, client)
    ids = [p["id"] for p in client.request("list", fields=["id"], limit=args.rate_n + 10)["photos"]]
    assert len(ids) == args.rate_n, len(ids)
    rows = []
    # Untimed: every sidecar made to say the same, so that each timed write changes all.
    client.request("rate", timeout=600, ids=ids, rating=5)
    rating = 5
    try:
        for rep in range(args.rate_reps):
            figures = {}
            t0 = time.monotonic()
            for subject in stats.rotated(["curatord", "exempi"], rep):
                rating = rating % 5 + 1
                # The previous write's sidecars read again by the daemon first.
                wait_marks_read(daemon, client)
                if subject == "curatord":
                    elapsed, result = client.timed_request("rate", timeout=600, ids=ids, rating=rating)
                    written = sum(1 for p in result["photos"] if p["sidecars"])
                    assert written == args.rate_n, written
                    figures["curatord"] = elapsed
                else:
                    start = time.monotonic()
                    subprocess.run([peer, str(rating)] + sidecars, check=True)
                    figures["exempi"] = time.monotonic() - start
            low, high = load.between(t0, time.monotonic())
            rows.append((figures["curatord"], figures["exempi"], low, high))
            print("  rate rep %d: curatord %.3f s, exempi loop %.3f s, x%.3f (load %.1f-%.1f)" % (
                rep + 1, figures["curatord"], figures["exempi"], figures["curatord"] / figures["exempi"], low, high), flush=True)
    finally:
        client.close()
        daemon.stop()
    return rows


def report(name: str, rows: list, target: float):
    ratios = [c / p for c, p, _, _ in rows]
    ratio = stats.median(ratios)
    print("%s: x%.3f %s, curatord %.3f s, peer %.3f s (medians), load %.1f-%.1f; target <= %.1fx: %s" % (
        name, ratio, stats.spread(ratios), stats.median([r[0] for r in rows]), stats.median([r[1] for r in rows]),
        min(r[2] for r in rows), max(r[3] for r in rows), target, "met" if ratio <= target else "MISSED"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.path.join(HERE, "..", ".build", "release"))
    parser.add_argument("--dir", default="/var/tmp/marks-bench", help="the trees are made here once and kept")
    parser.add_argument("--n", type=int, default=100000)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--rate-n", type=int, default=1000)
    parser.add_argument("--rate-reps", type=int, default=10)
    parser.add_argument("--workloads", default="read,rate")
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    print(machine.one_line(machine.describe()), flush=True)
    env = environment(args.dir)
    load = machine.LoadSampler().start()
    try:
        workloads = args.workloads.split(",")
        if "read" in workloads:
            report("read %d sidecars vs exiftool -fast2" % args.n, read_workload(args, env, load), 0.2)
        if "rate" in workloads:
            report("rate %d in one request vs an exempi loop" % args.rate_n, rate_workload(args, env, load), 2.0)
    finally:
        load.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
