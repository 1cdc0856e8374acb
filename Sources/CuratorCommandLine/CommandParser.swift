// SPDX-License-Identifier: GPL-2.0-or-later

/// One rule for every program. Each command's options go after its name and before
/// its subcommand's name (so a program's global options come before the command);
/// options and positional arguments of a command mix in any order. `--name VALUE`
/// and `--name=VALUE`, `-n VALUE`, `-nVALUE`; flags cluster (`-yn 5`). A value is
/// the next word whatever it starts with. `--` ends the options: every word after it
/// is a positional argument. `-h` and `--help` show the help of the command they
/// follow, and a group of commands has `help COMMAND`. Whatever is not declared is
/// an error that names the word: an unknown option or command, an argument too many.
public enum CommandParser {
    public static func parse(_ words: [String], root: any ParsableCommand.Type) throws(CommandLineError) -> ParseOutcome {
        var walk = CommandLineWalk(words: words, root: CommandNode(root))
        do {
            try walk.run()
        } catch {
            // `ls --bogus --help` shows the help it asked for rather than the error.
            if walk.helpAsked || walk.helpFollows() { return .help(HelpFormatter(walk.nodes).help()) }
            throw error
        }
        if let topic = walk.helpTopic { return .help(HelpFormatter(topic).help()) }
        if walk.helpAsked { return .help(HelpFormatter(walk.nodes).help()) }
        var commands: [any ParsableCommand] = []
        for index in walk.nodes.indices {
            commands.append(try walk.makeCommand(index))
        }
        return .run(ParsedCommandLine(commands: commands, nodes: walk.nodes))
    }
}

extension ParsableCommand {
    /// Parses the command line of a program without subcommands.
    public static func parse(_ words: [String]) throws(CommandLineError) -> ParsedCommand<Self> {
        switch try CommandParser.parse(words, root: Self.self) {
        case .help(let text):
            return .help(text)
        case .run(let line):
            guard let command = line.command as? Self else { preconditionFailure("\(Self.self) has subcommands") }
            return .run(command)
        }
    }
}
