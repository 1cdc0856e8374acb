// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// A directory the crawler has open and is about to read: it is watched first, so
/// that nothing created meanwhile is missed (watch before read).
struct DirectoryToWatch: Sendable {
    var root: Int32
    var path: ByteString
    /// Open (O_DIRECTORY, O_NOFOLLOW below the root) until the answer comes: the
    /// watch lands on this very directory even if its path is replaced meanwhile.
    var descriptor: FileDescriptor
    var directory: WatchTable.DirectoryKey
}

enum WatchOutcome: Sendable, Equatable {
    case watched
    /// Out of inotify watches (ENOSPC): the root has to be polled instead.
    case outOfWatches
    case failed(Errno)
    /// inotify could not be started (or restarted): nothing is watched.
    case unavailable
}

/// What the crawler asks of whoever owns the watches: the inotify source (its
/// thread alone calls libinotifytools), or a stand-in in tests.
protocol DirectoryWatcher: AnyObject, Sendable {
    /// Watches each directory, in order, and answers once they all are.
    func watch(_ directories: [DirectoryToWatch]) -> [WatchOutcome]
    /// Forgets the watches at and below `path` (a directory deleted or moved out of
    /// the root); `unwatch` also removes them from the kernel (one still there would
    /// keep reporting, whereas a deleted one's watch is dropped by the kernel itself).
    func forget(root: Int32, below path: ByteString, unwatch: Bool)
    /// Drops every watch of a root (offline, stopped, or polled from now on).
    func unwatch(root: Int32)
    /// The watches a root has now.
    func watchCount(root: Int32) -> Int
}
