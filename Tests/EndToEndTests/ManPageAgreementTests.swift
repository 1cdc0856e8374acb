// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

/// The man pages and the help the programs generate from their declarations say
/// the same: every command and every option of the help is in the man page, where
/// the man page documents that command, and the man page documents no command or
/// option the programs do not have.
@Suite struct ManPageAgreementTests {
    @Test func curatorctlsManPageHasEveryCommandAndOption() throws {
        let page = try ManPage(Command.packageRoot + "/docs/man/curatorctl.1")
        let root = try HelpListing(try Self.curatorctl(["--help"]))
        let global = Set(root.options.flatMap { $0 })
        let commands = try Self.commands(of: [], root)
        #expect(commands.count >= 18, "\(commands.map(\.path))")
        let entries = page.entries(in: "COMMANDS")

        // An entry documents the longest command its synopsis starts with (`trash list`, not `trash`).
        let paths = commands.map(\.path)
        func documented(by entry: ManPage.Entry) -> [String]? {
            paths.filter { entry.startsWith($0) }.max { $0.count < $1.count }
        }
        for command in commands {
            let name = command.path.joined(separator: " ")
            let matching = entries.filter { documented(by: $0) == command.path }
            guard matching.count == 1, let entry = matching.first else {
                Issue.record("curatorctl.1 has \(matching.count) entries for the command \(name), not 1")
                continue
            }
            let declared = Set(command.help.options.flatMap { $0 }).subtracting(["-h", "--help"])
            for option in declared where !entry.options.contains(option) {
                Issue.record("curatorctl.1 does not document \(option) under \(name)")
            }
            for option in entry.headingOptions where !declared.contains(option) {
                Issue.record("curatorctl.1 shows \(option) in the synopsis of \(name), which has no such option")
            }
            for option in entry.options.subtracting(declared).subtracting(global) where !Self.otherPrograms.contains(option) {
                Issue.record("curatorctl.1 mentions \(option) under \(name), which is neither its option nor curatorctl's")
            }
        }
        for entry in entries where documented(by: entry) == nil {
            Issue.record("curatorctl.1 documents a command curatorctl does not have: \(entry.heading)")
        }
        let documented = Set(page.entries(in: "OPTIONS").flatMap(\.headingOptions))
        #expect(documented == global, "OPTIONS of curatorctl.1: \(documented.sorted()); curatorctl --help: \(global.sorted())")
    }

    @Test func curatordsManPageHasEveryOption() throws {
        let page = try ManPage(Command.packageRoot + "/docs/man/curatord.8")
        let help = try HelpListing(try Command.run(Daemon.curatord, ["--help"]).stdout)
        let declared = Set(help.options.flatMap { $0 })
        #expect(declared.count >= 12, "\(declared)")
        let documented = Set(page.entries(in: "OPTIONS").flatMap(\.headingOptions))
        #expect(documented == declared, "OPTIONS of curatord.8: \(documented.sorted()); curatord --help: \(declared.sorted())")
    }

    /// Options of other programs that a command's entry may name (`gio trash --restore`).
    static let otherPrograms: Set<String> = ["--restore"]

    static func curatorctl(_ args: [String]) throws -> String {
        let result = try Command.run(Daemon.curatorctl, args)
        guard result.status == 0 else { throw HarnessError("curatorctl \(args) exited \(result.status): \(result.stderr)") }
        return result.stdout
    }

    /// Every command below `path`, found by asking for each one's help.
    static func commands(of path: [String], _ listing: HelpListing) throws -> [(path: [String], help: HelpListing)] {
        var found: [(path: [String], help: HelpListing)] = []
        for name in listing.commands {
            let sub = path + [name]
            if name == "help" {
                // The built-in help: curatorctl.1 documents `help [command]` once, for every group.
                if path.isEmpty { found.append((sub, HelpListing(options: [], commands: []))) }
                continue
            }
            let help = try HelpListing(try curatorctl(["help"] + sub))
            found.append((sub, help))
            found += try commands(of: sub, help)
        }
        return found
    }
}

