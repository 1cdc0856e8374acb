// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import FoundationEssentials

/// One API request: its line to the daemon, the daemon's answer line back as the
/// body, and a status from the answer (200 for a result, the error code's otherwise).
struct APIForwarder: Sendable {
    let pool: DaemonPool

    func answer(command: String, body: [UInt8]) -> HTTPAnswer {
        if command == "subscribe" {
            return GatewayError(404, .unknownCommand, "events are GET /api/v1/events (Server-Sent Events)").answer
        }
        if command == "photo.open" {
            return GatewayError(404, .unknownCommand, "a photo's bytes are GET /photo/<id>/<what>").answer
        }
        do {
            // The body is checked before a connection is borrowed: a bad one is refused
            // without the daemon.
            let line = try pool.call(try APIRequestLine.prepare(command: command, body: body))
            return HTTPAnswer(status: Self.status(of: line), json: line)
        } catch {
            return error.answer
        }
    }

    private struct Outcome: Decodable {
        var ok: Bool?
        var error: ProtocolError?
    }

    static func status(of line: [UInt8]) -> UInt32 {
        guard let outcome = try? Wire.makeDecoder().decode(Outcome.self, from: Data(line)) else { return 502 }
        if outcome.ok == true { return 200 }
        return ErrorStatus.status(for: outcome.error?.code ?? .internalError)
    }
}
