// SPDX-License-Identifier: GPL-2.0-or-later

/// One command of the protocol, as the type of its request: the name it is sent
/// under (`cmd`), its arguments (the type's own fields, beside `cmd` and `id` on
/// the wire) and the type of the `result` a success carries. A client sends one
/// with `Wire.request`; the daemon reads one with `Wire.decodeRequest`, given the
/// commands it answers (CuratorCore's `CommandTable`).
public protocol ProtocolRequest: Codable, Sendable {
    associatedtype Result: Codable & Sendable
    static var name: String { get }
}

/// The commands a reader of request lines knows, in the order docs/PROTOCOL.md
/// lists them.
public struct KnownRequests: Sendable {
    public let types: [any ProtocolRequest.Type]
    private let byName: [String: any ProtocolRequest.Type]

    public init(_ types: [any ProtocolRequest.Type]) {
        self.types = types
        byName = Dictionary(types.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public var names: [String] { types.map { $0.name } }

    public func type(named name: String) -> (any ProtocolRequest.Type)? { byName[name] }
}
