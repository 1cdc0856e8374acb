// SPDX-License-Identifier: GPL-2.0-or-later

/// What a command line asks for.
public enum ParseOutcome {
    /// Run it: every command named, from the root to the last, with its values.
    case run(ParsedCommandLine)
    /// `--help`, `-h` or `help COMMAND`: print this on standard output, exit 0.
    case help(String)
}

/// The commands of a parsed line, root first, each with the values of its options.
public struct ParsedCommandLine {
    public let commands: [any ParsableCommand]
    let nodes: [CommandNode]

    /// The help of the last command: what to print when it is a group given no subcommand.
    public var help: String { HelpFormatter(nodes).help() }

    /// The command the line names (the root when no subcommand was given).
    public var command: any ParsableCommand { commands[commands.count - 1] }

    /// The first command of the given type on the line (for a root's global options).
    public func command<C: ParsableCommand>(_ type: C.Type) -> C? {
        commands.lazy.compactMap { $0 as? C }.first
    }
}

/// What the command line of a program without subcommands asks for.
public enum ParsedCommand<Command> {
    case run(Command)
    case help(String)
}
