#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A tree of camera JPEGs with known bursts, for the stack search's tests and its
threshold table, made with the `vips` command-line tool (as sample_photos.py).

    burst_tree.py DIR [--bursts 12] [--seed 1] [--width 1024 --height 768]

Each burst is a scene (a region of sample_photos' photo-like texture, or with
`--photos` half of a real photograph) shot by one
camera (Make, Model, BodySerialNumber) as 3 to 6 frames 0.15 to 0.6 s apart
(DateTimeOriginal with SubSecTimeOriginal). A frame differs from the scene by a
small shift, sometimes a tighter crop, an exposure change; in every other burst
one frame is blurred (the first in every fourth burst), and a sharp one is the keeper. Beside the bursts,
look-alikes that are no burst: the same scene from another camera at the same
moment, from the same camera minutes later, and another scene from the same camera
a second after the burst. DIR/truth.json says which file is in which burst (null:
none), for the blurred bursts which frame is blurred, and each file's camera and
capture time (seconds).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sample_photos import TIFFWriter, _ASCII, _LONG, _SHORT, run, texture, with_exif  # noqa: E402

CAMERAS = [("Canon", "Canon EOS R6", "0231001234"), ("Canon", "Canon EOS R6", "0231009876"),
           ("FUJIFILM", "X-T4", "7AB12345"), ("NIKON CORPORATION", "NIKON Z 6", "6012345")]


def exif_app1(camera, when, subsec):
    make, model, serial = camera
    ifd0 = [(0x010F, _ASCII, make), (0x0110, _ASCII, model), (0x0112, _SHORT, [1]), (0x8769, _LONG, ("offset-of", "ifd1"))]
    exif = [(0x9003, _ASCII, when), (0x9004, _ASCII, when), (0x9291, _ASCII, subsec), (0xA431, _ASCII, serial)]
    payload = b"Exif\x00\x00" + TIFFWriter().build([ifd0, exif])
    return b"\xff\xe1" + len(payload + b"12").to_bytes(2, "big") + payload


