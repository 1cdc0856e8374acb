// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorProtocol
import CuratorSystem
import CLinux
import FoundationEssentials
import Glibc
import Synchronization

/// Accepts clients on the Unix socket and serves each as one long job on a thread
/// of its own, within the limits of the configuration in force (`max_clients`, `max_clients_per_user`,
/// `idle_timeout_seconds`: a reload applies to connections accepted after it).
final class Server: Sendable {
    let listener: FileDescriptor
    let curator: Curator
    /// True when we created the socket file (and so remove it on exit); false under socket activation.
    let ownsPath: ByteString?
    private let counts = Mutex<ConnectionCounts>(ConnectionCounts())
    /// Refusals not logged yet, per uid: one line a minute at most, whatever a
    /// client does to be refused.
    private let refusals = Mutex<[UInt32: (count: Int, loggedAt: UInt64)]>([:])
    private let stopped = Atomic<Bool>(false)
    /// The connections being served, to close at shutdown.
    private let live = Mutex<[ObjectIdentifier: ClientConnection]>([:])
    /// Wakes the accept loop on `stop`. The listener itself is never shut down:
    /// under socket activation it is systemd's socket too, and shutdown(2) would
    /// make it refuse every later client instead of starting us again.
    private let wake: Int32
    /// The accept loop: one long job on a thread of its own.
    private let acceptor = WorkerPool(name: "curatord-accept", threads: 1, stackSize: 512 << 10, keepIdleSeconds: 0)
    private let acceptLoop = Mutex<JobHandle<Void, Never>?>(nil)
    /// Each connection is one job, as long as the client stays, on a thread that
    /// ends with it: starting one is nothing next to a connection, a thread kept
    /// idle would keep the stack its client touched, and a client that comes when
    /// no thread can be started is told so (none is waiting idle to hide it).
    /// `ConnectionCounts` is the limit on them, not the pool.
    private let connections = WorkerPool(name: "curatord-client", threads: .max, stackSize: 1 << 20, keepIdleSeconds: 0)

    init(listener: FileDescriptor, curator: Curator, ownsPath: ByteString?) throws(SystemError) {
        self.listener = listener
        self.curator = curator
        self.ownsPath = ownsPath
        wake = try syscall("eventfd") { SystemCalls.eventfd() }
    }

    deinit { _ = SystemCalls.close(wake) }  // an eventfd: nothing to lose

    func start() throws(WorkerError) {
        let loop = try acceptor.submit { [self] in acceptClients() }
        acceptLoop.withLock { $0 = loop }
    }

    /// Stops accepting and waits (briefly) for the accept thread to leave, then
    /// closes our descriptor. Connections already open stay until
    /// `closeConnections`. A socket we created is removed; systemd's stays with
    /// systemd, which queues new clients and starts us again.
    func stop() {
        stopped.store(true, ordering: .releasing)
        var one: UInt64 = 1
        _ = SystemCalls.write(wake, &one, 8)
        if let loop = acceptLoop.withLock({ $0 }), loop.wait(until: .after(seconds: 5)) == nil {
            log.warning("the accept thread did not stop within 5 s")
        }
        if let path = ownsPath { _ = path.withCString { SystemCalls.unlinkat(AT_FDCWD, $0, 0) } }
        try? listener.close()
    }

    /// Shutdown, once no batch runs: each connection sends what it owes (the answer
    /// of a batch that stopped, a listing), tells its client `shutting_down`, and
    /// closes. False when some were still sending after `seconds`.
    func closeConnections(waitingUpTo seconds: Double) -> Bool {
        for connection in live.withLock({ Array($0.values) }) { connection.stop() }
        // Each connection's job ends once it has sent what it owes and closed; the
        // pool takes no more (the accept loop has stopped already).
        return connections.shutdown(until: .after(seconds: seconds))
    }

