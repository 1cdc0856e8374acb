#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The harness's own logic, checked without a daemon (make bench-quick runs it first):
per-run ratios and the verdicts taken on them, the subscriber's event counting, the
C and Python tree writers writing the same tree, the machine record and the doc
block's method section.

    python3 bench/selftest.py
"""
import hashlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import baseline  # noqa: E402
import gen_tree  # noqa: E402
import machine  # noqa: E402
import native  # noqa: E402
import report  # noqa: E402
import stats  # noqa: E402
from results import Results, paired_ratios, ratio_of  # noqa: E402


class Ratios(unittest.TestCase):
    def test_per_run_ratios_pair_repetitions(self):
        r = Results()
        # A neighbour's load in repetition 2 slows both sides: per run the ratio stays 0.5,
        # while the ratio of the medians would say 0.6.
        r.add("cold", 10, "curatord", "time", "s", [1.0, 3.0, 1.2], interleaved=True)
        r.add("cold", 10, "find", "time", "s", [2.0, 6.0, 2.4], interleaved=True)
        self.assertEqual(r.ratios("cold", 10, "curatord", "time", "find"), [0.5, 0.5, 0.5])
        self.assertAlmostEqual(ratio_of(r.find("cold", 10, "curatord", "time"), r.find("cold", 10, "find", "time")), 0.5)
        self.assertIn("[0.50–0.50]", report.ratio_text(r.find("cold", 10, "curatord", "time"),
                                                        r.find("cold", 10, "find", "time")))

    def test_series_not_interleaved_fall_back_to_medians(self):
        r = Results()
        a = r.add("cold", 10, "curatord", "time", "s", [1.0, 3.0, 1.2])
        b = r.add("cold", 10, "find", "time", "s", [2.0, 6.0, 2.4], interleaved=True)
        self.assertIsNone(paired_ratios(a, b))
        self.assertAlmostEqual(ratio_of(a, b), 1.2 / 2.4)
        self.assertIn("of medians", report.ratio_text(a, b))

    def test_the_order_rotates(self):
        self.assertEqual([stats.rotated("CFW", rep) for rep in range(4)],
                         [list("CFW"), list("FWC"), list("WCF"), list("CFW")])
        self.assertEqual([stats.rotated("CP", rep) for rep in range(3)], [list("CP"), list("PC"), list("CP")])

    def test_unequal_lengths_are_not_paired(self):
        r = Results()
        a = r.add("x", 1, "curatord", "t", "s", [1.0, 2.0], interleaved=True)
        b = r.add("x", 1, "p", "t", "s", [1.0], interleaved=True)
        self.assertIsNone(paired_ratios(a, b))

    def test_results_survive_json(self):
        r = Results()
        r.add("cold", 10, "curatord", "time", "s", [1.0], interleaved=True)
        r.verdict("cold", 10, "t", True, "d", set_for="issue 14")
        r.load.append(("cold", 10, 1.0, 2.0))
        back = Results.from_json(r.to_json())
        self.assertTrue(back.series[0].interleaved)
        self.assertEqual(back.verdicts[0].set_for, "issue 14")
        self.assertEqual(back.load, [("cold", 10, 1.0, 2.0)])


class Baseline(unittest.TestCase):
    """--baseline-bin: a workload run once per build per repetition, alternating which goes
    first; the baseline's curatord rows kept under curatord@base and compared with this
    build's row of the same kind, its peers' rows dropped."""

    class Workload:
        KEY = "cold"

        def __init__(self):
            self.order = []

        def run(self, ctx):
            self.order.append(ctx.daemon_name)
            slow = 2.0 if ctx.daemon_name == baseline.BASE_DAEMON else 1.0
            ctx.results.add("cold", ctx.n, "curatord", "time", "s", [slow], interleaved=True)
            ctx.results.add("cold", ctx.n, "curatord, one client subscribed", "time", "s", [slow * 3],
                            interleaved=True)
            ctx.results.add("cold", ctx.n, "find", "time", "s", [4.0], interleaved=True)
            ctx.results.add("cold", ctx.n, "the writer, curatord watching", "rate", "files/s", [slow * 10],
                            higher_is_better=True, interleaved=True)
            ctx.results.note("cold", ctx.n, "a note")

    class Context:
        def __init__(self):
            self.results, self.binary, self.daemon_name, self.n, self.reps = Results(), "/new", "curatord", 10, 3
            self.args = type("Args", (), {"trash_reps": 2})()

        def stop_all(self):
            pass

    def test_paired_run(self):
        ctx, w = self.Context(), self.Workload()
        baseline.run_paired(ctx, w, "/old/curatord")
        self.assertEqual(w.order, ["curatord", "curatord-base", "curatord-base", "curatord", "curatord",
                                   "curatord-base"])
        r = ctx.results
        self.assertEqual((ctx.binary, ctx.daemon_name, ctx.reps, ctx.args.trash_reps), ("/new", "curatord", 3, 2))
        self.assertEqual(r.find("cold", 10, "curatord", "time").samples, [1.0] * 3)
        self.assertEqual(r.find("cold", 10, "curatord@base", "time").samples, [2.0] * 3)
        self.assertEqual(r.find("cold", 10, "curatord@base, one client subscribed", "time").samples, [6.0] * 3)
        self.assertEqual(r.find("cold", 10, "find", "time").samples, [4.0] * 3)
        self.assertIsNone(r.find("cold", 10, "curatord@base", "find"))
        self.assertEqual(r.find("cold", 10, "the writer, curatord@base watching", "rate").samples, [20.0] * 3)
        rates = [s for s in r.series if s.metric == "rate"]
        self.assertEqual(report._compared_with(rates, rates[1]).subject, "the writer, curatord watching")
        rows = [s for s in r.series if s.metric == "time"]
        text = {s.subject: report.ratio_text(report._compared_with(rows, s), s) for s in rows}
        self.assertEqual(text["curatord@base"], "x0.50 [0.50–0.50] (curatord better)")
        self.assertEqual(text["curatord@base, one client subscribed"], "x0.50 [0.50–0.50] (curatord better)")
        self.assertEqual(text["curatord, one client subscribed"], "")
        self.assertIn("x0.25", text["find"])
        self.assertEqual(sum(1 for _, _, t in r.notes if t == "a note"), 1)
        self.assertTrue(any(t.startswith("before/after run") for _, _, t in r.notes))


class Subscriber(unittest.TestCase):
    def test_counts_events_not_the_ids_inside_them(self):
        """A photo in an event has an `id` too: only lines that start with one are answers."""
        tmp = tempfile.mkdtemp()
        path = os.path.join(tmp, "s.sock")
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(path)
        server.listen(1)
        lines = [b'{"id":1,"ok":true,"result":{"subscribed":true}}',
                 b'{"event":"scan","root":"r","state":"started"}'] + \
                [b'{"event":"added","root":"r","photo":{"id":%d,"path":"a/%d.jpg"}}' % (i, i) for i in range(1000)] + \
                [b'{"event":"scan","root":"r","state":"done","count":1000}']
        payload = b"\n".join(lines) + b"\n"

        def serve():
            conn, _ = server.accept()
            conn.recv(100)
            # In odd pieces, so that lines are split across reads.
            for at in range(0, len(payload), 777):
                conn.sendall(payload[at:at + 777])
            conn.close()
        t = threading.Thread(target=serve)
        t.start()
        try:
            # stdin held open: the subscriber stops when it closes, and must stop here
            # on the server's hang-up first.
            p = subprocess.Popen([sys.executable, os.path.join(HERE, "scan_subscriber.py"), path],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            try:
                stdout = p.stdout.read()
                p.wait(timeout=30)
            finally:
                p.stdin.close()
                if p.poll() is None:
                    p.kill()
                p.wait()
                p.stdout.close()
        finally:
            t.join()
            server.close()
            shutil.rmtree(tmp)
        import json
        counts = json.loads(stdout.strip().splitlines()[-1])
        self.assertEqual(counts["events"], 1002)
        self.assertEqual(counts["added"], 1000)
        self.assertEqual(counts["scan"], 2)
        self.assertEqual(counts["scan_started"], 1)
        self.assertIsNotNone(counts["subscribed_at"])


class Trees(unittest.TestCase):
    def _digest(self, root):
        h = hashlib.sha256()
        for folder, dirs, files in sorted(os.walk(os.fsencode(root))):
            dirs.sort()
            h.update(os.path.relpath(folder, os.fsencode(root)) + b"\0")
            for name in sorted(files):
                st = os.stat(os.path.join(folder, name))
                with open(os.path.join(folder, name), "rb") as f:
                    h.update(name + b"\0%d\0%d\0" % (st.st_mtime_ns, st.st_mode) + f.read())
        return h.hexdigest()

    def test_groups_off_peer(self):
        """--groups-off-peer: the same binary, its root given `groups: false`, rows under
        curatord@groups-off compared with this run's."""
        ctx, seen = Baseline.Context(), []

        class Workload:
            KEY = "list"

            def run(self, c):
                seen.append((c.binary, c.daemon_name, c.root_options))
                off = c.root_options == {"groups": False}
                c.results.add("list", c.n, "curatord", "time", "s", [1.0 if off else 1.05], interleaved=True)
        baseline.run_paired(ctx, Workload(), baseline.groups_off_peer("/new"))
        self.assertEqual(seen[:2], [("/new", "curatord", None), ("/new", "curatord-groups-off", {"groups": False})])
        self.assertEqual(seen[2][1], "curatord-groups-off")  # the second repetition starts with the peer
        self.assertIsNone(ctx.root_options)
        rows = ctx.results.series
        off = ctx.results.find("list", 10, "curatord@groups-off", "time")
        self.assertEqual(off.samples, [1.0] * 3)
        self.assertEqual(report.ratio_text(report._compared_with(rows, off), off), "x1.05 [1.05–1.05] (curatord worse)")

    def test_group_count_mirrors_the_daemon(self):
        names = [b"DSC_0001.NEF", b"DSC_0001.JPG", b"DSC_0001.NEF.xmp",  # a pair and its sidecar: one
                 b"IMG_0002.JPG", b"img_0002.cr2",                      # case folded: one
                 b"IMG_0003.JPG", b"IMG_0003.HEIC",                     # two rendered: two
                 b"IMG_0004.HEIC", b"IMG_0004.MOV",                     # a Live Photo: one
                 b"IMG_0005.CR2", b"IMG_0005.MOV",                      # a clip with no still: two
                 b"IMG_0006.GIF", b"IMG_0006.NEF",                      # a GIF never groups: two
                 b"caf\xe9.jpg", b".DS_Store"]
        self.assertEqual(gen_tree.count_groups(names), (10, 3))
        tmp = tempfile.mkdtemp()
        try:
            m = gen_tree.generate(os.path.join(tmp, "t"), 2000, seed=1)
            self.assertLess(m["groups"], m["photos"])
            self.assertEqual(m["photos"] - m["groups"], m["pairs"])  # every group here is of two
            self.assertGreater(m["sidecars"], 0)
            paths = gen_tree.make_batch(os.path.join(tmp, "b"), 100, groups=True)
            self.assertEqual(len(paths), gen_tree.batch_files(100, True))
            names = sorted(os.path.basename(p) for p in paths)
            self.assertFalse(any(b.startswith(a) for a, b in zip(names, names[1:])))  # trash-restore's prefix match
            self.assertEqual(gen_tree.count_groups(names), (100, 34))
        finally:
            shutil.rmtree(tmp)

    @unittest.skipIf(native.fastfiles() is None, "no C compiler")
    def test_c_and_python_writers_write_the_same_tree(self):
        tmp = tempfile.mkdtemp()
        try:
            c = gen_tree.generate(os.path.join(tmp, "c"), 2000, seed=3, writer="c")
            p = gen_tree.generate(os.path.join(tmp, "p"), 2000, seed=3, writer="python")
            for key in ("photos", "other_files", "directories", "bytes", "exif_jpegs", "non_utf8_names", "folders"):
                self.assertEqual(c[key], p[key], key)
            self.assertEqual(self._digest(os.path.join(tmp, "c")), self._digest(os.path.join(tmp, "p")))
        finally:
            shutil.rmtree(tmp)

    def test_fixed_folder_size(self):
        tmp = tempfile.mkdtemp()
        try:
            m = gen_tree.generate(os.path.join(tmp, "t"), 1000, seed=1, per_folder=100)
            self.assertEqual(m["photos"], 1000)
            for folder in m["folders"]:
                names = os.listdir(os.path.join(tmp, "t", folder))
                photos = [n for n in names if gen_tree.is_photo(os.fsencode(n))]
                # A Latin-1 name may ride along with its folder's last photo.
                self.assertIn(len(photos), (100, 101), folder)
        finally:
            shutil.rmtree(tmp)

    @unittest.skipIf(native.fastfiles() is None, "no C compiler")
    def test_flood_writer(self):
        tmp = tempfile.mkdtemp()
        try:
            out = subprocess.run([native.fastfiles(), "flood", os.path.join(tmp, "f"), "250", "100", "512"],
                                 capture_output=True, text=True, check=True)
            first, last = (int(x) for x in out.stdout.split())
            self.assertLessEqual(first, last)
            self.assertLessEqual(abs(last / 1e9 - time.perf_counter()), 60)  # the same clock as perf_counter
            self.assertEqual(sorted(os.listdir(os.path.join(tmp, "f"))), ["part-00000", "part-00001", "part-00002"])
            self.assertEqual(len(os.listdir(os.path.join(tmp, "f", "part-00002"))), 50)
            # Straight into an existing folder, names prefixed.
            subprocess.run([native.fastfiles(), "flood", os.path.join(tmp, "f"), "3", "0", "512", "x-"], check=True,
                           capture_output=True)
            self.assertEqual(sorted(n for n in os.listdir(os.path.join(tmp, "f")) if n.startswith("x-")),
                             ["x-IMG_000000.JPG", "x-IMG_000001.JPG", "x-IMG_000002.JPG"])
        finally:
            shutil.rmtree(tmp)


class Record(unittest.TestCase):
    def test_machine_and_method_in_the_doc_block(self):
        host = machine.describe()
        self.assertTrue(host["cpu_model"])
        self.assertGreater(host["cpus_online"], 0)
        host["load_range"] = "1.0–2.0"
        r = Results()
        r.add("cold", 10, "curatord", "time", "s", [1.0], interleaved=True)
        lines = report.environment("ext4 test", ["bench/run.py"], host, [1.0, 1.0, 1.0],
                                   soft={"sources": "x", "peers": []})
        block = report.markdown(r, {"cold": "cold start"}, ["cold"], lines)
        self.assertIn(host["cpu_model"], block)
        self.assertIn("interleaved", block)
        self.assertIn("Linux " + host["kernel"], block)


if __name__ == "__main__":
    unittest.main(verbosity=1)
