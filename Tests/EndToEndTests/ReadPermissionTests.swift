// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Reads follow the asking user's permissions (issue 13): the daemon runs as root,
/// each client as a user made for the test (with its groups, through setpriv
/// --init-groups), and is shown only the photos of folders it could `ls` itself:
/// owner, group (supplementary too) and other bits, POSIX ACLs. What it may not
/// see does not exist for it: not in listings, counts, events, selections; an id
/// or a folder of it is answered as an unknown one.
@Suite(.serialized)
struct ReadPermissionTests {
    struct Family {
        var alice: String
        var bob: String
        var carol: String
    }

    /// share/
    ///   public/        root 0755         p1.jpg
    ///   alice/         alice 0755
    ///     private/     alice:alice 2770  secret-1.jpg secret-2.jpg
    ///   family/        root:fam 0770     f1.jpg          (bob is in fam)
    ///   acl/           root 0700 + u:carol:r-x  a1.jpg
    ///   noexec/        root 0744
    ///     inner/       root 0755         i1.jpg          (nobody may reach it)
    static func makeShare(_ share: String, _ users: SystemUsers) throws -> Family {
        let fam = try users.group("fam")
        let alice = try users.user("alice")
        let bob = try users.user("bob", groups: [fam])
        let carol = try users.user("carol")
        for folder in ["public", "alice/private", "family", "acl", "noexec/inner"] {
            try FileManager.default.createDirectory(atPath: share + "/" + folder, withIntermediateDirectories: true)
        }
        for (file, owner) in ["public/p1.jpg": alice.uid, "alice/private/secret-1.jpg": alice.uid,
                              "alice/private/secret-2.jpg": alice.uid, "family/f1.jpg": bob.uid, "acl/a1.jpg": 0,
                              "noexec/inner/i1.jpg": 0] {
            Files.write(share + "/" + file, "photo " + file)
            chown(share + "/" + file, owner, owner)
        }
        chown(share + "/alice", alice.uid, alice.gid)
        chown(share + "/alice/private", alice.uid, alice.gid)
        chmod(share + "/alice/private", 0o2770)
        guard let famGroup = getgrnam(fam) else { throw HarnessError("no group \(fam)") }
        chown(share + "/family", 0, famGroup.pointee.gr_gid)
        chmod(share + "/family", 0o770)
        chmod(share + "/acl", 0o700)
        let acl = try Tool.run("/usr/bin/setfacl", ["-m", "u:\(carol.name):rx", share + "/acl"])
        guard acl.status == 0 else { throw HarnessError("setfacl: \(acl.stderr)") }
        chmod(share + "/noexec", 0o744)
        return Family(alice: alice.name, bob: bob.name, carol: carol.name)
    }

    static func names(_ text: String) -> Set<String> {
        Set(["p1", "secret-1", "secret-2", "f1", "a1", "i1", "p2", "secret-3"].filter { text.contains($0 + ".jpg") })
    }

