// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorProtocol
import CuratorSystem
import Foundation
import Glibc
import Synchronization

/// Accepts clients on the Unix socket and gives each its own thread.
final class Server: Sendable {
    let listener: FileDescriptor
    let curator: Curator
    let maxClients: Int
    /// True when we created the socket file (and so remove it on exit); false under socket activation.
    let ownsPath: ByteString?
    private let active = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)

    init(listener: FileDescriptor, curator: Curator, maxClients: Int, ownsPath: ByteString?) {
        self.listener = listener
        self.curator = curator
        self.maxClients = maxClients
        self.ownsPath = ownsPath
    }

    func start() {
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "curatord-accept"
        thread.stackSize = 512 << 10
        thread.start()
    }

    /// Stops accepting; connections already open finish their current request.
    func stop() {
        stopped.store(true, ordering: .releasing)
        shutdown(listener.rawValue, Int32(SHUT_RDWR))
        if let path = ownsPath { _ = path.withCString { unlink($0) } }
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .acquiring) {
            var fds = [pollfd(fd: listener.rawValue, events: Int16(POLLIN), revents: 0)]
            let n = poll(&fds, 1, 500)
            if n <= 0 { continue }
            let client: FileDescriptor?
            do {
                client = try UnixSocket.accept(listener)
            } catch {
                if stopped.load(ordering: .acquiring) { return }
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
            connection = try ClientConnection(descriptor: fd, peer: peer, curator: curator)
        } catch {
            log.warning("cannot serve a client: \(error)")
            fd.close()
            return
        }
        active.add(1, ordering: .relaxed)
        curator.clientConnected()
        let thread = Thread { [self] in
            connection.run()
            active.subtract(1, ordering: .relaxed)
        }
        thread.name = "curatord-client"
        thread.stackSize = 1 << 20
        thread.start()
    }
}
