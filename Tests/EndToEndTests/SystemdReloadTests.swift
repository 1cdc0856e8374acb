// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// SIGHUP (what `systemctl reload` sends) re-reads the configuration: roots are
/// added, removed or changed without a restart, photo ids and sessions survive,
/// and a broken file leaves the old configuration in force.
@Suite(.serialized)
struct SystemdReloadTests {
    /// A daemon reading a config file that names `roots` (names of folders under its home).
    static func daemon(roots: [String]) throws -> Daemon {
        let daemon = Daemon(roots: roots)
        daemon.configPath = daemon.home.sub("curatord.json5")
        writeConfig(daemon, roots: roots)
        return daemon
    }

    static func writeConfig(_ daemon: Daemon, roots: [String], paths: [String: String] = [:]) {
        let items = roots.map { #"{ name: "\#($0)", path: "\#(paths[$0] ?? daemon.root($0))" }"# }
        Files.write(daemon.home.sub("curatord.json5"), "// reload test\n{ roots: [\(items.joined(separator: ", "))] }\n")
    }

    /// SIGHUP, then wait until the daemon has said so in its log (the n-th time).
    static func reload(_ daemon: Daemon, expecting marker: String) throws {
        let before = daemon.logText.components(separatedBy: marker).count
        daemon.signal(SIGHUP)
        try eventually(timeout: 10, "\"\(marker)\" in the log") {
            daemon.logText.components(separatedBy: marker).count > before
        }
    }

    static func rootNames(_ client: Client) throws -> [String] {
        let roots = try client.result(["cmd": "status"])["roots"] as? [[String: Any]] ?? []
        return roots.compactMap { $0["name"] as? String }
    }

    @Test func addingARootWatchesItAndKeepsIdsAndSessions() throws {
        let daemon = try Self.daemon(roots: ["pics"])
        Files.write(daemon.root("pics") + "/a.jpg")
        Files.write(daemon.root("pics") + "/b.jpg")
        let more = daemon.home.mkdir("more")
        Files.write(more + "/old.jpg")
        try daemon.start()
        let client = try daemon.client()
        let idsBefore = try client.idsByPath()
        #expect(idsBefore.count == 2)

        // A session in select mode with one photo selected.
        _ = try client.result(["cmd": "mode", "session": "reload", "mode": "select"])
        let chosen = try #require(idsBefore["a.jpg"])
        _ = try client.result(["cmd": "select", "session": "reload", "ids": [chosen]])

        Self.writeConfig(daemon, roots: ["pics", "more"])
        try Self.reload(daemon, expecting: "reloaded the configuration")
        #expect(daemon.logText.contains("added more"))
        #expect(try Self.rootNames(client) == ["pics", "more"])

        // The new root is scanned...
        try daemon.waitForScanToFinish()
        #expect(try client.idsByPath(["root": "more"]).keys.sorted() == ["old.jpg"])
        // ...and watched: a file made there now gets listed.
        Files.write(more + "/new.jpg")
        try client.sync()
        #expect(try client.idsByPath(["root": "more"]).keys.sorted() == ["new.jpg", "old.jpg"])

        // The old root's photos keep their ids.
        #expect(try client.idsByPath(["root": "pics"]) == idsBefore)
        // The session kept its mode and its selection.
        let selection = try client.result(["cmd": "selection", "session": "reload"])
        #expect(selection["mode"] as? String == "select")
        #expect(selection["count"] as? Int == 1)
        #expect((selection["items"] as? [[String: Any]])?.first?["id"] as? Int == chosen)
        #expect(daemon.stop() == 0)
    }

    @Test func removingARootDropsItAndStopsWatchingIt() throws {
        let daemon = try Self.daemon(roots: ["pics", "more"])
        Files.write(daemon.root("pics") + "/a.jpg")
        Files.write(daemon.root("more") + "/m.jpg")
        try daemon.start()
        let client = try daemon.client()
        #expect(try client.photos().count == 2)
        let picsIDs = try client.idsByPath(["root": "pics"])

        Self.writeConfig(daemon, roots: ["pics"])
        try Self.reload(daemon, expecting: "removed more")
        #expect(try Self.rootNames(client) == ["pics"])
        #expect(try client.errorCode(["cmd": "list", "root": "more"]) == "no_such_root")
        #expect(try client.idsByPath() == picsIDs)

        // Changes in the dropped folder are no longer seen; the kept root still is.
        Files.write(daemon.root("more") + "/late.jpg")
        Files.write(daemon.root("pics") + "/b.jpg")
        try client.sync()
        #expect(try client.idsByPath().keys.sorted() == ["a.jpg", "b.jpg"])
        #expect(daemon.stop() == 0)
    }

    @Test func changingARootsPathWatchesTheNewFolder() throws {
        let daemon = try Self.daemon(roots: ["pics"])
        Files.write(daemon.root("pics") + "/old.jpg")
        let elsewhere = daemon.home.mkdir("elsewhere")
        Files.write(elsewhere + "/there.jpg")
        try daemon.start()
        let client = try daemon.client()
        #expect(try client.idsByPath().keys.sorted() == ["old.jpg"])

        Self.writeConfig(daemon, roots: ["pics"], paths: ["pics": elsewhere])
        try Self.reload(daemon, expecting: "changed pics")
        try daemon.waitForScanToFinish()
        try eventually(timeout: 10, "the new folder's photos") {
            try client.idsByPath().keys.sorted() == ["there.jpg"]
        }
        Files.write(elsewhere + "/fresh.jpg")
        Files.write(daemon.root("pics") + "/ignored.jpg")
        try client.sync()
        #expect(try client.idsByPath().keys.sorted() == ["fresh.jpg", "there.jpg"])
        #expect(daemon.stop() == 0)
    }

    @Test func aBrokenConfigurationIsRefusedAndTheOldOneStays() throws {
        let daemon = try Self.daemon(roots: ["pics"])
        Files.write(daemon.root("pics") + "/a.jpg")
        try daemon.start()
        let client = try daemon.client()
        let ids = try client.idsByPath()

        // Not JSON5 at all.
        Files.write(daemon.configPath ?? "", "{ roots: [ this is not json5 ")
        try Self.reload(daemon, expecting: "reload refused")
        #expect(daemon.logText.contains("reload refused, the previous configuration stays in force: \(daemon.configPath ?? ""): not valid JSON5"))

        // Valid JSON5, but a root that does not exist: the file, the key and the problem are named.
        Files.write(daemon.configPath ?? "", #"{ roots: ["\#(daemon.home.sub("nowhere"))"] }"#)
        try Self.reload(daemon, expecting: "reload refused")
        #expect(daemon.logText.contains("\(daemon.configPath ?? ""): roots[0].path: \(daemon.home.sub("nowhere")): No such file or directory"))

        // Still the old roots, still watched.
        #expect(try Self.rootNames(client) == ["pics"])
        #expect(try client.idsByPath() == ids)
        Files.write(daemon.root("pics") + "/b.jpg")
        try client.sync()
        #expect(try client.photos().count == 2)
        #expect(daemon.process?.isRunning == true)

        // A good file afterwards is taken.
        Self.writeConfig(daemon, roots: ["pics"])
        try Self.reload(daemon, expecting: "reloaded the configuration")
        #expect(daemon.stop() == 0)
    }
}
