// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Owners (issue 13): a photo someone else trashed shows in its owner's history
/// (who, when, which batch), and its owner may put it back (that user's photos of
/// the batch, not the others'); a root's `delete: "owner"` policy lets only a
/// photo's owner trash it. The share is a tmpfs of the test's own, so that each
/// user's `$topdir/.Trash-$uid` is ours.
@Suite(.serialized)
struct OwnerUndoTests {
    struct Setup {
        var d: Daemon
        var share: String
        var alice: String
        var bob: String
        var aliceUID: UInt32
        var bobUID: UInt32
    }

    /// share/family: root:fam 2775, f1.jpg alice's and f2.jpg bob's; both in fam.
    static func setUp(_ users: SystemUsers, delete policy: String? = nil) throws -> Setup? {
        guard SystemUsers.available, Tool.exists("/usr/bin/mount") else {
            print("skipped: needs root, useradd, setpriv and mount")
            return nil
        }
        let fam = try users.group("ofam")
        let alice = try users.user("oalice", groups: [fam])
        let bob = try users.user("obob", groups: [fam])
        let d = Daemon(roots: [])
        let share = d.home.mkdir("share")
        guard DeletePermissionTests.mountScratch(share) else { return nil }
        d.roots["share"] = share
        let family = share + "/family"
        try FileManager.default.createDirectory(atPath: family, withIntermediateDirectories: true)
        guard let group = getgrnam(fam) else { throw HarnessError("no group \(fam)") }
        chown(family, 0, group.pointee.gr_gid)
        chmod(family, 0o2775)
        for (name, user) in [("f1.jpg", alice), ("f2.jpg", bob)] {
            Files.write(family + "/" + name, "photo " + name)
            chown(family + "/" + name, user.uid, user.gid)
        }
        if let policy {
            let config = d.home.sub("curatord.json5")
            Files.write(config, "{ roots: [ { name: \"share\", path: \"\(share)\", delete: \"\(policy)\" } ] }")
            d.configPath = config
        }
        return Setup(d: d, share: share, alice: alice.name, bob: bob.name, aliceUID: alice.uid, bobUID: bob.uid)
    }

    static func result(_ text: String) -> [String: Any] {
        (try? DeletePermissionTests.lastObject(text))?["result"] as? [String: Any] ?? [:]
    }

    @Test func theOwnerSeesWhoTrashedTheirPhotoAndPutsItBack() throws {
        let users = SystemUsers()
        defer { users.remove() }
        guard let s = try Self.setUp(users) else { return }
        let d = s.d
        defer {
            d.stop()
            DeletePermissionTests.unmount(s.share)
        }
        try d.start()
        d.letOtherUsersConnect()
        let ids = try d.client().idsByPath()
        let f1 = try #require(ids["family/f1.jpg"])
        let f2 = try #require(ids["family/f2.jpg"])

        // bob trashes both: the folder lets him (group write).
        #expect(try d.ctl(["mode", "select"], asUser: s.bob).status == 0)
        #expect(try d.ctl(["select", "--id", "\(f1),\(f2)"], asUser: s.bob).status == 0)
        let rm = try d.ctl(["--json", "rm", "--yes"], asUser: s.bob)
        let batch = try #require(Self.result(rm.stdout)["batch"] as? Int, "\(rm.stdout) \(rm.stderr)")
        #expect(!Files.exists(s.share + "/family/f1.jpg") && !Files.exists(s.share + "/family/f2.jpg"))

        // alice's history: bob's batch, by bob, counting her one photo.
        let history = try d.ctl(["--json", "history"], asUser: s.alice)
        let batches = Self.result(history.stdout)["batches"] as? [[String: Any]] ?? []
        let entry = try #require(batches.first { $0["batch"] as? Int == batch }, "\(history.stdout)")
        #expect(entry["by_uid"] as? Int == Int(s.bobUID))
        #expect(entry["by_user"] as? String == s.bob)
        #expect(entry["count"] as? Int == 1 && entry["trashed"] as? Int == 1, "\(entry)")
        #expect(try d.ctl(["history"], asUser: s.alice).stdout.contains("by \(s.bob)"))
        // bob's own history shows it as his, whole.
        let bobs = Self.result(try d.ctl(["--json", "history"], asUser: s.bob).stdout)["batches"] as? [[String: Any]] ?? []
        #expect(bobs.first?["by_uid"] == nil && bobs.first?["count"] as? Int == 2)

        // alice undoes it: her photo comes back, bob's stays in his trash.
        let undo = try d.ctl(["--json", "undo", "\(batch)"], asUser: s.alice)
        #expect(undo.status == 0, "\(undo.stdout) \(undo.stderr)")
        #expect(Files.exists(s.share + "/family/f1.jpg"))
        #expect(!Files.exists(s.share + "/family/f2.jpg"))
        #expect(Self.result(undo.stdout)["state"] as? String == "partly_undone", "\(undo.stdout)")
        var st = stat()
        #expect(stat(s.share + "/family/f1.jpg", &st) == 0 && st.st_uid == s.aliceUID)
        _ = try d.ctl(["sync"])
        #expect(try d.client().idsByPath()["family/f1.jpg"] == f1, "the photo keeps its id")
        // Again: nothing of hers is left in it.
        let again = try d.ctl(["--json", "undo", "\(batch)"], asUser: s.alice)
        #expect(again.status != 0 && again.stdout.contains("not_undoable"), "\(again.stdout)")
        // bob undoes the rest.
        #expect(try d.ctl(["undo", "\(batch)"], asUser: s.bob).status == 0)
        #expect(Files.exists(s.share + "/family/f2.jpg"))
    }

