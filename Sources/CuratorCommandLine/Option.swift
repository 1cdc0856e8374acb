// SPDX-License-Identifier: GPL-2.0-or-later

/// An option with a value: `--limit N`, `--limit=N`, `-n N`, `-nN`.
///
/// A value is the next word whatever it starts with (`--glob -x.jpg` is the
/// pattern `-x.jpg`), as getopt does; an option given twice keeps the last value,
/// unless its property is an array, which keeps them all in order.
///
///     @Option("--limit", "-n", value: "N", help: "Show at most N batches.") var limit: Int?
///     @Option("--timeout", value: "MS", help: "...") var timeout: Int = 5000
///     @Option("--root", "-r", value: "DIR", help: "...") var roots: [String] = []
@propertyWrapper
public struct Option<Value>: Decodable, ArgumentDeclaring {
    var state: ArgumentState<Value>

    public var wrappedValue: Value {
        get { state.value }
        set { state = .parsed(newValue) }
    }

    /// An option that may be left out: nil then.
    public init<T: ExpressibleByArgument>(_ names: String..., value valueName: String, help: String) where Value == T? {
        state = .declared(Declaration(
            kind: .option(valueName: valueName), names: names, help: help, isRepeating: false, defaultValue: .some(nil),
            resolve: { words throws(ValueError) -> T?? in
                try ValueParsing.last(words) { word throws(ValueError) -> T? in try ValueParsing.parse(word, as: T.self) }
            }))
    }

    /// An option with a default, said in the help.
    public init(wrappedValue: Value, _ names: String..., value valueName: String, help: String)
    where Value: ExpressibleByArgument {
        state = .declared(Declaration(
            kind: .option(valueName: valueName), names: names, help: help, isRepeating: false, defaultValue: wrappedValue,
            defaultDescription: "\(wrappedValue)",
            resolve: { words throws(ValueError) -> Value? in
                try ValueParsing.last(words) { word throws(ValueError) -> Value in try ValueParsing.parse(word, as: Value.self) }
            }))
    }

    /// An option that must be given.
    public init(_ names: String..., value valueName: String, help: String) where Value: ExpressibleByArgument {
        state = .declared(Declaration(
            kind: .option(valueName: valueName), names: names, help: help, isRepeating: false, defaultValue: nil,
            resolve: { words throws(ValueError) -> Value? in
                try ValueParsing.last(words) { word throws(ValueError) -> Value in try ValueParsing.parse(word, as: Value.self) }
            }))
    }

    /// An option that may be repeated: every value, in the order given.
    public init<T: ExpressibleByArgument>(wrappedValue: [T] = [], _ names: String..., value valueName: String, help: String)
    where Value == [T] {
        state = .declared(Declaration(
            kind: .option(valueName: valueName), names: names, help: help, isRepeating: true, defaultValue: wrappedValue,
            resolve: { words throws(ValueError) -> [T]? in
                guard !words.isEmpty else { return nil }
                var values: [T] = []
                for word in words { values.append(try ValueParsing.parse(word, as: T.self)) }
                return values
            }))
    }

    /// An option that may be left out, whose word becomes a value by `transform`
    /// (nil: not a valid word, and `expecting` says what would be).
    public init<T>(_ names: String..., value valueName: String, help: String, expecting: String,
                   transform: @escaping @Sendable (String) -> T?) where Value == T? {
        state = .declared(Declaration(
            kind: .option(valueName: valueName), names: names, help: help, isRepeating: false, defaultValue: .some(nil),
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

extension Option: Sendable where Value: Sendable {}
