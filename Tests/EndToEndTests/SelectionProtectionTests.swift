// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Protected folders (article 003's non-removable sections) and selections,
/// against the real daemon.
@Suite(.serialized)
struct SelectionProtectionTests {
    /// Five photos in 2024/05 and an empty folder Keep, with `protected` as given.
    static func daemon(protected: [String]) throws -> Daemon {
        let d = try SessionTests.daemon { d in
            try? FileManager.default.createDirectory(atPath: d.root() + "/Keep", withIntermediateDirectories: true)
            return Self.config(d, protected: protected)
        }
        return d
    }

    static func config(_ d: Daemon, protected: [String]) -> String {
        let list = protected.map { "\"\($0)\"" }.joined(separator: ", ")
        return "{ roots: [{ path: \"\(d.root())\", protected: [\(list)] }] }"
    }

    static func paths(_ c: Client, session: String? = nil) throws -> [String] {
        try SessionTests.selection(c, session: session).map(\.path)
    }

    /// The next `selection` event of each of `sessions` that `w` receives (they
    /// come in no particular order), by session.
    static func selectionEvents(_ w: Client, sessions: Set<String>) throws -> [String: [String: Any]] {
        var found: [String: [String: Any]] = [:]
        while found.count < sessions.count, let e = try w.nextEvent(timeout: 5) {
            guard e["event"] as? String == "selection", let name = e["session"] as? String, sessions.contains(name) else { continue }
            if found[name] == nil { found[name] = e }
        }
        return found
    }

    static func selectionEvent(_ w: Client, session: String) throws -> [String: Any]? {
        try selectionEvents(w, sessions: [session])[session]
    }

    static func eventPaths(_ event: [String: Any]?) -> [String] {
        (event?["items"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
    }

    /// Issue 11 item 25: a selected photo moved into a protected folder leaves every
    /// selection, renumbering the rest, with a `selection` event, as a photo that
    /// vanished does; so do the selected photos of a folder moved under a protected one.
    @Test func selectedPhotosMovedIntoAProtectedFolderLeaveEverySelection() throws {
        let d = try Self.daemon(protected: ["Keep"])
        let c = try d.client()
        let w = try d.client()
        _ = try w.result(["cmd": "subscribe"])
        try c.select("1 2 3")
        try c.select("2", session: "b")
        // What it heard of those requests (it follows every session) is not the point here.
        _ = try SessionEventTests.drain(w)

        #expect(rename(d.root() + "/2024/05/IMG_0002.JPG", d.root() + "/Keep/IMG_0002.JPG") == 0)
        try c.sync()
        #expect(try Self.paths(c) == ["2024/05/IMG_0001.JPG", "2024/05/IMG_0003.JPG"])
        #expect(try SessionTests.selection(c).map(\.number) == [1, 2])
        #expect(try Self.paths(c, session: "b").isEmpty)
        let events = try Self.selectionEvents(w, sessions: ["default", "b"])
        #expect(Self.eventPaths(events["default"]) == ["2024/05/IMG_0001.JPG", "2024/05/IMG_0003.JPG"])
        #expect(events["b"]?["count"] as? Int == 0)
        // Still indexed and listed, as protected; and it cannot be selected again.
        let moved = try c.photos().first { $0["path"] as? String == "Keep/IMG_0002.JPG" }
        #expect(moved?["protected"] as? Bool == true)

        // A whole folder moved below the protected one takes its selected photos out.
        try FileManager.default.createDirectory(atPath: d.root() + "/2023", withIntermediateDirectories: true)
        Files.write(d.root() + "/2023/old.jpg")
        try c.sync()
        _ = try c.result(["cmd": "select", "folder": "2023"])
        #expect(try Self.paths(c) == ["2024/05/IMG_0001.JPG", "2024/05/IMG_0003.JPG", "2023/old.jpg"])
        _ = try SessionEventTests.drain(w)
        #expect(rename(d.root() + "/2023", d.root() + "/Keep/2023") == 0)
        try c.sync()
        #expect(try Self.paths(c) == ["2024/05/IMG_0001.JPG", "2024/05/IMG_0003.JPG"])
        #expect(Self.eventPaths(try Self.selectionEvent(w, session: "default")) == ["2024/05/IMG_0001.JPG", "2024/05/IMG_0003.JPG"])
    }

    /// Issue 11 item 28: article 003's non-removable sections are simply not
    /// selectable. `select` by `all`, `folder`, `glob` or dates over a view that holds
    /// a protected folder selects the rest and says how many it left out.
    @Test func selectingInBulkLeavesProtectedPhotosOutAndSaysHowMany() throws {
        let d = try Self.daemon(protected: ["Keep"])
        for name in ["a.JPG", "b.JPG", "c.JPG"] { Files.write(d.root() + "/Keep/" + name) }
        let c = try d.client()
        try c.sync()
        _ = try c.result(["cmd": "mode", "mode": "select"])
        let all = try c.result(["cmd": "select", "all": true])
        #expect(all["added"] as? Int == 5)
        #expect(all["skipped_protected"] as? Int == 3)
        #expect(all["count"] as? Int == 5)
        #expect(try Self.paths(c).allSatisfy { $0.hasPrefix("2024/05/") })
        let glob = try c.result(["cmd": "toggle", "glob": "[ab]*"])
        #expect(glob["skipped_protected"] as? Int == 2)
        #expect(glob["added"] as? Int == 0)
        let folder = try c.result(["cmd": "select", "folder": "Keep"])
        #expect(folder["skipped_protected"] as? Int == 3)
        #expect(try Self.paths(c).count == 5)
        // Nothing protected among them: nothing to say.
        _ = try c.result(["cmd": "clear"])
        #expect(try c.result(["cmd": "select", "folder": "2024"])["skipped_protected"] == nil)
        // The CLI says it in words.
        _ = try c.result(["cmd": "clear"])
        let said = try d.ctl(["select", "--all"])
        #expect(said.status == 0)
        #expect(said.stdout.contains("5 selected, 3 protected photos left out"), "\(said.stdout)")
    }

    /// Item 25: a reload that protects the folder of selected photos takes them out
    /// of every selection, with a `selection` event; so does a start with such a
    /// configuration, for photos selected before.
    @Test func aConfigurationThatProtectsTheirFolderTakesSelectedPhotosOut() throws {
        let d = try Self.daemon(protected: [])
        let c = try d.client()
        let w = try d.client()
        _ = try w.result(["cmd": "subscribe"])
        try c.select("1 3")
        try FileManager.default.createDirectory(atPath: d.root() + "/2023", withIntermediateDirectories: true)
        Files.write(d.root() + "/2023/old.jpg")
        try c.sync()
        _ = try c.result(["cmd": "select", "folder": "2023"])
        #expect(try Self.paths(c) == ["2024/05/IMG_0001.JPG", "2024/05/IMG_0003.JPG", "2023/old.jpg"])
        _ = try SessionEventTests.drain(w)

        Files.write(try #require(d.configPath), Self.config(d, protected: ["2024/*"]))
        try SystemdReloadTests.reload(d, expecting: "reloaded the configuration")
        #expect(try Self.paths(c) == ["2023/old.jpg"])
        #expect(try SessionTests.selection(c).map(\.number) == [1])
        #expect(Self.eventPaths(try Self.selectionEvent(w, session: "default")) == ["2023/old.jpg"])

        // Protected while the daemon was down: gone from the selection at the start.
        #expect(d.stop() == 0)
        Files.write(try #require(d.configPath), Self.config(d, protected: ["2023"]))
        try d.start()
        #expect(try Self.paths(d.client()).isEmpty)
    }
}
