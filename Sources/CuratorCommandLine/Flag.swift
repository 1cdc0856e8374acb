// SPDX-License-Identifier: GPL-2.0-or-later

/// An option without a value, false unless given: `--json`, `-y`.
///
///     @Flag("--yes", "-y", help: "Do not ask.") var yes: Bool
@propertyWrapper
public struct Flag: Decodable, Sendable, ArgumentDeclaring {
    var state: ArgumentState<Bool>

    public var wrappedValue: Bool {
        get { state.value }
        set { state = .parsed(newValue) }
    }

    public init(_ names: String..., help: String) {
        state = .declared(Declaration(
            kind: .flag, names: names, help: help, isRepeating: false, defaultValue: false,
            resolve: { words throws(ValueError) -> Bool? in words.isEmpty ? nil : true }))
    }

    public init(from decoder: any Decoder) throws {
        state = .parsed(try ArgumentDecoder.value(of: Bool.self, from: decoder))
    }

    func definitions(key: String) -> [ArgumentDefinition] { state.definitions(key: key) }
}
