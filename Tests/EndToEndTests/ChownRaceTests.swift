// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Issue 54, item 1: between the daemon's `mkdirat` of a folder made for a user and
/// its giving that folder away, the user swaps something else in at that name. The
/// daemon, stopped at that exact step (`dir.made:<n>:stop`), is let go on after the
/// swap: it must give away nothing but the folder it made. Run as the unit runs it
/// (its own uid, CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_FOWNER), the attacker a family member.
@Suite(.serialized)
struct ChownRaceTests {
    static func recycleConfig(_ d: Daemon) -> String {
        "{ roots: [ { name: \"pics\", path: \"\(d.root())\", trash: \"recycle\" } ] }"
    }

    /// Alice trashes her photo: `.recycle` (1), `.recycle/alice` (2), `.recycle/alice/trip` (3)
    /// are made; at the third she puts Bob's file there. Before the fix the daemon
    /// chowned it to her by name.
    @Test func aFileSwappedInForANewRecycleFolderIsNotGivenAway() throws {
        guard ServiceAttack.available else {
            print("skipped: needs root, useradd and setpriv")
            return
        }
        let attack = try ServiceAttack(config: Self.recycleConfig)
        defer { attack.stop() }
        let root = attack.d.root()
        attack.familyFolder(root)
        attack.owned(root + "/trip", by: attack.alice, mode: 0o755)
        attack.owned(root + "/trip/a.jpg", by: attack.alice, mode: 0o644, contents: "alice's photo")
        attack.familyFolder(root + "/family")
        attack.owned(root + "/family/bob.jpg", by: attack.bob, mode: 0o600, contents: "bob's private photo")
        try attack.start(failpoint: "dir.made:3:stop")

        let rm = try attack.ctlInBackground(["rm", "--yes", "--photo", "pics/trip/a.jpg"], as: attack.alice)
        try attack.waitUntilStopped()
        let made = "\(root)/.recycle/\(attack.alice.name)/trip"
        let swap = try attack.run("mv '\(made)' '\(made).away' && mv '\(root)/family/bob.jpg' '\(made)'", as: attack.alice)
        #expect(swap.status == 0, "the attacker's swap: \(swap.stderr)")
        attack.resume()
        let answer = rm.finish()

        let bobs = try #require(ServiceAttack.owner(made), "bob's file is where alice put it")
        #expect(bobs.uid == attack.bob.uid && bobs.mode == 0o600,
                "bob's file was given away: uid \(bobs.uid) mode \(String(bobs.mode, radix: 8)); rm: \(answer.output)")
        #expect(answer.output.contains("was replaced while it was being made"), "\(answer.output)")
        #expect(Files.read(root + "/trip/a.jpg") == "alice's photo", "her photo stays where it was")
    }

    /// Alice's own undo re-creates her removed folder `trip`
    /// (dir.made 4, after the three of the trash); at that moment she renames Bob's
    /// private folder to `trip`. Before the fix it became hers and undo said "restored".
    @Test func aPrivateFolderSwappedInForAFolderUndoRecreatesStaysItsOwners() throws {
        guard ServiceAttack.available else {
            print("skipped: needs root, useradd and setpriv")
            return
        }
        let attack = try ServiceAttack(config: Self.recycleConfig)
        defer { attack.stop() }
        let root = attack.d.root()
        attack.familyFolder(root)
        attack.owned(root + "/trip", by: attack.alice, mode: 0o755)
        attack.owned(root + "/trip/a.jpg", by: attack.alice, mode: 0o644, contents: "alice's photo")
        attack.owned(root + "/bobs", by: attack.bob, mode: 0o700)
        attack.owned(root + "/bobs/secret.jpg", by: attack.bob, mode: 0o600, contents: "bob's secret")
        try attack.start(failpoint: "dir.made:4:stop")

        let rm = try attack.ctlInBackground(["rm", "--yes", "--photo", "pics/trip/a.jpg"], as: attack.alice).finish()
        #expect(rm.status == 0, "\(rm.output)")
        #expect(try attack.run("rmdir '\(root)/trip'", as: attack.alice).status == 0)
        let undo = try attack.ctlInBackground(["undo"], as: attack.alice)
        try attack.waitUntilStopped()
        let swap = try attack.run("mv '\(root)/trip' '\(root)/trip.away' && mv '\(root)/bobs' '\(root)/trip'", as: attack.alice)
        #expect(swap.status == 0, "the attacker's swap: \(swap.stderr)")
        attack.resume()
        let answer = undo.finish()

        let folder = try #require(ServiceAttack.owner(root + "/trip"))
        #expect(folder.uid == attack.bob.uid && folder.mode == 0o700,
                "bob's folder was given away: uid \(folder.uid) mode \(String(folder.mode, radix: 8)); undo: \(answer.output)")
        #expect(ServiceAttack.owner(root + "/trip/a.jpg") == nil, "alice's photo was not put into bob's folder: \(answer.output)")
        #expect(try attack.run("cat '\(root)/trip/secret.jpg'", as: attack.alice).status != 0, "alice cannot read bob's secret")
    }

    /// A per-volume `.Trash-$uid` at the top of a mount the family may write: at the
    /// folder's making (dir.made 1: the trash itself, or the temporary name it is
    /// made under) she puts Bob's file there. Before the fix it became hers.
    @Test func aFileSwappedInForANewVolumeTrashIsNotGivenAway() throws {
        guard ServiceAttack.available, Tool.exists("/usr/bin/mount") else {
            print("skipped: needs root, useradd, setpriv and mount")
            return
        }
        let attack = try ServiceAttack(roots: [], config: { d in
            "{ roots: [ { name: \"share\", path: \"\(d.home.sub("share"))/family\" } ] }"
        })
        defer { attack.stop() }
        let share = attack.d.home.mkdir("share")
        guard DeletePermissionTests.mountScratch(share) else { return }
        defer { DeletePermissionTests.unmount(share) }
        attack.familyFolder(share)
        attack.familyFolder(share + "/family")
        attack.owned(share + "/family/a.jpg", by: attack.alice, mode: 0o644, contents: "alice's photo")
        attack.owned(share + "/family/bob.jpg", by: attack.bob, mode: 0o600, contents: "bob's private photo")
        try attack.start(failpoint: "dir.made:1:stop")

        let rm = try attack.ctlInBackground(["rm", "--yes", "--photo", "share/a.jpg"], as: attack.alice)
        try attack.waitUntilStopped()
        // What the daemon just made: `.Trash-UID`, or a temporary name of it.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: share)) ?? []
        let made = try #require(names.first { $0.contains(".Trash-\(attack.alice.uid)") }, "\(names)")
        let swap = try attack.run("mv '\(share)/\(made)' '\(share)/away' && mv '\(share)/family/bob.jpg' '\(share)/\(made)'", as: attack.alice)
        #expect(swap.status == 0, "the attacker's swap: \(swap.stderr)")
        attack.resume()
        let answer = rm.finish()

        let bobs = try #require(ServiceAttack.owner(share + "/" + made), "bob's file is where alice put it")
        #expect(bobs.uid == attack.bob.uid && bobs.mode == 0o600,
                "bob's file was given away: uid \(bobs.uid) mode \(String(bobs.mode, radix: 8)); rm: \(answer.output)")
        #expect(answer.output.contains("was replaced while it was being made"), "\(answer.output)")
    }
}