    /// `total` of a `curatorctl --json ls`.
    static func total(_ text: String) -> Int? {
        for line in text.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let result = object["result"] as? [String: Any], let total = result["total"] as? Int else { continue }
            return total
        }
        return nil
    }

    static var canRun: Bool {
        guard SystemUsers.available, Tool.exists("/usr/bin/setfacl") else {
            print("skipped: needs root, useradd, setpriv and setfacl to act as other users")
            return false
        }
        return true
    }

    @Test func eachUserIsShownWhatTheyCouldListThemselves() throws {
        guard Self.canRun else { return }
        let users = SystemUsers()
        defer { users.remove() }
        let d = Daemon(roots: ["share"])
        let share = d.root("share")
        let family = try Self.makeShare(share, users)
        try d.start()
        defer { d.stop() }
        d.letOtherUsersConnect()

        let everything: Set = ["p1", "secret-1", "secret-2", "f1", "a1", "i1"]
        #expect(Self.names(try d.ctl(["--json", "ls", "share"]).stdout) == everything, "root sees all")
        let expected = [family.alice: Set(["p1", "secret-1", "secret-2"]), family.bob: ["p1", "f1"], family.carol: ["p1", "a1"]]
        for (user, shown) in expected {
            let ls = try d.ctl(["--json", "ls", "share"], asUser: user)
            #expect(ls.status == 0, "\(user): \(ls.stderr)")
            #expect(Self.names(ls.stdout) == shown, "\(user) is shown \(Self.names(ls.stdout))")
            #expect(Self.total(ls.stdout) == shown.count)
            // Per-root counts in status are of what they may see.
            let status = try d.ctl(["--json", "status"], asUser: user)
            #expect(status.stdout.contains("\"photos\":\(shown.count)"), "\(user): \(status.stdout)")
        }

        // A folder bob may not list is a folder that does not exist, for him.
        let denied = try d.ctl(["--json", "ls", "share/alice/private"], asUser: family.bob)
        let absent = try d.ctl(["--json", "ls", "share/alice/nothing-here"], asUser: family.bob)
        #expect(denied.status != 0 && denied.status == absent.status)
        #expect(denied.stdout.contains("no_such_folder") && absent.stdout.contains("no_such_folder"), "\(denied.stdout)")
        #expect(!denied.stdout.contains("secret") && !denied.stderr.contains("secret"))
        // So is an id of a photo in it: no_such_photo, as for an id never given out.
        let ids = try d.client().idsByPath()
        let secret = try #require(ids["alice/private/secret-1.jpg"])
        #expect(try d.ctl(["mode", "select"], asUser: family.bob).status == 0)
        let byID = try d.ctl(["--json", "select", "--id", "\(secret)"], asUser: family.bob)
        let unknown = try d.ctl(["--json", "select", "--id", "999999"], asUser: family.bob)
        #expect(byID.stdout.contains("no_such_photo") && unknown.stdout.contains("no_such_photo"), "\(byID.stdout)")
        #expect(!byID.stdout.contains("secret") && !byID.stderr.contains("secret"))
        // Selecting by folder or everything selects only what he sees.
        #expect(try d.ctl(["select", "--all"], asUser: family.bob).status == 0)
        let selection = try d.ctl(["--json", "selection"], asUser: family.bob)
        #expect(Self.names(selection.stdout) == ["p1", "f1"], "\(selection.stdout)")
        let byFolder = try d.ctl(["--json", "select", "--folder", "alice/private"], asUser: family.bob)
        #expect(byFolder.stdout.contains("no_such_folder"), "\(byFolder.stdout)")
        // alice/ he may list: it holds nothing he may see.
        let above = try d.ctl(["--json", "select", "--folder", "alice"], asUser: family.bob)
        #expect(above.stdout.contains("\"added\":0"), "\(above.stdout)")
        // Alice may see it all, and so may root.
        #expect(Self.names(try d.ctl(["--json", "ls", "share/alice/private"], asUser: family.alice).stdout) == ["secret-1", "secret-2"])
    }

    @Test func permissionChangesAreSeenAndSelectionsFollowThem() throws {
        guard Self.canRun else { return }
        let users = SystemUsers()
        defer { users.remove() }
        let d = Daemon(roots: ["share"])
        let share = d.root("share")
        let family = try Self.makeShare(share, users)
        try d.start()
        defer { d.stop() }
        d.letOtherUsersConnect()
        let bob = family.bob
        #expect(Self.names(try d.ctl(["--json", "ls", "share"], asUser: bob).stdout) == ["p1", "f1"])

        // chmod o+rx (IN_ATTRIB on the folder): bob may list it now.
        chmod(share + "/alice/private", 0o2775)
        _ = try d.ctl(["sync"])
        #expect(Self.names(try d.ctl(["--json", "ls", "share"], asUser: bob).stdout) == ["p1", "f1", "secret-1", "secret-2"])
        #expect(try d.ctl(["select", "--folder", "alice/private"], asUser: bob).status == 0)
        #expect(Self.names(try d.ctl(["--json", "selection"], asUser: bob).stdout) == ["secret-1", "secret-2"])

        // An ACL entry that refuses bob what the mode gives: his view and his selection lose them.
        let acl = try Tool.run("/usr/bin/setfacl", ["-m", "u:\(bob):---", share + "/alice/private"])
        #expect(acl.status == 0, "\(acl.stderr)")
        _ = try d.ctl(["sync"])
        #expect(Self.names(try d.ctl(["--json", "ls", "share"], asUser: bob).stdout) == ["p1", "f1"])
        let selection = try d.ctl(["--json", "selection"], asUser: bob)
        #expect(Self.names(selection.stdout).isEmpty, "\(selection.stdout)")
        #expect(selection.stdout.contains("\"count\":0"), "\(selection.stdout)")
        let rm = try d.ctl(["--json", "rm", "--yes"], asUser: bob)
        #expect(rm.status != 0 && !rm.stdout.contains("secret"), "\(rm.stdout)")
        #expect(Files.exists(share + "/alice/private/secret-1.jpg"))

        // A folder above that loses its search bit hides everything below it.
        let acl2 = try Tool.run("/usr/bin/setfacl", ["-b", share + "/alice/private"])
        #expect(acl2.status == 0)
        chmod(share + "/alice", 0o754)
        _ = try d.ctl(["sync"])
        #expect(Self.names(try d.ctl(["--json", "ls", "share"], asUser: bob).stdout) == ["p1", "f1"])
        // Alice, the owner, still may.
        #expect(Self.names(try d.ctl(["--json", "ls", "share/alice"], asUser: family.alice).stdout) == ["secret-1", "secret-2"])
    }

    @Test func subscribersHearOnlyOfPhotosTheyMaySee() throws {
        guard Self.canRun else { return }
        let users = SystemUsers()
        defer { users.remove() }
        let d = Daemon(roots: ["share"])
        let share = d.root("share")
        let family = try Self.makeShare(share, users)
        try d.start()
        defer { d.stop() }
        d.letOtherUsersConnect()
        guard let entry = getpwnam(family.bob) else { throw HarnessError("no bob") }
        // bob's `curatorctl --json watch`, killed once the changes are in (the test
        // process blocks SIGTERM and SIGALRM, which its children inherit: timeout(1)
        // and a plain terminate() would never end it).
        let scratch = TestDirectory("watch")
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        watch.arguments = ["--reuid=\(family.bob)", "--regid=\(entry.pointee.pw_gid)", "--init-groups",
                           Daemon.curatorctl, "--socket", d.socket, "--json", "watch"]
        watch.environment = d.environment
        _ = FileManager.default.createFile(atPath: scratch.sub("out"), contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.sub("out")))
        watch.standardOutput = out
        try watch.run()
        usleep(700_000)
        Files.write(share + "/alice/private/secret-3.jpg")
        Files.write(share + "/public/p2.jpg")
        _ = try d.ctl(["sync"])
        try FileManager.default.moveItem(atPath: share + "/public/p1.jpg", toPath: share + "/alice/private/p1.jpg")
        _ = try d.ctl(["sync"])
        usleep(300_000)
        if watch.isRunning { kill(watch.processIdentifier, SIGKILL) }
        watch.waitUntilExit()
        let events = Files.read(scratch.sub("out")) ?? ""
        #expect(events.contains("p2.jpg"), "\(events)")
        #expect(!events.contains("secret"), "\(events)")
        // p1 moved out of his sight: removed, for him, with the path he knew, never the new one.
        #expect(events.contains("\"removed\"") && events.contains("public/p1.jpg"), "\(events)")
        #expect(!events.contains("private/p1.jpg"), "\(events)")
    }
}
