// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

/// The command lines of the real binaries (issue 12): per-command help, words too
/// many refused, `--` ending the options, global options before the command, and
/// usage errors with exit status 2.
@Suite struct CuratorctlCommandLineTests {
    /// curatorctl with a socket where nothing listens: a line that got past its
    /// parsing would fail with 3 (unreachable), so 0 or 2 says the parser answered.
    static func offline(_ args: [String]) throws -> Command {
        let nowhere = TestDirectory("cli")
        return try Command.run(Daemon.curatorctl, ["--socket", nowhere.sub("none.sock")] + args)
    }

    @Test func lsHelpShowsTheHelpOfLs() throws {
        let help = try Self.offline(["ls", "--help"])
        #expect(help.status == 0)
        #expect(help.stderr.isEmpty, "\(help.stderr)")
        #expect(help.stdout.hasPrefix("Usage: curatorctl ls [ROOT[/FOLDER]] [--root ROOT]"), "\(help.stdout)")
        for option in ["--glob, --filter PATTERN", "--desc, --reverse", "--offset N", "-n, --limit N", "-h, --help"] {
            #expect(help.stdout.contains("\n  \(option)"), "ls --help lacks \(option)")
        }
        #expect(!help.stdout.contains("Commands:"), "the help of ls, not the list of commands")
        let unwrapped = help.stdout.replacingOccurrences(of: "\n", with: " ")
        #expect(unwrapped.contains("The options of curatorctl (--socket, --json, --session, --version) go before \"ls\""))
        #expect(try Self.offline(["ls", "-h"]).stdout == help.stdout)
        #expect(try Self.offline(["ls", "pics", "--sort", "size", "--help"]).stdout == help.stdout)
    }

    @Test func helpLsIsTheHelpOfLs() throws {
        let help = try Self.offline(["help", "ls"])
        #expect(help.status == 0)
        #expect(help.stdout == (try Self.offline(["ls", "--help"])).stdout)
        #expect(help.stdout.hasPrefix("Usage: curatorctl ls "))
        let unknown = try Self.offline(["help", "lsx"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("curatorctl: unknown command \"lsx\"\nUsage: curatorctl "), "\(unknown.stderr)")
    }

    @Test func theCommandsAreListedWithNoCommandOrHelp() throws {
        let bare = try Self.offline([])
        #expect(bare.status == 0)
        #expect(bare.stdout.contains("\nCommands:\n"))
        #expect(try Self.offline(["--help"]).stdout == bare.stdout)
        #expect(try Self.offline(["help"]).stdout == bare.stdout)
    }

    @Test func anUnknownOptionIsAnErrorWithTheUsage() throws {
        let bogus = try Self.offline(["ls", "--bogus"])
        #expect(bogus.status == 2)
        #expect(bogus.stdout.isEmpty)
        #expect(bogus.stderr.hasPrefix("curatorctl: unknown option --bogus\nUsage: curatorctl ls [ROOT[/FOLDER]]"), "\(bogus.stderr)")
        #expect(bogus.stderr.hasSuffix("See curatorctl ls --help.\n"), "\(bogus.stderr)")
        let value = try Self.offline(["history", "--limit", "ten"])
        #expect(value.status == 2)
        #expect(value.stderr.hasPrefix("curatorctl: --limit needs a whole number, 0 or more, not \"ten\"\n"), "\(value.stderr)")
        let command = try Self.offline(["lsx"])
        #expect(command.status == 2)
        #expect(command.stderr.hasPrefix("curatorctl: unknown command \"lsx\"\n"), "\(command.stderr)")
    }

    /// With two roots (issue 48, 15): the README's `ls 2024` lists the folder of the
    /// root that has it; a real path, absolute or `.`, resolves to its root and
    /// folder; a place in no root, or a folder of two roots, is a usage error naming
    /// them; every usage error exits 2, the daemon's `invalid_argument` too; --help
    /// lists exit statuses 6 and 7.
    @Test func placesResolveWithTwoRootsAndUsageErrorsExitTwo() throws {
        let d = Daemon(roots: ["pics", "phone"])
        try FileManager.default.createDirectory(atPath: d.root() + "/2024/05", withIntermediateDirectories: true)
        Files.write(d.root() + "/2024/05/IMG_0001.JPG", "a photo")
        try FileManager.default.createDirectory(atPath: d.root("phone") + "/DCIM", withIntermediateDirectories: true)
        Files.write(d.root("phone") + "/DCIM/PXL_0001.JPG", "phone")
        try d.start()
        try d.waitForScanToFinish()
        let readme = try d.ctl(["ls", "2024"])
        #expect(readme.status == 0 && readme.stdout.contains("pics/2024/05/") && !readme.stdout.contains("PXL"), "\(readme)")
        let absolute = try d.ctl(["ls", d.root() + "/2024/05"])
        #expect(absolute.status == 0 && absolute.stdout.contains("IMG_0001.JPG"), "\(absolute)")
        let here = try d.ctl(["ls", "."], in: d.root("phone") + "/DCIM")
        #expect(here.status == 0 && here.stdout.contains("phone/DCIM/") && !here.stdout.contains("IMG_0001"), "\(here)")
        let outside = try d.ctl(["ls", "/"])
        #expect(outside.status == 2 && outside.stderr.contains("/ is in none of curatord's roots: ")
                && outside.stderr.contains("pics (\(d.root())"), "\(outside)")
        try FileManager.default.createDirectory(atPath: d.root("phone") + "/2024", withIntermediateDirectories: true)
        try d.waitForScanToFinish()
        let both = try d.ctl(["ls", "2024"])
        #expect(both.status == 2 && both.stderr.contains("2 roots have a folder 2024: say which, as in "), "\(both)")
        for (words, said) in [(["ls", "--limit", "-1"], "--limit needs a whole number, 0 or more"),
                              (["history", "--limit", "-1"], "--limit needs a whole number, 0 or more"),
                              (["ls", "--from", "2024-13"], "invalid date '2024-13'"),
                              (["rm", "--only", "jpeg"], "--only needs raw or rendered")] {
            let refused = try d.ctl(words)
            #expect(refused.status == 2 && refused.stderr.contains(said), "\(words): \(refused)")
        }
        let help = try d.ctl(["--help"])
        #expect(help.stdout.contains("6 rm or undo did nothing") && help.stdout.contains("7 rm or undo did only part"), "\(help.stdout)")
    }

