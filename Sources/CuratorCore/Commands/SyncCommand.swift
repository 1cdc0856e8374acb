// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorProtocol
import CuratorSystem
import Glibc

/// `sync`: read-your-writes. Drops a cookie file in each root watched by inotify
/// and waits until the watcher has seen it, so every event before it has been
/// applied; for polled roots, waits for their running scan to end. A root whose
/// file system does not answer (a hung share) is not synced: the cookie is written
/// by another thread, and `timeout_ms` bounds the whole wait.
enum SyncCommand: CuratorCommand {
    static func run(_ args: SyncRequest, curator: any ServerScope, caller: Caller) throws(ProtocolError) -> SyncResult {
        let started = MonotonicClock.nanoseconds()
        var synced = true
        let targets = try curator.withRoots { (state) throws(ProtocolError) -> [(id: Int32, path: ByteString, viaInotify: Bool, pinned: RootPin)] in
            let ids = try args.root.map { (name) throws(ProtocolError) in [try state.roots.id(named: name, argument: "root")] }
                ?? state.rootOrder
            return ids.compactMap { id in
                guard let r = state.roots[id], r.online else { return nil }
                if r.unresponsiveSince != nil {
                    synced = false
                    return nil
                }
                return (id, r.config.path, r.usesInotify, RootPin(device: r.device, inode: r.inode))
            }
        }
        let timeout = Double(min(max(args.timeoutMs ?? 10_000, 1), 120_000)) / 1000
        let deadline = Deadline(nanoseconds: started + UInt64(timeout * 1e9))
        let inbox = curator.inbox
        for (_, path, viaInotify, pinned) in targets where viaInotify {
            var name = ByteString.empty
            var waiter = OneShotSignal()
            var written = Cookie.taken
            // A name already taken (someone made it first) is drawn again: O_EXCL never opens theirs.
            for _ in 0..<8 where written == .taken {
                name = inbox.makeCookieName()
                waiter = inbox.register(cookie: name)
                do {
                    written = try writeCookie(path.appending(name), pinned: pinned, curator: curator, until: deadline)
                } catch {
                    inbox.unregister(cookie: name)
                    throw error
                }
                if written == .taken { inbox.unregister(cookie: name) }
            }
            let file = path.appending(name)
            let seen = written == .written && waiter.wait(seconds: deadline.secondsLeft)
            // Late, it is removed once written; taken, it is not ours.
            if written == .written { removeCookie(file, curator: curator) }
            if !seen {
                inbox.unregister(cookie: name)
                synced = false
            }
        }
        // Polled roots: wait until their own running scan is over (another root's
        // scan, however long, is not theirs to wait for).
        let polled = targets.filter { !$0.viaInotify }.map(\.id)
        if !polled.isEmpty && !waitForScans(of: polled, curator: curator, until: deadline) { synced = false }
        return SyncResult(synced: synced, elapsedMs: Double(MonotonicClock.nanoseconds() - started) / 1e6)
    }

    /// Waits until none of `roots` is scanning, woken by `ScanEnds` rather than
    /// looking again and again; false when `deadline` passed first.
    static func waitForScans(of roots: [Int32], curator: any ServerScope, until deadline: Deadline) -> Bool {
        let ends = curator.withRoots { $0.scanEnds }
        let scanning = { curator.withRoots { state in roots.contains { state.roots[$0]?.scanning == true } } }
        while true {
            let seen = ends.current
            if !scanning() { return true }
            if !ends.wait(past: seen, until: deadline) { return !scanning() }
        }
    }

    /// Creates the cookie file on a cookie thread and waits for it until `deadline`:
    /// `late` when it has not been written by then (the root's file system hangs; the
    /// thread removes it once it has), or no thread was free; `taken` when the name was.
    ///
    /// The cookie is made in the root's folder only while that is the folder the root
    /// was pinned to (`pinned`): never through a folder put at the root's path.
    private enum Cookie { case written, late, taken }

    private static func writeCookie(_ file: ByteString, pinned: RootPin, curator: any ServerScope,
                                    until deadline: Deadline) throws(ProtocolError) -> Cookie {
        let handle: JobHandle<Void, SystemError>
        do {
            handle = try curator.cookieWriters.submit(whenFull: .refuse) { () throws(SystemError) in
                let root = try DirectoryHandle.open(file.parent, followingSymlinks: true)
                let status = try root.status()
                guard pinned.inode == 0 || (status.device == pinned.device && status.inode == pinned.inode) else {
                    throw SystemError("open the root", path: "\(file.parent.lossyString) (another folder stands there)", errno: .noEntry)
                }
                let fd = try FileDescriptor.open(file.lastComponent, O_WRONLY | O_CREAT | O_EXCL | curator_O_NOFOLLOW, mode: 0o600,
                                                 relativeTo: root.descriptor)
                try fd.close(path: file.lossyString)
            }
        } catch {
            log.warning("sync: no thread to write a cookie in \(file.parent.lossyString): \(error)")
            return .late
        }
        guard let outcome = handle.wait(until: deadline) else {
            // Late: the cookie thread removes what it wrote once the server answers.
            removeCookie(file, curator: curator, after: handle)
            return .late
        }
        do throws(SystemError) {
            _ = try outcome.get()
            return .written
        } catch where error.errno == .exists {
            return .taken
        } catch {
            throw ProtocolError(.internalError, "cannot write a sync cookie in \(file.parent.lossyString): \(error)")
        }
    }

    /// A root's folder as the watcher pinned it when it started (inode 0: not yet).
    struct RootPin: Sendable {
        var device: UInt64
        var inode: UInt64
    }

    /// Removes the cookie file on a cookie thread, without waiting (after `job`, the
    /// write still running, if any: when it made nothing, the name is not ours to remove).
    private static func removeCookie(_ file: ByteString, curator: any ServerScope, after job: JobHandle<Void, SystemError>? = nil) {
        _ = try? curator.cookieWriters.submit(whenFull: .refuse) {
            if case .threw? = job?.wait() { return }
            _ = file.withCString { SystemCalls.unlinkat(AT_FDCWD, $0, 0) }
        }
    }
}
