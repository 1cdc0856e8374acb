// SPDX-License-Identifier: GPL-2.0-or-later
import CInotifyTools
import CuratorSystem
import Foundation
import Glibc

/// One inotify event, copied out of libinotifytools' static buffer at once.
struct InotifyEvent: Sendable {
    var wd: Int32
    var mask: UInt32
    var cookie: UInt32
    var name: ByteString

    func has(_ flag: Int32) -> Bool { mask & UInt32(bitPattern: flag) != 0 }
    var isDirectory: Bool { has(IN_ISDIR) }
}

/// The thin wrapper around libinotifytools. The library keeps process-global state
/// and is not reentrant: only the watcher thread calls into it. We use it for
/// init, add/remove watch and reading events; the map from watch descriptor to
/// directory is ours (`WatchTable`), since the library's goes stale on moves.
final class InotifyTools {
    /// The library's inotify descriptor, found so that we can poll it beside a wake-up fd.
    let descriptor: Int32
    /// Entries the library keeps for watches the kernel already dropped (IN_IGNORED):
    /// it cannot forget them itself, so we count them and start afresh past a bound.
    private(set) var staleEntries = 0

    static let watchMask: Int32 = IN_CREATE | IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF
        | IN_MOVE_SELF | IN_ATTRIB | IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK

    /// Must run first thing in `main`: libinotifytools waits with select(), so its
    /// descriptor has to stay below FD_SETSIZE.
    init() throws(SystemError) {
        guard inotifytools_initialize() != 0 else {
            throw SystemError("inotifytools_initialize", errno: Errno(inotifytools_error()))
        }
        guard let fd = InotifyTools.findInotifyDescriptor() else {
            throw SystemError("inotifytools_initialize", path: "/proc/self/fd", errno: .noEntry)
        }
        descriptor = fd
        // The library opens it without close-on-exec.
        try FileDescriptor(rawValue: fd).setCloseOnExec()
    }

    private static func findInotifyDescriptor() -> Int32? {
        guard let entries = try? DirectoryReader.entries(of: "/proc/self/fd") else { return nil }
        var found: [Int32] = []
        for entry in entries {
            guard let fd = Int32(entry.name.lossyString) else { continue }
            var buffer = [CChar](repeating: 0, count: 256)
            let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
            if n > 0 {
                let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if target == "anon_inode:inotify" { found.append(fd) }
            }
        }
        return found.max()
    }

    /// Adds a watch on a directory; returns the wd or the errno (ENOSPC: out of watches).
    func watch(_ path: ByteString) -> Result<Int32, Errno> {
        let ok = path.withCString { inotifytools_watch_file($0, InotifyTools.watchMask) }
        if ok == 0 { return .failure(Errno(inotifytools_error())) }
        // The library files directories under their name with a trailing slash.
        var slashed = path.bytes
        if slashed.last != UInt8(ascii: "/") { slashed.append(UInt8(ascii: "/")) }
        let wd = ByteString(slashed).withCString { inotifytools_wd_from_filename($0) }
        if wd > 0 { return .success(wd) }
        let plain = path.withCString { inotifytools_wd_from_filename($0) }
        return plain > 0 ? .success(plain) : .failure(Errno(ENOENT))
    }

    /// Removes a live watch (a directory that left the root but still exists).
    func unwatch(_ wd: Int32) {
        _ = inotifytools_remove_watch_by_wd(wd)
    }

    /// The kernel dropped this watch (IN_IGNORED); the library's entry stays behind.
    func forget(_ wd: Int32) {
        staleEntries += 1
    }

    /// The next event if one is ready, without waiting. Never n > 1: the library busy-spins.
    func nextEvent() -> InotifyEvent? {
        guard let event = inotifytools_next_events(0, 1) else { return nil }
        let len = Int(event.pointee.len)
        var name: [UInt8] = []
        if len > 0 {
            let raw = UnsafeRawPointer(event) + MemoryLayout<inotify_event>.size
            let bytes = UnsafeRawBufferPointer(start: raw, count: len)
            name = Array(bytes.prefix { $0 != 0 })
        }
        return InotifyEvent(wd: event.pointee.wd, mask: event.pointee.mask, cookie: event.pointee.cookie, name: ByteString(name))
    }

    var watchCount: Int { Int(inotifytools_get_num_watches()) }

    static var maxUserWatches: Int {
        guard let text = try? String(contentsOfFile: "/proc/sys/fs/inotify/max_user_watches", encoding: .utf8) else { return 0 }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
}
