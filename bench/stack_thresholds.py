#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Precision and recall of the stack search by dHash distance, for docs/BENCHMARKS.md.

    stack_thresholds.py [--bursts 40] [--seed 2] [--thumbnailer .build/debug/curatord-thumbnailer] [--photos A.jpg B.png ...]

Makes a tree of known bursts and look-alikes (burst_tree.py), has the real
thumbnailer worker make each photo's thumbnails and measures over a pipe (the jobs
the daemon sends, with "look": true), then groups the photos as the daemon does
(StackSets: one camera, each frame at most 2 s after the one before and within the
distance of some frame of the stack) at each distance, and prints a Markdown table
of precision and recall over pairs of photos, and how many blurred bursts keep a
sharp frame (the sharpest is kept).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from burst_tree import make_tree  # noqa: E402

WINDOW = 2.0


def looks(thumbnailer, tree, cache, names):
    worker = subprocess.Popen([thumbnailer], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    ready = json.loads(worker.stdout.readline())
    assert ready.get("ready"), ready
    found = {}
    for i, name in enumerate(names):
        job = {"id": i, "uri": "file://" + os.path.join(tree, name), "sizes": ["normal", "large"], "type": "jpeg",
               "look": True, "cache": cache}
        worker.stdin.write(json.dumps(job) + "\n")
        worker.stdin.flush()
        answer = json.loads(worker.stdout.readline())
        look = answer.get("look")
        if look:
            found[name] = (int(look["dhash"], 16), look["sharpness"])
    worker.stdin.close()
    worker.wait()
    return found


def stacks(frames, measured, distance):
    members = sorted((f["camera"], f["t"], name) for name, f in frames.items() if name in measured)
    result, run = [], []
    for camera, t, name in members:
        if run and run[-1][0] == camera and t - run[-1][1] <= WINDOW + 1e-9 and any(
                bin(measured[m][0] ^ measured[name][0]).count("1") <= distance for _, _, m in run):
            run.append((camera, t, name))
        else:
            if len(run) > 1:
                result.append([m for _, _, m in run])
            run = [(camera, t, name)]
    if len(run) > 1:
        result.append([m for _, _, m in run])
    return result


def score(truth, found):
    stack_of = {name: i for i, s in enumerate(found) for name in s}
    names = sorted(truth["bursts"])
    tp = fp = fn = 0
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            same = a in stack_of and stack_of.get(b) == stack_of[a]
            truly = truth["bursts"][a] is not None and truth["bursts"][a] == truth["bursts"][b]
            tp += same and truly
            fp += same and not truly
            fn += truly and not same
    return tp / max(1, tp + fp), tp / max(1, tp + fn)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bursts", type=int, default=40)
    p.add_argument("--seed", type=int, default=2)
    p.add_argument("--thumbnailer", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "debug",
                                                         "curatord-thumbnailer"))
    p.add_argument("--distances", default="0,2,4,6,8,10,12,14,16,20,24")
    p.add_argument("--photos", nargs="*", default=None,
                   help="real photographs to cut the bursts' scenes from (two scenes a photo) instead of the texture")
    a = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="stack-thresholds-") as tmp:
        tree = os.path.join(tmp, "tree")
        truth = make_tree(tree, a.bursts, a.seed, 640, 480, tmp, a.photos)
        cache = os.path.join(tmp, "thumbnails")
        os.makedirs(cache)
        names = sorted(truth["bursts"])
        measured = looks(a.thumbnailer, tree, cache, names)
    bursts = sum(1 for v in set(truth["bursts"].values()) if v)
    print("%d photos: %d bursts of 3 to 6 frames (%d with a blurred frame), %d look-alikes that are no burst; "
          "%d measured." % (len(names), bursts, len(truth["blurred"]), sum(1 for v in truth["bursts"].values() if v is None),
                            len(measured)))
    print()
    print("| distance (bits of 64) | precision | recall | stacks | blurred bursts keeping a sharp frame |")
    print("|---:|---:|---:|---:|---:|")
    for distance in [int(d) for d in a.distances.split(",")]:
        found = stacks(truth["frames"], measured, distance)
        precision, recall = score(truth, found)
        sharp = 0
        for burst, blurred in truth["blurred"].items():
            for s in found:
                if any(truth["bursts"][m] == burst for m in s):
                    kept = max(s, key=lambda m: measured[m][1])
                    sharp += kept != blurred
                    break
        print("| %d | %.3f | %.3f | %d | %d of %d |" % (distance, precision, recall, len(found), sharp, len(truth["blurred"])))


if __name__ == "__main__":
    main()
