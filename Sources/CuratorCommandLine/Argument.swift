// SPDX-License-Identifier: GPL-2.0-or-later

/// A positional argument: the words that are not options, given to the declared
/// arguments in the order they are declared. A word that starts with `-` is an
/// option unless it comes after `--`.
///
///     @Argument("POS", help: "The photo's position.") var position: Int
///     @Argument("ROOT", help: "The root to rescan.") var root: String?
///     @Argument("ROOT", help: "Roots to follow.") var roots: [String] = []
@propertyWrapper
public struct Argument<Value>: Decodable, ArgumentDeclaring {
    var state: ArgumentState<Value>

    public var wrappedValue: Value {
        get { state.value }
        set { state = .parsed(newValue) }
    }

    /// An argument that may be left out: nil then.
    public init<T: ExpressibleByArgument>(_ valueName: String, help: String) where Value == T? {
        state = .declared(Declaration(
            kind: .positional(valueName: valueName), names: [], help: help, isRepeating: false, defaultValue: .some(nil),
            resolve: { words throws(ValueError) -> T?? in
                try ValueParsing.last(words) { word throws(ValueError) -> T? in try ValueParsing.parse(word, as: T.self) }
            }))
    }

    /// An argument that must be given.
    public init(_ valueName: String, help: String) where Value: ExpressibleByArgument {
        state = .declared(Declaration(
            kind: .positional(valueName: valueName), names: [], help: help, isRepeating: false, defaultValue: nil,
            resolve: { words throws(ValueError) -> Value? in
                try ValueParsing.last(words) { word throws(ValueError) -> Value in try ValueParsing.parse(word, as: Value.self) }
            }))
    }

    /// Every word left, in order (declare it last).
    public init<T: ExpressibleByArgument>(wrappedValue: [T] = [], _ valueName: String, help: String) where Value == [T] {
        state = .declared(Declaration(
            kind: .positional(valueName: valueName), names: [], help: help, isRepeating: true, defaultValue: wrappedValue,
            resolve: { words throws(ValueError) -> [T]? in
                guard !words.isEmpty else { return nil }
                var values: [T] = []
                for word in words { values.append(try ValueParsing.parse(word, as: T.self)) }
                return values
            }))
    }

    /// An argument that may be left out, whose word becomes a value by `transform`
    /// (nil: not a valid word, and `expecting` says what would be).
    public init<T>(_ valueName: String, help: String, expecting: String, transform: @escaping @Sendable (String) -> T?)
    where Value == T? {
        state = .declared(Declaration(
            kind: .positional(valueName: valueName), names: [], help: help, isRepeating: false, defaultValue: .some(nil),
            resolve: { words throws(ValueError) -> T?? in
                try ValueParsing.last(words) { word throws(ValueError) -> T? in
                    try ValueParsing.transform(word, transform, expecting: expecting)
                }
            }))
    }

    public init(from decoder: any Decoder) throws {
        state = .parsed(try ArgumentDecoder.value(of: Value.self, from: decoder))
    }

    func definitions(key: String) -> [ArgumentDefinition] { state.definitions(key: key) }
}

extension Argument: Sendable where Value: Sendable {}
