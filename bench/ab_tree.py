# SPDX-License-Identifier: GPL-2.0-or-later
"""The tree the A/B scripts beside bench/run.py share (`sched_cold_ab.py`,
`lock_wait_ab.py`, `hint_during_scan_ab.py`): made once under DIR by
bench/groups_cpu_ab.py (bench/gen_tree.py, seed 1) and kept, with the private
environment and the run folder their daemons use."""
import json
import os
import sys

import procs


class ABTree:
    def __init__(self, base: str = None):
        self.base = base or os.environ.get("DIR", "/tmp/curatord-groups-ab")
        self.tree = os.path.join(self.base, "tree")
        manifest_path = os.path.join(self.base, "manifest.json")
        if not os.path.exists(manifest_path):
            sys.exit("no tree under %s: run bench/groups_cpu_ab.py once first" % self.base)
        with open(manifest_path) as f:
            self.manifest = json.load(f)
        # The daemons' sockets, configurations and state directories; their HOME.
        self.run_dir = os.path.join(self.base, "run")
        home = os.path.join(self.base, "home")
        os.makedirs(self.run_dir, exist_ok=True)
        os.makedirs(home, exist_ok=True)
        self.env = procs.private_env(home, os.path.join(home, "rt"))

    def expected_photos(self, groups_on: bool) -> int:
        """What a root lists when its scan is done: the tree's groups, grouped; else every photo file."""
        return self.manifest["groups"] if groups_on else self.manifest["photos"]
