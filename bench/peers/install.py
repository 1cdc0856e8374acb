# SPDX-License-Identifier: GPL-2.0-or-later
"""Makes sure the peers (and the tools the harness itself runs) are installed.

Missing ones are installed with apt-get when we are root; a machine where that is
not possible gets one clear message naming the packages.
"""
import os
import shutil
import subprocess

# command -> Debian package that provides it
NEEDED = {
    "watchman": "watchman",
    "inotifywait": "inotify-tools",
    "trash-put": "trash-cli",
    "trash-restore": "trash-cli",
    "gio": "libglib2.0-bin",
    "find": "findutils",
    "mkfs.ext4": "e2fsprogs",
    "vips": "libvips-tools",
    "vipsthumbnail": "libvips-tools",
    "gdk-pixbuf-thumbnailer": "libgdk-pixbuf2.0-bin",
    "chrt": "util-linux",
    "jdupes": "jdupes",
    "rdfind": "rdfind",
}


def missing():
    return sorted({pkg for cmd, pkg in NEEDED.items() if shutil.which(cmd) is None})


def ensure(log) -> list:
    """Installs what is missing; returns the packages still missing afterwards."""
    packages = missing()
    if not packages:
        return []
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return packages
    log("installing peers: apt-get install -y %s" % " ".join(packages))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "-q"] + packages
    if subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, timeout=900).returncode != 0:
        # A fresh machine may have no package lists yet.
        subprocess.run(["apt-get", "update", "-q"], env=env, stdout=subprocess.DEVNULL, timeout=900)
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, timeout=900)
    return missing()
