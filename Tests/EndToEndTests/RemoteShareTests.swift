// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

extension Watch {
    /// A root on a share mounted from another host (sshfs over loopback standing in
    /// for NFS and SMB, which these kernels lack): a laptop that mounts the NAS.
    @Suite struct RemoteShare {
        /// The daemon with one root, `nas`, at `photos` on an sshfs mount (the mount's
        /// top is its parent, where `.Trash-$uid` goes), and a local root `pics`.
        struct Setup {
            let daemon: Daemon
            let share: SSHShare
            var root: String { share.mountpoint + "/photos" }
            var serverRoot: String { share.export + "/photos" }
        }

        static func setUp(photos: [String] = ["a.jpg", "b.jpg"], pollSeconds: Int = 1, extra: String = "") throws -> Setup {
            try SSHShare.requireAvailable()
            let daemon = Daemon(roots: ["pics"])
            let share = try SSHShare(mountpoint: daemon.home.sub("nas"))
            Files.mkdir(share.export + "/photos")
            for (n, name) in photos.enumerated() { Files.write(share.export + "/photos/" + name, "photo \(n) \(name)") }
            configure(daemon, """
                { roots: [{ name: "pics", path: "\(daemon.root("pics"))" },
                          { name: "nas", path: "\(share.mountpoint)/photos", poll_interval_seconds: \(pollSeconds) \(extra) }] }
                """)
            try daemon.start()
            return Setup(daemon: daemon, share: share)
        }

        @Test func theShareIsPolledAndWhatTheServerChangesIsFound() throws {
            let s = try Self.setUp()
            defer { s.daemon.stop() }
            let c = try s.daemon.client()
            let status = try c.rootStatus("nas")
            #expect(status["watching"] as? String == "inotify+poll", "\(status)")
            #expect(Set(try c.idsByPath(["root": "nas"]).keys) == ["a.jpg", "b.jpg"])

            // Made on the server: no inotify event reaches this host; the poll finds it.
            Files.write(s.serverRoot + "/c.jpg", "from the server")
            Files.remove(s.serverRoot + "/b.jpg")
            try eventually(timeout: 10, "a poll to find the server's changes") {
                Set(try c.idsByPath(["root": "nas"]).keys) == ["a.jpg", "c.jpg"]
            }
            // Made here, on the mount: inotify sees it at once.
            Files.write(s.root + "/d.jpg", "from this host")
            _ = try c.result(["cmd": "sync", "root": "nas"])
            #expect(try c.idsByPath(["root": "nas"])["d.jpg"] != nil)
        }

        @Test func trashGoesToTheTopOfTheMountByRename() throws {
            let s = try Self.setUp()
            defer { s.daemon.stop() }
            let c = try s.daemon.client()
            let inode = try #require(s.share.serverInode("photos/a.jpg"))
            let id = try #require(try c.idsByPath(["root": "nas"])["a.jpg"])
            let batch = try c.deleteSelection(["ids": [id]])
            #expect(PhotoOutcomes(batch).byPath["a.jpg"] == "trashed", "\(batch)")
            let trash = s.share.export + "/.Trash-\(getuid())"
            // Renamed on the server (same inode), not copied: a copy over the network
            // would cost the whole file twice and could be cut half way.
            #expect(s.share.serverInode(".Trash-\(getuid())/files/a.jpg") == inode)
            #expect(Files.exists(trash + "/info/a.jpg.trashinfo"))
            #expect(!Files.exists(s.serverRoot + "/a.jpg"))
            #expect(try c.idsByPath(["root": "nas"])["a.jpg"] == nil)
        }

        @Test func anUnmountedShareIsOfflineWithItsPhotosAndIdsKept() throws {
            let s = try Self.setUp()
            defer { s.daemon.stop() }
            let c = try s.daemon.client()
            let before = try c.idsByPath(["root": "nas"])
            s.share.unmount()
            try eventually(timeout: 10, "the share to go offline") { try c.rootStatus("nas")["online"] as? Bool == false }
            #expect(try c.idsByPath(["root": "nas"]) == before)
            try s.share.remount()
            try s.daemon.explainingFailures {
                try eventually(timeout: 10, "the share to come back") { try c.rootStatus("nas")["online"] as? Bool == true }
            }
            try s.daemon.waitForScanToFinish()
            #expect(try c.idsByPath(["root": "nas"]) == before)
            // The log is ours: libinotifytools prints nothing of its own to stderr.
            #expect(!s.daemon.logText.contains("Failed to remove watch"))
        }

