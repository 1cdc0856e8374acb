// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Issue 54, item 4: in a folder the family may write, the attacker renames another
/// user's trash away and builds a look-alike of her own in its place before that
/// user's undo. The daemon must not take the photo missing from the look-alike for
/// purged: once the real trash is back, the owner's undo still puts it back.
@Suite(.serialized)
struct TrashLookAlikeTests {
    @Test func aLookAlikeRecycleFolderDoesNotMakeAPhotoPurged() throws {
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
        let rm = try attack.ctlInBackground(["rm", "--yes", "--photo", "pics/family/b.jpg"], as: attack.bob).finish()
        #expect(rm.status == 0, "\(rm.output)")
        let kept = "\(root)/.recycle/\(attack.bob.name)/family/b.jpg"
        #expect(Files.read(kept) == "bob's photo")

        let build = "mv '\(root)/.recycle' '\(root)/.recycle.away' && mkdir -p '\(root)/.recycle/\(attack.bob.name)/family'"
        #expect(try attack.run(build, as: attack.alice).status == 0)
        let fooled = try attack.ctlInBackground(["undo"], as: attack.bob).finish()
        #expect(!fooled.output.contains("purged"), "\(fooled.output)")
        #expect(!Files.exists(root + "/family/b.jpg"))

        // The administrator puts the real one back: Bob's undo finds his photo.
        #expect(try Tool.run("/bin/sh", ["-c", "rm -r '\(root)/.recycle' && mv '\(root)/.recycle.away' '\(root)/.recycle'"]).status == 0)
        let undo = try attack.ctlInBackground(["undo"], as: attack.bob).finish()
        #expect(Files.read(root + "/family/b.jpg") == "bob's photo", "bob's photo was lost for his undo: \(fooled.output) / \(undo.output)")
    }

    @Test func aLookAlikeVolumeTrashDoesNotMakeAPhotoPurged() throws {
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
        try attack.start()
        let rm = try attack.ctlInBackground(["rm", "--yes", "--photo", "share/b.jpg"], as: attack.bob).finish()
        #expect(rm.status == 0, "\(rm.output)")
        let trash = "\(share)/.Trash-\(attack.bob.uid)"
        #expect(Files.read(trash + "/files/b.jpg") == "bob's photo")

        let build = "mv '\(trash)' '\(share)/away' && mkdir -p '\(trash)/files' '\(trash)/info' && chmod -R 700 '\(trash)'"
        #expect(try attack.run(build, as: attack.alice).status == 0)
        let fooled = try attack.ctlInBackground(["undo"], as: attack.bob).finish()
        #expect(!fooled.output.contains("purged"), "\(fooled.output)")

        #expect(try Tool.run("/bin/sh", ["-c", "rm -r '\(trash)' && mv '\(share)/away' '\(trash)'"]).status == 0)
        let undo = try attack.ctlInBackground(["undo"], as: attack.bob).finish()
        #expect(Files.read(share + "/family/b.jpg") == "bob's photo", "bob's photo was lost for his undo: \(fooled.output) / \(undo.output)")
    }
}
