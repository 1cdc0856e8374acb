// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import Testing

@Suite struct HelpTests {
    @Test func dashDashHelpAfterACommandShowsItsHelp() throws {
        let help = try #require(try helpText(["sync", "--help"]))
        #expect(help == """
            Usage: tool sync [ROOT] [--timeout MS]

            Wait until caught up.

            Arguments:
              ROOT          The root to wait for.

            Options:
              --timeout MS  Give up after MS milliseconds.
              -h, --help    Show this help.

            The options of tool (--socket, --json) go before "sync": see tool --help.
            """)
        #expect(try helpText(["sync", "-h"]) == help)
        #expect(try helpText(["help", "sync"]) == help)
        #expect(try helpText(["--help", "sync"]) == help)
        #expect(try helpText(["-S", "/s", "sync", "a", "--timeout", "3", "--help"]) == help)
    }

    @Test func helpWinsOverAnErrorInTheSameLine() throws {
        #expect(try helpText(["sync", "--bogus", "--help"])?.hasPrefix("Usage: tool sync") == true)
        #expect(try helpText(["sync", "a", "b", "-h"])?.hasPrefix("Usage: tool sync") == true)
        #expect(try helpText(["move", "--help"])?.hasPrefix("Usage: tool move POS --to POS") == true)
        // After `--`, `--help` is an argument like any other.
        #expect(try parse(["sync", "--", "--help"], as: Sync.self).root == "--help")
    }

    @Test func theHelpOfAGroupListsItsCommands() throws {
        let help = try #require(try helpText(["--help"]))
        #expect(help == """
            Usage: tool [--socket PATH] [--json] COMMAND [ARGS]

            Does things to photos.

            Options:
              -S, --socket PATH  The socket.
              --json             Print JSON.
              -h, --help         Show this help.

            Commands:
              sync               Wait until caught up.
              move               Move a photo.
              pick               Pick photos by position or by filter.
              trash              Look after the trash.
              help               Show the help of a command: tool help COMMAND.
            """)
        #expect(try helpText(["help"]) == help)
    }

    @Test func nestedCommandsHaveTheirHelp() throws {
        let help = try #require(try helpText(["help", "trash", "list"]))
        #expect(help.hasPrefix("Usage: tool trash list [ROOT ...]\n\nList what is in the trash."))
        #expect(help.contains("The options of tool (--socket, --json) go before \"trash list\""))
        #expect(help.contains("The options of tool trash (--all-users) go before \"list\""))
        #expect(try helpText(["trash", "list", "--help"]) == help)
        #expect(try helpText(["trash", "help", "list"]) == help)
        let group = try #require(try helpText(["trash", "--help"]))
        #expect(group.split(separator: "\n").contains { $0.hasPrefix("  help ") && $0.hasSuffix(" Show the help of a command: tool trash help COMMAND.") })
    }

    @Test func helpForAnUnknownCommandIsAnError() {
        #expect(failure(["help", "sink"])?.message == "unknown command \"sink\"")
        #expect(failure(["help", "sync", "more"])?.message == "tool sync has no subcommand \"more\"")
    }

    @Test func theHelpShowsEveryNameDefaultAndArgument() throws {
        let help = try #require(try helpText(["pick", "--help"]))
        #expect(help.contains("Usage: tool pick [POSITIONS ...] [--glob PATTERN] [--sort KEY] [--type TYPES]"))
        #expect(help.contains("  --glob, --filter PATTERN  File names matching PATTERN."))
        #expect(help.contains("  -y, --yes"))
        #expect(help.contains("  -n, --limit N"))
        #expect(help.contains("[--tag TAG ...]"))
        #expect(help.contains("The cap. (default: 8)"))
        #expect(help.contains("\nPositions are 1-based.\n"))
        for line in help.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
    }

    @Test func longTextIsWrappedUnderItsColumn() throws {
        let help = try #require(try helpText(["--help"], root: Wordy.self))
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for line in lines { #expect(line.count <= 80, "\(line)") }
        let first = try #require(lines.firstIndex { $0.hasPrefix("  --answer WORD") })
        #expect(lines[first + 1].hasPrefix(String(repeating: " ", count: 19)))
        #expect(lines.contains("  --a-very-long-option-name-indeed VALUE"))
    }
}

struct Wordy: ParsableCommand {
    static let configuration = CommandConfiguration(name: "wordy", abstract: "Says a lot.")
    @Option("--answer", value: "WORD", help: String(repeating: "Many words are said here about the answer. ", count: 4))
    var answer: String?
    @Option("--a-very-long-option-name-indeed", value: "VALUE", help: "Its text goes on the next line.") var long: String?
}

/// A command with a property the parser cannot fill: a bug, stopped at once.
struct Undeclared: ParsableCommand {
    static let configuration = CommandConfiguration(name: "undeclared", abstract: "Forgets a wrapper.")
    @Flag("--yes", help: "Yes.") var yes: Bool
    var count = 0

    enum CodingKeys: CodingKey { case yes, count }
}

@Suite struct DeclarationTests {
    @Test func aPropertyThatIsNoArgumentStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = try? CommandParser.parse(["--yes"], root: Undeclared.self)
        }
    }

    @Test func aNameDeclaredTwiceStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = try? CommandParser.parse([], root: Twice.self)
        }
    }
}

struct Twice: ParsableCommand {
    static let configuration = CommandConfiguration(name: "twice", abstract: "Says -y twice.")
    @Flag("--yes", "-y", help: "Yes.") var yes: Bool
    @Flag("--yesterday", "-y", help: "Yesterday.") var yesterday: Bool
}
