// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

extension Watch {
    /// A daemon on `pics` with a subscriber; then a share polled every second, filled
    /// by `fill` and added by a reload while the subscriber listens: its first scan.
    /// `seen` holds what the subscriber heard until that scan was done.
    struct FirstScan {
        let daemon: Daemon
        let pics: String
        let share: String
        let client: Client
        let watcher: Client
        var seen: [[String: Any]] = []
        var done: [String: Any]?

        init(fill: (String) -> Void) throws {
            daemon = Daemon()
            pics = daemon.root()
            Files.write(pics + "/a.jpg")
            configure(daemon, #"{ roots: [{ name: "pics", path: "\#(pics)" }] }"#)
            try daemon.start()
            client = try daemon.client()
            watcher = try daemon.client()
            try watcher.subscribe()
            share = daemon.home.mkdir("share")
            fill(share)
            configure(daemon, #"""
                { roots: [{ name: "pics", path: "\#(pics)" },
                          { name: "share", path: "\#(share)", watch: "poll", poll_interval_seconds: 1 }] }
                """#)
            _ = try client.result(["cmd": "reload"])
            done = try watcher.waitForEvent(seen: &seen) { $0["event"] as? String == "scan" && $0["state"] as? String == "done" }
        }
    }

    /// A root's first scan tells subscribers of its photos folder by folder (one
    /// `scanned` event each, issue 14: one `added` event per photo made a subscribed
    /// start 85 % slower); later scans report each photo they find.
    @Suite struct ScanEvents {
        @Test func aRootsFirstScanIsToldFolderByFolderAndLaterScansPhotoByPhoto() throws {
            let first = try FirstScan { share in
                Files.mkdir(share + "/2024")
                Files.mkdir(share + "/2024/05 beach")
                for i in 0..<3 { Files.write(share + "/2024/05 beach/IMG_\(i).JPG") }
                Files.write(share + "/2024/pano.jpg")
                Files.write(share + "/top.jpg")
                Files.write(share + "/notes.txt")
            }
            let (c, watcher, share, pics, done) = (first.client, first.watcher, first.share, first.pics, first.done)
            var seen = first.seen
            #expect(done?["count"] as? Int == 5)
            #expect(!seen.contains { $0["event"] as? String == "added" }, "\(seen)")
            let scanned = seen.filter { $0["event"] as? String == "scanned" }
            #expect(scanned.allSatisfy { $0["root"] as? String == "share" })
            var counts: [String: Int] = [:]
            for event in scanned {
                let folder = try #require((event["folder"] as? [String: Any])?["path"] as? String, "\(event)")
                counts[folder, default: 0] += try #require(event["count"] as? Int)
            }
            // Folders whose step added nothing (none here) send nothing; the root itself is "".
            #expect(counts == ["": 1, "2024": 1, "2024/05 beach": 3])
            // What a `scanned` event names is there to list.
            let listed = try c.idsByPath(["root": "share", "folder": "2024/05 beach", "recursive": false])
            #expect(listed.keys.sorted() == ["2024/05 beach/IMG_0.JPG", "2024/05 beach/IMG_1.JPG", "2024/05 beach/IMG_2.JPG"])

            // A later poll (a full scan, not the first) reports each photo it finds.
            Files.write(share + "/2024/05 beach/IMG_3.JPG")
            Files.write(share + "/2024/05 beach/IMG_4.JPG")
            seen = []
            for _ in 0..<2 {
                let added = try watcher.waitForEvent(seen: &seen) { $0["event"] as? String == "added" }
                #expect(added?["root"] as? String == "share")
            }
            let paths = seen.filter { $0["event"] as? String == "added" }.compactMap { ($0["photo"] as? [String: Any])?["path"] as? String }
            #expect(paths.sorted() == ["2024/05 beach/IMG_3.JPG", "2024/05 beach/IMG_4.JPG"])
            #expect(!seen.contains { $0["event"] as? String == "scanned" }, "\(seen)")
            // And a photo made in a watched root is its own `added` event, as always.
            Files.write(pics + "/b.jpg")
            let added = try watcher.waitForEvent(seen: &seen) {
                $0["event"] as? String == "added" && $0["root"] as? String == "pics"
            }
            #expect((added?["photo"] as? [String: Any])?["path"] as? String == "b.jpg")
        }

        /// Groups (issue 15) are told the same way: a first scan that finds RAW+JPEG
        /// pairs and sidecars says each folder once, counting a group once, and no
        /// `added` event for the groups it formed.
        @Test func aFirstScanOfGroupsIsToldFolderByFolder() throws {
            let first = try FirstScan { share in
                Files.mkdir(share + "/raw")
                for i in 0..<4 {
                    Files.write(share + "/raw/IMG_\(i).JPG")
                    Files.write(share + "/raw/IMG_\(i).CR2")
                }
                Files.write(share + "/raw/IMG_0.xmp")
                Files.write(share + "/raw/IMG_1.CR2.xmp")
                Files.write(share + "/raw/alone.jpg")
            }
            let (c, seen) = (first.client, first.seen)
            let told = seen.filter { ["added", "changed", "removed", "moved"].contains($0["event"] as? String ?? "") }
            #expect(told.isEmpty, "\(told)")
            let scanned = seen.filter { $0["event"] as? String == "scanned" }
            #expect(scanned.reduce(0) { $0 + (($1["count"] as? Int) ?? 0) } == 5, "\(scanned)")
            let listed = try c.idsByPath(["root": "share", "folder": "raw", "recursive": false])
            #expect(listed.count == 5, "\(listed)")
        }
    }
}
