// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

// Every integer of a request is read here: written as an integer (not `1.0`,
// `1e-999` or `-0.0`, which JSONDecoder alone would take), within its type's range,
// and not below the key's minimum. A refusal is an `invalid_argument` naming the key.

extension NumberLiterals {
    static let userInfoKey = CodingUserInfoKey(rawValue: "curatord.numberLiterals")

    /// The literals of the line being decoded; none when the decoder was not given
    /// any (responses, which the daemon wrote itself).
    static func of(_ userInfo: [CodingUserInfoKey: Any]) -> NumberLiterals? {
        guard let key = userInfoKey else { return nil }
        return userInfo[key] as? NumberLiterals
    }

    /// Throws when the value at `codingPath` was not written as an integer. The path
    /// is made only where the line has such a number (made for every element, it was
    /// a third of reading a request of 10 000 ids).
    func requireInteger(at codingPath: @autoclosure () -> [any CodingKey]) throws {
        guard !nonIntegers.isEmpty else { return }
        let path = codingPath()
        guard let literal = nonIntegers[RequestKeys.path(path)] else { return }
        throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "must be an integer, not \(literal)"))
    }
}

extension KeyedDecodingContainer {
    /// An optional integer argument (absent or null: nil).
    func integer<T: FixedWidthInteger & Decodable>(_: T.Type, forKey key: Key, literals: NumberLiterals?,
                                                    minimum: T = .min) throws -> T? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        let path = codingPath + [key]
        try literals?.requireInteger(at: path)
        return try Self.checked(path, minimum: minimum) { try decode(T.self, forKey: key) }
    }

    /// A required integer argument.
    func integer<T: FixedWidthInteger & Decodable>(_ type: T.Type, forKey key: Key, literals: NumberLiterals?,
                                                    minimum: T = .min) throws -> T {
        guard let value = try integer(type, forKey: key, literals: literals, minimum: minimum) else {
            if contains(key) {
                throw DecodingError.valueNotFound(T.self, .init(codingPath: codingPath + [key], debugDescription: "null"))
            }
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
        }
        return value
    }

    /// An optional array of integers.
    func integers<T: FixedWidthInteger & Decodable>(_: T.Type, forKey key: Key, literals: NumberLiterals?) throws -> [T]? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        var array = try nestedUnkeyedContainer(forKey: key)
        var values: [T] = []
        if let count = array.count { values.reserveCapacity(count) }
        // An element's coding path is made only to name it (`requireInteger`, `checked`).
        let base = array.codingPath
        while !array.isAtEnd {
            let index = array.currentIndex
            func path() -> [any CodingKey] { base + [RequestKeys.Key(intValue: index)] }
            try literals?.requireInteger(at: path())
            values.append(try Self.checked(path(), minimum: .min) { try array.decode(T.self) })
        }
        return values
    }

    /// A number JSONDecoder could not make a `T` of is out of range (it throws an
    /// error of its own for that, which it would report as "not valid JSON" without
    /// a key); one below `minimum` too.
    private static func checked<T: FixedWidthInteger>(_ path: @autoclosure () -> [any CodingKey], minimum: T,
                                                      _ decode: () throws -> T) throws -> T {
        let value: T
        do {
            value = try decode()
        } catch let error as DecodingError {
            if case .dataCorrupted = error {} else { throw error }
            throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "must be an integer from \(minimum) to \(T.max)"))
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "must be an integer from \(minimum) to \(T.max)"))
        }
        guard value >= minimum else {
            let rule = minimum == 0 ? "must not be negative" : "must be at least \(minimum)"
            throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "\(rule), not \(value)"))
        }
        return value
    }
}
