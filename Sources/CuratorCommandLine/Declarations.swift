// SPDX-License-Identifier: GPL-2.0-or-later

/// Finds what a command declares by reflecting on the value `init()` made: each
/// stored property is a wrapper holding its declaration, in the order written.
enum Declarations {
    static func of(_ arguments: any ParsableArguments, scope: String = "") -> [ArgumentDefinition] {
        var result: [ArgumentDefinition] = []
        for child in Mirror(reflecting: arguments).children {
            let label = child.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 } ?? "?"
            // Any other stored property would be left out of the help and fail to
            // decode: a bug in the command, caught by any test that shows its help.
            guard let declaring = child.value as? any ArgumentDeclaring else {
                preconditionFailure("\(type(of: arguments)).\(label) is not an @Option, @Flag, @Argument or @OptionGroup")
            }
            result += declaring.definitions(key: scope.isEmpty ? label : scope + "." + label)
        }
        return result
    }
}
