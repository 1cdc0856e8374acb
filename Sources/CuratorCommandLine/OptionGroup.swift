// SPDX-License-Identifier: GPL-2.0-or-later

/// Options declared once and shared by several commands (the view options of `ls`
/// and `view`, the global options of a program): a `ParsableArguments` type whose
/// declarations become the command's own. Its `validate()` runs after the values are in.
///
///     @OptionGroup var view: ViewOptions
@propertyWrapper
public struct OptionGroup<Value: ParsableArguments>: Decodable, ArgumentDeclaring {
    public var wrappedValue: Value

    public init() { wrappedValue = Value() }

    public init(from decoder: any Decoder) throws {
        wrappedValue = try Value(from: decoder)
        try wrappedValue.validate()
    }

    func definitions(key: String) -> [ArgumentDefinition] { Declarations.of(wrappedValue, scope: key) }
}

extension OptionGroup: Sendable where Value: Sendable {}
