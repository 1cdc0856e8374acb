// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Glibc
import Testing

/// Photos on another mount than the home trash go to that mount's own trash.
/// Each test mounts a fresh loop ext4 image (or a bind mount) inside its sandbox
/// and always unmounts it.
@Suite("Trash: volume trashes on other mounts", .serialized, .enabled(if: Mounting.isAvailable, Mounting.reason))
struct TrashVolumeTests {
    /// A sandbox with an ext4 volume mounted at `vol`, photos in `vol/photos`.
    final class Volume {
        let box: Sandbox
        let top: ByteString
        let root: ByteString

        init() throws {
            box = try Sandbox()
            top = box.base.appending("vol")
            root = top.appending("photos")
            try Mounting.loopExt4(image: box.base.appending("vol.img"), at: top)
            try Sandbox.makeDirectories(root)
        }

        deinit { Mounting.unmount(top) }

        func photo(_ name: ByteString) throws -> BatchPlanItem {
            let path = root.appending(name)
            try Sandbox.makeDirectories(path.parent)
            try Sandbox.write(path, Sandbox.content(for: name))
            return BatchPlanItem(photoID: 1, rootName: "vol", rootPath: root, relativePath: name, identity: FileIdentity(try FileStatus.of(path)))
        }
    }

    func mode(_ path: ByteString) throws -> UInt32 { try FileStatus.of(path).mode & 0o7777 }

