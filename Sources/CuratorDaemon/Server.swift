// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorProtocol
import CuratorSystem
import CLinux
import FoundationEssentials
import Glibc
import Synchronization

/// Accepts clients on the Unix socket and gives each its own thread.
final class Server: Sendable {
    let listener: FileDescriptor
    let curator: Curator
    let reloader: ConfigReloader
    let maxClients: Int
    /// True when we created the socket file (and so remove it on exit); false under socket activation.
    let ownsPath: ByteString?
    private let active = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    /// Wakes the accept loop on `stop`. The listener itself is never shut down:
    /// under socket activation it is systemd's socket too, and shutdown(2) would
    /// make it refuse every later client instead of starting us again.
    private let wake: Int32
    private let acceptLoopExited = OneShotSignal()

    init(listener: FileDescriptor, curator: Curator, reloader: ConfigReloader, maxClients: Int, ownsPath: ByteString?) throws(SystemError) {
        self.listener = listener
        self.curator = curator
        self.reloader = reloader
        self.maxClients = maxClients
        self.ownsPath = ownsPath
        wake = try syscall("eventfd") { curator_eventfd() }
    }

    deinit { Glibc.close(wake) }

    func start() throws(SystemError) {
        try SystemThread.detach(name: "curatord-accept", stackSize: 512 << 10) { [self] in
            acceptLoop()
            acceptLoopExited.signal()
        }
    }

    /// Stops accepting and waits (briefly) for the accept thread to leave, then
    /// closes our descriptor. Connections already open finish their current
    /// request. A socket we created is removed; systemd's stays with systemd,
    /// which queues new clients and starts us again.
    func stop() {
        stopped.store(true, ordering: .releasing)
        var one: UInt64 = 1
        _ = Glibc.write(wake, &one, 8)
        if !acceptLoopExited.wait(seconds: 5) { log.warning("the accept thread did not stop within 5 s") }
        if let path = ownsPath { _ = path.withCString { unlink($0) } }
        listener.close()
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .acquiring) {
            var fds = [
                pollfd(fd: listener.rawValue, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            let n = poll(&fds, 2, -1)
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
            fd.close()
            return
        }
        if active.load(ordering: .relaxed) >= maxClients {
            let error = ProtocolError(.tooManyClients, "curatord already serves \(maxClients) clients; try again later.")
            try? UnixSocket.sendAll(fd, Array(Wire.failure(id: nil, error: error)))
            fd.close()
            log.warning("refused a client (uid \(peer.uid)): \(maxClients) clients already connected")
            return
        }
        let connection: ClientConnection
        do {
            connection = try ClientConnection(descriptor: fd, peer: peer, curator: curator, reloader: reloader)
        } catch {
            log.warning("cannot serve a client: \(error)")
            fd.close()
            return
        }
        active.add(1, ordering: .relaxed)
        curator.clientConnected()
        do throws(SystemError) {
            try SystemThread.detach(name: "curatord-client", stackSize: 1 << 20) { [self] in
                connection.run()
                active.subtract(1, ordering: .relaxed)
            }
        } catch {
            // The connection owns the descriptor: letting it go closes it.
            log.warning("cannot serve a client (uid \(peer.uid)): \(error)")
            active.subtract(1, ordering: .relaxed)
            curator.clientDisconnected(nil)
        }
    }
}
