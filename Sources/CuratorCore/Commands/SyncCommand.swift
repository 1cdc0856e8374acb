// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc

/// `sync`: read-your-writes. Drops a cookie file in each root watched by inotify
/// and waits until the watcher has seen it, so every event before it has been
/// applied; for polled roots, waits for their running scan to end.
enum SyncCommand: CuratorCommand {
    static func arguments(of command: Command) -> SyncRequest? { if case .sync(let a) = command { a } else { nil } }

    static func run(_ args: SyncRequest, curator: Curator, caller: Caller) throws(ProtocolError) -> SyncResult {
        let started = MonotonicClock.nanoseconds()
        let targets = try curator.withState { (state) throws(ProtocolError) -> [(id: Int32, path: ByteString, viaInotify: Bool)] in
            let ids = try args.root.map { (name) throws(ProtocolError) in [try state.roots.id(named: name, argument: "root")] }
                ?? state.rootOrder
            return ids.compactMap { id in
                guard let r = state.roots[id], r.online else { return nil }
                return (id, r.config.path, r.usesInotify)
            }
        }
        let timeout = Double(min(max(args.timeoutMs ?? 10_000, 1), 120_000)) / 1000
        var synced = true
        let inbox = curator.inbox
        for (_, path, viaInotify) in targets where viaInotify {
            let name = inbox.makeCookieName()
            let waiter = inbox.register(cookie: name)
            let file = path.appending(name)
            do {
                let fd = try FileDescriptor.open(file, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
                try fd.close(path: file.lossyString)
            } catch {
                inbox.unregister(cookie: name)
                throw ProtocolError(.internalError, "cannot write a sync cookie in \(path): \(error)")
            }
            let seen = waiter.wait(seconds: timeout)
            _ = file.withCString { SystemCalls.unlinkat(AT_FDCWD, $0, 0) }
            if !seen {
                inbox.unregister(cookie: name)
                synced = false
            }
        }
        // Polled roots: wait until their own running scan is over (another root's
        // scan, however long, is not theirs to wait for).
        let polled = targets.filter { !$0.viaInotify }.map(\.id)
        let pollRunning = { curator.withState { state in polled.contains { state.roots[$0]?.scanning == true } } }
        let deadline = started + UInt64(timeout * 1e9)
        while !polled.isEmpty && pollRunning() && MonotonicClock.nanoseconds() < deadline {
            usleep(2000)
        }
        if !polled.isEmpty && pollRunning() { synced = false }
        return SyncResult(synced: synced, elapsedMs: Double(MonotonicClock.nanoseconds() - started) / 1e6)
    }
}
