// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Exact duplicates against the real daemon: a tree with known copies (within a
/// root and across two, hard links, a byte changed in the middle, a file of the same
/// size, RAW+JPEG pairs copied whole and in part, a copy in a protected folder):
/// every true set is listed and no false one; `select --duplicates` then `rm`
/// trashes exactly the copies that are not kept, and undo puts them back.
@Suite(.serialized)
struct DuplicateSelectionTests {
    private static func random(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    /// Writes `bytes` at `path` with its mtime `age` hours in the past (the keeper is the oldest).
    private static func write(_ path: String, _ bytes: [UInt8], hoursAgo age: Int) {
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        let when = Date(timeIntervalSinceNow: -Double(age) * 3600)
        try? FileManager.default.setAttributes([.modificationDate: when], ofItemAtPath: path)
    }

    private static func daemon() throws -> Daemon {
        let d = Daemon(roots: ["pics", "more"])
        let pics = d.root("pics"), more = d.root("more")
        let a = random(200_000, seed: 1)
        var middle = a
        middle[100_000] ^= 1
        let raw = random(150_000, seed: 2), jpeg = random(60_000, seed: 3), b = random(90_000, seed: 4)
        write(pics + "/2024/a.jpg", a, hoursAgo: 30)
        #expect(link(pics + "/2024/a.jpg", pics + "/2024/a-link.jpg") == 0)
        write(pics + "/2024/copy/a.jpg", a, hoursAgo: 20)
        write(more + "/a.jpg", a, hoursAgo: 10)
        write(pics + "/2024/mid.jpg", middle, hoursAgo: 5)
        write(pics + "/2024/other.jpg", random(200_000, seed: 5), hoursAgo: 5)
        write(pics + "/2024/IMG_1.NEF", raw, hoursAgo: 30)
        write(pics + "/2024/IMG_1.JPG", jpeg, hoursAgo: 30)
        write(pics + "/backup/IMG_1.NEF", raw, hoursAgo: 20)
        write(pics + "/backup/IMG_1.JPG", jpeg, hoursAgo: 20)
        write(pics + "/partial/IMG_1.JPG", jpeg, hoursAgo: 40)
        write(pics + "/2024/b.jpg", b, hoursAgo: 30)
        write(pics + "/Keep/b.jpg", b, hoursAgo: 20)
        try d.useConfig("""
            { roots: [{ name: "pics", path: "\(pics)", protected: ["Keep"] }, { name: "more", path: "\(more)" }], thumbnails: false }
            """)
        try d.start()
        return d
    }

    /// root/path → (set, keeper) of a listing of duplicates, once the hasher is done.
    private static func duplicates(_ c: Client) throws -> [String: (set: Int, keeper: Bool)] {
        try eventually(timeout: 30, "the hashes") { try c.status()["hash_pending"] as? Int == 0 }
        var listed: [String: (set: Int, keeper: Bool)] = [:]
        try eventually(timeout: 30, "the sets") {
            let photos = try c.photos(["filter": ["duplicates": true]])
            listed = [:]
            for p in photos {
                guard let root = p["root"] as? String, let path = p["path"] as? String, let set = p["duplicate_set"] as? Int,
                      let keeper = p["keeper"] as? Bool else { continue }
                listed[root + "/" + path] = (set, keeper)
            }
            return listed.count == 8
        }
        return listed
    }

    @Test func everyTrueSetIsFoundAndNoFalseOne() throws {
        let d = try Self.daemon()
        let c = try d.client()
        let listed = try Self.duplicates(c)
        #expect(Set(listed.keys) == ["pics/2024/a.jpg", "pics/2024/a-link.jpg", "pics/2024/copy/a.jpg", "more/a.jpg",
                                     "pics/2024/IMG_1.JPG", "pics/backup/IMG_1.JPG", "pics/2024/b.jpg", "pics/Keep/b.jpg"],
                "\(listed.keys.sorted())")
        let sets = Dictionary(grouping: listed, by: { $0.value.set }).mapValues { Set($0.map(\.key)) }
        #expect(Set(sets.values) == [["pics/2024/a.jpg", "pics/2024/a-link.jpg", "pics/2024/copy/a.jpg", "more/a.jpg"],
                                     ["pics/2024/IMG_1.JPG", "pics/backup/IMG_1.JPG"], ["pics/2024/b.jpg", "pics/Keep/b.jpg"]])
        // The oldest copy is kept; the hard link is the same file as it.
        #expect(Set(listed.filter { $0.value.keeper }.keys) == ["pics/2024/a.jpg", "pics/2024/a-link.jpg", "pics/2024/IMG_1.JPG",
                                                                "pics/2024/b.jpg"])
        // The CLI shows the same, the kept copies marked.
        let ls = try d.ctl(["ls", "--duplicates"])
        #expect(ls.status == 0 && ls.stdout.contains("(8 photos"), "\(ls.stdout)")
        #expect(ls.stdout.split(separator: "\n").filter { $0.contains("*") }.count == 4, "\(ls.stdout)")
        #expect(d.stop() == 0)
    }

    @Test func selectDuplicatesThenRmTrashesExactlyTheCopiesNotKept() throws {
        let d = try Self.daemon()
        let c = try d.client()
        _ = try Self.duplicates(c)
        let before = try Checksum.sha256([d.root("pics") + "/2024/a.jpg", d.root("pics") + "/2024/IMG_1.NEF"])
        // Another session has the pair's kept copy selected: that set is left alone there.
        let ids = try c.idsByPath(["filter": ["duplicates": true]])
        _ = try c.result(["cmd": "mode", "mode": "select", "session": "other"])
        _ = try c.result(["cmd": "select", "session": "other", "ids": [try #require(ids["2024/IMG_1.JPG"])]])
        let other = try c.result(["cmd": "select", "session": "other", "duplicates": "rest"])
        let otherReport = try #require(other["duplicates"] as? [String: Any])
        #expect(otherReport["sets"] as? Int == 1)
        #expect((otherReport["left_alone"] as? [String: Any])?["keeper_selected"] as? Int == 1, "\(otherReport)")
        #expect((otherReport["left_alone"] as? [String: Any])?["protected"] as? Int == 1, "\(otherReport)")
        // deselect and toggle refuse it.
        #expect(try c.errorCode(["cmd": "toggle", "session": "other", "duplicates": "rest"]) == "invalid_argument")

        let select = try d.ctl(["select", "--duplicates"])
        #expect(select.status == 0, "\(select.stderr)")
        #expect(select.stdout.contains("copies of 2 duplicate sets chosen"), "\(select.stdout)")
        #expect(select.stdout.contains("1 with every other copy protected"), "\(select.stdout)")
        let chosen = try c.result(["cmd": "selection"])
        #expect(chosen["count"] as? Int == 3, "\(chosen)")
        let rm = try d.ctl(["rm", "--yes"])
        #expect(rm.status == 0, "\(rm.stdout) \(rm.stderr)")
        let gone = [d.root("pics") + "/2024/copy/a.jpg", d.root("more") + "/a.jpg", d.root("pics") + "/backup/IMG_1.NEF",
                    d.root("pics") + "/backup/IMG_1.JPG"]
        let kept = [d.root("pics") + "/2024/a.jpg", d.root("pics") + "/2024/a-link.jpg", d.root("pics") + "/2024/IMG_1.NEF",
                    d.root("pics") + "/2024/IMG_1.JPG", d.root("pics") + "/2024/mid.jpg", d.root("pics") + "/2024/other.jpg",
                    d.root("pics") + "/partial/IMG_1.JPG", d.root("pics") + "/2024/b.jpg", d.root("pics") + "/Keep/b.jpg"]
        #expect(gone.filter(Files.exists).isEmpty, "\(gone.filter(Files.exists))")
        #expect(kept.filter { !Files.exists($0) }.isEmpty, "\(kept.filter { !Files.exists($0) })")
        #expect(try Checksum.sha256(Array(before.keys)) == before)
        // Nothing left to choose: the sets are gone but the protected one.
        try c.sync()
        let undo = try d.ctl(["undo"])
        #expect(undo.status == 0, "\(undo.stdout) \(undo.stderr)")
        #expect(gone.filter { !Files.exists($0) }.isEmpty, "\(gone.filter { !Files.exists($0) })")
        #expect(d.stop() == 0)
    }

    /// A subscriber is told when their duplicate sets change (a copy made), with the
    /// count of their sets; not while nothing changes.
    @Test func subscribersAreToldWhenTheirDuplicateSetsChange() throws {
        let d = try Self.daemon()
        let c = try d.client()
        let before = Set(try Self.duplicates(c).map(\.value.set)).count
        let events = try d.client()
        _ = try events.result(["cmd": "subscribe"])
        func setsEvent(timeout: Double) throws -> [String: Any]? {
            let deadline = Date(timeIntervalSinceNow: timeout)
            while deadline.timeIntervalSinceNow > 0 {
                guard let event = try events.nextEvent(timeout: deadline.timeIntervalSinceNow) else { return nil }
                if event["event"] as? String == "sets" && event["state"] as? String == "duplicates" { return event }
            }
            return nil
        }
        #expect(try setsEvent(timeout: 3) == nil, "nothing changed")
        // other.jpg, alone so far, gets a copy: one set more.
        Self.write(d.root("pics") + "/2024/other-copy.jpg", Self.random(200_000, seed: 5), hoursAgo: 1)
        let event = try setsEvent(timeout: 30)
        #expect(event?["count"] as? Int == before + 1, "\(String(describing: event)), \(before) sets before")
        #expect(d.stop() == 0)
    }
}

/// A set shown to a user holds only the photos that user may see: a copy in a
/// folder they may not list is neither listed, nor counted, nor the keeper.
@Suite(.serialized)
struct DuplicateVisibilityTests {
    @Test func aUserSeesOnlyTheCopiesTheyMayList() throws {
        guard SystemUsers.available else {
            print("skipped: needs root, useradd and setpriv to act as another user")
            return
        }
        let users = SystemUsers()
        defer { users.remove() }
        let bob = try users.user("bob")
        let d = Daemon(roots: ["share"])
        let share = d.root("share")
        var generator = SplitMix64(seed: 9)
        let x = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let y = (0..<80_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        // q-copy.jpg, the oldest copy of y, is where bob may not look.
        for (path, bytes, hours) in [("public/p.jpg", x, 20), ("private/p-copy.jpg", x, 30), ("public/q.jpg", y, 20),
                                     ("private/q-copy.jpg", y, 30), ("public2/q-copy2.jpg", y, 10)] {
            let full = share + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: full, contents: Data(bytes))
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -Double(hours) * 3600)], ofItemAtPath: full)
        }
        chmod(share + "/private", 0o700)
        try d.start()
        defer { d.stop() }
        d.letOtherUsersConnect()
        let c = try d.client()
        try eventually(timeout: 30, "root's sets") {
            let pending = try c.status()["hash_pending"] as? Int
            return try c.photos(["filter": ["duplicates": true]]).count == 5 && pending == 0
        }
        let names = ["p.jpg", "p-copy.jpg", "q.jpg", "q-copy.jpg", "q-copy2.jpg"]
        func shown(_ text: String) -> Set<String> { Set(names.filter { text.contains("/" + $0 + "\"") }) }
        let rootLs = try d.ctl(["--json", "ls", "--duplicates"])
        #expect(shown(rootLs.stdout) == Set(names), "\(rootLs.stdout)")

        let bobLs = try d.ctl(["--json", "ls", "--duplicates"], asUser: bob.name)
        #expect(bobLs.status == 0, "\(bobLs.stderr)")
        #expect(shown(bobLs.stdout) == ["q.jpg", "q-copy2.jpg"], "\(bobLs.stdout)")
        #expect(!bobLs.stdout.contains("copy.jpg") && !bobLs.stdout.contains("private"))
        // His keeper is the oldest copy he sees; the one he does not see is not counted.
        #expect(try d.ctl(["mode", "select"], asUser: bob.name).status == 0)
        let select = try d.ctl(["--json", "select", "--duplicates"], asUser: bob.name)
        #expect(select.status == 0, "\(select.stderr)")
        #expect(select.stdout.contains("\"duplicates\":{\"sets\":1}"), "\(select.stdout)")
        let selection = try d.ctl(["--json", "selection"], asUser: bob.name)
        #expect(shown(selection.stdout) == ["q-copy2.jpg"], "\(selection.stdout)")
    }
}
