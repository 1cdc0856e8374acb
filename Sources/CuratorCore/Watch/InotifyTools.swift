// SPDX-License-Identifier: GPL-2.0-or-later
import CInotifyTools
import CuratorSystem
import FoundationEssentials
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
/// and is not reentrant: only the inotify source's thread calls into it (after `main` made
/// the first instance). We use it for init/cleanup, add/remove watch and reading
/// events; the map from watch descriptor to directory is ours (`WatchTable`).
final class InotifyTools {
    /// The library's inotify descriptor, found so that we can poll it beside a wake-up fd.
    private(set) var descriptor: Int32
    /// Entries the library keeps for watches the kernel already dropped (IN_IGNORED):
    /// it cannot forget them itself, so we count them and start afresh past a bound.
    private(set) var staleEntries = 0
    /// How many times the library was started afresh to shed stale entries.
    private(set) var reinitializations = 0
    /// Watch descriptors the library holds a live entry for.
    private var live = Set<Int32>()
    /// Events may sit in the library's static buffer, which poll(2) on the
    /// descriptor cannot see: true until a read came back empty.
    private(set) var mayHoldBufferedEvents = false

    /// No IN_DONT_FOLLOW: directories are watched through /proc/self/fd/N, a link
    /// that must be followed; the directory itself was opened with O_NOFOLLOW.
    static let watchMask: Int32 = IN_CREATE | IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF
        | IN_MOVE_SELF | IN_ATTRIB | IN_ONLYDIR | IN_EXCL_UNLINK

    /// Must run first thing in `main`: libinotifytools waits with select(), so its
    /// descriptor has to stay below FD_SETSIZE.
    init() throws(SystemError) {
        descriptor = try Self.open()
    }

    private static func open() throws(SystemError) -> Int32 {
        guard inotifytools_initialize() != 0 else {
            throw SystemError("inotifytools_initialize", errno: Errno(inotifytools_error()))
        }
        guard let fd = findInotifyDescriptor() else {
            inotifytools_cleanup()
            throw SystemError("inotifytools_initialize", path: "/proc/self/fd", errno: .noEntry)
        }
        guard fd < 1024 else {
            // select() cannot wait on it: the library would overrun its fd_set.
            inotifytools_cleanup()
            throw SystemError("inotifytools_initialize", errno: Errno(EMFILE))
        }
        do {
            // The library opens it without close-on-exec.
            try FileDescriptor(rawValue: fd).setCloseOnExec()
        } catch {
            inotifytools_cleanup()
            throw error
        }
        return fd
    }

    private static func findInotifyDescriptor() -> Int32? {
        guard let entries = try? DirectoryReader.entries(of: "/proc/self/fd") else { return nil }
        var found: [Int32] = []
        for entry in entries {
            guard let fd = Int32(entry.name.lossyString) else { continue }
            var buffer = [CChar](repeating: 0, count: 256)
            let n = SystemCalls.readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
            if n > 0 {
                let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if target == "anon_inode:inotify" { found.append(fd) }
            }
        }
        return found.max()
    }

    /// Adds a watch on an open directory; returns the wd or the errno (ENOSPC: out of watches).
    ///
    /// The watch is set through /proc/self/fd/N, so it lands on the very directory
    /// about to be read, even if its path is being replaced meanwhile. The library's
    /// name -> wd lookup cannot be trusted (its tree keeps the first entry ever filed
    /// under a name, so a directory recreated at a path would get the dead wd), so
    /// the kernel is asked again for the same pinned inode: with the same mask that
    /// changes nothing and returns the wd it holds.
    func watch(_ directory: FileDescriptor) -> Result<Int32, Errno> {
        let alias = "/proc/self/fd/\(directory.rawValue)"
        guard inotifytools_watch_file(alias, Self.watchMask) != 0 else { return .failure(Errno(inotifytools_error())) }
        let wd = SystemCalls.inotifyAddWatch(descriptor, alias, UInt32(bitPattern: Self.watchMask))
        guard wd > 0 else { return .failure(.current) }
        // Watching a directory again returns the wd it has; the library then keeps
        // only its first entry, which is what we want.
        live.insert(wd)
        return .success(wd)
    }

    /// Removes a live watch (a directory that left the root but still exists).
    func unwatch(_ wd: Int32) {
        // Removing a watch the kernel already dropped (its folder deleted or
        // unmounted, the IN_IGNORED not read yet) fails and leaves the entry. The
        // library would print that to stderr, untimestamped: the log says it.
        guard live.remove(wd) != nil else { return }
        if StandardError.silenced({ inotifytools_remove_watch_by_wd(wd) }) == 0 {
            staleEntries += 1
            log.debug("inotify watch \(wd) was gone already (its folder was removed or unmounted)")
        }
    }

    /// The kernel dropped this watch (IN_IGNORED); the library's entry stays behind.
    func forget(_ wd: Int32) {
        if live.remove(wd) != nil { staleEntries += 1 }
    }

    /// Closes the library's inotify instance and opens a new one, freeing every
    /// entry it held. Every watch is gone afterwards: the caller watches again and
    /// rescans. Events still queued on the old descriptor are lost, so the caller
    /// reads them all first (`nextEvent` until nil, which also empties the
    /// library's buffer).
    func reinitialize() throws(SystemError) {
        inotifytools_cleanup()
        live.removeAll()
        staleEntries = 0
        mayHoldBufferedEvents = false
        reinitializations += 1
        descriptor = try Self.open()
    }

    /// The next event if one is ready, without waiting. Never n > 1: the library busy-spins.
    func nextEvent() -> InotifyEvent? {
        guard let event = inotifytools_next_events(0, 1) else {
            mayHoldBufferedEvents = false
            return nil
        }
        mayHoldBufferedEvents = true
        let len = Int(event.pointee.len)
        var name: [UInt8] = []
        if len > 0 {
            let raw = UnsafeRawPointer(event) + MemoryLayout<inotify_event>.size
            let bytes = UnsafeRawBufferPointer(start: raw, count: len)
            name = Array(bytes.prefix { $0 != 0 })
        }
        return InotifyEvent(wd: event.pointee.wd, mask: event.pointee.mask, cookie: event.pointee.cookie, name: ByteString(name))
    }

    /// Watches the library holds (live ones; stale entries are counted apart).
    var watchCount: Int { live.count }

    static var maxUserWatches: Int {
        guard let text = try? String(contentsOfFile: "/proc/sys/fs/inotify/max_user_watches", encoding: .utf8) else { return 0 }
        return Int(text.filter { !$0.isWhitespace }) ?? 0
    }
}

/// libinotifytools, initialised first thing in `main` and handed to the watcher.
public final class InotifyToolsHandle: @unchecked Sendable {
    // @unchecked: created on the main thread, then used by the inotify source's thread only.
    let tools: InotifyTools
    public init() throws(SystemError) { tools = try InotifyTools() }
}
