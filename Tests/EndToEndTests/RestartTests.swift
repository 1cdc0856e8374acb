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
    }
}
