// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import FoundationEssentials

/// A refusal of the gateway's own, in the protocol's shape (`ok: false` and an
/// `error` with a stable `code`), so a client reads it as it reads the daemon's.
struct GatewayError: Error, Sendable {
    let status: UInt32
    let code: ErrorCode
    let message: String

    init(_ status: UInt32, _ code: ErrorCode, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    static let unauthorized = ErrorCode("unauthorized")
    static let forbidden = ErrorCode("forbidden")
    static let notFound = ErrorCode("not_found")
    static let methodNotAllowed = ErrorCode("method_not_allowed")
    static let tooManyStreams = ErrorCode("too_many_streams")
    static let daemonUnavailable = ErrorCode("daemon_unavailable")
    static let notReady = ErrorCode("not_ready")
    static let rangeNotSatisfiable = ErrorCode("range_not_satisfiable")

    private struct Body: Encodable {
        let ok = false
        let error: ProtocolError
    }

    var json: [UInt8] {
        let encoded = try? Wire.makeEncoder().encode(Body(error: ProtocolError(code, message)))
        return Array(encoded ?? Data(#"{"ok":false}"#.utf8))
    }

    var answer: HTTPAnswer { HTTPAnswer(status: status, json: json) }
}
