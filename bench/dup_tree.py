#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A photo tree with known exact duplicates, for the duplicates benchmark (issue 53).

N photo files (`IMG_#####.JPG`, random bytes: what is timed is finding equal files,
not decoding them) in event folders of 150, of which:

- 2 % are exact copies of another photo, in `Backup/` folders under the same name
  with a later mtime (a phone backup copied into the family folder again);
- 1 % are decoys of the same size as another photo and other content (read by every
  tool past the size, told apart by the first block);
- 0.2 % are near copies: a photo with one byte changed in its middle (told apart
  only by the whole file, or by the head when the file is small);
- the rest are originals of sizes no other original has (real photos of a few MB
  rarely share a size; these are 4 to about 120 KiB so that the tree fits a scratch
  image, with sizes drawn without replacement).

The manifest gives the truth: the duplicate sets (each two files) and how many
files are in one.

    dup_tree.py DIR --n 100000 [--seed 1]
"""
import argparse
import json
import os
import random

PER_FOLDER = 150
COPY_SHARE = 0.02
DECOY_SHARE = 0.01
NEAR_SHARE = 0.002
BASE_SIZE = 4096


def _content(seed: int, index: int, size: int) -> bytes:
    return random.Random(seed * 10_000_019 + index).randbytes(size)


def _write(path: str, data: bytes, mtime_ns: int):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)
    os.utime(path, ns=(mtime_ns, mtime_ns))


def generate(root: str, n: int, seed: int = 1) -> dict:
    rng = random.Random(seed)
    copies, decoys, near = int(n * COPY_SHARE), int(n * DECOY_SHARE), int(n * NEAR_SHARE)
    originals = n - copies - decoys - near
    sizes = [BASE_SIZE + s for s in rng.sample(range(int(originals * 1.2)), originals)]
    base_ns = 1_600_000_000 * 10**9
    paths = []
    for i in range(originals):
        event = i // PER_FOLDER
        folder = os.path.join(root, "%04d" % (2012 + event // 100), "%03d-event" % event)
        if i % PER_FOLDER == 0:
            os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "IMG_%05d.JPG" % i)
        _write(path, _content(seed, i, sizes[i]), base_ns + i * 2 * 10**9)
        paths.append(path)
    picked = rng.sample(range(originals), copies + decoys + near)
    sets = []
    for k, i in enumerate(picked[:copies]):
        folder = os.path.join(root, "Backup", "phone-%03d" % (k // PER_FOLDER))
        if k % PER_FOLDER == 0:
            os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "IMG_%05d.JPG" % i)
        _write(path, _content(seed, i, sizes[i]), base_ns + (originals + k) * 2 * 10**9)
        sets.append([os.path.relpath(paths[i], root), os.path.relpath(path, root)])
    odd = os.path.join(root, "Other")
    os.makedirs(odd, exist_ok=True)
    for k, i in enumerate(picked[copies:copies + decoys]):
        _write(os.path.join(odd, "decoy_%05d.JPG" % k), _content(seed + 1, k, sizes[i]), base_ns)
    for k, i in enumerate(picked[copies + decoys:]):
        data = bytearray(_content(seed, i, sizes[i]))
        data[len(data) // 2] ^= 0xFF
        _write(os.path.join(odd, "near_%05d.JPG" % k), bytes(data), base_ns)
    total = sum(sizes) + sum(sizes[i] for i in picked)
    return {"root": root, "photos": n, "originals": originals, "copies": copies, "decoys": decoys, "near": near,
            "sets": sets, "in_sets": 2 * len(sets), "bytes": total}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dir")
    p.add_argument("--n", type=int, default=100000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    manifest = generate(args.dir, args.n, args.seed)
    manifest.pop("sets")
    json.dump(manifest, __import__("sys").stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
