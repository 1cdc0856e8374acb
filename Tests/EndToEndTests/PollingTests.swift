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
            let daemon = Daemon()
            let root = daemon.root()
            for d in 0..<60 {
                Files.mkdir(root + "/d\(d)")
                Files.write(root + "/d\(d)/p.jpg")
            }
            configure(daemon, """
                { roots: [{ name: "pics", path: "\(root)", watch: "inotify", poll_interval_seconds: 1 }] }
                """)
            if WatchLimit.userNamespacesWork {
                // A user namespace of its own, with its own limit: nobody else is affected.
                daemon.wrapper = WatchLimit.inUserNamespace(limit: 20)
                try daemon.start()
            } else {
                try WatchLimit.withGlobalLimit(headroom: 20) { try daemon.start() }
            }

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

        /// `sync` of a polled root waits for that root's scan, not for another root's:
        /// here a share whose scan hangs on a slow lookup (a FUSE file system) does not
        /// hold up the sync of a polled root that is not scanning.
        @Test func aSyncOfAPolledRootWaitsForItsOwnScanOnly() throws {
            try FailingFS.requireAvailable()
            let daemon = Daemon(roots: ["pics", "share"])
            Files.write(daemon.root("pics") + "/a.jpg")
            let backing = daemon.home.mkdir("backing")
            Files.write(backing + "/b.jpg")
            let fs = try FailingFS(backing: backing, at: daemon.root("share"), home: daemon.home)
            defer {
                daemon.stop()
                withExtendedLifetime(fs) {}
            }
            configure(daemon, """
                { roots: [{ name: "pics", path: "\(daemon.root("pics"))", watch: "poll", poll_interval_seconds: 3600 },
                          { name: "share", path: "\(daemon.root("share"))", watch: "inotify" }] }
                """)
            try daemon.start()
            let c = try daemon.client()
            #expect(try c.idsByPath().count == 2)

            fs.fail(["b.jpg sleep 4"])
            _ = try c.result(["cmd": "rescan", "root": "share"])
            try eventually(timeout: 5, "the share's scan to start") { try c.rootStatus("share")["scanning"] as? Bool == true }
            let synced = try c.result(["cmd": "sync", "root": "pics", "timeout_ms": 2000])
            #expect(synced["synced"] as? Bool == true, "\(synced)")
            #expect(try c.rootStatus("share")["scanning"] as? Bool == true, "the share was still scanning all along")
            fs.heal()
        }
    }
}
