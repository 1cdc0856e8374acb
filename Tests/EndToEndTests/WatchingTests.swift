// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Every case of issue 2 point 5 that happens inside a live root, against the
/// real daemon: each converges (sync is read-your-writes), ids are kept, paths
/// and counts are exact.
extension Watch {
    @Suite struct Watching {
        @Test func createWriteCloseAndDelete() throws {
            let daemon = Daemon()
            try daemon.start()
            let root = daemon.root()
            let c = try daemon.client()
            let watcher = try daemon.client()
            try watcher.subscribe()

            Files.write(root + "/a.jpg", "abc")
            Files.write(root + "/notes.txt", "not a photo")
            try c.sync()
            let first = try c.photos()
            #expect(first.map { $0["path"] as? String } == ["a.jpg"])
            #expect(first.first?["size"] as? Int == 3)

            // A file written slowly, for longer than a created file is left to settle,
            // is not indexed until it is closed, and then with its whole size.
            let slow = root + "/slow.jpg"
            let fd = open(slow, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            try #require(fd >= 0)
            let chunk = [UInt8](repeating: 0x42, count: 1000)
            for _ in 0..<7 {
                _ = chunk.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                try c.sync()
                #expect(try c.idsByPath()["slow.jpg"] == nil, "indexed half-way")
                usleep(450_000)  // the writer's own pace: 3.1 s in all, past the 2 s settle time
            }
            close(fd)
            try c.sync()
            let written = try c.photos().first { $0["path"] as? String == "slow.jpg" }
            #expect(written?["size"] as? Int == 7000)

            let aID = try #require(try c.idsByPath()["a.jpg"])
            Files.write(root + "/a.jpg", "rewritten")
            try c.sync()
            Files.remove(root + "/a.jpg")
            try c.sync()
            #expect(try c.idsByPath() == ["slow.jpg": try #require(written?["id"] as? Int)])

            // Subscribers saw exactly: a added, slow added once (whole), a removed.
            var seen: [[String: Any]] = []
            let removed = try watcher.waitForEvent(seen: &seen) { $0["event"] as? String == "removed" }
            #expect(removed?["photo_id"] as? Int == aID)
            #expect((removed?["from"] as? [String: Any])?["path"] as? String == "a.jpg")
            let added = seen.filter { $0["event"] as? String == "added" }.compactMap { $0["photo"] as? [String: Any] }
            #expect(added.map { $0["path"] as? String } == ["a.jpg", "slow.jpg"])
            #expect(added.last?["size"] as? Int == 7000)
            let changed = seen.filter { $0["event"] as? String == "changed" }.compactMap { $0["photo"] as? [String: Any] }
            #expect(changed.count == 1 && changed.first?["id"] as? Int == aID && changed.first?["size"] as? Int == 9)
        }

        @Test func renameAndMoveInsideTheRootKeepTheID() throws {
            let daemon = Daemon()
            let root = daemon.root()
            Files.mkdir(root + "/sub")
            Files.write(root + "/a.jpg")
            try daemon.start()
            let c = try daemon.client()
            let watcher = try daemon.client()
            try watcher.subscribe()
            let id = try #require(try c.idsByPath()["a.jpg"])

            Files.rename(root + "/a.jpg", root + "/b.jpg")
            try c.sync()
            #expect(try c.idsByPath() == ["b.jpg": id])

            Files.rename(root + "/b.jpg", root + "/sub/c.jpg")
            try c.sync()
            #expect(try c.idsByPath() == ["sub/c.jpg": id])
            // Subscribers see two moves of the same photo, each with its former path.
            var seen: [[String: Any]] = []
            _ = try watcher.waitForEvent(seen: &seen) { ($0["photo"] as? [String: Any])?["path"] as? String == "sub/c.jpg" }
            let moves = seen.filter { $0["event"] as? String == "moved" }
            #expect(moves.map { ($0["from"] as? [String: Any])?["path"] as? String } == ["a.jpg", "b.jpg"])
            #expect(moves.allSatisfy { ($0["photo"] as? [String: Any])?["id"] as? Int == id })
            #expect(!seen.contains { ["added", "removed"].contains($0["event"] as? String) }, "\(seen)")

            // Renamed over another photo: the survivor keeps its id, the replaced one is gone.
            Files.write(root + "/sub/d.jpg")
            try c.sync()
            Files.rename(root + "/sub/c.jpg", root + "/sub/d.jpg")
            try c.sync()
            #expect(try c.idsByPath() == ["sub/d.jpg": id])
        }

        @Test func aFolderRenamedOrMovedKeepsItsPhotosAndTheWatchesFollow() throws {
            let daemon = Daemon()
            let root = daemon.root()
            Files.mkdir(root + "/album")
            Files.mkdir(root + "/album/deep")
            Files.mkdir(root + "/elsewhere")
            for name in ["1.jpg", "2.jpg", "3.jpg"] { Files.write(root + "/album/" + name) }
            Files.write(root + "/album/deep/4.jpg")
            try daemon.start()
            let c = try daemon.client()
            let watcher = try daemon.client()
            try watcher.subscribe()
            let before = try c.idsByPath()
            #expect(before.count == 4)

            Files.rename(root + "/album", root + "/trip")
            try c.sync()
            let renamed = try c.idsByPath()
            #expect(renamed == Dictionary(uniqueKeysWithValues: before.map { ("trip" + $0.key.dropFirst("album".count), $0.value) }))
            // One moved event per photo below, from its old path, nothing removed or added.
            let events = try watcher.drainEvents()
            let moves = events.filter { $0["event"] as? String == "moved" }
            let movedFrom = Dictionary(uniqueKeysWithValues: moves.compactMap { e -> (String, Int)? in
                guard let from = (e["from"] as? [String: Any])?["path"] as? String,
                      let id = (e["photo"] as? [String: Any])?["id"] as? Int else { return nil }
                return (from, id)
            })
            #expect(movedFrom == before)
            #expect(moves.count == 4 && events.count == 4, "\(events)")

            // The watch map followed: new files in the renamed folders land under the new path...
            Files.write(root + "/trip/5.jpg")
            Files.write(root + "/trip/deep/6.jpg")
            // ...and a new folder with the old name is a folder of its own.
            Files.mkdir(root + "/album")
            Files.write(root + "/album/7.jpg")
            try c.sync()
            var now = try c.idsByPath()
            #expect(Set(now.keys) == ["trip/1.jpg", "trip/2.jpg", "trip/3.jpg", "trip/deep/4.jpg", "trip/5.jpg",
                                      "trip/deep/6.jpg", "album/7.jpg"])
            // Written into the recreated folder after its watch: still seen (its own watch, not the old one's).
            Files.write(root + "/album/8.jpg")
            Files.write(root + "/trip/deep/9.jpg")
            try c.sync()
            now = try c.idsByPath()
            #expect(now["album/8.jpg"] != nil && now["trip/deep/9.jpg"] != nil)

