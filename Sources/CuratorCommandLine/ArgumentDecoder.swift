// SPDX-License-Identifier: GPL-2.0-or-later

/// Gives each property wrapper of a command its parsed value. The command's
/// synthesized `init(from:)` asks for each property by name; a wrapper's
/// `init(from:)` takes its value from here, found by the property's path.
struct ArgumentDecoder: Decoder {
    /// Boxed values (`ArgumentBox<Value>`) by property path (`view.glob`).
    let values: [String: Any]
    let path: [String]

    var codingPath: [any CodingKey] { path.map(PathKey.init) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ArgumentContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw notDeclared() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw notDeclared() }

    func nested(_ key: String) -> ArgumentDecoder { ArgumentDecoder(values: values, path: path + [key]) }

    func notDeclared() -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription:
            "\(path.joined(separator: ".")) is not an @Option, @Flag, @Argument or @OptionGroup"))
    }

    /// The value of the wrapper being decoded.
    static func value<Value>(of type: Value.Type, from decoder: any Decoder) throws -> Value {
        guard let decoder = decoder as? ArgumentDecoder else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
                "command-line arguments are decoded by CommandParser only"))
        }
        guard let box = decoder.values[decoder.path.joined(separator: ".")] as? ArgumentBox<Value> else {
            throw DecodingError.valueNotFound(Value.self, .init(codingPath: decoder.codingPath, debugDescription:
                "no parsed value for \(decoder.path.joined(separator: "."))"))
        }
        return box.value
    }
}

struct PathKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Every property of a command is a wrapper, decoded through `decode(_:forKey:)`;
/// a plain `Int` or `String` property is a command that forgot its wrapper.
struct ArgumentContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ArgumentDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { [] }
    func contains(_ key: Key) -> Bool { true }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try T(from: decoder.nested(key.stringValue))
    }

    private func refuse(_ key: Key) -> DecodingError { decoder.nested(key.stringValue).notDeclared() }
    func decodeNil(forKey key: Key) throws -> Bool { throw refuse(key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { throw refuse(key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { throw refuse(key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { throw refuse(key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw refuse(key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { throw refuse(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { throw refuse(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { throw refuse(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { throw refuse(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { throw refuse(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { throw refuse(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { throw refuse(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { throw refuse(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { throw refuse(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { throw refuse(key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
        throws -> KeyedDecodingContainer<NestedKey> {
        decoder.nested(key.stringValue).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw refuse(key) }
    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder.nested(key.stringValue) }
}
