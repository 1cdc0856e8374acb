// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Issue 54, item 7: a family member makes, first, the trash folders that are the
/// daemon's to make (a root's `.recycle`, another user's `.Trash-$uid`): before, every
/// delete into them was refused until an administrator cleaned up. Now each is moved
/// aside and made anew, the delete goes through, and `status` says what was repaired.
@Suite(.serialized)
struct TrashSquattingTests {
    @Test func aRecycleFolderMadeFirstByAnotherUserDoesNotBlockDeletes() throws {
        guard ServiceAttack.available else {
            print("skipped: needs root, useradd and setpriv")
            return
        }
        let attack = try ServiceAttack(config: ChownRaceTests.recycleConfig)
        defer { attack.stop() }
        let root = attack.d.root()
        attack.familyFolder(root)
        attack.familyFolder(root + "/family")
        attack.owned(root + "/family/b.jpg", by: attack.bob, mode: 0o644, contents: "bob's photo")
        try attack.start()
        #expect(try attack.run("mkdir -m 1777 '\(root)/.recycle' && mkdir -m 755 '\(root)/.recycle/\(attack.bob.name)'", as: attack.alice).status == 0)

        let rm = try attack.ctlInBackground(["rm", "--yes", "--photo", "pics/family/b.jpg"], as: attack.bob).finish()
        #expect(rm.status == 0, "\(rm.output)")
        #expect(Files.read("\(root)/.recycle/\(attack.bob.name)/family/b.jpg") == "bob's photo", "\(rm.output)")
        #expect(ServiceAttack.owner(root + "/.recycle")?.uid == attack.service.uid)
        let repairs = try attack.d.client().status()["trash_repairs"] as? [String] ?? []
        #expect(repairs.contains { $0.contains("/.recycle belonged to uid \(attack.alice.uid)") }, "\(repairs)")
    }

    @Test func aVolumeTrashMadeFirstByAnotherUserDoesNotBlockDeletes() throws {
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
        attack.owned(share + "/family/b.jpg", by: attack.bob, mode: 0o644, contents: "bob's photo")
        let trash = "\(share)/.Trash-\(attack.bob.uid)"
        try attack.start()
        #expect(try attack.run("ln -s /etc '\(trash)'", as: attack.alice).status == 0)

        let rm = try attack.ctlInBackground(["rm", "--yes", "--photo", "share/b.jpg"], as: attack.bob).finish()
        #expect(rm.status == 0, "\(rm.output)")
        #expect(Files.read(trash + "/files/b.jpg") == "bob's photo", "\(rm.output)")
        #expect(ServiceAttack.owner(trash)?.uid == attack.bob.uid)
        let repairs = try attack.d.client().status()["trash_repairs"] as? [String] ?? []
        #expect(repairs.contains { $0.contains(".Trash-\(attack.bob.uid) was a symlink") }, "\(repairs)")
    }
}