    /// `trash.list` is what the caller trashed, whoever owns it: a photo of alice's
    /// that bob trashed is in bob's list (and his trash), not hers; hers is in her
    /// `history`, from which she may undo it (issue 56 point 3).
    @Test func trashListShowsWhatTheCallerTrashedNotTheirPhotosOthersTrashed() throws {
        let users = SystemUsers()
        defer { users.remove() }
        guard let s = try Self.setUp(users) else { return }
        let d = s.d
        defer {
            d.stop()
            DeletePermissionTests.unmount(s.share)
        }
        try d.start()
        d.letOtherUsersConnect()
        let ids = try d.client().idsByPath()
        let f1 = try #require(ids["family/f1.jpg"])
        let f2 = try #require(ids["family/f2.jpg"])
        let bob = try d.client(asUser: s.bob)
        defer { bob.end() }
        let alice = try d.client(asUser: s.alice)
        defer { alice.end() }
        let batch = try #require(try bob.client.deleteSelection(["ids": [f1, f2]])["batch"] as? Int)

        let bobs = try bob.client.result(["cmd": "trash.list"])
        #expect(bobs["count"] as? Int == 2, "\(bobs)")
        #expect(Set((bobs["photos"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }) == [f1, f2], "\(bobs)")
        let hers = try alice.client.result(["cmd": "trash.list"])
        #expect(hers["count"] as? Int == 0 && (hers["photos"] as? [Any])?.isEmpty == true, "alice trashed nothing: \(hers)")
        let history = try alice.client.history()
        #expect(history.map { $0["batch"] as? Int } == [batch] && history.first?["by_user"] as? String == s.bob, "\(history)")
        #expect(try alice.client.undo(batch)["restored"] as? Int == 1)
        #expect(Files.exists(s.share + "/family/f1.jpg"))
        // bob's list now holds only what is still in his trash.
        let after = try bob.client.result(["cmd": "trash.list"])
        #expect((after["photos"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int } == [f2], "\(after)")
    }

    @Test func someoneWhoOwnsNothingInABatchMayNotUndoIt() throws {
        let users = SystemUsers()
        defer { users.remove() }
        guard let s = try Self.setUp(users) else { return }
        let d = s.d
        defer {
            d.stop()
            DeletePermissionTests.unmount(s.share)
        }
        try d.start()
        d.letOtherUsersConnect()
        let f2 = try #require(try d.client().idsByPath()["family/f2.jpg"])
        #expect(try d.ctl(["mode", "select"], asUser: s.bob).status == 0)
        #expect(try d.ctl(["select", "--id", "\(f2)"], asUser: s.bob).status == 0)
        let batch = try #require(Self.result(try d.ctl(["--json", "rm", "--yes"], asUser: s.bob).stdout)["batch"] as? Int)
        let history = Self.result(try d.ctl(["--json", "history"], asUser: s.alice).stdout)["batches"] as? [[String: Any]] ?? []
        #expect(history.isEmpty, "alice owns nothing in bob's batch: \(history)")
        let undo = try d.ctl(["--json", "undo", "\(batch)"], asUser: s.alice)
        #expect(undo.status != 0 && undo.stdout.contains("permission_denied"), "\(undo.stdout)")
        #expect(!Files.exists(s.share + "/family/f2.jpg"))
    }

    @Test func anOwnerPolicyLetsOnlyTheOwnerTrash() throws {
        let users = SystemUsers()
        defer { users.remove() }
        guard let s = try Self.setUp(users, delete: "owner") else { return }
        let d = s.d
        defer {
            d.stop()
            DeletePermissionTests.unmount(s.share)
        }
        try d.start()
        d.letOtherUsersConnect()
        let ids = try d.client().idsByPath()
        let f1 = try #require(ids["family/f1.jpg"])
        let f2 = try #require(ids["family/f2.jpg"])
        #expect(try d.ctl(["mode", "select"], asUser: s.bob).status == 0)
        #expect(try d.ctl(["select", "--id", "\(f1),\(f2)"], asUser: s.bob).status == 0)
        let rm = try d.ctl(["--json", "rm", "--yes"], asUser: s.bob)
        let outcomes = PhotoOutcomes(Self.result(rm.stdout)).byPath
        #expect(outcomes["family/f1.jpg"] == "permission_denied", "\(rm.stdout)")
        #expect(outcomes["family/f2.jpg"] == "trashed", "\(rm.stdout)")
        #expect(Files.exists(s.share + "/family/f1.jpg"))
        #expect(!Files.exists(s.share + "/family/f2.jpg"))
    }
}
