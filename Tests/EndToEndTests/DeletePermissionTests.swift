// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Permissions (issue 4 point 7): the daemon runs as root, the client as another
/// uid (`setpriv`). A photo is trashed only if that uid could delete it itself
/// (write and search on its folder, the sticky-bit rule), and then into that
/// uid's own trash: on a file system other than the daemon's home trash, the
/// spec's `$topdir/.Trash-$uid`. The root is a tmpfs mounted for the test, so
/// that `$topdir` is ours and nothing lands at the top of the real file system.
@Suite(.serialized)
struct DeletePermissionTests {
    static let other: UInt32 = 4242

    /// Mounts a tmpfs at `path`; nil (with the reason printed) where that is not allowed.
    static func mountScratch(_ path: String) -> Bool {
        let mounted = try? Tool.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=16m,mode=0755", "tmpfs", path])
        guard let mounted, mounted.status == 0 else {
            print("skipped: cannot mount a tmpfs for the volume trash (\(mounted?.stderr ?? "no mount"))")
            return false
        }
        return true
    }

    static func unmount(_ path: String) {
        if (try? Tool.run("/usr/bin/umount", [path]))?.status != 0 { _ = try? Tool.run("/usr/bin/umount", ["-l", path]) }
    }

    static func owned(_ path: String, uid: UInt32, mode: mode_t) {
        chown(path, uid, uid)
        chmod(path, mode)
    }

