// SPDX-License-Identifier: GPL-2.0-or-later

/// Where a root's trashed photos go (the per-root `trash` setting).
public enum TrashKind: String, Codable, Sendable, CaseIterable {
    /// The freedesktop.org trash of the user who asked: their home trash, or the
    /// per-volume `$topdir/.Trash/$uid` / `$topdir/.Trash-$uid`, theirs, so that their
    /// own `trash-list`, gio, Nautilus and Dolphin see it.
    case freedesktop
    /// `<root>/.recycle/<user name>/<original relative path>`: inside the root, the
    /// layout of Samba's vfs_recycle, Synology and TrueNAS, seen over SMB and NFS.
    case recycle
}