def stamp(seconds):
    """EXIF text of a naive time in seconds since 2024-05-01 00:00:00, and its sub-seconds."""
    whole = int(seconds)
    minute, second = divmod(whole, 60)
    hour, minute = divmod(minute, 60)
    return "2024:05:%02d %02d:%02d:%02d" % (1 + hour // 24, hour % 24, minute, second), "%03d" % int(round((seconds - whole) * 1000) % 1000)


def frame(out, tex, scene, width, height, rng, camera, seconds, shift=0.03, zoom=1.0, exposure=1.0, blur=0.0, frames=None):
    """One frame of `scene` (x, y of the texture) to `out`: shifted by up to `shift`
    of the width, cropped `zoom` times tighter, brightness times `exposure`, blurred."""
    x, y = scene
    dx, dy = rng.randint(-int(shift * width), int(shift * width)), rng.randint(-int(shift * height), int(shift * height))
    cw, ch = int(width / zoom), int(height / zoom)
    cx, cy = x + dx + (width - cw) // 2, y + dy + (height - ch) // 2
    with tempfile.TemporaryDirectory(dir=os.path.dirname(out)) as tmp:
        cur = os.path.join(tmp, "a.v")
        run("extract_area", tex, cur, cx, cy, cw, ch)
        if zoom != 1.0:
            nxt = os.path.join(tmp, "z.v")
            run("resize", cur, nxt, width / cw, "--vscale", height / ch)
            cur = nxt
        if exposure != 1.0:
            nxt = os.path.join(tmp, "e.v")
            run("linear", cur, nxt, exposure, 0, "--uchar")
            cur = nxt
        if blur > 0:
            nxt = os.path.join(tmp, "b.v")
            run("gaussblur", cur, nxt, blur, "--precision", "integer")
            cur = nxt
        jpeg = os.path.join(tmp, "f.jpg")
        run("jpegsave", cur, jpeg, "--Q", 90, "--strip")
        data = open(jpeg, "rb").read()
    when, subsec = stamp(seconds)
    if frames is not None:
        frames[os.path.basename(out)] = {"camera": CAMERAS.index(camera), "t": round(seconds, 3)}
    with open(out, "wb") as f:
        f.write(with_exif(data, exif_app1(camera, when, subsec)))


# A photo's tile in the mosaic of real photographs: two frames wide (its left and
# right halves are two scenes), with a margin around each scene for shifts and crops.
TILE_MARGIN = 0.125


def photo_mosaic(photos, width, height, cache):
    """The photographs side by side, each resized (not cropped) to a tile of two
    scenes of `width` x `height` with their margins, one row: (the .v file, the
    scenes' top-left corners)."""
    tw, th = int(2 * width * (1 + 2 * TILE_MARGIN)), int(height * (1 + 2 * TILE_MARGIN))
    tiles = []
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        for i, photo in enumerate(photos):
            resized, rgb = os.path.join(tmp, "r%d.v" % i), os.path.join(tmp, "t%d.v" % i)
            run("thumbnail", photo, resized, tw, "--height", th, "--size", "force")
            # Grey photographs as RGB, and no alpha: the tiles must be alike to be joined.
            run("colourspace", resized, rgb, "srgb")
            flat = os.path.join(tmp, "f%d.v" % i)
            run("extract_band", rgb, flat, 0, "--n", 3)
            tiles.append(flat)
        out = os.path.join(cache, "mosaic-%d-%dx%d.v" % (len(photos), width, height))
        run("arrayjoin", " ".join(tiles), out, "--across", len(tiles))
    margin_x, margin_y = int(width * TILE_MARGIN), int(height * TILE_MARGIN)
    scenes = []
    for i in range(len(photos)):
        scenes.append((i * tw + margin_x, margin_y))
        scenes.append((i * tw + 3 * margin_x + width, margin_y))
    return out, scenes


# The synthetic texture is this many frames wide and high: room for about 40
# scenes that do not overlap.
SCENES_ACROSS = 8


def make_tree(directory, bursts, seed, width, height, cache, photos=None):
    """`photos`: real photographs whose halves are the scenes (two scenes a burst:
    its own and the next one), instead of regions of the synthetic texture."""
    rng = random.Random(seed)
    os.makedirs(directory, exist_ok=True)
    truth = {"bursts": {}, "blurred": {}, "frames": {}}
    used = []
    if photos:
        tex, free_scenes = photo_mosaic(photos, width, height, cache)
        rng.shuffle(free_scenes)
        if len(free_scenes) < 2 * bursts:
            raise SystemExit("%d photographs give %d scenes: %d bursts need %d" % (
                len(photos), len(free_scenes), bursts, 2 * bursts))
    else:
        tex, free_scenes = texture(cache, width * SCENES_ACROSS, height * SCENES_ACROSS, seed), None

    def scene():
        if free_scenes is not None:
            return free_scenes.pop()
        # Scenes apart from each other: regions of the texture that do not overlap
        # while there is room (half a frame's overlap can pass for a pan of one
        # scene), overlapping by half once there is none.
        span_x, span_y = (SCENES_ACROSS - 1) * width, (SCENES_ACROSS - 1) * height
        for attempt in range(10_000):
            apart = 1 if attempt < 2_000 else 2
            s = (rng.randint(width // 10, span_x - width // 10), rng.randint(height // 10, span_y - height // 10))
            if all(abs(s[0] - u[0]) > width // apart or abs(s[1] - u[1]) > height // apart for u in used):
                used.append(s)
                return s
        raise SystemExit("no room for another scene: fewer bursts, or a larger texture")

    clock = 3600.0
    for b in range(bursts):
        camera = CAMERAS[b % len(CAMERAS)]
        where = scene()
        frames = rng.randint(3, 6)
        # Every other burst has a blurred frame, every fourth as its first: the first
        # taken is then the wrong one to keep.
        blurred = (0 if b % 4 == 0 else rng.randrange(frames)) if b % 2 == 0 else None
        label = "burst%02d" % b
        start = clock
        for i in range(frames):
            name = "%s-%d.jpg" % (label, i)
            frame(os.path.join(directory, name), tex, where, width, height, rng, camera, clock,
                  zoom=rng.choice([1.0, 1.0, 1.06]), exposure=rng.choice([1.0, 0.88, 1.12]),
                  blur=6.0 if i == blurred else 0.0, frames=truth["frames"])
            truth["bursts"][name] = label
            if i == blurred:
                truth["blurred"][label] = name
            clock += rng.uniform(0.15, 0.6)
        # Look-alikes that are no burst: another camera, same scene, same moment...
        other = CAMERAS[(b + 2) % len(CAMERAS)]
        name = "%s-othercam.jpg" % label
        frame(os.path.join(directory, name), tex, where, width, height, rng, other, start + 0.3, frames=truth["frames"])
        truth["bursts"][name] = None
        # ... the same camera and scene minutes later ...
        name = "%s-later.jpg" % label
        frame(os.path.join(directory, name), tex, where, width, height, rng, camera, start + 300, frames=truth["frames"])
        truth["bursts"][name] = None
        # ... and another scene a second after the burst.
        clock += 1.0
        name = "%s-next.jpg" % label
        frame(os.path.join(directory, name), tex, scene(), width, height, rng, camera, clock, frames=truth["frames"])
        truth["bursts"][name] = None
        clock += 900
    with open(os.path.join(directory, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1, sort_keys=True)
    return truth


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("directory")
    p.add_argument("--bursts", type=int, default=12)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--width", type=int, default=1024)
    p.add_argument("--height", type=int, default=768)
    p.add_argument("--cache", default=None, help="where the texture is kept (default: DIR/..)")
    p.add_argument("--photos", nargs="*", default=None, help="real photographs to cut the scenes from (two a photo)")
    a = p.parse_args(argv)
    cache = a.cache or os.path.dirname(os.path.abspath(a.directory))
    make_tree(a.directory, a.bursts, a.seed, a.width, a.height, cache, a.photos)


if __name__ == "__main__":
    main()