    /// One daemon for the checks that would have reached it before: each refused
    /// line must leave it untouched.
    @Test func wordsTooManyAreRefusedAndGlobalOptionsGoAnywhere() throws {
        let d = Daemon()
        Files.write(d.root() + "/a.jpg")
        Files.write(d.root() + "/b.jpg")
        try d.start()
        // `sync a b` ignored `b`.
        let sync = try d.ctl(["sync", "pics", "extra"])
        #expect(sync.status == 2)
        #expect(sync.stderr.hasPrefix("curatorctl: unexpected argument \"extra\"\nUsage: curatorctl sync [ROOT] [--timeout MS]"),
                "\(sync.stderr)")
        #expect(sync.stdout.isEmpty)
        #expect(try d.ctl(["sync", "pics"]).status == 0)
        for words in [["rescan", "pics", "extra"], ["undo", "1", "2"], ["mode", "select", "view"], ["status", "now"],
                      ["selection", "all"], ["move", "1", "2", "--to", "3"]] {
            let refused = try d.ctl(words)
            #expect(refused.status == 2, "\(words): \(refused.stderr)")
            #expect(refused.stderr.contains("unexpected argument"), "\(words): \(refused.stderr)")
        }
        #expect(try d.client().result(["cmd": "selection"])["mode"] as? String == "view", "mode select view changed nothing")

        // curatorctl's own options go before the command or after it (issue 48, 15).
        let json = try d.ctl(["ls", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.hasPrefix("{"), "JSON lines: \(json.stdout)")
        #expect(try d.ctl(["--json", "ls"]).stdout == json.stdout)
        let session = try d.ctl(["select", "1", "--session", "other"])
        #expect(session.status == 0, "\(session.stderr)")
        #expect(try d.client().result(["cmd": "selection", "session": "other"])["count"] as? Int == 1)
        #expect(try d.client().result(["cmd": "selection"])["count"] as? Int == 0, "not the default session")
        #expect(try d.ctl(["--session", "other", "select", "2"]).status == 0)
    }

    /// `--` ends the options: a root named `-dash`, which a word before it would
    /// take for options. A value may start with a dash where an option takes one.
    @Test func doubleDashEndsTheOptions() throws {
        let d = Daemon(roots: ["-dash", "pics"])
        Files.write(d.root("-dash") + "/in-dash.jpg")
        Files.write(d.root("pics") + "/-x.jpg")
        Files.write(d.root("pics") + "/y.jpg")
        try d.start()
        let listed = try d.ctl(["ls", "--", "-dash"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("in-dash.jpg"), "\(listed.stdout)")
        #expect(!listed.stdout.contains("y.jpg"))
        let unescaped = try d.ctl(["ls", "-dash"])
        #expect(unescaped.status == 2)
        #expect(unescaped.stderr.hasPrefix("curatorctl: unknown option -d (in -dash)\n"), "\(unescaped.stderr)")
        #expect(try d.ctl(["rescan", "--", "-dash"]).status == 0)

        let glob = try d.ctl(["ls", "pics", "--glob", "-x*"])
        #expect(glob.status == 0, "\(glob.stderr)")
        #expect(glob.stdout.contains("-x.jpg"), "\(glob.stdout)")
        #expect(!glob.stdout.contains("y.jpg"), "\(glob.stdout)")
        #expect(try d.ctl(["ls", "pics", "--glob=-x*"]).stdout == glob.stdout)
    }
}

@Suite struct CuratordCommandLineTests {
    @Test func helpIsGeneratedFromTheOptions() throws {
        let help = try Command.run(Daemon.curatord, ["--help"])
        #expect(help.status == 0)
        #expect(help.stderr.isEmpty, "\(help.stderr)")
        #expect(help.stdout.hasPrefix("Usage: curatord [--config FILE] [--root DIR ...] [--socket PATH]"), "\(help.stdout)")
        for option in ["-c, --config FILE", "-r, --root DIR", "-s, --socket PATH", "--state-dir DIR", "--log-level LEVEL",
                       "--check-config", "-V, --version", "-h, --help"] {
            #expect(help.stdout.contains("\n  \(option)"), "curatord --help lacks \(option)")
        }
        #expect(try Command.run(Daemon.curatord, ["-h"]).stdout == help.stdout)
    }