/// The option names and commands of a generated help text.
struct HelpListing {
    /// Each option's names: `["-n", "--limit"]`.
    var options: [[String]]
    var commands: [String]

    init(options: [[String]], commands: [String]) {
        self.options = options
        self.commands = commands
    }

    init(_ text: String) throws {
        options = []
        commands = []
        var section = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                section = ""
            } else if !line.hasPrefix(" ") && line.hasSuffix(":") {
                section = String(line)
            } else if line.hasPrefix("  ") && !line.hasPrefix("   ") {
                // "  -n, --limit N     Show ...": the label is what comes before two spaces.
                let label = line.dropFirst(2).components(separatedBy: "  ")[0]
                switch section {
                case "Options:":
                    options.append(label.components(separatedBy: ", ").compactMap { $0.split(separator: " ").first.map(String.init) })
                case "Commands:":
                    commands.append(label)
                default:
                    break
                }
            }
        }
        guard !options.isEmpty else { throw HarnessError("no options in the help:\n\(text)") }
    }
}

/// A man page's sections and `.TP` entries, as plain text.
struct ManPage {
    struct Entry {
        /// The tag line, `ls [ROOT[/FOLDER]] [--offset N]`.
        var heading: String
        var body: String

        /// Whether its synopsis starts with the words of `path` (`trash list`).
        func startsWith(_ path: [String]) -> Bool {
            heading.split(separator: " ").prefix(path.count).map(String.init) == path
        }

        var headingOptions: Set<String> { ManPage.options(in: heading) }
        var options: Set<String> { ManPage.options(in: heading + "\n" + body) }
    }

    let source: String

    init(_ path: String) throws {
        guard let text = Files.read(path) else { throw HarnessError("cannot read \(path)") }
        source = text
    }

    /// The `.TP` entries of a section, heading and text in plain words.
    func entries(in section: String) -> [Entry] {
        guard let start = source.range(of: "\n.SH \(section)\n") else { return [] }
        let rest = source[start.upperBound...]
        let end = rest.range(of: "\n.SH ")?.lowerBound ?? rest.endIndex
        var entries: [Entry] = []
        var lines = rest[..<end].split(separator: "\n", omittingEmptySubsequences: false).makeIterator()
        var current: Entry?
        while let line = lines.next() {
            if line == ".TP" {
                if let current { entries.append(current) }
                current = Entry(heading: Self.plain(String(lines.next() ?? "")), body: "")
            } else if line == ".PP" || line.hasPrefix(".SS") {
                if let current { entries.append(current) }
                current = nil
            } else if current != nil {
                current?.body += Self.plain(String(line)) + "\n"
            }
        }
        if let current { entries.append(current) }
        return entries
    }

    /// Roff to words: no macros, fonts, quotes or escaped dashes.
    static func plain(_ line: String) -> String {
        var text = line.replacingOccurrences(of: "\\-", with: "-")
        for font in ["\\fB", "\\fI", "\\fP", "\\fR"] { text = text.replacingOccurrences(of: font, with: "") }
        text = text.replacingOccurrences(of: "\"", with: "")
        if text.hasPrefix(".") { text = String(text.drop { $0 != " " }.dropFirst()) }
        return text
    }

    /// `--glob`, `-n`: words that start with a dash after a space or an opening sign.
    static func options(in text: String) -> Set<String> {
        var found: Set<String> = []
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let before = i == 0 ? " " : Character(scalars[i - 1])
            if scalars[i] == "-" && (before == " " || before == "(" || before == "[" || before == "|" || before == "\n") {
                var j = i
                while j < scalars.count && scalars[j] == "-" { j += 1 }
                var k = j
                while k < scalars.count, CharacterSet.alphanumerics.contains(scalars[k]) || scalars[k] == "-" { k += 1 }
                let dashes = j - i
                let word = String(String.UnicodeScalarView(scalars[i..<k]))
                // `--name` needs a word after two dashes; `-n` is one letter after one.
                if (dashes == 2 && k - j > 1) || (dashes == 1 && k - j == 1) { found.insert(word) }
                i = k
                continue
            }
            i += 1
        }
        return found
    }
}
