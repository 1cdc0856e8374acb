// SPDX-License-Identifier: GPL-2.0-or-later

/// The `id` a client puts on a request and gets back on its response: a number or a string.
public enum RequestID: Codable, Hashable, Sendable, CustomStringConvertible {
    case number(Int64)
    case string(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let n = try? container.decode(Int64.self) {
            self = .number(n)
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else {
            throw DecodingError.typeMismatch(
                RequestID.self, .init(codingPath: decoder.codingPath, debugDescription: "id must be a number or a string"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let n): try container.encode(n)
        case .string(let s): try container.encode(s)
        }
    }

    public var description: String {
        switch self {
        case .number(let n): String(n)
        case .string(let s): s
        }
    }
}
