// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

extension Watch {
    @Suite struct Restart {
        /// A restart over an index: every id kept, nothing unchanged re-read or
        /// rewritten, what vanished dropped, what is new added, and files renamed
        /// while the daemon was down (same inode) recognised with their ids.
        @Test func aRestartKeepsIDsAndRereadsNothingUnchanged() throws {
            let daemon = Daemon()
            let root = daemon.root()
            Files.mkdir(root + "/a")
            Files.mkdir(root + "/b")
            var unchanged: [String] = []
            for i in 0..<30 {
                let relative = (i % 2 == 0 ? "a/" : "b/") + "\(i).jpg"
                Files.write(root + "/" + relative, "photo \(i)")
                unchanged.append(relative)
            }
            Files.write(root + "/b/gone.jpg", "gone")
            // Renamed across folders in both directions, so that whichever folder the
            // scan reads first, one rename is found before its old path is read.
            Files.write(root + "/a/to-b.jpg", "moving to b")
            Files.write(root + "/b/to-a.jpg", "moving to a")
            try daemon.start()
            let first = try daemon.client()
            // Capture times are read once, in the background: let that finish first.
            try eventually(timeout: 20, "capture times to be read") { try first.rootStatus()["capture_pending"] as? Int == 0 }
            let before = try first.idsByPath()
            #expect(before.count == 33)
            #expect(daemon.stop() == 0)

            Files.remove(root + "/b/gone.jpg")
            Files.write(root + "/a/new.jpg", "new")
            Files.rename(root + "/a/to-b.jpg", root + "/b/arrived-from-a.jpg")
            Files.rename(root + "/b/to-a.jpg", root + "/a/arrived-from-b.jpg")
            // Reading a file updates an atime this old (relatime), so an unchanged
            // atime afterwards proves the file was not read.
            let old = 978_307_200  // 2001-01-01
            for relative in unchanged { Files.setAccessTime(root + "/" + relative, seconds: old) }
            let probe = daemon.home.sub("probe.jpg")
            Files.write(probe, "probe")
            Files.setAccessTime(probe, seconds: old)
            _ = Files.read(probe)
            let atimesWork = Files.accessTime(probe) != old
            // Sync cookies left by a daemon killed during a sync: an old one is
            // cleaned up by the scan, a recent one (a live sync elsewhere) is not.
            let abandoned = root + "/.curatord-cookie-999999-1"
            let recent = root + "/.curatord-cookie-999999-2"
            Files.write(abandoned, "")
            Files.write(recent, "")
            var times = [timespec(tv_sec: old, tv_nsec: 0), timespec(tv_sec: old, tv_nsec: 0)]
            try #require(utimensat(AT_FDCWD, abandoned, &times, 0) == 0)

            try daemon.start()
            let c = try daemon.client()
            try eventually(timeout: 20, "the new photo's capture time to be read") { try c.rootStatus()["capture_pending"] as? Int == 0 }
            let after = try c.idsByPath()
            for relative in unchanged { #expect(after[relative] == before[relative], "\(relative)") }
            #expect(after["b/gone.jpg"] == nil)
            #expect(after["b/arrived-from-a.jpg"] == before["a/to-b.jpg"])
            #expect(after["a/arrived-from-b.jpg"] == before["b/to-a.jpg"])
            let newID = try #require(after["a/new.jpg"])
            #expect(!before.values.contains(newID))
            #expect(after.count == 33)
            // Exactly one row deleted, one inserted (and its capture time recorded), two
            // moved: nothing else written.
            #expect(try c.status()["index_writes"] as? Int == 5)
            if atimesWork {
                for relative in unchanged { #expect(Files.accessTime(root + "/" + relative) == old, "\(relative) was read") }
            }
            #expect(!Files.exists(abandoned) && Files.exists(recent))
            #expect(!daemon.logText.contains("error"), "\(daemon.logText)")
        }

        /// Issue 14's warm restart (the index loaded row by row into the table, the
        /// tree walked on two threads, an unchanged file passed over on its row):
        /// over enough folders that both threads walk, every kind of change made
        /// while the daemon was down is found, ids and groups are kept, and a second
        /// restart over the same tree writes nothing.
        @Test func aRestartOverManyFoldersFindsEveryChangeMadeWhileDown() throws {
            let daemon = GroupWatching.daemon()
            let root = daemon.root()
            var unchanged: [String] = []
            for folder in 0..<48 {
                let name = String(format: "f%02d", folder)
                Files.mkdir(root + "/" + name)
                for photo in 0..<4 {
                    Files.write(root + "/\(name)/p\(photo).jpg", "photo \(folder) \(photo)")
                    unchanged.append("\(name)/p\(photo).jpg")
                }
            }
            for name in ["IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.xmp", "IMG_0002.JPG"] { Files.write(root + "/f00/" + name, name) }
            try daemon.start()
            let first = try daemon.client()
            try eventually(timeout: 30, "capture times to be read") { try first.rootStatus()["capture_pending"] as? Int == 0 }
            let before = try first.idsByPath()
            #expect(before.count == 48 * 4 + 2, "the RAW and its sidecar are one photo with the JPEG")
            let pair = try first.photos().first { $0["path"] as? String == "f00/IMG_0001.JPG" }
            #expect(((pair?["members"] as? [[String: Any]]) ?? []).contains { $0["name"] as? String == "IMG_0001.CR2" })
            #expect(daemon.stop() == 0)

            let changed = ["f01/p0.jpg", "f02/new.jpg", "f03/p1.jpg", "f04/p2.jpg", "f05/p3.jpg", "f40/renamed.jpg"]
            unchanged.removeAll { changed.contains($0) || $0.hasPrefix("f06/") }
            Files.remove(root + "/f01/p0.jpg")                                   // removed
            Files.write(root + "/f02/new.jpg", "new")                            // added
            Files.write(root + "/f03/p1.jpg", "rewritten, and longer")           // another size
            var times = [timespec(tv_sec: 978_307_200, tv_nsec: 0), timespec(tv_sec: 978_307_200, tv_nsec: 0)]
            try #require(utimensat(AT_FDCWD, root + "/f04/p2.jpg", &times, 0) == 0)  // another mtime only
            Files.rename(root + "/f05/p3.jpg", root + "/f40/renamed.jpg")        // renamed across folders
            Files.remove(root + "/f06")                                          // a folder removed
            Files.remove(root + "/f00/IMG_0001.CR2")                             // a group loses its RAW
            Files.write(root + "/f00/IMG_0002.NEF", "raw")                       // a photo gains one

            try daemon.start()
            let c = try daemon.client()
            try eventually(timeout: 30, "the new photo's capture time to be read") { try c.rootStatus()["capture_pending"] as? Int == 0 }
            let after = try c.idsByPath()
            for relative in unchanged { #expect(after[relative] == before[relative], "\(relative)") }
            #expect(after["f01/p0.jpg"] == nil)
            let newID = try #require(after["f02/new.jpg"])
            #expect(!before.values.contains(newID))
            #expect(after["f03/p1.jpg"] == before["f03/p1.jpg"] && after["f04/p2.jpg"] == before["f04/p2.jpg"])
            #expect(after["f05/p3.jpg"] == nil && after["f40/renamed.jpg"] == before["f05/p3.jpg"])
            #expect(!after.keys.contains { $0.hasPrefix("f06/") })
            #expect(after["f00/IMG_0001.JPG"] == before["f00/IMG_0001.JPG"] && after["f00/IMG_0002.JPG"] == before["f00/IMG_0002.JPG"])
            #expect(after["f00/IMG_0002.NEF"] == nil, "the RAW joined the JPEG's group")
            #expect(after.count == before.count - 1 + 1 - 4)
            let listed = Dictionary(uniqueKeysWithValues: try c.photos().compactMap { p in (p["path"] as? String).map { ($0, p) } })
            #expect(listed["f03/p1.jpg"]?["size"] as? Int == "rewritten, and longer".utf8.count)
            #expect(listed["f04/p2.jpg"]?["mtime_ns"] as? Int == 978_307_200_000_000_000)
            let members = { (path: String) in
                ((listed[path]?["members"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }.sorted()
            }
            #expect(!members("f00/IMG_0001.JPG").contains("IMG_0001.CR2"), "the RAW left the group")
            #expect(members("f00/IMG_0002.JPG") == ["IMG_0002.NEF"])
            #expect(daemon.stop() == 0)

            // Nothing changed since: a restart writes no row and keeps every id.
            try daemon.start()
            let again = try daemon.client()
            try eventually(timeout: 30, "the scan to end") { try again.rootStatus()["last_scan_ms"] != nil }
            #expect(try again.idsByPath() == after)
            #expect(try again.status()["index_writes"] as? Int == 0)
            #expect(!daemon.logText.contains("error"), "\(daemon.logText)")
        }
    }
}
