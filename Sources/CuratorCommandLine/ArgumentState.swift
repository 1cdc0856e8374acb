// SPDX-License-Identifier: GPL-2.0-or-later

/// What a property wrapper holds: its declaration until the parser has run (in
/// the command made by `init()`, which the parser reflects on), its value after.
enum ArgumentState<Value> {
    case declared(Declaration<Value>)
    case parsed(Value)

    var value: Value {
        switch self {
        case .parsed(let value):
            return value
        case .declared(let declaration):
            // A required argument read from a command the parser did not make: a bug.
            guard let value = declaration.defaultValue else {
                preconditionFailure("\(declaration.label) is required and was read before parsing")
            }
            return value
        }
    }

    func definitions(key: String) -> [ArgumentDefinition] {
        guard case .declared(let declaration) = self else { return [] }
        return [declaration.definition(key: key)]
    }
}

extension ArgumentState: Sendable where Value: Sendable {}

/// Implemented by the property wrappers, so that reflection finds their declarations.
protocol ArgumentDeclaring {
    func definitions(key: String) -> [ArgumentDefinition]
}
