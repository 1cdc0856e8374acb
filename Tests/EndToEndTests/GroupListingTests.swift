// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

/// Groups in listings (issue 15), through the real daemon and curatorctl: one
/// position per group with its members and total size, counts of photos and
/// files, filters that see the whole group, and the orphans filter.
extension Watch {
    @Suite struct GroupListing {
        @Test func listingsShowEachGroupOnceWithItsMembersAndCountFiles() throws {
            let daemon = GroupWatching.daemon()
            let root = daemon.root()
            Files.mkdir(root + "/2024")
            Files.write(root + "/2024/IMG_0001.JPG", "jpeg")          // 4 bytes
            Files.write(root + "/2024/IMG_0001.NEF", "raw raw raw")   // 11
            Files.write(root + "/2024/IMG_0001.NEF.xmp", "edits")     // 5
            Files.write(root + "/2024/IMG_0002.JPG", "a lone jpeg")   // 11
            Files.write(root + "/2024/IMG_0003.xmp", "orphan")        // 6
            try daemon.start()
            let c = try daemon.client()

            // Status counts the same way: photos (a group once) and files (each, sidecars too).
            let status = try c.status()
            let rootStatus = try #require((status["roots"] as? [[String: Any]])?.first)
            #expect(rootStatus["photos"] as? Int == 2 && rootStatus["files"] as? Int == 5, "\(rootStatus)")
            #expect(status["photos"] as? Int == 2)

            let result = try c.result(["cmd": "list"])
            #expect(result["total"] as? Int == 2)
            #expect(result["files"] as? Int == 4)
            let photos = try #require(result["photos"] as? [[String: Any]])
            #expect(photos.map { $0["path"] as? String } == ["2024/IMG_0001.JPG", "2024/IMG_0002.JPG"])
            #expect(photos[0]["size"] as? Int == 4)
            #expect(photos[0]["total_size"] as? Int == 20)
            let members = try #require(photos[0]["members"] as? [[String: Any]])
            // The shown JPEG is the record itself; its other files are named (they are in its folder).
            #expect(photos[0]["kind"] as? String == "rendered")
            #expect(members.map { $0["name"] as? String } == ["IMG_0001.NEF", "IMG_0001.NEF.xmp"])
            #expect(members.map { $0["kind"] as? String } == ["raw", "sidecar"])
            #expect(members.map { $0["size"] as? Int } == [11, 5])
            #expect(photos[1]["members"] == nil && photos[1]["total_size"] == nil && photos[1]["kind"] == nil)

            // The NEF's group is found by a pattern on the NEF; by size it is the larger.
            #expect(try c.photos(["filter": ["glob": "*.NEF"]]).map { $0["path"] as? String } == ["2024/IMG_0001.JPG"])
            #expect(try c.photos(["filter": ["types": ["nef"]]]).map { $0["path"] as? String } == ["2024/IMG_0001.JPG"])
            #expect(try c.photos(["sort": "size", "order": "desc"]).map { $0["path"] as? String }
                    == ["2024/IMG_0001.JPG", "2024/IMG_0002.JPG"])
            #expect(try c.photos(["sort": "size"]).map { $0["path"] as? String } == ["2024/IMG_0002.JPG", "2024/IMG_0001.JPG"])

            // Orphans: listed alone, selectable, and trashed in one batch.
            let orphans = try c.photos(["filter": ["orphans": true]])
            #expect(orphans.map { $0["path"] as? String } == ["2024/IMG_0003.xmp"])
            #expect(orphans.first?["type"] as? String == "xmp")

            let ls = try daemon.ctl(["ls"])
            #expect(ls.status == 0, "\(ls.stderr)")
            #expect(ls.stdout.contains("+ IMG_0001.NEF "), "\(ls.stdout)")
            #expect(ls.stdout.contains("+ IMG_0001.NEF.xmp "), "\(ls.stdout)")
            #expect(!ls.stdout.contains("+ IMG_0001.JPG"), "the shown file is the photo's own line: \(ls.stdout)")
            #expect(ls.stdout.contains("(2 photos, 4 files)"), "\(ls.stdout)")
            let lsOrphans = try daemon.ctl(["ls", "--orphans"])
            #expect(lsOrphans.stdout.contains("IMG_0003.xmp") && !lsOrphans.stdout.contains("IMG_0001"), "\(lsOrphans.stdout)")
            #expect(lsOrphans.stdout.contains("(1 orphaned sidecar)") && !lsOrphans.stdout.contains("1 photo"),
                    "an orphan is counted as what it is: \(lsOrphans.stdout)")

            _ = try c.result(["cmd": "view", "filter": ["orphans": true]])
            try c.select("1")
            let done = try c.deleteSelection()
            #expect(done["trashed"] as? Int == 1, "\(done)")
            try c.sync()
            #expect(!FileManager.default.fileExists(atPath: root + "/2024/IMG_0003.xmp"))
            #expect(try c.photos(["filter": ["orphans": true]]).isEmpty)
            #expect(FileManager.default.fileExists(atPath: root + "/2024/IMG_0001.NEF.xmp"), "a sidecar of a photo is no orphan")
        }

        /// `IMG_0007.xmp` beside `IMG_0007.JPG` and `IMG_0007.jpeg` (two photos, not
        /// grouped): no one photo takes it, so `ls --orphans` shows it, and trashing
        /// either photo leaves it where it is.
        @Test func aSidecarThatSeveralPhotosCouldTakeIsListedAsAnOrphan() throws {
            let daemon = GroupWatching.daemon()
            let root = daemon.root()
            Files.write(root + "/IMG_0007.JPG", "one jpeg")
            Files.write(root + "/IMG_0007.jpeg", "another jpeg")
            Files.write(root + "/IMG_0007.xmp", "whose edits?")
            try daemon.start()
            let c = try daemon.client()
            #expect(Set(try c.photos().compactMap { $0["path"] as? String }) == ["IMG_0007.JPG", "IMG_0007.jpeg"])
            #expect(try c.photos().allSatisfy { $0["members"] == nil }, "neither photo takes the sidecar")
            #expect(try c.photos(["filter": ["orphans": true]]).map { $0["path"] as? String } == ["IMG_0007.xmp"])
            let ls = try daemon.ctl(["ls", "--orphans"])
            #expect(ls.status == 0, "\(ls.stderr)")
            #expect(ls.stdout.contains("IMG_0007.xmp") && ls.stdout.contains("(1 orphaned sidecar)"), "\(ls.stdout)")

            let done = try daemon.ctl(["rm", "--yes", "--photo", "pics/IMG_0007.JPG"])
            #expect(done.status == 0, "\(done.stdout) \(done.stderr)")
            try c.sync()
            #expect(!FileManager.default.fileExists(atPath: root + "/IMG_0007.JPG"))
            #expect(Files.read(root + "/IMG_0007.xmp") == "whose edits?", "not trashed on a guess")
        }
    }
}
