// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc
import Synchronization

/// Files the daemon passed for versioned photo addresses (`?v=`), kept open a while
/// so that the same bytes asked for again are streamed without a `photo.open` round
/// trip. The daemon stays the judge: an entry is the daemon's answer to one daemon
/// user (`owner`: the web session in the system gateway, the one user of a personal
/// gateway), given back to that owner only, for at most `lifetime` seconds after the
/// daemon said yes. So an entry only ever serves again bytes its owner was given less
/// than `lifetime` ago, which its browser keeps anyway (the address is immutable). A
/// right taken away in that time (a photo made private, trashed, a session ended on
/// the daemon) is seen at the next `photo.open`, at most `lifetime` later; a logout
/// through this gateway drops its session's entries at once. A file replaced or
/// changed since (a thumbnail made again, a photo rewritten) is seen by `fstat` before
/// each use and never served from here.
final class OpenFileCache: Sendable {
    struct Key: Hashable, Sendable {
        var owner: String
        var photo: Int64
        var what: String
        var version: String
    }

    /// What the daemon said with the file, and the file as it was then.
    struct Opened: Sendable {
        var contentType: String
        var version: String
        var status: FileStatus
    }

    private struct Entry {
        var file: FileDescriptor
        var opened: Opened
        var expires: UInt64
    }

    let lifetime: Double
    let capacity: Int
    private let entries = Mutex<[Key: Entry]>([:])

    /// Long enough for a grid of thousands scrolled back and forth, or a second tab.
    static let defaultLifetime: Double = 30

    init(lifetime: Double = OpenFileCache.defaultLifetime, capacity: Int = OpenFileCache.defaultCapacity()) {
        self.lifetime = lifetime
        self.capacity = lifetime > 0 ? capacity : 0
    }

    /// A copy of the kept file (the caller owns it) and what came with it, while it is
    /// fresh and still the file it was.
    func take(_ key: Key) -> (file: FileDescriptor, opened: Opened)? {
        guard capacity > 0 else { return nil }
        let now = MonotonicClock.nanoseconds()
        let copy: (FileDescriptor, Opened)? = entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.expires > now else {
                entries[key] = nil
                try? entry.file.close()  // read-only: nothing to lose
                return nil
            }
            // Copied under the lock: a sweep may close the kept one any time after.
            let fd = SystemCalls.fcntl(entry.file.rawValue, F_DUPFD_CLOEXEC, 0)
            return fd < 0 ? nil : (FileDescriptor(rawValue: fd), entry.opened)
        }
        guard let (file, opened) = copy else { return nil }
        // Unlinked (replaced by a rename) or rewritten in place: the daemon decides anew.
        guard let current = try? FileStatus.of(descriptor: file), current.linkCount > 0, current.size == opened.status.size,
              current.mtimeNanoseconds == opened.status.mtimeNanoseconds, current.inode == opened.status.inode else {
            try? file.close()
            drop(key)
            return nil
        }
        return (file, opened)
    }

    /// Keeps a copy of `file` for `key`; the caller keeps its own.
    func keep(_ key: Key, file: FileDescriptor, opened: Opened) {
        guard capacity > 0 else { return }
        let fd = SystemCalls.fcntl(file.rawValue, F_DUPFD_CLOEXEC, 0)
        guard fd >= 0 else { return }
        let entry = Entry(file: FileDescriptor(rawValue: fd), opened: opened,
                          expires: MonotonicClock.nanoseconds() + UInt64(lifetime * 1e9))
        entries.withLock { entries in
            if entries[key] == nil, entries.count >= capacity { Self.sweep(&entries, keeping: capacity * 3 / 4) }
            if let old = entries.updateValue(entry, forKey: key) { try? old.file.close() }
        }
    }

    func drop(_ key: Key) {
        entries.withLock { entries in
            if let old = entries.removeValue(forKey: key) { try? old.file.close() }
        }
    }

    /// Drops every entry of `owner` (a session that ended).
    func forget(owner: String) {
        entries.withLock { entries in
            for (key, entry) in entries where key.owner == owner {
                entries[key] = nil
                try? entry.file.close()
            }
        }
    }

    var count: Int { entries.withLock { $0.count } }

    /// Expired entries go first; then the oldest, down to `keeping`: a page scrolled
    /// back asks again for what it saw last, not for what it saw first.
    private static func sweep(_ entries: inout [Key: Entry], keeping: Int) {
        let now = MonotonicClock.nanoseconds()
        for (key, entry) in entries where entry.expires <= now {
            entries[key] = nil
            try? entry.file.close()
        }
        guard entries.count > keeping else { return }
        for (key, entry) in entries.sorted(by: { $0.value.expires < $1.value.expires }).prefix(entries.count - keeping) {
            entries[key] = nil
            try? entry.file.close()
        }
    }

    /// Half the descriptors the process may open, at most 65 536: the other half stays
    /// for connections, the daemon's sockets and files being streamed (the gateway
    /// raises its soft limit to the hard one at start).
    static func defaultCapacity() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        let soft = UInt64(min(limit.rlim_cur, 1 << 20))  // RLIM_INFINITY is the largest value
        return Int(min(soft / 2, 65_536))
    }
}