    /// The last JSON object curatorctl --json printed.
    static func lastObject(_ text: String) throws -> [String: Any] {
        let line = text.split(separator: "\n").last.map(String.init) ?? ""
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw HarnessError("not JSON: \(text)")
        }
        return object
    }

    @Test func anotherUserDeletesOnlyWhatTheyCouldAndIntoTheirOwnTrash() throws {
        guard getuid() == 0, Tool.exists("/usr/bin/setpriv"), Tool.exists("/usr/bin/mount") else {
            print("skipped: needs root, setpriv and mount to act as another uid on a volume of its own")
            return
        }
        let d = Daemon(roots: [])
        let share = d.home.mkdir("share")
        guard Self.mountScratch(share) else { return }
        defer {
            d.stop()
            Self.unmount(share)
        }
        d.roots["share"] = share
        let uid = Self.other
        // locked/: root's 0755 folder: the other uid may not remove anything in it.
        // common/: 1777 (sticky): they may remove their own file only.
        // mine/: their own folder.
        for folder in ["locked", "common", "mine"] { _ = d.home.mkdir("share/" + folder) }
        Self.owned(share + "/common", uid: 0, mode: 0o1777)
        Self.owned(share + "/mine", uid: uid, mode: 0o755)
        let files = ["locked/root.jpg": UInt32(0), "common/root.jpg": 0, "common/theirs.jpg": uid, "mine/theirs.jpg": uid]
        for (path, owner) in files {
            Files.write(share + "/" + path, "photo " + path)
            Self.owned(share + "/" + path, uid: owner, mode: 0o644)
        }
        let photos = try PhotoSet(root: share, relativePaths: files.keys.sorted())
        let topBefore = Files.exists("/.Trash-\(uid)")
        try d.start()
        d.letOtherUsersConnect()
        let ids = try d.client().idsByPath()
        #expect(ids.count == 4)

        #expect(try d.ctl(["select", "1-4"], asUID: uid).status == 0)
        let rm = try d.ctl(["--json", "rm", "--yes"], asUID: uid)
        #expect(rm.status == 7, "only part was moved: \(rm.stdout) \(rm.stderr)")
        let result = try Self.lastObject(rm.stdout)["result"] as? [String: Any] ?? [:]
        let outcomes = PhotoOutcomes(result).byPath
        #expect(outcomes == ["locked/root.jpg": "permission_denied", "common/root.jpg": "permission_denied",
                             "common/theirs.jpg": "trashed", "mine/theirs.jpg": "trashed"], "\(result)")

        // Refused photos: untouched.
        #expect(try photos.allBack(["locked/root.jpg", "common/root.jpg"]).isEmpty)
        for path in ["locked/root.jpg", "common/root.jpg"] {
            #expect(Files.inode(share + "/" + path) == photos.inodes[path])
        }
        // Trashed ones: in $topdir/.Trash-4242, made for and owned by that uid, 0700,
        // with Path= relative to $topdir; nothing in the daemon's own home trash.
        let trashDir = share + "/.Trash-\(uid)"
        for dir in [trashDir, trashDir + "/files", trashDir + "/info"] {
            var st = stat()
            #expect(lstat(dir, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR, "\(dir) is a directory")
            #expect(st.st_uid == uid, "\(dir) belongs to uid \(uid)")
            #expect(st.st_mode & 0o7777 == 0o700, "\(dir) has mode \(String(st.st_mode & 0o7777, radix: 8))")
        }
        let trash = TrashSnapshot(trashDir)
        #expect(trash.orphans.isEmpty)
        #expect(Set(trash.entries.map(\.path)) == ["common/theirs.jpg", "mine/theirs.jpg"], "Path= is relative to $topdir")
        for entry in trash.entries {
            #expect(try Checksum.sha256(trash.filePath(entry.name)) == photos.digests[entry.path])
            var st = stat()
            #expect(lstat(trash.filePath(entry.name), &st) == 0 && st.st_uid == uid, "still the user's file")
            #expect(lstat(trash.infoPath(entry.name), &st) == 0 && st.st_uid == uid && st.st_mode & 0o777 == 0o600,
                    "the .trashinfo is the user's, readable by their trash tools")
        }
        #expect(TrashSnapshot(d.trashDirectory).entries.isEmpty, "nothing in the daemon's home trash")
        #expect(Files.exists("/.Trash-\(uid)") == topBefore, "nothing at the top of the real file system")
        // The trash is not indexed as photos.
        #expect(Set(try d.client().idsByPath().keys) == ["locked/root.jpg", "common/root.jpg"])

        // The user's own trash tools see it (trash-list looks in every mount's .Trash-$uid).
        if Tool.exists("/usr/bin/trash-list") {
            var env = d.environment
            env["XDG_DATA_HOME"] = d.home.sub("nobody-data")
            let listing = try Tool.run("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups",
                                                            "/usr/bin/trash-list"], environment: env)
            #expect(listing.stdout.contains(share + "/mine/theirs.jpg"), "trash-list said: \(listing.stdout) \(listing.stderr)")
        }

        // Root cannot be undone by them; their own batch can.
        let history = try Self.lastObject(try d.ctl(["--json", "history"], asUID: uid).stdout)
        let batch = ((history["result"] as? [String: Any])?["batches"] as? [[String: Any]])?.first?["batch"] as? Int
        #expect(batch != nil)
        let undo = try d.ctl(["undo"], asUID: uid)
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stdout.contains("2 photos put back"), "\(undo.stdout)")
        #expect(try photos.allBack().isEmpty)
        for path in ["common/theirs.jpg", "mine/theirs.jpg"] {
            var st = stat()
            #expect(lstat(share + "/" + path, &st) == 0 && st.st_uid == uid)
        }
        #expect(TrashSnapshot(trashDir).entries.isEmpty)
        #expect(TrashSnapshot(trashDir).files.isEmpty)
    }

    /// A user cannot undo (or see) another user's batch.
    @Test func anotherUserCannotUndoMyBatch() throws {
        guard getuid() == 0, Tool.exists("/usr/bin/setpriv") else {
            print("skipped: needs root and setpriv to run a client as another uid")
            return
        }
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 2)
        try d.start()
        d.letOtherUsersConnect()
        let c = try d.client()
        try c.select("1 2")
        let batch = try #require(try c.deleteSelection()["batch"] as? Int)
        #expect(try d.ctl(["history"], asUID: Self.other).stdout.contains("No batches yet."))
        #expect(try d.ctl(["undo"], asUID: Self.other).status != 0)
        #expect(try d.ctl(["undo", String(batch)], asUID: Self.other).status != 0)
        #expect(try photos.census(trash: d.trashDirectory).inTrash.count == 2, "still in the trash")
        #expect(try c.undo(batch)["restored"] as? Int == 2)
    }
}
