# SPDX-License-Identifier: GPL-2.0-or-later
"""The filesystem the benchmark runs on, and its guaranteed clean-up.

Our machines' root filesystem is ext4 *without* a journal, where creating files
right after deleting many is 10-30x slower (ext4's recently_deleted() inode check):
every create-heavy figure would measure that, not the programs. So the harness
mounts a journaled ext4 image on a loop device (default) or a tmpfs, and says which.
"""
import os
import shutil
import subprocess
import tempfile
import time

KINDS = ("loop-ext4", "tmpfs", "none")


class ScratchFS:
    """A mounted scratch area; `close()` unmounts and deletes everything, always."""

    def __init__(self, kind: str, size_gb: int, base_dir: str = None, inodes: int = None, need_gb: float = 0,
                 direct_io: bool = True):
        if kind not in KINDS:
            raise ValueError("filesystem must be one of %s" % ", ".join(KINDS))
        self.kind = kind
        self.size_gb = size_gb
        self.inodes = inodes      # mkfs.ext4 -N (default: one inode per 4 KiB)
        self.need_gb = need_gb    # what the run will write into the image, at most
        # The loop device reading and writing its image with O_DIRECT (losetup --direct-io):
        # what it writes back is not copied into a second page cache (the image file's)
        # and written back again by the file system below, as a disk does.
        self.direct_io = direct_io
        self.workdir = tempfile.mkdtemp(prefix="curatord-bench-", dir=base_dir)
        self.image = os.path.join(self.workdir, "scratch.img")
        self.mountpoint = os.path.join(self.workdir, "mnt")
        self.mounted = False
        self.description = ""

    def open(self):
        os.makedirs(self.mountpoint)
        if self.kind == "loop-ext4":
            self._check_space()
            # Sparse image; one inode per 4 KiB because the tree is 100 000+ small files,
            # or as many as asked (a million photos and their sidecars: -N 1500000).
            with open(self.image, "wb") as f:
                f.truncate(self.size_gb << 30)
            inodes = ["-N", str(self.inodes)] if self.inodes else ["-i", "4096"]
            _run(["mkfs.ext4", "-q", "-F"] + inodes + ["-E", "lazy_itable_init=0,lazy_journal_init=0", self.image])
            if self.direct_io:
                device = subprocess.run(["losetup", "--find", "--show", "--direct-io=on", self.image],
                                        capture_output=True, text=True, check=True).stdout.strip()
                try:
                    _run(["mount", device, self.mountpoint])
                finally:
                    # Detached now, the device goes when it is unmounted (as `mount -o loop` does).
                    subprocess.run(["losetup", "-d", device], capture_output=True)
                # A file system below that cannot do O_DIRECT (tmpfs) leaves it off: say so.
                try:
                    with open("/sys/block/%s/loop/dio" % os.path.basename(device)) as f:
                        self.direct_io = f.read().strip() == "1"
                except OSError:
                    pass
            else:
                _run(["mount", "-o", "loop", self.image, self.mountpoint])
            self.mounted = True
            self.description = "ext4 with journal (has_journal), %d GiB sparse image on a loop device%s (backed by %s), " \
                               "mkfs.ext4 %s, %d inodes, mounted %s" % (
                                   self.size_gb, " with direct I/O" if self.direct_io else "", _fs_type(self.workdir),
                                   " ".join(inodes), _inode_count(self.mountpoint), _mount_options(self.mountpoint))
        elif self.kind == "tmpfs":
            _run(["mount", "-t", "tmpfs", "-o", "size=%dg,nr_inodes=0" % self.size_gb, "tmpfs", self.mountpoint])
            self.mounted = True
            self.description = "tmpfs, %d GiB" % self.size_gb
        else:
            self.description = "unmounted directory %s on %s (figures may be distorted)" % (
                self.mountpoint, _fs_type(self.mountpoint))
        return self

    def _check_space(self):
        """Says clearly, before anything is made, when the disk cannot hold the run."""
        st = os.statvfs(self.workdir)
        free_gb = st.f_bavail * st.f_frsize / (1 << 30)
        if free_gb < self.need_gb:
            raise NotEnoughSpace("not enough disk space for this run: about %.1f GiB will be written into the scratch "
                                 "image under %s, and only %.1f GiB are free there; free some space or pass "
                                 "--scratch-dir on a larger disk" % (self.need_gb, self.workdir, free_gb))

    def path(self, *parts) -> str:
        return os.path.join(self.mountpoint, *parts)

    def drop_caches_possible(self) -> bool:
        return os.access("/proc/sys/vm/drop_caches", os.W_OK)

    def close(self):
        """Unmounts (lazily if something still holds it) and removes the work dir."""
        if self.mounted:
            for attempt in range(10):
                r = subprocess.run(["umount", self.mountpoint], capture_output=True, text=True)
                if r.returncode == 0:
                    break
                time.sleep(0.3 * (attempt + 1))
            else:
                subprocess.run(["umount", "-l", self.mountpoint], capture_output=True)
            self.mounted = False
        shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self):
        return self.open()

    def __exit__(self, *exc):
        self.close()
        return False


class NotEnoughSpace(Exception):
    pass


def _inode_count(path: str) -> int:
    return os.statvfs(path).f_files


def _mount_options(path: str) -> str:
    try:
        with open("/proc/mounts") as f:
            for line in f:
                fields = line.split()
                if len(fields) >= 4 and fields[1] == path:
                    return fields[3]
    except OSError:
        pass
    return "?"


def _fs_type(path: str) -> str:
    r = subprocess.run(["stat", "-f", "-c", "%T", path], capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def _run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), r.returncode, r.stderr.strip()))
