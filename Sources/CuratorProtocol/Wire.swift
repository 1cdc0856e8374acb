// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials
import Glibc

/// A decoded request line: its id and its command's arguments.
public struct Request: Sendable {
    public var id: RequestID?
    public var command: any ProtocolRequest
    public init(id: RequestID?, command: any ProtocolRequest) {
        self.id = id
        self.command = command
    }

    /// The command's wire name (`cmd`).
    public var name: String { type(of: command).name }
}

/// A response as it travels: `ok` with `result`, or not `ok` with `error`.
public struct Response<Result: Decodable>: Decodable {
    public var id: RequestID?
    public var ok: Bool
    public var result: Result?
    public var error: ProtocolError?
}

/// Turns lines into requests and values into lines. All JSON of the protocol goes
/// through here so that key style (snake_case) is decided once.
public enum Wire {
    private struct Envelope: Decodable {
        var id: RequestID?
        var cmd: String
        private enum CodingKeys: String, CodingKey { case id, cmd }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try Self.id(in: container)
            // `"cmd": null` is a request without one, as any key's null is that key left out.
            guard let cmd = try container.decodeIfPresent(String.self, forKey: .cmd) else {
                throw DecodingError.keyNotFound(CodingKeys.cmd, .init(codingPath: container.codingPath, debugDescription: "missing"))
            }
            self.cmd = cmd
        }