            // Moved into another folder, twice.
            Files.rename(root + "/trip", root + "/elsewhere/trip")
            Files.rename(root + "/elsewhere", root + "/moved")
            try c.sync()
            let moved = try c.idsByPath()
            #expect(moved["moved/trip/deep/4.jpg"] == before["album/deep/4.jpg"])
            #expect(moved["moved/trip/1.jpg"] == before["album/1.jpg"])
            #expect(moved.count == 9)
            Files.write(root + "/moved/trip/deep/10.jpg")
            try c.sync()
            #expect(try c.idsByPath()["moved/trip/deep/10.jpg"] != nil)
        }

        @Test func aNewFolderFilledAtOnceLosesNothing() throws {
            let daemon = Daemon()
            try daemon.start()
            let root = daemon.root()
            let c = try daemon.client()
            Files.mkdir(root + "/burst")
            for i in 0..<200 { Files.write(root + "/burst/\(i).jpg") }
            // Nested folders made and filled at once, before any watch can exist on them.
            try FileManager.default.createDirectory(atPath: root + "/nested/a/b", withIntermediateDirectories: true)
            for i in 0..<20 { Files.write(root + "/nested/a/b/\(i).jpg") }
            try c.sync()
            let paths = Set(try c.idsByPath().keys)
            #expect(paths == Set((0..<200).map { "burst/\($0).jpg" } + (0..<20).map { "nested/a/b/\($0).jpg" }))
        }

        @Test func photosAndFoldersMovedOutOfAndIntoTheRoot() throws {
            let daemon = Daemon()
            let root = daemon.root()
            let outside = daemon.home.mkdir("outside")
            Files.mkdir(root + "/keep")
            Files.write(root + "/keep/k.jpg")
            Files.mkdir(root + "/leaving")
            Files.write(root + "/leaving/l1.jpg")
            Files.write(root + "/leaving/l2.jpg")
            Files.write(root + "/single.jpg")
            Files.mkdir(outside + "/arriving")
            Files.write(outside + "/arriving/a1.jpg")
            Files.write(outside + "/in.jpg")
            try daemon.start()
            let c = try daemon.client()
            let keepID = try #require(try c.idsByPath()["keep/k.jpg"])

            Files.rename(root + "/leaving", outside + "/leaving")
            Files.rename(root + "/single.jpg", outside + "/single.jpg")
            Files.rename(outside + "/arriving", root + "/arriving")
            Files.rename(outside + "/in.jpg", root + "/keep/in.jpg")
            try c.sync()
            let now = try c.idsByPath()
            #expect(Set(now.keys) == ["keep/k.jpg", "keep/in.jpg", "arriving/a1.jpg"])
            #expect(now["keep/k.jpg"] == keepID)

            // The folder that left is not watched any more; the one that came is.
            Files.write(outside + "/leaving/late.jpg")
            Files.write(root + "/arriving/a2.jpg")
            try c.sync()
            #expect(Set(try c.idsByPath().keys) == ["keep/k.jpg", "keep/in.jpg", "arriving/a1.jpg", "arriving/a2.jpg"])
        }

