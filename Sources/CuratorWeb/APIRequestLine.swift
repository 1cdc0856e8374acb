// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import FoundationEssentials

/// `POST /api/v1/<cmd>` with a JSON object as its body, as the daemon's request line:
/// the body's keys are the request's arguments, `cmd` comes from the path and `id` is
/// the gateway's. The body is checked to be one JSON object and then passed on as it
/// was written, so the daemon judges every argument (its integers' literal forms too)
/// exactly as it judges a Unix-socket client's.
enum APIRequestLine {
    static let prefix = "/api/v1/"

    /// The command a path names: lowercase letters, digits, `.` and `_`, as every
    /// command of the protocol is spelled.
    static func command(inPath path: String) -> String? {
        guard path.hasPrefix(prefix) else { return nil }
        let name = path.dropFirst(prefix.count)
        let bytes = Array(name.utf8)
        guard let first = bytes.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), bytes.count <= 64 else { return nil }
        let allowed = bytes.allSatisfy { c in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)
                || c == UInt8(ascii: ".") || c == UInt8(ascii: "_")
        }
        return allowed ? String(name) : nil
    }

    /// The request line (with its newline), or why the body cannot be one.
    static func make(command: String, body: [UInt8], id: Int64) throws(GatewayError) -> [UInt8] {
        try prepare(command: command, body: body)(id)
    }

    /// The body checked once; the line for an id is then made without looking again.
    static func prepare(command: String, body: [UInt8]) throws(GatewayError) -> @Sendable (Int64) -> [UInt8] {
        let trimmed = body.trimmingJSONWhitespace()
        let object = trimmed.isEmpty ? Array("{}".utf8) : Array(trimmed)
        let keys: [String]
        do {
            keys = try JSONDecoder().decode(ObjectKeys.self, from: Data(object)).keys
        } catch {
            throw GatewayError(400, .badRequest, "the body must be one JSON object (the request's arguments)")
        }
        // The daemon reads keys as RequestKeys does: `c\u006dd` or a snake-case spelling
        // must not smuggle in a second `cmd` or `id`.
        if let key = keys.first(where: { ["cmd", "id"].contains(RequestKeys.decoded($0)) }) {
            throw GatewayError(400, .invalidArgument, "`\(key)` is not an argument: the command is the path's, the id the gateway's")
        }
        guard object.first == UInt8(ascii: "{"), object.last == UInt8(ascii: "}") else {
            throw GatewayError(400, .badRequest, "the body must be one JSON object (the request's arguments)")
        }
        // A valid JSON text holds no raw line break inside a string, so each one is
        // whitespace between tokens: made a space, the request stays one line.
        let inner = object.dropFirst().dropLast().map { $0 == 0x0A || $0 == 0x0D ? UInt8(ascii: " ") : $0 }
        let hasArguments = !inner.allSatisfy { $0 == 0x20 || $0 == 0x09 }
        let head = [UInt8(ascii: "{")] + inner + (hasArguments ? [UInt8(ascii: ",")] : []) + Array(#""cmd":"\#(command)","id":"#.utf8)
        return { id in head + Array("\(id)}\n".utf8) }
    }

    /// The keys of a JSON object; decoding it checks that the whole text is valid JSON.
    private struct ObjectKeys: Decodable {
        let keys: [String]

        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func trimmingJSONWhitespace() -> ArraySlice<UInt8> {
        let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        guard let start = firstIndex(where: { !space.contains($0) }), let end = lastIndex(where: { !space.contains($0) }) else {
            return []
        }
        return self[start...end]
    }
}