        @Test func aKilledServerMakesTheRootOfflineWithItsPhotosKept() throws {
            let s = try Self.setUp()
            defer { s.daemon.stop() }
            let c = try s.daemon.client()
            let before = try c.idsByPath(["root": "nas"])
            s.share.killServer()
            try eventually(timeout: 10, "the share to go offline") { try c.rootStatus("nas")["online"] as? Bool == false }
            let status = try c.rootStatus("nas")
            #expect(status["photos"] as? Int == 2, "\(status)")
            #expect(try c.idsByPath(["root": "nas"]) == before)
            #expect(!s.daemon.logText.contains("Failed to remove watch"))
        }

        /// A server that stops answering (SIGSTOP) hangs every call on the mount,
        /// uninterruptibly: such calls run where a hang costs that root alone. `sync`
        /// keeps its timeout, the root is said unresponsive (since when), other roots
        /// and `status` stay fast, and it recovers by itself when the server answers.
        @Test func aHungServerHangsNoRequestAndTheRootRecovers() throws {
            let s = try Self.setUp()
            defer {
                s.share.resume()
                s.daemon.stop()
            }
            let c = try s.daemon.client()
            s.share.hang()
            defer { s.share.resume() }

            var started = Date()
            let sync = try c.result(["cmd": "sync", "root": "nas", "timeout_ms": 3000], timeout: 15)
            let syncSeconds = Date().timeIntervalSince(started)
            #expect(syncSeconds < 3.8, "sync of the hung share took \(syncSeconds) s")
            #expect(sync["synced"] as? Bool == false, "\(sync)")

            try eventually(timeout: 10, "the share to be said unresponsive") {
                try c.rootStatus("nas")["unresponsive_since"] as? String != nil
            }
            let nas = try c.rootStatus("nas")
            #expect(nas["online"] as? Bool == true, "a hung share is not gone: \(nas)")
            #expect(nas["photos"] as? Int == 2)
            // People see it too, with the time it stopped answering.
            let since = try #require(nas["unresponsive_since"] as? String)
            let printed = try s.daemon.ctl(["status"])
            #expect(printed.status == 0, "\(printed)")
            let line = printed.stdout.split(separator: "\n").first { $0.contains("nas") } ?? ""
            #expect(line.contains("UNRESPONSIVE since \(since)"), "\(printed.stdout)")

            // Meanwhile the other root, status, listings and a sync of everything stay fast.
            for n in 0..<3 {
                Files.write(s.daemon.root("pics") + "/p\(n).jpg")
                started = Date()
                let local = try c.result(["cmd": "sync", "root": "pics", "timeout_ms": 3000], timeout: 10)
                #expect(local["synced"] as? Bool == true)
                _ = try c.status()
                #expect(try c.idsByPath(["root": "pics"])["p\(n).jpg"] != nil)
                let seconds = Date().timeIntervalSince(started)
                #expect(seconds < 1.5, "a request for another root took \(seconds) s while the share hangs")
                usleep(500_000)
            }
            started = Date()
            let all = try c.result(["cmd": "sync", "timeout_ms": 2000], timeout: 10)
            #expect(Date().timeIntervalSince(started) < 2.8)
            #expect(all["synced"] as? Bool == false, "the hung share is not synced: \(all)")

            // The server answers again: the root recovers by itself and its changes are found.
            s.share.resume()
            Files.write(s.serverRoot + "/after.jpg", "written while it hung")
            try eventually(timeout: 15, "the share to answer again") {
                (try c.rootStatus("nas")["unresponsive_since"] as? String) == nil
            }
            try eventually(timeout: 10, "a poll to find what the server changed") {
                try c.idsByPath(["root": "nas"])["after.jpg"] != nil
            }
            let again = try c.result(["cmd": "sync", "root": "nas", "timeout_ms": 3000], timeout: 10)
            #expect(again["synced"] as? Bool == true, "\(again)")
        }
    }
}
