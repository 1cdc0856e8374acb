// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorSystem
import Foundation
import Testing

/// A bad configuration is one clear line naming the file and the key; unknown
/// keys are warnings; nothing is written, whatever happens.
@Suite struct ConfigLoaderTests {
    /// A private folder with a config file and two photo folders.
    final class Fixture {
        let directory: String
        let file: String
        var pictures: String { directory + "/pictures" }
        var camera: String { directory + "/camera" }

        init() {
            var template = Array("/tmp/curatord-config-XXXXXX".utf8CString)
            let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
            directory = made.map { String(cString: $0) } ?? "/tmp/curatord-config-\(getpid())"
            file = directory + "/curatord.json5"
            try? FileManager.default.createDirectory(atPath: directory + "/pictures/2024", withIntermediateDirectories: true)
            try? FileManager.default.createDirectory(atPath: directory + "/camera", withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: directory + "/plain-file", contents: Data())
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        func load(_ text: String) throws(ConfigError) -> (Configuration, [String]) {
            _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
            var loader = ConfigLoader(environment: Environment(variables: ["HOME": directory, "XDG_RUNTIME_DIR": directory], uid: 1000))
            let config = try loader.load(file: file)
            return (config, loader.warnings)
        }

        /// The error a configuration must fail with.
        func failure(_ text: String) -> ConfigError? {
            do {
                _ = try load(text)
                return nil
            } catch {
                return error
            }
        }
    }

    @Test func aGoodFileWithCommentsLoads() throws {
        let f = Fixture()
        let (config, warnings) = try f.load("""
            // JSON5: comments, unquoted keys, trailing commas
            {
              roots: [
                { name: "pictures", path: "\(f.pictures)", watch: "inotify", exclude: ["tmp*"], },
                { path: "\(f.camera)/", watch: "poll", poll_interval_seconds: 60 },
              ],
              state_dir: "\(f.directory)/state",
            }
            """)
        #expect(warnings.isEmpty)
        #expect(config.roots.map(\.name) == ["pictures", "camera"])
        #expect(config.roots[1].path.lossyString == f.camera)
        #expect(config.roots[1].watch == .poll && config.roots[1].pollInterval == 60)
        #expect(config.socketPath.lossyString == f.directory + "/curatord.sock")
        #expect(config.source == f.file)
        // What one user's sessions may hold, by default.
        #expect(config.maxSessionsPerUser == 64 && config.maxSelection == 100_000 && config.maxSelectedPerUser == 250_000)
        let limited = try f.load("{ roots: [\"\(f.pictures)\"], max_sessions_per_user: 8, max_selection: 300000 }").0
        #expect(limited.maxSessionsPerUser == 8 && limited.maxSelection == 300_000)
        #expect(limited.maxSelectedPerUser == 300_000, "the per-user default is never below one selection's")
        // Loading writes nothing: not even the state directory.
        #expect(!FileManager.default.fileExists(atPath: f.directory + "/state"))
    }