    private func acceptClients() {
        while !stopped.load(ordering: .acquiring) {
            var fds = [
                pollfd(fd: listener.rawValue, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            let n = SystemCalls.poll(&fds, 2, -1)
            if n <= 0 || stopped.load(ordering: .acquiring) { continue }
            if fds[0].revents == 0 { continue }
            let client: FileDescriptor?
            do {
                client = try UnixSocket.accept(listener)
            } catch {
                log.warning("accept failed: \(error)")
                // Out of descriptors: back off instead of spinning.
                usleep(50_000)
                continue
            }
            guard let client else { continue }
            serve(client)
        }
    }

    private func serve(_ fd: FileDescriptor) {
        let peer: PeerCredentials
        do {
            peer = try UnixSocket.peerCredentials(fd)
        } catch {
            log.warning("cannot read the credentials of a client: \(error)")
            try? fd.close()
            return
        }
        let config = curator.configuration
        var refusal = counts.withLock { $0.admit(uid: peer.uid, maxTotal: config.maxClients, maxPerUser: config.maxClientsPerUser) }
        if refusal != nil {
            // A script running curatorctl in a loop closes each connection before the
            // next: one whose thread has not seen it yet holds no place.
            let leaving = leavingConnections(uid: peer.uid)
            refusal = counts.withLock {
                $0.admit(uid: peer.uid, maxTotal: config.maxClients, maxPerUser: config.maxClientsPerUser, leaving: leaving)
            }
        }
        if let refusal {
            try? UnixSocket.sendAll(fd, Array(Wire.failure(id: nil, error: refusal)))
            try? fd.close()
            logRefusal(peer, refusal)
            return
        }
        let connection: ClientConnection
        do {
            connection = try ClientConnection(descriptor: fd, peer: peer, curator: curator, idleTimeout: config.idleTimeoutSeconds,
                                              rebind: { [self] from, to in rebind(from: from, to: to) })
        } catch {
            log.warning("cannot serve a client: \(error)")
            try? fd.close()
            counts.withLock { $0.release(uid: peer.uid) }
            return
        }
        curator.clientConnected()
        live.withLock { $0[ObjectIdentifier(connection)] = connection }
        do throws(WorkerError) {
            try connections.submit(whenFull: .refuse) { [self] in
                connection.run()
                live.withLock { $0[ObjectIdentifier(connection)] = nil }
                counts.withLock { $0.release(uid: connection.actingUID) }
            }
        } catch {
            live.withLock { $0[ObjectIdentifier(connection)] = nil }
            // The connection closes its descriptor when its thread ends; this one never
            // started, so it is closed here, after telling the client why.
            log.warning("cannot serve a client (uid \(peer.uid)): \(error)")
            let failure = ProtocolError(.internalError, "curatord cannot start a thread for this connection (\(error)); try again later.")
            try? UnixSocket.sendAll(fd, Array(Wire.failure(id: nil, error: failure)))
            try? fd.close()
            counts.withLock { $0.release(uid: peer.uid) }
            curator.clientDisconnected(nil)
        }
    }

    /// A connection attached to a web session counts as its user's from then on: the
    /// same `max_clients_per_user` as that user's own clients.
    private func rebind(from: UInt32, to: UInt32) -> ProtocolError? {
        let perUser = curator.configuration.maxClientsPerUser
        return counts.withLock { counts -> ProtocolError? in
            if let refusal = counts.admit(uid: to, maxTotal: .max, maxPerUser: perUser) { return refusal }
            counts.release(uid: from)
            return nil
        }
    }

    /// The connections whose client has gone and that answer no request: their
    /// threads are ending (one poll each, only when a limit is reached).
    private func leavingConnections(uid: UInt32) -> ConnectionCounts.Leaving {
        var leaving = ConnectionCounts.Leaving()
        for connection in live.withLock({ Array($0.values) }) where connection.isLeaving {
            leaving.all += 1
            if connection.actingUID == uid { leaving.mine += 1 }
        }
        return leaving
    }

    /// Logs a refused client: the first of a uid at once, then at most one line a
    /// minute with the number refused since (500 connections refused are one line).
    private func logRefusal(_ peer: PeerCredentials, _ refusal: ProtocolError) {
        let now = MonotonicClock.nanoseconds()
        let report = refusals.withLock { pending -> Int? in
            var entry = pending[peer.uid] ?? (count: 0, loggedAt: 0)
            entry.count += 1
            defer { pending[peer.uid] = entry }
            guard entry.loggedAt == 0 || now - entry.loggedAt >= 60_000_000_000 else { return nil }
            let count = entry.count
            entry = (count: 0, loggedAt: now)
            return count
        }
        guard let count = report else { return }
        let times = count == 1 ? "" : " (\(count) refused since the last such line)"
        log.warning("refused a client (uid \(peer.uid), pid \(peer.pid)): \(refusal.code)\(times)")
    }
}
