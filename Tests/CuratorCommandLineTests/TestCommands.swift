// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine

/// A small program shaped like curatorctl: global options, leaves, a nested group.
struct Tool: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "tool", abstract: "Does things to photos.",
        subcommands: [Sync.self, Move.self, Pick.self, Trash.self])

    @Option("--socket", "-S", value: "PATH", help: "The socket.") var socket: String?
    @Flag("--json", help: "Print JSON.") var json: Bool
}

struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(name: "sync", abstract: "Wait until caught up.")
    @Argument("ROOT", help: "The root to wait for.") var root: String?
    @Option("--timeout", value: "MS", help: "Give up after MS milliseconds.") var timeout: Int?
}

struct Move: ParsableCommand {
    static let configuration = CommandConfiguration(name: "move", abstract: "Move a photo.")
    @Argument("POS", help: "The photo's position.") var position: Int
    @Option("--to", value: "POS", help: "Where it goes.") var to: Int
}

enum Sort: String, CaseIterable, ExpressibleByArgument { case name, size }

struct Filters: ParsableArguments {
    @Option("--glob", "--filter", value: "PATTERN", help: "File names matching PATTERN.") var glob: String?
    @Option("--sort", value: "KEY", help: "The order.") var sort: Sort?
    @Option("--type", value: "TYPES", help: "Types, comma-separated.", expecting: "types like jpeg,nef",
            transform: { text in text.isEmpty ? nil : text.split(separator: ",").map(String.init) }) var types: [String]?

    mutating func validate() throws(ValidationError) {
        if glob == "" { throw ValidationError("--glob needs a pattern") }
    }
}

struct Pick: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "pick", abstract: "Pick photos by position or by filter.", discussion: "Positions are 1-based.")
    @OptionGroup var filters: Filters
    @Argument("POSITIONS", help: "Positions like 3 5 9-12.") var positions: [String] = []
    @Flag("--yes", "-y", help: "Do not ask.") var yes: Bool
    @Option("--limit", "-n", value: "N", help: "At most N.") var limit: Int?
    @Option("--tag", "-t", value: "TAG", help: "A tag (repeatable).") var tags: [String] = []
    @Option("--cap", value: "N", help: "The cap.") var cap: Int = 8

    mutating func validate() throws(ValidationError) {
        if positions.isEmpty && filters.glob == nil { throw ValidationError("name the photos: positions or --glob") }
    }
}

struct Trash: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "trash", abstract: "Look after the trash.", subcommands: [TrashList.self, TrashEmpty.self])
    @Flag("--all-users", help: "Every user's trash.") var allUsers: Bool
}

struct TrashList: ParsableCommand {
    static let configuration = CommandConfiguration(name: "list", abstract: "List what is in the trash.")
    @Argument("ROOT", help: "Roots to list.") var roots: [String] = []
}

struct TrashEmpty: ParsableCommand {
    static let configuration = CommandConfiguration(name: "empty", abstract: "Empty the trash.")
    @Flag("--yes", "-y", help: "Do not ask.") var yes: Bool
}

enum Level: String, CaseIterable, ExpressibleByArgument { case error, info, debug }

/// A program without subcommands, shaped like curatord.
struct Server: ParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        name: "server", abstract: "Serves photos.", discussion: "SIGHUP reloads.\nSIGTERM stops.")
    @Option("--config", "-c", value: "FILE", help: "Read settings from FILE.") var config: String?
    @Option("--root", "-r", value: "DIR", help: "Watch DIR (repeatable).") var roots: [String] = []
    @Option("--log-level", value: "LEVEL", help: "How much to log.") var level: Level?
    @Flag("--check-config", help: "Check and exit.") var checkConfig: Bool
    @Flag("--version", "-V", help: "Show the version.") var version: Bool
}
