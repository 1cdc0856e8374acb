// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

extension Watch {
    /// A file the daemon cannot stat for another reason than its being gone (EACCES,
    /// EIO) is not a deletion: on an event for it, and in a rescan, the photo keeps
    /// its id and its place in every selection, and the log says why.
    @Suite struct UnreadableFiles {
        /// What both tests check: the photos are still indexed under the same ids, `x`
        /// is still selected, the log names the errno; a rescan changes nothing; once
        /// readable again, the change made meanwhile is indexed.
        static func expectKept(_ daemon: Daemon, _ c: Client, ids: [String: Int], errno name: String,
                               thenWhileFailing: () throws -> Void = {}, healed: [String: Int]? = nil,
                               heal: () throws -> Void) throws {
            try c.sync()
            #expect(try c.idsByPath() == ids, "the photos it could not stat are still indexed")
            let selection = try c.result(["cmd": "selection"])
            #expect((selection["items"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [ids["a/x.jpg"]])
            #expect(daemon.logText.contains("[\(name)]"), "the log says why: \(daemon.logText.suffix(2000))")

            _ = try c.result(["cmd": "rescan"])
            try daemon.waitForScanToFinish()
            try c.sync()
            #expect(try c.idsByPath() == ids, "a rescan that cannot stat them keeps them too")
            #expect(try c.result(["cmd": "selection"])["count"] as? Int == 1)

            try thenWhileFailing()
            try heal()
            _ = try c.result(["cmd": "rescan"])
            try daemon.waitForScanToFinish()
            try c.sync()
            #expect(try c.idsByPath() == healed ?? ids)
            let y = try c.photos().first { $0["path"] as? String == "a/y.jpg" }
            #expect(y?["size"] as? Int == "y, rewritten".utf8.count, "readable again: the rewrite is indexed")
        }

        static func touch(_ path: String) {
            #expect(utimes(path, nil) == 0, "touch \(path): \(String(cString: strerror(errno)))")
        }

        static func selectX(_ c: Client, _ ids: [String: Int]) throws {
            _ = try c.result(["cmd": "mode", "mode": "select"])
            _ = try c.result(["cmd": "select", "ids": [ids["a/x.jpg"] ?? -1]])
        }

        /// EACCES for real: the daemon runs as a user of its own, and the folder
        /// loses its search permission while the daemon watches it; root then changes
        /// the files in it.
        @Test func aPhotoThatCannotBeStatForPermissionIsKept() throws {
            guard geteuid() == 0, Tool.exists("/usr/bin/setpriv"), Tool.exists("/bin/chown") else {
                try Test.cancel("needs root, setpriv and chown to run the daemon as another uid")
            }
            let uid: UInt32 = 4317
            let daemon = Daemon()
            let root = daemon.root()
            Files.mkdir(root + "/a")
            Files.write(root + "/a/x.jpg", "x")
            Files.write(root + "/a/y.jpg", "y")
            Files.write(root + "/z.jpg", "z")
            let owned = try run("/bin/chown", ["-R", "\(uid):\(uid)", daemon.home.path])
            try #require(owned.status == 0, "\(owned.output)")
            daemon.wrapper = ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"]
            try daemon.start()
            let c = try daemon.client()
            let ids = try c.idsByPath()
            try #require(ids.count == 3)
            try Self.selectX(c, ids)

            // The daemon's user may list a/ but no longer reach into it.
            try #require(chmod(root + "/a", 0o600) == 0)
            defer { chmod(root + "/a", 0o755) }
            Files.write(root + "/a/y.jpg", "y, rewritten")
            Self.touch(root + "/a/x.jpg")
            try Self.expectKept(daemon, c, ids: ids, errno: "EACCES") {
                try #require(chmod(root + "/a", 0o755) == 0)
            }
        }

