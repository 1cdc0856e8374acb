// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// A root's file system remounted read-only in the middle of a batch (issue 55), as
/// docs/JOURNAL.md tells it: the photos not moved yet stay at their paths, reported
/// `error` (EROFS); the `.trashinfo` files written ahead for them cannot be removed
/// on a read-only file system and stay, journaled `intent`, until the next start,
/// whose recovery removes them once the file system is writable again.
@Suite(.serialized)
struct ReadOnlyRemountTests {
    @Test func aRemountReadOnlyMidBatchLeavesInfosThatTheNextStartRemoves() throws {
        guard getuid() == 0, Tool.exists("/usr/bin/mount") else {
            try Test.cancel("needs root and mount(8) for a tmpfs of its own")
        }
        let d = Daemon(roots: [])
        let root = d.home.mkdir("volume")
        // Room for every photo and its .trashinfo, a page each.
        let mounted = try Tool.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=512m,mode=0755", "tmpfs", root])
        guard mounted.status == 0 else { try Test.cancel("cannot mount a tmpfs: \(mounted.stderr)") }
        defer {
            d.stop()
            _ = try? Tool.run("/usr/bin/mount", ["-o", "remount,rw", root])
            DeletePermissionTests.unmount(root)
        }
        d.roots["pics"] = root
        let count = 20_000
        for folder in 0..<20 {
            Files.mkdir(root + "/f\(folder)")
            for n in 0..<(count / 20) { Files.write(root + "/f\(folder)/IMG_\(n).jpg", "p") }
        }
        try d.start()
        let c = try d.client()
        try c.select("1-\(count)")
        let plan = try c.prepare()
        let token = try #require(plan["token"] as? String)
        try c.sendLine(#"{"id":"go","cmd":"delete.confirm","token":"\#(token)"}"#)

        // Remounted read-only once the batch is under way: as soon as its first photos
        // are in the trash (mount(2) itself, retried: a .trashinfo open for writing
        // makes it EBUSY for that instant).
        let files = root + "/.Trash-0/files"
        var remounted = false
        let deadline = Date(timeIntervalSinceNow: 60)
        while !remounted && Date() < deadline {
            guard ((try? FileManager.default.contentsOfDirectory(atPath: files))?.count ?? 0) >= 20 else { continue }
            remounted = Glibc.mount(nil, root, nil, UInt(MS_REMOUNT | MS_RDONLY), nil) == 0
        }
        var answer: [String: Any]?
        while answer == nil {
            guard let line = try c.readObject(timeout: 60) else { throw HarnessError("the batch did not end within 60 s") }
            if line["event"] == nil { answer = line }
        }
        let result = try #require(answer?["result"] as? [String: Any], "\(String(describing: answer))")
        let items = result["items"] as? [[String: Any]] ?? []
        let failed = items.filter { $0["outcome"] as? String == "error" }
        guard remounted, !failed.isEmpty else {
            try Test.cancel("the batch ended before the remount took effect: nothing to look at")
        }
        #expect(failed.allSatisfy { ($0["detail"] as? String)?.contains("EROFS") == true }, "\(failed.prefix(3))")

        // What the trash holds now: every photo moved has its info; the infos without
        // their photo name photos still at their paths, each journaled `intent`.
        let trash = root + "/.Trash-0"
        let before = TrashSnapshot(trash)
        let infosAlone = before.entries.filter { !before.files.contains($0.name) }
        // (`Path=` of a volume trash is relative to its top directory, the mount.)
        let namedAlone = Set(infosAlone.map { $0.path.hasPrefix("/") ? $0.path : root + "/" + $0.path })
        #expect(namedAlone.allSatisfy { Files.exists($0) }, "an info names a photo that is not at its path")
        #expect(before.files.allSatisfy { name in before.entries.contains { $0.name == name } }, "a photo moved without its info")

        // Exactly those photos wait for the next start (`intent`); a photo whose info
        // was never written (its write refused) is settled now, `skipped`.
        let batch = try #require(result["batch"] as? Int)
        let journaled = try JournalReader.items(stateDirectory: d.stateDir, batch: batch)
        let waiting = journaled.filter { $0.state == "intent" }
        #expect(waiting.count == infosAlone.count, "\(waiting.count) photos journaled intent, \(infosAlone.count) infos left")
        #expect(Set(waiting.map { root + "/" + $0.relativePath }) == namedAlone)

        // The next start, the file system writable again, removes them.
        d.stop()
        #expect((try Tool.run("/usr/bin/mount", ["-o", "remount,rw", root])).status == 0)
        try d.start()
        let after = TrashSnapshot(trash)
        #expect(after.orphans.isEmpty, "\(after.orphans.prefix(5))")
        for item in failed {
            guard let path = item["path"] as? String else { continue }
            #expect(Files.exists(root + "/" + path), "\(path) left its place")
        }
        #expect(after.entries.count == items.filter { $0["outcome"] as? String == "trashed" }.count)
        print("read-only remount: \(items.count) photos, \(failed.count) not moved, \(infosAlone.count) infos without their photo until the restart")
    }
}