    @Test func usesTopdirDotTrashUidWithRelativePaths() throws {
        let volume = try Volume()
        let box = volume.box
        let runner = try box.runner()
        let batch = try runner.run(plan: BatchPlan(session: "s", items: [try volume.photo("2024/x y.jpg")]), requester: .me)
        #expect(batch.result.items.first?.outcome == .trashed, "\(batch.result.items)")

        let trash = volume.top.appending(ByteString(".Trash-\(geteuid())"))
        #expect(Sandbox.names(in: trash.appending("files")) == ["x y.jpg"])
        for dir in [trash, trash.appending("files"), trash.appending("info")] { #expect(try mode(dir) == 0o700) }
        let info = try #require(box.info("x y.jpg", in: trash))
        #expect(info.path == "photos/2024/x y.jpg", "relative to $topdir in a volume trash")
        #expect(!Sandbox.exists(box.homeTrash.appending("files")), "the home trash is not used across mounts")

        let list = try Tool.run("/usr/bin/trash-list", [], environment: box.toolEnvironment)
        let date = info.deletionDate.replacingOccurrences(of: "T", with: " ")
        #expect(list.stdout.contains("\(date) \(volume.root.appending("2024/x y.jpg").lossyString)"), "trash-list: \(list.stdout)")

        let undo = try runner.undo(batch: batch.result.batch, requester: .me)
        #expect(undo.result.restored == 1)
        #expect(Sandbox.read(volume.root.appending("2024/x y.jpg")) == Sandbox.content(for: "2024/x y.jpg"))
        #expect(Sandbox.names(in: trash.appending("info")).isEmpty)
    }

    @Test func usesAStickyDotTrashMadeByTheAdministrator() throws {
        let volume = try Volume()
        let shared = volume.top.appending(".Trash")
        try Sandbox.makeDirectories(shared)
        _ = shared.withCString { chmod($0, 0o1777) }
        let runner = try volume.box.runner()
        let batch = try runner.run(plan: BatchPlan(session: "s", items: [try volume.photo("x.jpg")]), requester: .me)
        #expect(batch.result.items.first?.outcome == .trashed)
        let mine = shared.appending(ByteString("\(geteuid())"))
        #expect(Sandbox.names(in: mine.appending("files")) == ["x.jpg"])
        #expect(try mode(mine) == 0o700)
        #expect(volume.box.info("x.jpg", in: mine)?.path == "photos/x.jpg")
        #expect(!Sandbox.exists(volume.top.appending(ByteString(".Trash-\(geteuid())"))))
        let list = try Tool.run("/usr/bin/trash-list", [], environment: volume.box.toolEnvironment)
        #expect(list.stdout.contains(volume.root.appending("x.jpg").lossyString), "trash-list: \(list.stdout) \(list.stderr)")
        #expect(try runner.undo(batch: batch.result.batch, requester: .me).result.restored == 1)
    }

    @Test(arguments: ["not sticky", "symlink"])
    func ignoresADotTrashThatFailsTheChecks(_ kind: String) throws {
        let volume = try Volume()
        let shared = volume.top.appending(".Trash")
        if kind == "symlink" {
            let target = volume.top.appending("elsewhere")
            try Sandbox.makeDirectories(target)
            _ = target.withCString { chmod($0, 0o1777) }
            _ = target.withCString { t in shared.withCString { symlink(t, $0) } }
        } else {
            try Sandbox.makeDirectories(shared)
            _ = shared.withCString { chmod($0, 0o777) }
        }
        let batch = try volume.box.runner().run(plan: BatchPlan(session: "s", items: [try volume.photo("x.jpg")]), requester: .me)
        #expect(batch.result.items.first?.outcome == .trashed)
        #expect(Sandbox.names(in: volume.top.appending(ByteString(".Trash-\(geteuid())/files"))) == ["x.jpg"])
        #expect(Sandbox.names(in: volume.top.appending("elsewhere")).isEmpty)
    }

    /// A file or a symlink where `.Trash-$uid` belongs is not used, and does not
    /// block that user's deletes either (issue 54, item 7): it is moved aside, and
    /// the trash made anew. Nothing is created through the symlink.
    @Test(arguments: ["file", "symlink"])
    func aFileOrSymlinkAtTheVolumeTrashIsMovedAsideAndTheTrashMadeAnew(_ kind: String) throws {
        let volume = try Volume()
        let name = ".Trash-\(geteuid())"
        let blocker = volume.top.appending(ByteString(name))
        if kind == "file" {
            try Sandbox.write(blocker, [])
        } else {
            let target = volume.top.appending("decoy")
            try Sandbox.makeDirectories(target)
            _ = target.withCString { t in blocker.withCString { symlink(t, $0) } }
        }
        let batch = try volume.box.runner().run(plan: BatchPlan(session: "s", items: [try volume.photo("x.jpg")]), requester: .me)
        let item = try #require(batch.result.items.first)
        #expect(item.outcome == .trashed, "\(item.detail ?? "")")
        #expect(Sandbox.names(in: blocker.appending("files")) == ["x.jpg"])
        #expect(Sandbox.names(in: volume.top).contains { $0.lossyString.hasPrefix(name + ".moved-") }, "\(Sandbox.names(in: volume.top))")
        #expect(Sandbox.names(in: volume.top.appending("decoy")).isEmpty, "nothing is created through a symlink")
    }

    /// A `.Trash-$uid` (or `.Trash/$uid`) that others may use is not used as it is:
    /// it, its `files/` and its `info/` are set back to 0700, then used.
    @Test(arguments: [".Trash-@", ".Trash/@"])
    func aVolumeTrashOthersMayUseIsMadePrivateFirst(_ layout: String) throws {
        let volume = try Volume()
        if layout.hasPrefix(".Trash/") {
            try Sandbox.makeDirectories(volume.top.appending(".Trash"))
            _ = volume.top.appending(".Trash").withCString { chmod($0, 0o1777) }
        }
        let trash = volume.top.appending(ByteString(layout.replacingOccurrences(of: "@", with: "\(geteuid())")))
        for dir in [trash, trash.appending("files"), trash.appending("info")] {
            try Sandbox.makeDirectories(dir)
            _ = dir.withCString { chmod($0, 0o777) }
        }
        let batch = try volume.box.runner().run(plan: BatchPlan(session: "s", items: [try volume.photo("x.jpg")]), requester: .me)
        #expect(batch.result.items.first?.outcome == .trashed, "\(batch.result.items)")
        #expect(Sandbox.names(in: trash.appending("files")) == ["x.jpg"])
        for dir in [trash, trash.appending("files"), trash.appending("info")] { #expect(try mode(dir) == 0o700, "\(dir)") }
    }

    /// Someone else's `.Trash-$uid`, however open, is never used for this uid: it is
    /// moved aside, untouched, and the uid's own made anew (issue 54, item 7).
    @Test func aVolumeTrashOwnedBySomeoneElseIsMovedAsideNotUsed() throws {
        let volume = try Volume()
        let name = ".Trash-\(geteuid())"
        let trash = volume.top.appending(ByteString(name))
        try Sandbox.makeDirectories(trash)
        _ = trash.withCString { chmod($0, 0o777) }
        _ = trash.withCString { chown($0, 4242, 4242) }
        let batch = try volume.box.runner().run(plan: BatchPlan(session: "s", items: [try volume.photo("x.jpg")]), requester: .me)
        let item = try #require(batch.result.items.first)
        #expect(item.outcome == .trashed, "\(item.detail ?? "")")
        let aside = try #require(Sandbox.names(in: volume.top).first { $0.lossyString.hasPrefix(name + ".moved-") })
        let moved = volume.top.appending(aside)
        #expect(try mode(moved) == 0o777, "not ours to change")
        #expect(Sandbox.names(in: moved).isEmpty)
        #expect(Sandbox.names(in: trash.appending("files")) == ["x.jpg"])
    }

    @Test func anotherUsersVolumeTrashIsTheirs() throws {
        let volume = try Volume()
        let item = try volume.photo("shared/x.jpg")
        _ = volume.root.appending("shared").withCString { chmod($0, 0o777) }
        let ann = Requester(uid: 1000, gid: 1000, groups: [1000])
        let runner = try volume.box.runner()
        let batch = try runner.run(plan: BatchPlan(session: "s", items: [item]), requester: ann)
        #expect(batch.result.items.first?.outcome == .trashed, "\(batch.result.items)")
        let trash = volume.top.appending(".Trash-1000")
        for dir in [trash, trash.appending("files"), trash.appending("info")] {
            let status = try FileStatus.of(dir)
            #expect(status.uid == 1000 && status.mode & 0o777 == 0o700)
        }
        #expect(try runner.undo(batch: batch.result.batch, requester: ann).result.restored == 1)
    }

    @Test func anOfflineVolumeIsNotTakenForAPurgedTrash() throws {
        let volume = try Volume()
        let runner = try volume.box.runner()
        let batch = try runner.run(plan: BatchPlan(session: "s", items: [try volume.photo("x.jpg")]), requester: .me)
        #expect(batch.result.trashed == 1)
        Mounting.unmount(volume.top)
        let offline = try runner.undo(batch: batch.result.batch, requester: .me)
        #expect(offline.result.items.first?.outcome == .error, "\(offline.result.items)")
        #expect(try runner.recover().batches.isEmpty)
        // Back online, the photo is still undoable.
        let image = volume.box.base.appending("vol.img").lossyString
        #expect(try Tool.run("/bin/mount", ["-o", "loop", image, volume.top.lossyString]).status == 0)
        let undo = try runner.undo(batch: batch.result.batch, requester: .me)
        #expect(undo.result.restored == 1)
        #expect(Sandbox.read(volume.root.appending("x.jpg")) == Sandbox.content(for: "x.jpg"))
    }

    @Test func aBindMountOfTheHomeFileSystemGetsItsOwnTrash() throws {
        let box = try Sandbox()
        let source = box.base.appending("source")
        let bound = box.base.appending("bound")
        try Sandbox.makeDirectories(source)
        try Mounting.bind(source, at: bound)
        defer { Mounting.unmount(bound) }
        try Sandbox.write(bound.appending("x.jpg"), Sandbox.content(for: "x.jpg"))
        try Sandbox.makeDirectories(box.homeTrash)
        // Same file system, same st_dev: only the mount tells them apart (a rename would fail with EXDEV).
        #expect(try FileStatus.of(bound.appending("x.jpg")).device == FileStatus.of(box.homeTrash).device)

        let item = BatchPlanItem(photoID: 1, rootName: "b", rootPath: bound, relativePath: "x.jpg",
                                 identity: FileIdentity(try FileStatus.of(bound.appending("x.jpg"))))
        let runner = try box.runner()
        let batch = try runner.run(plan: BatchPlan(session: "s", items: [item]), requester: .me)
        #expect(batch.result.items.first?.outcome == .trashed, "\(batch.result.items)")
        let trash = bound.appending(ByteString(".Trash-\(geteuid())"))
        #expect(Sandbox.names(in: trash.appending("files")) == ["x.jpg"])
        #expect(box.info("x.jpg", in: trash)?.path == "x.jpg")
        #expect(box.trashedFiles.isEmpty)
        #expect(try runner.undo(batch: batch.result.batch, requester: .me).result.restored == 1)
        #expect(Sandbox.read(bound.appending("x.jpg")) == Sandbox.content(for: "x.jpg"))
    }
}
