#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A FUSE file system for tests: BACKING served at MOUNTPOINT as it is, except for
the paths (relative to the mount) listed in FAILLIST, one a line:

    a/x.jpg              looking it up (lstat) fails with EIO, as a failing disk can
    a/y.jpg sleep 4      looking it up takes 4 seconds, as a hung network share does

The list is read at every lookup, so a test switches failures on and off by
rewriting it.

usage: failing-fs.py BACKING MOUNTPOINT FAILLIST
"""
import errno
import os
import sys
import time

from fusepy import FUSE, FuseOSError, Operations


class FailingFS(Operations):
    def __init__(self, backing, faillist):
        self.backing = backing
        self.faillist = faillist

    def _real(self, path):
        return os.path.join(self.backing, path.lstrip("/"))

    def _rule(self, path):
        try:
            with open(self.faillist) as f:
                for line in f:
                    words = line.split()
                    if words and words[0] == path.lstrip("/"):
                        return words[1:]
        except FileNotFoundError:
            pass
        return None

    def __call__(self, op, path, *args):
        try:
            return super().__call__(op, path, *args)
        except OSError as e:
            raise FuseOSError(e.errno or errno.EIO)

    def getattr(self, path, fh=None):
        rule = self._rule(path)
        if rule == []:
            raise FuseOSError(errno.EIO)
        if rule and rule[0] == "sleep":
            time.sleep(float(rule[1]))
        st = os.lstat(self._real(path))
        keys = ("st_mode", "st_ino", "st_nlink", "st_uid", "st_gid", "st_size",
                "st_atime", "st_mtime", "st_ctime")
        attrs = {k: getattr(st, k) for k in keys}
        attrs["st_atime"] = st.st_atime_ns / 1e9
        attrs["st_mtime"] = st.st_mtime_ns / 1e9
        attrs["st_ctime"] = st.st_ctime_ns / 1e9
        return attrs

    def readdir(self, path, fh):
        return [".", ".."] + os.listdir(self._real(path))

    def readlink(self, path):
        return os.readlink(self._real(path))

    def statfs(self, path):
        sv = os.statvfs(self._real(path))
        return {k: getattr(sv, k) for k in ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail",
                                             "f_ffree", "f_files", "f_flag", "f_frsize", "f_namemax")}

    def access(self, path, mode):
        if not os.access(self._real(path), mode):
            raise FuseOSError(errno.EACCES)

    def chmod(self, path, mode):
        os.chmod(self._real(path), mode)

    def chown(self, path, uid, gid):
        os.chown(self._real(path), uid, gid)

    def utimens(self, path, times=None):
        os.utime(self._real(path), times)

    def mkdir(self, path, mode):
        os.mkdir(self._real(path), mode)

    def rmdir(self, path):
        os.rmdir(self._real(path))

    def unlink(self, path):
        os.unlink(self._real(path))

    def rename(self, old, new):
        os.rename(self._real(old), self._real(new))

    def symlink(self, target, source):
        os.symlink(source, self._real(target))

    def truncate(self, path, length, fh=None):
        os.truncate(self._real(path), length)

    def open(self, path, flags):
        return os.open(self._real(path), flags)

    def create(self, path, mode, fi=None):
        return os.open(self._real(path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)

    def read(self, path, size, offset, fh):
        return os.pread(fh, size, offset)

    def write(self, path, data, offset, fh):
        return os.pwrite(fh, data, offset)

    def flush(self, path, fh):
        return 0

    def fsync(self, path, datasync, fh):
        os.fsync(fh)

    def release(self, path, fh):
        os.close(fh)


if __name__ == "__main__":
    backing, mountpoint, faillist = sys.argv[1:4]
    FUSE(FailingFS(backing, faillist), mountpoint, foreground=True, nothreads=True,
         use_ino=True, attr_timeout=0, entry_timeout=0, negative_timeout=0, fsname="curatord-failing-fs")