    @Test func connectionLimitsDefaultToAQuarterPerUserAndFiveIdleMinutes() throws {
        let f = Fixture()
        let (defaults, _) = try f.load(#"{ roots: ["\#(f.pictures)"] }"#)
        #expect(defaults.maxClients == 64 && defaults.maxClientsPerUser == 16 && defaults.idleTimeoutSeconds == 300)
        let (few, _) = try f.load(#"{ roots: ["\#(f.pictures)"], max_clients: 2 }"#)
        #expect(few.maxClientsPerUser == 1, "one user never holds every connection the default allows")
        let (set, warnings) = try f.load(#"{ roots: ["\#(f.pictures)"], max_clients: 10, max_clients_per_user: 3, idle_timeout_seconds: 0 }"#)
        #expect(warnings.isEmpty)
        #expect(set.maxClientsPerUser == 3 && set.idleTimeoutSeconds == 0)
    }

    @Test func aRootsDeletePolicyIsWritableUnlessOwnerIsAsked() throws {
        let f = Fixture()
        let (config, warnings) = try f.load("""
            { roots: [{ path: "\(f.pictures)" }, { path: "\(f.camera)", delete: "owner" }] }
            """)
        #expect(warnings.isEmpty)
        #expect(config.roots.map(\.deletePolicy) == [.writable, .owner])
    }

    @Test func rootsGroupUnlessTheySayGroupsFalse() throws {
        let f = Fixture()
        let (config, warnings) = try f.load("""
            { roots: [{ path: "\(f.pictures)" }, { path: "\(f.camera)", groups: false }] }
            """)
        #expect(warnings.isEmpty)
        #expect(config.roots.map(\.groups) == [true, false])
        #expect(config.roots.map(\.groupSettings.enabled) == [true, false])
    }

    @Test func unknownKeysAreWarnedNotRefused() throws {
        let f = Fixture()
        let (_, warnings) = try f.load("""
            { roots: [{ path: "\(f.pictures)", colour: "blue" }], socket_path: "/tmp/x" }
            """)
        #expect(warnings.contains("\(f.file): socket_path: unknown key, ignored"))
        #expect(warnings.contains("\(f.file): roots[0].colour: unknown key, ignored"))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var json: String
        var key: String?
        var says: String
        var testDescription: String { key ?? says }
    }

    /// `@DIR@` stands for the fixture's folder.
    static let cases: [Case] = [
        Case(json: "{ roots: [ }", key: nil, says: "not valid JSON5: line 1, column 12: expected a value"),
        Case(json: "[]", key: nil, says: "must be an object, not an array"),
        Case(json: "{ socket: \"/tmp/s\" }", key: "roots", says: "is missing"),
        Case(json: "{ roots: [] }", key: "roots", says: "is empty"),
        Case(json: "{ roots: \"@DIR@/pictures\" }", key: "roots", says: "must be an array, not a string"),
        Case(json: "{ roots: [42] }", key: "roots[0]", says: "must be an object or a path string, not a number"),
        Case(json: "{ roots: [{ name: \"x\" }] }", key: "roots[0].path", says: "is missing"),
        Case(json: "{ roots: [{ path: \"@DIR@/pictures\", delete: \"anyone\" }] }", key: "roots[0].delete",
             says: "must be \"writable\" (whoever may write the folder) or \"owner\" (only the file's owner), not \"anyone\""),
        Case(json: "{ roots: [\"@DIR@/nowhere\"] }", key: "roots[0].path", says: "@DIR@/nowhere: No such file or directory"),
        Case(json: "{ roots: [\"@DIR@/plain-file\"] }", key: "roots[0].path", says: "is not a directory"),
        Case(json: "{ roots: [\"@DIR@/pictures\", \"@DIR@/pictures/2024\"] }", key: "roots[1].path",
             says: "overlaps root \"pictures\""),
        Case(json: "{ roots: [\"@DIR@/pictures/2024\", \"@DIR@/pictures\"] }", key: "roots[1].path", says: "roots must not nest"),
        Case(json: "{ roots: [{ path: \"@DIR@/pictures\", name: \"a\" }, { path: \"@DIR@/camera\", name: \"a\" }] }",
             key: "roots[1].name", says: "is used by another root"),
        Case(json: "{ roots: [{ path: \"@DIR@/pictures\", name: \"a b\" }] }", key: "roots[0].name", says: "must be 1-64 letters"),
        Case(json: "{ roots: [{ path: \"@DIR@/pictures\", watch: 5 }] }", key: "roots[0].watch", says: "must be a string, not a number"),
        Case(json: "{ roots: [{ path: \"@DIR@/pictures\", watch: \"fanotify\" }] }", key: "roots[0].watch",
             says: "must be \"inotify\", \"poll\" or \"auto\""),
        Case(json: "{ roots: [{ path: \"@DIR@/pictures\", poll_interval_seconds: \"60\" }] }",
             key: "roots[0].poll_interval_seconds", says: "must be a number, not a string"),
        Case(json: "{ roots: [{ path: \"@DIR@/pictures\", poll_interval_seconds: 0 }] }",
             key: "roots[0].poll_interval_seconds", says: "between 1 and 86400"),
        Case(json: "{ roots: [{ path: \"@DIR@/pictures\", exclude: [\"ok\", 3] }] }", key: "roots[0].exclude[1]",
             says: "must be a string, not a number"),
        Case(json: "{ roots: [{ path: \"@DIR@/pictures\", exclude: \"tmp\" }] }", key: "roots[0].exclude",
             says: "must be an array of strings, not a string"),
        Case(json: "{ roots: [{ path: \"@DIR@/pictures\", default_exclusions: \"yes\" }] }", key: "roots[0].default_exclusions",
             says: "must be true or false, not a string"),
        Case(json: "{ roots: [{ path: \"@DIR@/pictures\", types: [\"jpeg\", \"bmpx\"] }] }", key: "roots[0].types",
             says: "unknown photo type 'bmpx'"),
        Case(json: "{ roots: [\"@DIR@/pictures\"], socket_mode: \"0777x\" }", key: "socket_mode", says: "must be an octal mode"),
        Case(json: "{ roots: [\"@DIR@/pictures\"], socket_mode: \"0400\" }", key: "socket_mode", says: "including owner read/write"),
        Case(json: "{ roots: [\"@DIR@/pictures\"], log_level: \"loud\" }", key: "log_level", says: "must be one of error"),
        Case(json: "{ roots: [\"@DIR@/pictures\"], selection_cap: 2.5 }", key: "selection_cap", says: "whole number"),
        Case(json: "{ roots: [\"@DIR@/pictures\"], max_selection: 10, selection_cap: 11 }", key: "selection_cap",
             says: "from 1 to max_selection (10)"),
        Case(json: "{ roots: [\"@DIR@/pictures\"], max_sessions_per_user: 0 }", key: "max_sessions_per_user",
             says: "whole number from 1 to 10000"),
        Case(json: "{ roots: [\"@DIR@/pictures\"], max_selection: 1000001 }", key: "max_selection", says: "whole number from 1 to 1000000"),
        Case(json: "{ roots: [\"@DIR@/pictures\"], max_selected_per_user: \"lots\" }", key: "max_selected_per_user",
             says: "must be a number, not a string"),
        Case(json: "{ roots: [\"@DIR@/pictures\"], max_selection: 500, max_selected_per_user: 100 }", key: "max_selected_per_user",
             says: "below max_selection (500)"),
        Case(json: "{ roots: [\"@DIR@/pictures\"], max_clients: 0 }", key: "max_clients", says: "between 1 and 512"),
        Case(json: "{ roots: [\"@DIR@/pictures\"], max_clients: 8, max_clients_per_user: 9 }", key: "max_clients_per_user",
             says: "from 1 to max_clients (8)"),
        Case(json: "{ roots: [\"@DIR@/pictures\"], max_clients_per_user: 0 }", key: "max_clients_per_user", says: "from 1 to max_clients"),
        Case(json: "{ roots: [\"@DIR@/pictures\"], max_clients_per_user: 2.5 }", key: "max_clients_per_user", says: "whole number"),
        Case(json: "{ roots: [\"@DIR@/pictures\"], idle_timeout_seconds: -1 }", key: "idle_timeout_seconds", says: "between 0 (never) and 86400"),
        Case(json: "{ roots: [\"@DIR@/pictures\"], idle_timeout_seconds: NaN }", key: "idle_timeout_seconds", says: "between 0 (never) and 86400"),
        Case(json: "{ roots: [\"@DIR@/pictures\"], state_dir: true }", key: "state_dir", says: "must be a string, not a boolean"),
        Case(json: "{ roots: [\"@DIR@/pictures\"], socket: \"/tmp/\(String(repeating: "s", count: 120))\" }", key: "socket",
             says: "the limit for a Unix socket path"),
    ]

    @Test(arguments: cases)
    func everyErrorNamesTheFileAndTheKey(_ c: Case) throws {
        let f = Fixture()
        let error = try #require(f.failure(c.json.replacingOccurrences(of: "@DIR@", with: f.directory)))
        #expect(error.file == f.file)
        #expect(error.key == c.key)
        let says = c.says.replacingOccurrences(of: "@DIR@", with: f.directory)
        #expect(error.message.contains(says), "\(error)")
        // One line: file, key and message.
        let line = error.description
        #expect(!line.contains("\n"))
        #expect(line.hasPrefix(f.file + ": " + (c.key.map { $0 + ": " } ?? "")), "\(line)")
        // Nothing written.
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.directory).sorted() == ["camera", "curatord.json5", "pictures", "plain-file"])
    }

    /// A file past 1 MiB is refused whole: read in part, a valid beginning was taken
    /// for the whole configuration.
    @Test func aFileLargerThanAMegabyteIsRefusedNotCut() throws {
        let f = Fixture()
        let head = "{ roots: [\"\(f.pictures)\"] }\n"
        let error = try #require(f.failure(head + String(repeating: " ", count: 1 << 20)))
        #expect(error.file == f.file && error.key == nil)
        #expect(error.message.contains("larger than 1 MiB"), "\(error)")
        // Up to the limit is read as ever.
        #expect(try f.load(head + String(repeating: " ", count: (1 << 20) - head.utf8.count)).0.roots.count == 1)
    }

    @Test func aMissingFileIsNamed() {
        let f = Fixture()
        var loader = ConfigLoader()
        do {
            _ = try loader.load(file: f.directory + "/absent.json5")
            Issue.record("loaded a file that does not exist")
        } catch {
            #expect(error.file == f.directory + "/absent.json5")
            #expect(error.message.contains("cannot read the configuration file"))
        }
    }
}

/// Which home trash the daemon uses depends on how it was started.
struct HomeTrashDefaultTests {
    static func load(_ variables: [String: String], uid: UInt32) throws -> Configuration {
        var loader = ConfigLoader(environment: Environment(variables: variables, uid: uid))
        return try loader.fromArguments(roots: ["/tmp"], socket: "/tmp/x.sock", stateDirectory: "/tmp/state")
    }

    @Test func rootRunByHandUsesItsOwnHomeTrash() throws {
        let config = try Self.load(["HOME": "/root"], uid: 0)
        #expect(config.homeTrash == ByteString("/root/.local/share/Trash"))
        let xdg = try Self.load(["HOME": "/root", "XDG_DATA_HOME": "/srv/data"], uid: 0)
        #expect(xdg.homeTrash == ByteString("/srv/data/Trash"))
    }

    @Test func aSystemServiceHasNoHomeTrash() throws {
        let config = try Self.load(["HOME": "/var/lib/curatord", "INVOCATION_ID": "abc"], uid: 990)
        #expect(config.homeTrash == nil)
    }
}
