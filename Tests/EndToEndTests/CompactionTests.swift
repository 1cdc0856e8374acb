// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

extension Watch {
    /// mkdir/rmdir churn leaves libinotifytools an entry per dropped watch; past a
    /// bound (lowered here) it is restarted, and watching goes on unharmed.
    @Suite struct Compaction {
        @Test func directoryChurnKeepsTheWatchTableBounded() throws {
            let daemon = Daemon()
            daemon.extraEnvironment["CURATORD_STALE_WATCH_LIMIT"] = "20"
            let root = daemon.root()
            Files.mkdir(root + "/keep")
            Files.write(root + "/keep/k.jpg")
            try daemon.start()
            let c = try daemon.client()
            let keepID = try #require(try c.idsByPath()["keep/k.jpg"])

            for i in 0..<100 {
                // The same name each time: a recreated folder must get its own watch.
                Files.mkdir(root + "/churn")
                try c.sync()
                // Written after the folder was scanned: only its watch can report it.
                Files.write(root + "/churn/\(i).jpg")
                try c.sync()
                #expect(try c.idsByPath()["churn/\(i).jpg"] != nil, "round \(i)")
                Files.remove(root + "/churn")
            }
            try c.sync()
            // A restart may have just begun: its rescan re-watches both folders.
            var inotify: [String: Any] = [:]
            try eventually(timeout: 10, "the folders to be watched again") {
                inotify = try c.status()["inotify"] as? [String: Any] ?? [:]
                return inotify["watches"] as? Int == 2
            }
            #expect((inotify["restarts"] as? Int ?? 0) >= 4, "\(inotify)")
            // Compaction runs at the next turn of the loop once the limit is reached: never above it.
            #expect((inotify["stale_entries"] as? Int ?? .max) <= 20, "\(inotify)")

            // Still watching everything, ids kept.
            Files.write(root + "/keep/after.jpg")
            Files.mkdir(root + "/fresh")
            Files.write(root + "/fresh/f.jpg")
            try c.sync()
            let ids = try c.idsByPath()
            #expect(Set(ids.keys) == ["keep/k.jpg", "keep/after.jpg", "fresh/f.jpg"])
            #expect(ids["keep/k.jpg"] == keepID)
        }
    }
}
