// SPDX-License-Identifier: GPL-2.0-or-later

/// The `id` a client puts on a request and gets back on its response: an integer
/// (written as one: `1e-999` is not an id) or a string.
public enum RequestID: Codable, Hashable, Sendable, CustomStringConvertible {
    case number(Int64)
    case string(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let s = try? container.decode(String.self) {
            self = .string(s)
            return
        }
        let mustBe = "must be an integer or a string"
        if NumberLiterals.of(decoder.userInfo)?.nonIntegers[RequestKeys.path(decoder.codingPath)] != nil {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: mustBe))
        }
        guard let n = try? container.decode(Int64.self) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: mustBe))
        }
        self = .number(n)
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