    @Test func usageErrorsNameTheWordAndExitTwo() throws {
        for (words, message) in [
            (["--bogus"], "unknown option --bogus"),
            (["--root"], "--root needs a value (DIR)"),
            (["--check-config", "stray"], "unexpected argument \"stray\""),
            (["--check-config=yes"], "--check-config takes no value"),
        ] {
            let result = try Command.run(Daemon.curatord, words)
            #expect(result.status == 2, "\(words)")
            #expect(result.stdout.isEmpty, "\(words): \(result.stdout)")
            #expect(result.stderr.hasPrefix("curatord: \(message)\nUsage: curatord [--config FILE]"), "\(words): \(result.stderr)")
            #expect(result.stderr.hasSuffix("See curatord --help.\n"), "\(words): \(result.stderr)")
        }
    }

    @Test func shortAndAttachedFormsAreTaken() throws {
        let dir = TestDirectory("cli")
        let root = dir.mkdir("photos")
        let own = ["--state-dir", dir.mkdir("state"), "-s", dir.sub("curatord.sock")]
        for words in [["-r", root], ["-r" + root], ["--root=" + root], ["--root", root]] {
            let check = try Command.run(Daemon.curatord, ["--check-config"] + own + words)
            #expect(check.status == 0, "\(words): \(check.stderr)")
            #expect(check.stdout.contains(root), "\(words): \(check.stdout)")
        }
    }
}

/// `curatord-thumbnailer`'s command line, parsed by the same rules as curatorctl's:
/// a bad option is exit status 2 with a sentence that names it, before any job.
@Suite struct ThumbnailerCommandLineTests {
    static var thumbnailer: String { Daemon.binDirectory + "/curatord-thumbnailer" }

    @Test func badOptionsExitTwoNamingTheWord() throws {
        for (arguments, said) in [(["--bogus"], "curatord-thumbnailer: unknown option --bogus\nUsage: curatord-thumbnailer "),
                                  (["--threads", "many"], "curatord-thumbnailer: --threads needs a whole number"),
                                  (["--memory-mib", "-1"], "curatord-thumbnailer: --memory-mib must not be negative"),
                                  (["--cpu-seconds"], "curatord-thumbnailer: --cpu-seconds needs")] {
            let run = try Command.run(Self.thumbnailer, arguments, timeout: 30)
            #expect(run.status == 2, "\(arguments): \(run.output)")
            #expect(run.stdout.isEmpty, "\(arguments): \(run.stdout)")
            #expect(run.stderr.hasPrefix(said), "\(arguments): \(run.stderr)")
        }
    }

    @Test func badSheetOptionsExitTwoAsTheSheet() throws {
        for (arguments, said) in [(["sheet", "items.json"], "curatord-thumbnailer sheet: missing --output"),
                                  (["sheet", "items.json", "-o", "out.png", "--columns", "four"],
                                   "curatord-thumbnailer sheet: --columns needs a whole number"),
                                  (["sheet", "items.json", "-o", "out.png", "--dpi", "3"],
                                   "curatord-thumbnailer sheet: unknown option --dpi")] {
            let run = try Command.run(Self.thumbnailer, arguments, timeout: 30)
            #expect(run.status == 2, "\(arguments): \(run.output)")
            #expect(run.stderr.hasPrefix(said), "\(arguments): \(run.stderr)")
        }
    }

    @Test func helpAndVersionExitZero() throws {
        let help = try Command.run(Self.thumbnailer, ["--help"], timeout: 30)
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("Usage: curatord-thumbnailer "), "\(help.stdout)")
        for word in ["--max-pixels", "--memory-mib", "--cpu-seconds", "--threads", "sheet"] {
            #expect(help.stdout.contains(word), "\(word) in \(help.stdout)")
        }
        let sheet = try Command.run(Self.thumbnailer, ["sheet", "--help"], timeout: 30)
        #expect(sheet.status == 0 && sheet.stdout.hasPrefix("Usage: curatord-thumbnailer sheet ITEMS.json"), "\(sheet.stdout)")
        let version = try Command.run(Self.thumbnailer, ["--version"], timeout: 30)
        #expect(version.status == 0 && version.stdout.hasPrefix("curatord-thumbnailer "), "\(version.output)")
    }
}
