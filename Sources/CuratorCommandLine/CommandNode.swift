// SPDX-License-Identifier: GPL-2.0-or-later

/// A command as the parser and the help see it: its type, configuration and
/// declarations.
struct CommandNode {
    let type: any ParsableCommand.Type
    let configuration: CommandConfiguration
    let definitions: [ArgumentDefinition]

    init(_ type: any ParsableCommand.Type) {
        self.type = type
        configuration = type.configuration
        definitions = Declarations.of(type.init())
        // Declaration mistakes are bugs; the help of every command is shown in tests.
        let names = definitions.flatMap(\.names)
        precondition(Set(names).count == names.count, "\(configuration.name) declares a name twice: \(names)")
        for name in names {
            precondition(name.hasPrefix("--") ? name.count > 2 : name.hasPrefix("-") && name.count == 2,
                         "\(configuration.name): \(name) is neither --long nor -x")
        }
        precondition(configuration.subcommands.isEmpty || !definitions.contains(where: \.isPositional),
                     "\(configuration.name) has subcommands and positional arguments")
    }

    var isGroup: Bool { !configuration.subcommands.isEmpty }

    var options: [ArgumentDefinition] { definitions.filter { !$0.isPositional } }
    var positionals: [ArgumentDefinition] { definitions.filter(\.isPositional) }

    func option(named name: String) -> ArgumentDefinition? {
        options.first { $0.names.contains(name) }
    }

    /// `--help` and `-h` ask for help unless the command uses them itself.
    func asksForHelp(_ name: String) -> Bool {
        (name == "--help" || name == "-h") && option(named: name) == nil
    }

    /// The subcommand named `word`; `help` is built in, unless a command takes the word.
    func subcommand(_ word: String) -> (any ParsableCommand.Type)? {
        configuration.subcommands.first { $0.configuration.name == word }
    }

    var offersHelpCommand: Bool { isGroup && subcommand("help") == nil }
}
