// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

/// A folder moved out of its root and straight back in (issue 55): the two halves
/// of those renames never pair, and what stands at the folder's path when the
/// moved-out half settles decides, not the order the halves came in.
extension Watch {
    @Suite struct FolderOutAndBack {
        @Test func aFolderMovedOutAndStraightBackKeepsItsPhotosTheirIdsAndItsWatches() throws {
            let daemon = Daemon()
            let root = daemon.root()
            let outside = daemon.home.mkdir("outside")
            Files.mkdir(root + "/album")
            Files.mkdir(root + "/album/deep")
            Files.write(root + "/album/a1.jpg")
            Files.write(root + "/album/a2.jpg")
            Files.write(root + "/album/deep/d1.jpg")
            Files.write(root + "/keep.jpg")
            try daemon.start()
            let c = try daemon.client()
            let watcher = try daemon.client()
            try watcher.subscribe()
            let before = try c.idsByPath()
            #expect(before.count == 4)

            for round in 1...5 {
                Files.rename(root + "/album", outside + "/album")
                Files.rename(outside + "/album", root + "/album")
                try c.sync()
                #expect(try c.idsByPath() == before, "round \(round): the folder's photos, under their ids")
                #expect(try c.errorCode(["cmd": "list", "root": "pics", "folder": "album"]) == nil, "round \(round)")
            }
            // Nothing changed on disk, so nothing was told: no photo left and came back.
            // (`drainEvents` after a sync: the events of a change precede its sync's answer.)
            let events = try watcher.drainEvents().filter { ["added", "removed", "moved", "changed"].contains($0["event"] as? String) }
            #expect(events.isEmpty, "\(events)")

            // Its watches still hold, below it too.
            Files.write(root + "/album/a3.jpg")
            Files.write(root + "/album/deep/d2.jpg")
            try c.sync()
            #expect(Set(try c.idsByPath().keys) == Set(before.keys).union(["album/a3.jpg", "album/deep/d2.jpg"]))
        }

        /// Another folder put in its place before the first comes back under the
        /// other's name: each path is read afresh from what is there.
        @Test func foldersSwappedThroughAPlaceOutsideAreReadFromTheDisk() throws {
            let daemon = Daemon()
            let root = daemon.root()
            let outside = daemon.home.mkdir("outside")
            Files.mkdir(root + "/one")
            Files.mkdir(root + "/two")
            Files.write(root + "/one/x1.jpg")
            Files.write(root + "/one/x2.jpg")
            Files.write(root + "/two/y1.jpg")
            try daemon.start()
            let c = try daemon.client()
            let watcher = try daemon.client()
            try watcher.subscribe()
            var told = try c.idsByPath()

            for round in 1...3 {
                Files.rename(root + "/one", outside + "/one")
                Files.rename(root + "/two", root + "/one")
                Files.rename(outside + "/one", root + "/two")
                try c.sync()
                let expected: Set<String> = round % 2 == 1 ? ["two/x1.jpg", "two/x2.jpg", "one/y1.jpg"]
                                                           : ["one/x1.jpg", "one/x2.jpg", "two/y1.jpg"]
                let listed = try c.idsByPath()
                #expect(Set(listed.keys) == expected, "round \(round): \(listed.keys.sorted())")
                #expect(Files.photoPaths(below: root) == expected, "round \(round)")
                // What a subscriber was told adds up to what is listed, ids included.
                told = Self.applying(try watcher.drainEvents(), to: told)
                #expect(told == listed, "round \(round): told \(told), listed \(listed)")
            }
            Files.write(root + "/one/new.jpg")
            Files.write(root + "/two/new.jpg")
            try c.sync()
            #expect(Set(try c.idsByPath().keys) == Files.photoPaths(below: root))
        }

        /// Paths by id as a subscriber keeps them from `added`, `removed`, `moved` and
        /// `changed` events.
        static func applying(_ events: [[String: Any]], to start: [String: Int]) -> [String: Int] {
            var byID = Dictionary(uniqueKeysWithValues: start.map { ($0.value, $0.key) })
            for event in events {
                let photo = event["photo"] as? [String: Any]
                switch event["event"] as? String {
                case "added", "moved", "changed":
                    if let id = photo?["id"] as? Int, let path = photo?["path"] as? String { byID[id] = path }
                case "removed":
                    if let id = event["photo_id"] as? Int { byID[id] = nil }
                default:
                    break
                }
            }
            // (Two ids told at one path are a wrong story: both are kept, to be seen.)
            return Dictionary(byID.map { ($0.value, $0.key) }, uniquingKeysWith: { a, b in -abs(a - b) })
        }
    }
}
