// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

extension Watch {
    /// A root that goes away is offline, not empty; when it comes back it is reconciled.
    @Suite struct OfflineRoot {
        @Test func anUnmountedShareIsOfflineNotEmpty() throws {
            guard geteuid() == 0, let mount = tool("mount"), let umount = tool("umount"), let mkfs = tool("mkfs.ext4") else {
                try Test.cancel("loop-mounting an ext4 image needs root, mount, umount and mkfs.ext4")
            }
            let daemon = Daemon(roots: ["pics", "other"])
            let root = daemon.root("pics")
            let image = daemon.home.sub("share.img")
            Files.write(image, "")
            try #require(truncate(image, 32 << 20) == 0)
            try #require(try run(mkfs, ["-q", "-F", image]).status == 0)
            var mounted: [String] = []
            func attach(_ at: String) throws {
                let r = try run(mount, ["-o", "loop", image, at])
                if r.status != 0 { try Test.cancel("mount is not permitted here: \(r.output)") }
                mounted.append(at)
            }
            func detach(_ at: String) throws {
                let r = try run(umount, [at])
                try #require(r.status == 0, "umount \(at): \(r.output)")
                mounted.removeAll { $0 == at }
            }
            defer {
                daemon.stop()
                for at in mounted where (try? run(umount, [at]))?.status != 0 { _ = try? run(umount, ["-l", at]) }
            }
            try attach(root)
            Files.mkdir(root + "/sub")
            for name in ["a.jpg", "sub/b.jpg", "sub/c.jpg"] { Files.write(root + "/" + name, name) }
            try daemon.start()
            let c = try daemon.client()
            let watcher = try daemon.client()
            try watcher.subscribe()
            let before = try c.idsByPath(["root": "pics"])
            #expect(Set(before.keys) == ["a.jpg", "sub/b.jpg", "sub/c.jpg"])

            try detach(root)
            try eventually(timeout: 10, "pics to go offline") { try c.rootStatus("pics")["online"] as? Bool == false }
            let offline = try c.photos(["root": "pics"])
            #expect(offline.count == 3)
            #expect(offline.allSatisfy { $0["offline"] as? Bool == true })
            #expect(try c.idsByPath(["root": "pics"]) == before)
            // A barrier through the watcher thread: a change in the other root, synced.
            Files.write(daemon.root("other") + "/x.jpg")
            _ = try c.result(["cmd": "sync", "root": "other"])
            let events = try watcher.drainEvents()
            #expect(events.contains { $0["event"] as? String == "offline" && $0["root"] as? String == "pics" })
            #expect(!events.contains { $0["event"] as? String == "removed" }, "\(events)")
            #expect(try c.rootStatus("pics")["photos"] as? Int == 3)

            // Changed elsewhere while away, then mounted back: reconciled.
            let elsewhere = daemon.home.mkdir("elsewhere")
            try attach(elsewhere)
            Files.remove(elsewhere + "/sub/c.jpg")
            Files.write(elsewhere + "/new.jpg", "new")
            try detach(elsewhere)
            try attach(root)
            try eventually(timeout: 10, "pics to come back") {
                let s = try c.rootStatus("pics")
                return s["online"] as? Bool == true && s["scanning"] as? Bool == false
            }
            try c.sync()
            let back = try c.photos(["root": "pics"])
            #expect(back.allSatisfy { $0["offline"] == nil })
            let ids = try c.idsByPath(["root": "pics"])
            #expect(Set(ids.keys) == ["a.jpg", "sub/b.jpg", "new.jpg"])
            #expect(ids["a.jpg"] == before["a.jpg"] && ids["sub/b.jpg"] == before["sub/b.jpg"])
            let later = try watcher.drainEvents()
            #expect(later.contains { $0["event"] as? String == "online" })
            #expect(later.filter { $0["event"] as? String == "removed" }.compactMap { $0["photo_id"] as? Int } == [before["sub/c.jpg"]])
        }

        @Test func aRootMovedAwayIsOfflineAndKeepsItsIDsWhenItComesBack() throws {
            let daemon = Daemon()
            let root = daemon.root()
            Files.mkdir(root + "/sub")
            Files.write(root + "/a.jpg")
            Files.write(root + "/sub/b.jpg")
            try daemon.start()
            let c = try daemon.client()
            let watcher = try daemon.client()
            try watcher.subscribe()
            let before = try c.idsByPath()

            Files.rename(root, root + ".away")
            // Touched while away: must not be applied as if the root were still there.
            Files.remove(root + ".away/a.jpg")
            try eventually(timeout: 10, "the root to go offline") { try c.rootStatus()["online"] as? Bool == false }
            #expect(try c.idsByPath() == before)
            #expect(try c.photos().allSatisfy { $0["offline"] as? Bool == true })

            Files.write(root + ".away/a.jpg")
            Files.rename(root + ".away", root)
            try eventually(timeout: 10, "the root to come back") {
                let s = try c.rootStatus()
                return s["online"] as? Bool == true && s["scanning"] as? Bool == false
            }
            try c.sync()
            let after = try c.idsByPath()
            #expect(after["sub/b.jpg"] == before["sub/b.jpg"])
            #expect(Set(after.keys) == ["a.jpg", "sub/b.jpg"])
            let events = try watcher.drainEvents()
            #expect(events.contains { $0["event"] as? String == "offline" })
            #expect(events.contains { $0["event"] as? String == "online" })
            // Watched again: a change is seen at once.
            Files.write(root + "/sub/c.jpg")
            try c.sync()
            #expect(try c.idsByPath()["sub/c.jpg"] != nil)
        }

        /// A folder made again at a root's path is another folder (the root is pinned by
        /// device and inode): offline until a restart takes it, then scanned afresh.
        /// The new folder is made before the old one goes, so it cannot reuse its inode.
        @Test func aRootDeletedAndRecreatedIsOfflineUntilARestartTakesIt() throws {
            let daemon = Daemon()
            let root = daemon.root()
            Files.mkdir(root + "/sub")
            Files.write(root + "/a.jpg")
            Files.write(root + "/sub/b.jpg")
            Files.mkdir(root + ".new")
            Files.mkdir(root + ".new/fresh")
            Files.write(root + ".new/fresh/f.jpg")
            Files.write(root + ".new/g.jpg")
            try daemon.start()
            var c = try daemon.client()
            #expect(try c.idsByPath().count == 2)

            Files.remove(root)
            try eventually(timeout: 10, "the root to go offline") { try c.rootStatus()["online"] as? Bool == false }
            Files.rename(root + ".new", root)
            // Two liveness checks later it is still offline: never crawled.
            usleep(2_500_000)
            #expect(try c.rootStatus()["online"] as? Bool == false)
            #expect(try c.idsByPath().keys.allSatisfy { ["a.jpg", "sub/b.jpg"].contains($0) })

            _ = daemon.stop()
            try daemon.start()
            c = try daemon.client()
            try c.sync()
            #expect(try c.rootStatus()["online"] as? Bool == true)
            #expect(Set(try c.idsByPath().keys) == ["fresh/f.jpg", "g.jpg"])
            Files.write(root + "/fresh/h.jpg")
            try c.sync()
            #expect(Set(try c.idsByPath().keys) == ["fresh/f.jpg", "g.jpg", "fresh/h.jpg"])
        }
    }
}