        @Test func namesThatAreNotUTF8AreIndexedListedAndRenamed() throws {
            let daemon = Daemon()
            let root = Array(daemon.root().utf8)
            let latin1Dir: [UInt8] = Array("caf".utf8) + [0xE9]  // "café" in Latin-1
            let latin1Name: [UInt8] = Array("na".utf8) + [0xEF, 0x76, 0x65] + Array(".jpg".utf8)
            try daemon.start()
            let c = try daemon.client()
            let slash = UInt8(ascii: "/")
            precondition(Files.withCPath(root + [slash] + latin1Dir) { Glibc.mkdir($0, 0o755) } == 0)
            Files.write(bytes: root + [slash] + latin1Dir + [slash] + latin1Name, "x")
            try c.sync()
            let listed = try c.photosByBytes()
            let original = latin1Dir + [slash] + latin1Name
            let photo = try #require(listed[original], "listed: \(listed.keys.map { String(decoding: $0, as: UTF8.self) })")
            #expect(photo["path_raw"] as? String == Data(original).base64EncodedString())
            let id = try #require(photo["id"] as? Int)

            let renamedName: [UInt8] = [0xFF, 0xFE] + Array(".jpg".utf8)
            Files.rename(bytes: root + [slash] + original, root + [slash] + latin1Dir + [slash] + renamedName)
            try c.sync()
            let after = try c.photosByBytes()
            #expect(after.count == 1)
            #expect(after[latin1Dir + [slash] + renamedName]?["id"] as? Int == id)
        }

        /// Changes made while the first scan runs are buffered and applied after it,
        /// in order; a sync answers only once they are.
        @Test func changesDuringTheFirstScanAreAppliedBeforeSyncAnswers() throws {
            let daemon = Daemon()
            let root = daemon.root()
            for d in 0..<40 {
                Files.mkdir(root + "/d\(d)")
                for i in 0..<100 { Files.write(root + "/d\(d)/\(i).jpg") }
            }
            try daemon.start(waitForScan: false)
            let c = try daemon.client()
            Files.write(root + "/d39/new.jpg")
            Files.remove(root + "/d0/0.jpg")
            Files.rename(root + "/d1/1.jpg", root + "/d38/renamed.jpg")
            Files.mkdir(root + "/late")
            Files.write(root + "/late/l.jpg")
            _ = try c.result(["cmd": "sync", "timeout_ms": 60_000], timeout: 90)
            let ids = try c.idsByPath()
            #expect(ids.count == 4000 + 1 - 1 + 1)
            #expect(ids["d39/new.jpg"] != nil && ids["late/l.jpg"] != nil && ids["d38/renamed.jpg"] != nil)
            #expect(ids["d0/0.jpg"] == nil && ids["d1/1.jpg"] == nil)
        }

        /// A file that appears without a close-after-write (a hard link) is indexed
        /// once it has been quiet for a while.
        @Test func aFileCreatedWithoutCloseWriteIsIndexedOnceQuiet() throws {
            let daemon = Daemon()
            let outside = daemon.home.mkdir("outside")
            Files.write(outside + "/original.jpg", "linked")
            try daemon.start()
            let c = try daemon.client()
            try #require(link(outside + "/original.jpg", daemon.root() + "/link.jpg") == 0)
            try eventually(timeout: 10, "the link to be indexed") { try c.idsByPath()["link.jpg"] != nil }
            #expect(try c.photos().first?["size"] as? Int == 6)
        }

        /// A root may be a symlink to the folder (the folder is what is read and watched).
        @Test func aRootGivenAsASymlinkIsReadAndWatched() throws {
            let daemon = Daemon()
            let real = daemon.home.mkdir("real-pictures")
            Files.write(real + "/a.jpg")
            let link = daemon.home.sub("pictures-link")
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
            configure(daemon, "{ roots: [{ name: \"pics\", path: \"\(link)\" }] }")
            try daemon.start()
            let c = try daemon.client()
            #expect(try c.idsByPath().keys.sorted() == ["a.jpg"])
            Files.write(real + "/b.jpg")
            try c.sync()
            #expect(try c.idsByPath().keys.sorted() == ["a.jpg", "b.jpg"])
        }
    }
}