        /// Issue 12: a folder that the daemon could not read when it came (`install -d
        /// -m 2755` makes it 0700 first, then changes its mode) was never read once its
        /// mode allowed it: the IN_ATTRIB that followed was not looked at.
        @Test func aFolderUnreadableWhenItCameIsReadOnceItsModeAllowsIt() throws {
            guard geteuid() == 0, Tool.exists("/usr/bin/setpriv"), Tool.exists("/bin/chown") else {
                try Test.cancel("needs root, setpriv and chown to run the daemon as another uid")
            }
            let uid: UInt32 = 4318
            let daemon = Daemon()
            let root = daemon.root()
            Files.write(root + "/a.jpg", "a")
            let owned = try run("/bin/chown", ["-R", "\(uid):\(uid)", daemon.home.path])
            try #require(owned.status == 0, "\(owned.output)")
            daemon.wrapper = ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"]
            try daemon.start()
            let c = try daemon.client()
            #expect(try c.idsByPath().keys.sorted() == ["a.jpg"])

            // Made by root, 0700 as `install -d` makes it: the daemon's user cannot read it yet.
            try #require(mkdir(root + "/new", 0o700) == 0)
            try c.sync()
            #expect(daemon.logText.contains("cannot read \(root)/new: EACCES"), "\(daemon.logText.suffix(2000))")
            try #require(chmod(root + "/new", 0o2755) == 0)
            Files.write(root + "/new/b.jpg", "b")
            try c.sync()
            #expect(try c.idsByPath().keys.sorted() == ["a.jpg", "new/b.jpg"], "read once its mode allowed it")
            // And watched: what comes later is seen at once.
            Files.write(root + "/new/c.jpg", "c")
            try c.sync()
            #expect(try c.idsByPath().keys.sorted() == ["a.jpg", "new/b.jpg", "new/c.jpg"])
        }

        /// EIO for real: the root is a FUSE file system (Tests/Tools/failing-fs.py)
        /// that fails the lookups of the files named in a list, as a failing disk or a
        /// network share does. The daemon is stopped while the files are changed and the
        /// failures switched on, so that it meets them when it handles the events.
        @Test func aPhotoThatFailsWithEIOIsKept() throws {
            try FailingFS.requireAvailable()
            let daemon = Daemon()
            let root = daemon.root()
            let backing = daemon.home.mkdir("backing")
            Files.mkdir(backing + "/a")
            Files.write(backing + "/a/x.jpg", "x")
            Files.write(backing + "/a/y.jpg", "y")
            Files.write(backing + "/z.jpg", "z")
            let fs = try FailingFS(backing: backing, at: root, home: daemon.home)
            defer {
                daemon.stop()
                withExtendedLifetime(fs) {}
            }

            try daemon.start()
            let c = try daemon.client()
            let ids = try c.idsByPath()
            try #require(ids.count == 3)
            try Self.selectX(c, ids)

            daemon.signal(SIGSTOP)
            var stopped = true
            defer { if stopped { daemon.signal(SIGCONT) } }
            Files.write(root + "/a/y.jpg", "y, rewritten")
            Self.touch(root + "/a/x.jpg")
            fs.fail(["a/x.jpg", "a/y.jpg"])
            daemon.signal(SIGCONT)
            stopped = false
            // A photo moved to where it cannot be stat'ed is somewhere: it keeps its id
            // (under its former path until it can be read, then found by its inode).
            var healed = ids
            healed["a/z-moved.jpg"] = healed.removeValue(forKey: "z.jpg")
            try Self.expectKept(daemon, c, ids: ids, errno: "EIO", thenWhileFailing: {
                daemon.signal(SIGSTOP)
                Files.rename(root + "/z.jpg", root + "/a/z-moved.jpg")
                fs.fail(["a/x.jpg", "a/y.jpg", "a/z-moved.jpg"])
                daemon.signal(SIGCONT)
                try c.sync()
                #expect(try c.idsByPath() == ids, "a photo moved to where it cannot be stat'ed is kept")
            }, healed: healed) { fs.heal() }
        }
    }
}
