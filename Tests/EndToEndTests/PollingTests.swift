// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

extension Watch {
    /// Roots watched without inotify: configured `watch: "poll"`, or out of
    /// inotify watches (ENOSPC), which falls back to polling and says so.
    @Suite struct Polling {
        @Test func aPollRootPicksUpChangesWithoutInotify() throws {
            let daemon = Daemon()
            let root = daemon.root()
            Files.write(root + "/a.jpg")
            configure(daemon, """
                // a network share: inotify would see nothing of other hosts' changes
                { roots: [{ name: "pics", path: "\(root)", watch: "poll", poll_interval_seconds: 1 }] }
                """)
            try daemon.start()
            let c = try daemon.client()
            let status = try c.rootStatus()
            #expect(status["watching"] as? String == "poll")
            #expect(status["watches"] as? Int == 0)
            let id = try #require(try c.idsByPath()["a.jpg"])

            Files.write(root + "/b.jpg")
            Files.rename(root + "/a.jpg", root + "/renamed.jpg")
            try eventually(timeout: 10, "a poll to pick up the changes") { Set(try c.idsByPath().keys) == ["b.jpg", "renamed.jpg"] }
            #expect(try c.idsByPath()["renamed.jpg"] == id)
            Files.remove(root + "/b.jpg")
            try eventually(timeout: 10, "a poll to see the deletion") { Set(try c.idsByPath().keys) == ["renamed.jpg"] }
        }

        @Test func outOfInotifyWatchesTheRootFallsBackToPolling() throws {
            let limitPath = "/proc/sys/fs/inotify/max_user_watches"
            guard let original = Files.read(limitPath)?.trimmingCharacters(in: .whitespacesAndNewlines), !original.isEmpty,
                  access(limitPath, W_OK) == 0
            else {
                try Test.cancel("\(limitPath) is not writable here (needs root)")
            }
            let daemon = Daemon()
            let root = daemon.root()
            for d in 0..<60 {
                Files.mkdir(root + "/d\(d)")
                Files.write(root + "/d\(d)/p.jpg")
            }
            configure(daemon, """
                { roots: [{ name: "pics", path: "\(root)", watch: "inotify", poll_interval_seconds: 1 }] }
                """)
            // The limit is per user and other processes may be watching: leave room for
            // them, not for our 61 directories, and restore it as soon as we can.
            var restored = false
            func restore() {
                guard !restored else { return }
                restored = (try? original.write(toFile: limitPath, atomically: false, encoding: .utf8)) != nil
            }
            defer { restore() }
            try String(watchesInUse() + 20).write(toFile: limitPath, atomically: false, encoding: .utf8)
            try daemon.start()
            restore()
            #expect(restored)

            let c = try daemon.client()
            let status = try c.rootStatus()
            #expect(status["watching"] as? String == "poll")
            #expect((status["note"] as? String ?? "").contains("max_user_watches"), "\(status)")
            #expect(status["watches"] as? Int == 0)
            #expect(try c.idsByPath().count == 60)
            #expect(daemon.logText.contains("watch limit reached"))

            Files.write(root + "/d7/new.jpg")
            try eventually(timeout: 10, "a poll to pick up the new photo") { try c.idsByPath()["d7/new.jpg"] != nil }
        }

        /// Watches held by all processes (the limit counts them per user; in the
        /// places we run as root, every process is root's).
        private func watchesInUse() -> Int {
            var total = 0
            let me = geteuid()
            for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(pid) != nil {
                var st = stat()
                guard stat("/proc/\(pid)", &st) == 0, st.st_uid == me else { continue }
                for fd in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fdinfo")) ?? [] {
                    guard let info = Files.read("/proc/\(pid)/fdinfo/\(fd)"), info.contains("inotify wd:") else { continue }
                    total += info.components(separatedBy: "inotify wd:").count - 1
                }
            }
            return total
        }
    }
}
