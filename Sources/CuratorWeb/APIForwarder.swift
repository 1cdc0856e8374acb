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
            // The line is checked once, with a placeholder id, so that a bad body is
            // refused before a connection is borrowed.
            _ = try APIRequestLine.make(command: command, body: body, id: 0)
            let line = try pool.call { id in (try? APIRequestLine.make(command: command, body: body, id: id)) ?? [] }
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
