// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

extension Watch {
    /// Photo ids on a share mounted from another host, whose inode numbers are not
    /// the server's (sshfs makes up its own, and a new mount makes up new ones): an
    /// undo, a rename on the server and a remount keep every id, and an unchanged
    /// photo costs nothing when the share comes back.
    @Suite struct RemoteIdentity {
        typealias Share = RemoteShare

        /// Sets a file's access and modification times to `seconds` (whole seconds:
        /// what sshfs shows of them).
        static func setTimes(_ path: String, seconds: Int) {
            var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
            precondition(utimensat(AT_FDCWD, path, &times, 0) == 0, "utimensat \(path): \(String(cString: strerror(errno)))")
        }

        static func device(of path: String) -> UInt64? {
            var st = stat()
            return stat(path, &st) == 0 ? UInt64(st.st_dev) : nil
        }

        /// The events of one kind among `events`, for the root `nas`.
        static func events(_ kind: String, in events: [[String: Any]]) -> [[String: Any]] {
            events.filter { $0["event"] as? String == kind && ($0["root"] as? String ?? "nas") == "nas" }
        }

        @Test func anUndoOnTheSharePutsThePhotosBackWithTheirIds() throws {
            let s = try Share.setUp(photos: ["a.jpg", "b.jpg", "c.jpg"], pollSeconds: 1)
            defer { s.daemon.stop() }
            let c = try s.daemon.client()
            let before = try c.idsByPath(["root": "nas"])
            #expect(before.count == 3)
            let ids = try ["a.jpg", "b.jpg"].map { try #require(before[$0]) }
            let batch = try c.deleteSelection(["ids": ids])
            #expect(PhotoOutcomes(batch).outcomes == ["trashed", "trashed"], "\(batch)")
            try eventually(timeout: 10, "the trashed photos to leave the index") {
                try c.idsByPath(["root": "nas"]).count == 1
            }
            let undone = try c.undo()
            #expect(PhotoOutcomes(undone).outcomes.allSatisfy { $0 == "restored" }, "\(undone)")
            _ = try c.result(["cmd": "sync", "root": "nas", "timeout_ms": 5000])
            // Whichever of the undo and the watcher (inotify on this host, the poll)
            // sees them first, and after polls have been through again.
            #expect(try c.idsByPath(["root": "nas"]) == before)
            usleep(2_500_000)
            #expect(try c.idsByPath(["root": "nas"]) == before)
        }

        @Test func aRenameOnTheServerIsOneMoveThatKeepsTheId() throws {
            let s = try Share.setUp(photos: ["a.jpg", "bb.jpg", "ccc.jpg"], pollSeconds: 1)
            defer { s.daemon.stop() }
            let c = try s.daemon.client()
            let before = try c.idsByPath(["root": "nas"])
            let id = try #require(before["a.jpg"])
            let watcher = try s.daemon.client()
            try watcher.subscribe()

            Files.mkdir(s.serverRoot + "/2024")
            #expect(rename(s.serverRoot + "/a.jpg", s.serverRoot + "/2024/renamed.jpg") == 0)
            try eventually(timeout: 10, "a poll to find the rename") {
                try c.idsByPath(["root": "nas"])["2024/renamed.jpg"] != nil
            }
            let after = try c.idsByPath(["root": "nas"])
            #expect(after["2024/renamed.jpg"] == id, "the renamed photo got a new id: \(after) (was \(before))")
            #expect(after["a.jpg"] == nil)
            #expect(after["bb.jpg"] == before["bb.jpg"] && after["ccc.jpg"] == before["ccc.jpg"])
            usleep(1_500_000)
            let events = try watcher.drainEvents(quiet: 0.5)
            let moved = Self.events("moved", in: events)
            #expect(moved.count == 1, "\(events)")
            #expect((moved.first?["photo"] as? [String: Any])?["id"] as? Int == id, "\(moved)")
            #expect((moved.first?["from"] as? [String: Any])?["path"] as? String == "a.jpg", "\(moved)")
            #expect(Self.events("added", in: events).isEmpty && Self.events("removed", in: events).isEmpty, "\(events)")
        }

        /// One photo vanished and two that look alike appeared (a rename and a copy
        /// with the same size and time): either could be it, so neither gets its id.
        @Test func aRenameWithTwoCandidatesIsNotGuessed() throws {
            let s = try Share.setUp(photos: ["a.jpg", "bb.jpg"], pollSeconds: 1)
            defer { s.daemon.stop() }
            let c = try s.daemon.client()
            let before = try c.idsByPath(["root": "nas"])
            let id = try #require(before["a.jpg"])
            let watcher = try s.daemon.client()
            try watcher.subscribe()

            let original = s.serverRoot + "/a.jpg"
            let content = Files.read(original) ?? ""
            var st = stat()
            #expect(lstat(original, &st) == 0)
            let staged = s.share.export + "/copy.jpg"
            Files.write(staged, content)
            Self.setTimes(staged, seconds: st.st_mtim.tv_sec)
            // Both in the same pass: two renames microseconds apart.
            #expect(rename(original, s.serverRoot + "/renamed.jpg") == 0)
            #expect(rename(staged, s.serverRoot + "/copy.jpg") == 0)
            try eventually(timeout: 10, "a poll to find both") {
                let now = try c.idsByPath(["root": "nas"])
                return now["renamed.jpg"] != nil && now["copy.jpg"] != nil && now["a.jpg"] == nil
            }
            let after = try c.idsByPath(["root": "nas"])
            #expect(after["renamed.jpg"] != id && after["copy.jpg"] != id, "a guess: \(after) (was \(before))")
            usleep(1_500_000)
            let events = try watcher.drainEvents(quiet: 0.5)
            #expect(Self.events("moved", in: events).isEmpty, "\(events)")
            #expect(Self.events("removed", in: events).count == 1, "\(events)")
            #expect(Self.events("added", in: events).count == 2, "\(events)")
        }

        /// A local root keeps knowing photos by inode alone: a photo deleted while the
        /// daemon was away and another file with its size and time elsewhere are two
        /// photos, not a move.
        @Test func aLocalRootDoesNotPairLookAlikes() throws {
            let s = try Share.setUp(photos: ["a.jpg"], pollSeconds: 1)
            let pics = s.daemon.root("pics")
            Files.write(pics + "/one.jpg", "a local photo")
            Self.setTimes(pics + "/one.jpg", seconds: 1_700_000_000)
            let c = try s.daemon.client()
            _ = try c.result(["cmd": "sync", "root": "pics"])
            let id = try #require(try c.idsByPath(["root": "pics"])["one.jpg"])
            s.daemon.stop()
            // Written before the other goes, so that it cannot reuse its inode number
            // (which, with the same size and mtime, is a rename on a local root).
            Files.write(pics + "/other.jpg", "a local photo")
            Self.setTimes(pics + "/other.jpg", seconds: 1_700_000_000)
            Files.remove(pics + "/one.jpg")
            try s.daemon.start()
            defer { s.daemon.stop() }
            let after = try s.daemon.client().idsByPath(["root": "pics"])
            #expect(after["one.jpg"] == nil)
            let other = try #require(after["other.jpg"])
            #expect(other != id, "a local look-alike took the vanished photo's id")
        }

        /// Unmounted and mounted again: every photo has another device and inode
        /// number, and none of them changed. Nothing is written, nothing is told.
        @Test func aRemountCostsNoIndexWriteAndNoEvent() throws {
            let names = (0..<50).map { String(format: "%02d/photo-%02d.jpg", $0 % 5, $0) }
            let s = try Share.setUp(photos: [], pollSeconds: 1)
            defer { s.daemon.stop() }
            for n in 0..<5 { Files.mkdir(s.serverRoot + String(format: "/%02d", n)) }
            for (n, name) in names.enumerated() { Files.write(s.serverRoot + "/" + name, String(repeating: "x", count: 100 + n)) }
            let c = try s.daemon.client()
            try eventually(timeout: 20, "a poll to index the 50 photos and their capture times") {
                let root = try c.rootStatus("nas")
                return root["photos"] as? Int == 50 && root["capture_pending"] as? Int == 0
            }
            let before = try c.idsByPath(["root": "nas"])
            let watcher = try s.daemon.client()
            try watcher.subscribe()
            usleep(1_500_000)  // a poll of the unchanged share: nothing written either
            let writes = try #require(try c.status()["index_writes"] as? Int)

            let device = try #require(Self.device(of: s.root))
            s.share.unmount()
            try eventually(timeout: 10, "the share to go offline") { try c.rootStatus("nas")["online"] as? Bool == false }
            // Another mount first, as on a laptop: the share comes back on another device.
            try s.share.mountAlso(at: s.daemon.home.sub("elsewhere"))
            try s.share.remount()
            #expect(Self.device(of: s.root) != device, "the remount kept its device number: this tests nothing")
            try s.daemon.explainingFailures {
                try eventually(timeout: 10, "the share to come back") { try c.rootStatus("nas")["online"] as? Bool == true }
            }
            try s.daemon.waitForScanToFinish()
            usleep(2_500_000)  // and two polls more
            let root = try c.rootStatus("nas")
            #expect(root["capture_pending"] as? Int == 0, "capture times are read again: \(root)")
            #expect(try c.idsByPath(["root": "nas"]) == before)
            let after = try #require(try c.status()["index_writes"] as? Int)
            #expect(after == writes, "the remount wrote \(after - writes) photo rows for 50 unchanged photos")
            let events = try watcher.drainEvents(quiet: 0.5)
            for kind in ["changed", "added", "removed", "moved", "scanned"] {
                let told = Self.events(kind, in: events)
                #expect(told.isEmpty, "\(told.count) \(kind) events for 50 unchanged photos, the first: \(told.first ?? [:])")
            }
        }
    }
}
