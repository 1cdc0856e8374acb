// SPDX-License-Identifier: GPL-2.0-or-later

/// One declared argument as the parser and the help see it, its value type erased:
/// what it is called, what it says about itself, and how its words become a value.
struct ArgumentDefinition {
    enum Kind: Equatable {
        /// `--name VALUE`, `--name=VALUE`, `-n VALUE`, `-nVALUE`.
        case option(valueName: String)
        /// `--name` alone.
        case flag
        /// A word that is not an option, taken in declaration order.
        case positional(valueName: String)
    }

    var kind: Kind
    /// `--limit`, `-n`: long names first as declared; empty for a positional.
    var names: [String]
    var help: String
    /// An option that may be given more than once (every value counts), or a
    /// positional that takes every word left.
    var isRepeating: Bool
    /// Without a value the command cannot run: the parser says which is missing.
    var isRequired: Bool
    /// Shown in the help as "(default: ...)".
    var defaultDescription: String?
    /// The property's place in the command, `view.glob`: where the decoder finds the value.
    var key: String
    /// The words given (one per occurrence; an empty string per flag) to the value,
    /// boxed for the decoder; nil when none was given and there is no default.
    var resolve: ([String]) throws(ValueError) -> Any?

    var isPositional: Bool {
        if case .positional = kind { return true }
        return false
    }

    /// What names it in messages: `--limit`, or `POS` for a positional.
    var displayName: String {
        if case .positional(let valueName) = kind { return valueName }
        return names.first(where: { $0.hasPrefix("--") }) ?? names.first ?? key
    }

    var valueName: String? {
        switch kind {
        case .option(let name), .positional(let name): name
        case .flag: nil
        }
    }
}

/// What a wrapper holds before parsing: its declaration; the generic half of
/// `ArgumentDefinition`, so that values keep their type.
struct Declaration<Value> {
    var kind: ArgumentDefinition.Kind
    var names: [String]
    var help: String
    var isRepeating: Bool
    /// nil: required. For an optional value, `.some(nil)`.
    var defaultValue: Value?
    var defaultDescription: String?
    /// The words given to the value; nil when none were given.
    var resolve: @Sendable ([String]) throws(ValueError) -> Value?

    func definition(key: String) -> ArgumentDefinition {
        let defaultValue = defaultValue
        let resolve = resolve
        return ArgumentDefinition(
            kind: kind, names: names, help: help, isRepeating: isRepeating, isRequired: defaultValue == nil,
            defaultDescription: defaultDescription, key: key,
            resolve: { words throws(ValueError) -> Any? in
                if let value = try resolve(words) { return ArgumentBox(value: value) }
                return defaultValue.map { ArgumentBox(value: $0) }
            })
    }

    var label: String { names.first ?? kind.valueNameOrEmpty }
}

extension Declaration: Sendable where Value: Sendable {}

extension ArgumentDefinition.Kind {
    var valueNameOrEmpty: String {
        switch self {
        case .option(let name), .positional(let name): name
        case .flag: ""
        }
    }
}

/// A parsed value on its way to its wrapper (a box, so that an optional value's
/// nil is never mistaken for "no value").
struct ArgumentBox<Value> {
    let value: Value
}

/// Makes a value of `T` from a word, or says what was expected.
enum ValueParsing {
    static func parse<T: ExpressibleByArgument>(_ word: String, as type: T.Type) throws(ValueError) -> T {
        guard let value = T(argument: word) else { throw ValueError(text: word, expected: T.expectation) }
        return value
    }

    static func transform<T>(_ word: String, _ transform: (String) -> T?, expecting: String) throws(ValueError) -> T {
        guard let value = transform(word) else { throw ValueError(text: word, expected: expecting) }
        return value
    }

    /// One value per occurrence, the last one counts (each is checked).
    static func last<T>(_ words: [String], _ make: (String) throws(ValueError) -> T) throws(ValueError) -> T? {
        var result: T?
        for word in words { result = try make(word) }
        return result
    }
}
