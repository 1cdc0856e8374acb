// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// Who is asking: the peer's credentials from SO_PEERCRED.
public typealias ClientContext = PeerCredentials

extension Curator {
    /// An answer as a connection sends it: a line, a line with an open file passed
    /// along (`photo.open`), or a listing to write and send a piece at a time.
    public enum Answer: Sendable {
        case line([UInt8])
        case passing([UInt8], PassedFile)
        case listing(ListingStream)
    }

    /// Answers one decoded request through its handler in `CommandTable`, on the
    /// client's connection thread, and hands the answer to `send`. A listing is
    /// handed over under the state lock, where events are published too: so the
    /// events of changes the listing does not show are queued after it, those it
    /// shows before it.
    public func answer(_ request: Request, client: ClientContext, sink: any EventSink, send: (Answer) -> Void) {
        // From SIGTERM on nothing new is started: the watcher, the index and the
        // journal are being closed under it.
        if isStopping { return send(.line([UInt8](Wire.failure(id: request.id, error: Self.stoppingError)))) }
        let name = request.name
        do {
            guard let handler = CommandTable.byName[name] else {
                throw ProtocolError(.internalError, "curatord has no handler for \"\(name)\"")
            }
            try respond(with: handler, to: request, caller: Caller(client, connection: sink), send: send)
        } catch let error as ProtocolError {
            send(.line([UInt8](Wire.failure(id: request.id, error: error))))
        } catch let error as BatchError {
            // The journal is the one file that cannot be rebuilt: its failure is said
            // in the log (once, here) as well as to the client.
            if error.code == .journal { log.error("\(name): \(error.message)") }
            send(.line([UInt8](Wire.failure(id: request.id, error: error.protocolError))))
        } catch {
            log.error("\(name) failed: \(error)")
            send(.line([UInt8](Wire.failure(id: request.id, error: ProtocolError(.internalError, "\(error)")))))
        }
    }

    /// Whether the web session a connection is attached to still lives (and marks it
    /// used): checked before each of its requests.
    public func webSessionIsLive(_ token: String) -> Bool {
        web.use(token, config: configuration) != nil
    }

    /// The same, without marking it used: for a connection that waits (a subscriber).
    public func webSessionStillLive(_ token: String) -> Bool {
        web.isLive(token, config: configuration)
    }

    public static let notSignedInError = WebAuthority.notSignedIn

    /// Handles one decoded request and returns the whole response line (a listing
    /// written out, after the lock is released).
    public func handle(_ request: Request, client: ClientContext, sink: any EventSink) -> [UInt8] {
        var line: [UInt8] = []
        var listing: ListingStream?
        answer(request, client: client, sink: sink) { answer in
            switch answer {
            case .line(let bytes), .passing(let bytes, _): line = bytes
            case .listing(let stream): listing = stream
            }
        }
        if var listing { return listing.line() }
        return line
    }

    private func respond<H: CommandHandler>(with handler: H.Type, to request: Request, caller: Caller,
                                            send: (Answer) -> Void) throws {
        guard let arguments = request.command as? H.Arguments else {
            throw ProtocolError(.internalError, "\"\(request.name)\" reached the handler of another command")
        }
        try H.respond(to: arguments, id: request.id, caller: caller, curator: self, send: send)
    }
}
