// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// `curatord --check-config`: validates without starting anything, prints the
/// effective settings, warns about unknown keys, and names the file, the key
/// and the problem of anything wrong. And the shipped example is complete.
@Suite(.serialized)
struct SystemdConfigTests {
    static let example = Command.packageRoot + "/config/curatord.json5"

    static func checkConfig(_ path: String, home: TestDirectory) throws -> Command {
        var env = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "JOURNAL_STREAM", "INVOCATION_ID", "CONFIGURATION_DIRECTORY", "STATE_DIRECTORY"] {
            env.removeValue(forKey: key)
        }
        env["HOME"] = home.path
        env["XDG_RUNTIME_DIR"] = home.path
        env["XDG_CONFIG_HOME"] = home.sub("config")
        env["XDG_STATE_HOME"] = home.sub("state")
        env["XDG_DATA_HOME"] = home.sub("data")
        return try Command.run(Daemon.curatord, ["--check-config", "--config", path], environment: env)
    }

    /// The example with its /srv/photos roots moved under `home`.
    static func runnableExample(_ home: TestDirectory) throws -> String {
        home.mkdir("photos/family")
        home.mkdir("photos/import")
        let text = try String(contentsOfFile: example, encoding: .utf8)
        let path = home.sub("example.json5")
        Files.write(path, text.replacingOccurrences(of: "/srv/photos", with: home.sub("photos")))
        return path
    }

    @Test func theExampleIsValidWarningFreeAndNamesEveryOption() throws {
        let home = TestDirectory("config")
        let result = try Self.checkConfig(try Self.runnableExample(home), home: home)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stderr.isEmpty, "warnings for the example: \(result.stderr)")
        #expect(result.stdout.contains("name: \"family\""))
        #expect(result.stdout.contains("path: \"\(home.sub("photos/family"))\""))
        #expect(result.stdout.contains("protect_all: true"))
        // Every setting --check-config reports is in the example, with a comment above it.
        let exampleText = try String(contentsOfFile: Self.example, encoding: .utf8)
        let exampleLines = exampleText.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let keys = Set(result.stdout.split(separator: "\n").compactMap { line -> String? in
            let t = line.trimmingCharacters(in: .whitespaces)
            guard let colon = t.firstIndex(of: ":"), !t.hasPrefix("//") else { return nil }
            let key = String(t[..<colon])
            return key.allSatisfy { $0.isLetter || $0 == "_" } ? key : nil
        })
        #expect(keys.count >= 18, "\(keys.sorted())")
        for key in keys.sorted() {
            let index = exampleLines.firstIndex { $0.hasPrefix(key + ":") }
            #expect(index != nil, "the example does not show \(key)")
            if let index, index > 0 {
                #expect(exampleLines[index - 1].hasPrefix("//") || key == "name" || key == "path" || key == "protect_all" || key == "roots",
                        "\(key) has no comment above it in the example")
            }
        }
    }

    /// Root started by hand without XDG_RUNTIME_DIR (ssh, su) takes the system
    /// service's defaults; --check-config shows where its thumbnails go and why
    /// (issue 48, 16), and that its trash stays in its home.
    @Test func checkConfigSaysWhereThumbnailsGoAndWhy() throws {
        let home = TestDirectory("config")
        let pics = home.mkdir("pics")
        let file = home.sub("c.json5")
        Files.write(file, #"{ roots: ["\#(pics)"], socket: "\#(home.sub("s.sock"))", state_dir: "\#(home.sub("state"))" }"#)
        var env = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "JOURNAL_STREAM", "INVOCATION_ID", "CONFIGURATION_DIRECTORY", "STATE_DIRECTORY",
                    "CACHE_DIRECTORY", "XDG_RUNTIME_DIR"] {
            env.removeValue(forKey: key)
        }
        env["HOME"] = home.path
        env["XDG_DATA_HOME"] = home.sub("data")
        let result = try Command.run(Daemon.curatord, ["--check-config", "--config", file], environment: env)
        try #require(getuid() == 0 && result.status == 0, "\(result.output)")
        #expect(result.stdout.contains(
            "thumbnail_dir: \"/var/cache/curatord/thumbnails\", /* the system service's own cache: no XDG_RUNTIME_DIR"),
            "\(result.stdout)")
        #expect(result.stdout.contains("trash_dir: \"\(home.sub("data"))/Trash\""), "\(result.stdout)")
    }

    @Test func effectiveSettingsFillInDefaults() throws {
        let home = TestDirectory("config")
        let pics = home.mkdir("pics")
        let file = home.sub("c.json5")
        Files.write(file, #"{ roots: ["\#(pics)"] }"#)
        let result = try Self.checkConfig(file, home: home)
        #expect(result.status == 0)
        #expect(result.stdout.contains("// effective settings from \(file)"))
        #expect(result.stdout.contains("socket: \"\(home.path)/curatord.sock\""))
        #expect(result.stdout.contains("state_dir: \"\(home.sub("state"))/curatord\""))
        #expect(result.stdout.contains("trash_dir: \"\(home.sub("data"))/Trash\""))
        #expect(result.stdout.contains("thumbnails: true,"), "\(result.stdout)")
        #expect(result.stdout.contains("thumbnail_dir: \"\(home.path)/.cache/thumbnails\", /* the thumbnail standard's"),
                "\(result.stdout)")
        #expect(result.stdout.contains("name: \"pics\""))
        #expect(result.stdout.contains("watch: \"auto\""))
        #expect(result.stdout.contains("max_clients: 64"))
        #expect(result.stdout.contains("groups: true,"), "\(result.stdout)")
        #expect(result.stdout.contains("group_shows: \"rendered\","))
        // Nothing was created: checking is read-only.
        #expect(!Files.exists(home.sub("state")))
    }

    /// A root's grouping, as set, is what --check-config says is in force.
    @Test func effectiveSettingsShowEachRootsGrouping() throws {
        let home = TestDirectory("config")
        let raw = home.mkdir("raw")
        let flat = home.mkdir("flat")
        let file = home.sub("c.json5")
        Files.write(file, #"{ roots: [{ path: "\#(raw)", group_shows: "raw" }, { path: "\#(flat)", groups: false }] }"#)
        let result = try Self.checkConfig(file, home: home)
        #expect(result.status == 0, "\(result.output)")
        let roots = result.stdout.components(separatedBy: "name: ")
        #expect(roots.count == 3, "\(result.stdout)")
        if roots.count == 3 {
            #expect(roots[1].contains("groups: true,") && roots[1].contains("group_shows: \"raw\","), "\(roots[1])")
            #expect(roots[2].contains("groups: false /* every file its own photo */,"), "\(roots[2])")
        }
    }

    @Test func unknownKeysAreWarnedAboutNotRefused() throws {
        let home = TestDirectory("config")
        let pics = home.mkdir("pics")
        let file = home.sub("c.json5")
        Files.write(file, #"{ roots: [{ path: "\#(pics)", wacth: "poll" }], sokcet_mode: "0600", colour: "blue" }"#)
        let result = try Self.checkConfig(file, home: home)
        #expect(result.status == 0)
        #expect(result.stderr.contains("\(file): sokcet_mode: unknown key, ignored (did you mean \"socket_mode\"?)"), "\(result.stderr)")
        #expect(result.stderr.contains("\(file): roots[0].wacth: unknown key, ignored (did you mean \"watch\"?)"))
        #expect(result.stderr.contains("\(file): colour: unknown key, ignored\n"), "\(result.stderr)")
    }

    @Test func errorsNameTheFileTheKeyAndTheProblem() throws {
        let home = TestDirectory("config")
        let pics = home.mkdir("pics")
        let file = home.sub("c.json5")
        let cases: [(String, String)] = [
            (#"{ roots: ["\#(pics)"], max_clients: "many" }"#, "\(file): max_clients: must be a number, not a string"),
            (#"{ roots: ["\#(pics)"], socket_mode: "0400" }"#, "\(file): socket_mode: must be an octal mode"),
            (#"{ roots: [{ path: "\#(pics)", watch: "sometimes" }] }"#, "\(file): roots[0].watch: must be \"inotify\", \"poll\" or \"auto\", not \"sometimes\""),
            (#"{ roots: ["\#(home.sub("missing"))"] }"#, "\(file): roots[0].path: \(home.sub("missing")): No such file or directory"),
            (#"{ roots: [] }"#, "\(file): roots: is empty"),
            (#"{ roots: ["\#(pics)"], log_level: "loud" }"#, "\(file): log_level: must be one of error, warning, notice, info, debug, not \"loud\""),
            ("{ roots: [ \"\(pics)\" ", "\(file): not valid JSON5"),
        ]
        for (text, expected) in cases {
            Files.write(file, text)
            let result = try Self.checkConfig(file, home: home)
            #expect(result.status == 1, "\(text)")
            #expect(result.stderr.contains(expected), "for \(text): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        let missing = try Self.checkConfig(home.sub("none.json5"), home: home)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("\(home.sub("none.json5")): cannot read the configuration file: No such file or directory"))
    }

    /// A state directory the daemon could not use is an error of --check-config
    /// (exit 1, the key and the reason), not an answer of 0 and a start that fails.
    @Test func aStateDirectoryThatCannotBeUsedIsAnError() throws {
        let home = TestDirectory("config")
        let pics = home.mkdir("pics")
        let file = home.sub("c.json5")
        let plainFile = home.sub("plain")
        Files.write(plainFile, "not a directory")
        let cases: [(String, String)] = [
            (plainFile, "state_dir: \(plainFile) is not a directory"),
            (plainFile + "/below", "state_dir: \(plainFile)/below cannot be created: \(plainFile) is not a directory"),
        ]
        for (state, expected) in cases {
            Files.write(file, #"{ roots: ["\#(pics)"], state_dir: "\#(state)" }"#)
            let result = try Self.checkConfig(file, home: home)
            #expect(result.status == 1, "\(state): \(result.output)")
            #expect(result.stderr.contains(expected), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        let stateDir = home.mkdir("state-ok")
        Files.mkdir(stateDir + "/index.sqlite")
        Files.write(file, #"{ roots: ["\#(pics)"], state_dir: "\#(stateDir)" }"#)
        let notAFile = try Self.checkConfig(file, home: home)
        #expect(notAFile.status == 1 && notAFile.stderr.contains("\(stateDir)/index.sqlite is not a regular file"), "\(notAFile.output)")
    }

    /// As a user who may not write there: the state directory (or where it would be
    /// made) is named as not writable.
    @Test func aStateDirectoryNotWritableByTheUserIsAnError() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            print("skipped: needs root and setpriv to run --check-config as another uid")
            return
        }
        let home = TestDirectory("config")
        chmod(home.path, 0o755)
        let pics = home.mkdir("pics")
        let locked = home.mkdir("locked")  // root's, 0755
        chmod(locked, 0o755)
        let file = home.sub("c.json5")
        for (state, expected) in [(locked, "state_dir: \(locked) is not writable by uid 4242"),
                                  (locked + "/state", "state_dir: \(locked)/state cannot be created: \(locked) is not writable by uid 4242")] {
            Files.write(file, #"{ roots: ["\#(pics)"], state_dir: "\#(state)", socket: "\#(home.path)/s/curatord.sock" }"#)
            chmod(file, 0o644)
            let result = try Command.run("/usr/bin/setpriv", ["--reuid=4242", "--regid=4242", "--clear-groups",
                                                              Daemon.curatord, "--check-config", "--config", file],
                                         environment: ["PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_RUNTIME_DIR": home.path])
            #expect(result.status == 1, "\(result.output)")
            #expect(result.stderr.contains(expected), "\(result.stderr)")
            #expect(result.stderr.contains("socket: \(home.path)/s is not writable") || result.stderr.contains("socket: \(home.path)/s cannot be created"),
                    "the socket's directory is looked at too: \(result.stderr)")
        }
    }

    /// A socket in a directory that does not exist: --check-config says it will be
    /// made, and the daemon makes it (and any missing parent) 0700, saying so.
    @Test func aMissingSocketDirectoryIsSaidAndMadePrivate() throws {
        let home = TestDirectory("config")
        let pics = home.mkdir("pics")
        let socketDirectory = home.sub("run/deeper")
        let file = home.sub("c.json5")
        Files.write(file, #"{ roots: ["\#(pics)"], socket: "\#(socketDirectory)/curatord.sock" }"#)
        let result = try Self.checkConfig(file, home: home)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stderr.contains("socket: the directory \(socketDirectory) does not exist: curatord will create it (0700)"),
                "\(result.stderr)")
        #expect(!Files.exists(home.sub("run")), "checking creates nothing")

        let d = Daemon()
        d.configPath = file
        d.extraEnvironment["XDG_STATE_HOME"] = home.sub("state")
        var arguments = d.arguments
        // The daemon's own --socket would win: run it on the file's.
        if let at = arguments.firstIndex(of: "--socket") { arguments.removeSubrange(at...(at + 1)) }
        let run = Process()
        run.executableURL = URL(fileURLWithPath: Daemon.curatord)
        run.arguments = arguments
        run.environment = d.environment
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: { _ = FileManager.default.createFile(atPath: d.logPath, contents: nil); return d.logPath }()))
        run.standardError = log
        run.standardOutput = log
        try run.run()
        defer {
            kill(run.processIdentifier, SIGTERM)
            run.waitUntilExit()
        }
        try eventually(timeout: 15, "the socket to appear") { Files.exists(socketDirectory + "/curatord.sock") }
        for dir in [home.sub("run"), socketDirectory] {
            var st = stat()
            #expect(lstat(dir, &st) == 0 && st.st_mode & 0o777 == 0o700, "\(dir): \(String(st.st_mode & 0o777, radix: 8))")
            #expect(d.logText.contains("created \(dir) (mode 0700)"), "\(d.logText)")
        }
    }

    /// sun_path holds 108 bytes with the NUL: a longer socket path, in the file or on
    /// the command line beside it, is refused by the check as the start would refuse
    /// it, saying why; one of 107 bytes passes.
    @Test func aSocketPathLongerThanTheKernelTakesIsAnError() throws {
        let home = TestDirectory("config")
        let pics = home.mkdir("pics")
        let file = home.sub("c.json5")
        Files.write(file, #"{ roots: ["\#(pics)"] }"#)
        var env = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "JOURNAL_STREAM", "INVOCATION_ID", "CONFIGURATION_DIRECTORY", "STATE_DIRECTORY"] {
            env.removeValue(forKey: key)
        }
        env["HOME"] = home.path
        env["XDG_RUNTIME_DIR"] = home.path
        env["XDG_STATE_HOME"] = home.sub("state")
        env["XDG_DATA_HOME"] = home.sub("data")
        let prefix = home.mkdir("run") + "/"
        for (length, valid) in [(107, true), (108, false), (200, false)] {
            let socket = prefix + String(repeating: "s", count: length - prefix.utf8.count)
            #expect(socket.utf8.count == length)
            let given = try Command.run(Daemon.curatord, ["--check-config", "--config", file, "--socket", socket], environment: env)
            #expect((given.status == 0) == valid, "\(length): \(given.output)")
            #expect(given.stderr.contains("--socket: \(socket) is \(length) bytes long; a Unix socket's path can be at most 107 bytes")
                        != valid, "\(length): \(given.stderr)")
            if valid { #expect(given.stdout.contains("socket: \"\(socket)\""), "\(given.stdout)") }
            // The start says the same, before it listens anywhere.
            if !valid {
                let start = try Command.run(Daemon.curatord, ["--config", file, "--socket", socket], environment: env, timeout: 20)
                #expect(start.status == 1 && start.stderr.contains("is \(length) bytes long"), "\(start.output)")
            }
        }
        // In the file it was refused already.
        Files.write(file, #"{ roots: ["\#(pics)"], socket: "\#(prefix + String(repeating: "s", count: 120))" }"#)
        let inFile = try Self.checkConfig(file, home: home)
        #expect(inFile.status == 1 && inFile.stderr.contains("the limit for a Unix socket path"), "\(inFile.output)")
    }

    @Test func aSocketEveryUserMayUseIsWarnedAbout() throws {
        let home = TestDirectory("config")
        let pics = home.mkdir("pics")
        let file = home.sub("c.json5")
        for (mode, warned) in [("0777", true), ("0666", true), ("0660", false), ("0600", false)] {
            Files.write(file, #"{ roots: ["\#(pics)"], socket_mode: "\#(mode)" }"#)
            let result = try Self.checkConfig(file, home: home)
            #expect(result.status == 0, "\(result.output)")
            #expect(result.stderr.contains("\(file): socket_mode: \"\(mode)\" lets every user of this machine use the socket") == warned,
                    "\(mode): \(result.stderr)")
        }
    }

    @Test func underTheSystemManagerTheDirectoriesSystemdGivesAreTheDefaults() throws {
        // As the system unit runs it: user curatord (not root), INVOCATION_ID set,
        // no XDG_RUNTIME_DIR, ConfigurationDirectory= and StateDirectory= exported.
        let home = TestDirectory("config")
        let pics = home.mkdir("pics")
        let etc = home.mkdir("etc-curatord")
        let state = home.mkdir("var-lib-curatord")
        Files.write(etc + "/curatord.json5", #"{ roots: ["\#(pics)"] }"#)
        var env = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "JOURNAL_STREAM", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_STATE_HOME"] {
            env.removeValue(forKey: key)
        }
        env["HOME"] = home.path
        env["INVOCATION_ID"] = "0123456789abcdef0123456789abcdef"
        env["CONFIGURATION_DIRECTORY"] = etc
        env["STATE_DIRECTORY"] = state
        let result = try Command.run(Daemon.curatord, ["--check-config"], environment: env)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("// effective settings from \(etc)/curatord.json5"))
        #expect(result.stdout.contains("state_dir: \"\(state)\""))
        #expect(result.stdout.contains("socket: \"/run/curatord/curatord.sock\""))
    }

    @Test func logLevelOnTheCommandLineIsChecked() throws {
        let home = TestDirectory("config")
        let pics = home.mkdir("pics")
        let result = try Command.run(Daemon.curatord, ["--check-config", "--root", pics, "--log-level", "loud"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--log-level: must be one of error, warning, notice, info, debug"))
        let ok = try Command.run(Daemon.curatord, ["--check-config", "--root", pics, "--log-level", "debug"])
        #expect(ok.status == 0)
        #expect(ok.stdout.contains("log_level: \"debug\""))
    }
}