        /// An `id` of `null` is neither an integer nor a string: refused like one,
        /// where any other key's `null` stands for the key left out.
        static func id<K: CodingKey>(in container: KeyedDecodingContainer<K>) throws -> RequestID? {
            guard let key = K(stringValue: "id"), container.contains(key) else { return nil }
            if try container.decodeNil(forKey: key) {
                throw DecodingError.dataCorrupted(.init(codingPath: container.codingPath + [key],
                                                        debugDescription: "must be an integer or a string, not null"))
            }
            return try container.decode(RequestID.self, forKey: key)
        }
    }

    private struct IDOnly: Decodable {
        var id: RequestID?
        private enum CodingKeys: String, CodingKey { case id }
        init(from decoder: any Decoder) throws { id = try Envelope.id(in: try decoder.container(keyedBy: CodingKeys.self)) }
    }

    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    /// The decoder of one request line: keys converted as `NumberLiterals` converts
    /// them, and the line's non-integer numbers at hand for `IntegerArguments`.
    static func makeRequestDecoder(literals: NumberLiterals) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            guard let last = path.last else { return RequestKeys.Key(stringValue: "") }
            if let index = last.intValue { return RequestKeys.Key(intValue: index) }
            return RequestKeys.Key(stringValue: RequestKeys.decoded(last.stringValue))
        }
        if let key = NumberLiterals.userInfoKey { decoder.userInfo[key] = literals }
        return decoder
    }

    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }

    /// Decodes one request line, of one of the `known` commands. On failure the
    /// error says what a client must fix, and carries the request's id when it
    /// could be read.
    public static func decodeRequest(_ line: Data, known: KnownRequests) -> Swift.Result<Request, RequestFailure> {
        let literals = line.withUnsafeBytes { NumberLiterals(scanning: $0) }
        let decoder = makeRequestDecoder(literals: literals)
        let id = (try? decoder.decode(IDOnly.self, from: line))?.id
        do {
            let envelope = try decoder.decode(Envelope.self, from: line)
            guard let type = known.type(named: envelope.cmd) else {
                return .failure(RequestFailure(id: id, error: ProtocolError(
                    .unknownCommand, "unknown command \"\(envelope.cmd)\"; known: \(known.names.joined(separator: ", "))")))
            }
            return .success(Request(id: envelope.id, command: try decode(type, from: line, with: decoder)))
        } catch let error as DecodingError {
            return .failure(RequestFailure(id: id, error: describe(error)))
        } catch {
            return .failure(RequestFailure(id: id, error: ProtocolError(.badRequest, "\(error)")))
        }
    }

    private static func decode<R: ProtocolRequest>(_ type: R.Type, from line: Data, with decoder: JSONDecoder) throws -> R {
        try decoder.decode(R.self, from: line)
    }

    private struct SuccessLine<R: Encodable>: Encodable {
        var id: RequestID?
        var ok = true
        var result: R
    }

    public struct RequestFailure: Error, Sendable {
        public var id: RequestID?
        public var error: ProtocolError
    }

    /// A key as the client wrote it: `timeout_ms`, `ids[2]`, `filter.glob`.
    private static func keyPath(_ path: [any CodingKey]) -> String { RequestKeys.wirePath(path) }

    private static func describe(_ error: DecodingError) -> ProtocolError {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return ProtocolError(.badRequest, "request is not a JSON object: \(context.debugDescription)")
        case .dataCorrupted(let context):
            let key = keyPath(context.codingPath)
            return ProtocolError(.invalidArgument, "\(key): \(context.debugDescription)", argument: key)
        case .keyNotFound(let key, let context):
            let path = keyPath(context.codingPath + [key])
            if path == "cmd" { return ProtocolError(.badRequest, "request has no \"cmd\"", argument: "cmd") }
            return ProtocolError(.invalidArgument, "missing argument \"\(path)\"", argument: path)
        case .typeMismatch(let type, let context):
            let path = keyPath(context.codingPath)
            if context.codingPath.isEmpty { return ProtocolError(.badRequest, "request must be a JSON object") }
            return ProtocolError(.invalidArgument, "\(path) has the wrong type (expected \(type))", argument: path)
        case .valueNotFound(let type, let context):
            let path = keyPath(context.codingPath)
            return ProtocolError(.invalidArgument, "\(path) must not be null (expected \(type))", argument: path)
        @unknown default:
            return ProtocolError(.badRequest, "\(error)")
        }
    }

    /// Encodes a success line (with trailing newline).
    public static func success<R: Encodable>(id: RequestID?, result: R, encoder: JSONEncoder = makeEncoder()) -> Data {
        if let writable = result as? any JSONWritable { return Data(writtenSuccess(id: id, result: writable, capacity: 4096)) }
        return line(SuccessLine(id: id, result: result), encoder: encoder)
    }

    public static func failure(id: RequestID?, error: ProtocolError, encoder: JSONEncoder = makeEncoder()) -> Data {
        struct Failure: Encodable {
            var id: RequestID?
            var ok = false
            var error: ProtocolError
        }
        return line(Failure(id: id, error: error), encoder: encoder)
    }

    /// An event line, written by hand (JSONWriter+Events.swift): events are the
    /// most frequent lines, each made while the state lock is held.
    public static func event(_ event: Event) -> Data {
        var w = JSONWriter(reservingCapacity: 512)
        event.write(to: &w)
        w.newline()
        return Data(UnsafeRawBufferPointer(start: w.base, count: w.count))
    }

    /// A request line, for clients.
    public static func request<R: ProtocolRequest>(id: RequestID?, command: R, encoder: JSONEncoder = makeEncoder()) -> Data {
        line(RequestLine(id: id, arguments: command), encoder: encoder)
    }

    private struct RequestLine<R: ProtocolRequest>: Encodable {
        var id: RequestID?
        var arguments: R
        enum CodingKeys: String, CodingKey { case id, cmd }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(id, forKey: .id)
            try container.encode(R.name, forKey: .cmd)
            try arguments.encode(to: encoder)
        }
    }

    private static func line(_ value: some Encodable, encoder: JSONEncoder) -> Data {
        do {
            var data = try encoder.encode(value)
            data.append(UInt8(ascii: "\n"))
            return data
        } catch {
            // Our own values always encode; if one does not, say so on the wire instead of crashing.
            var data = Data(#"{"ok":false,"error":{"code":"internal_error","message":"response could not be encoded"}}"#.utf8)
            data.append(UInt8(ascii: "\n"))
            return data
        }
    }
}
