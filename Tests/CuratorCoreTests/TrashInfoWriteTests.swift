// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
@testable import CuratorSystem
import Glibc
import Testing

/// A `.trashinfo` appears whole or not at all: written unnamed (O_TMPFILE) and then
/// named, or, where the file system has no O_TMPFILE, written under a partial name
/// and renamed without replacing. Trash tools never meet an empty or short one,
/// whether the writer is killed before its write or before the naming.
@Suite("Trash: .trashinfo files are written whole")
struct TrashInfoWriteTests {
    /// A batch's info (`writeInfoUnsynced`, by the helper ahead or the batch thread):
    /// between the file's creation and its write, and between the write and the
    /// naming, no `.trashinfo` of any length is in `info/` (a kill there leaves none).
    @Test(arguments: [false, true])
    func aBatchsInfoHasNoNameUntilItIsWhole(_ withoutTmpfile: Bool) throws {
        let box = try Sandbox()
        let info = box.homeTrash.appending("info")
        try Sandbox.makeDirectories(info)
        try Sandbox.makeDirectories(box.homeTrash.appending("files"))
        let trash = try TrashDirectory.reopen(box.homeTrash)
        if withoutTmpfile { trash.info.forgoUnnamedFiles() }
        var seen: [[ByteString]] = []
        let look = { seen.append(Sandbox.names(in: info).filter { $0.lossyString.hasSuffix(".trashinfo") }) }
        let trashInfo = TrashInfo(path: box.root.appending("a.jpg"), deletionDate: "2026-12-06T10:00:00")
        #expect(try trash.writeInfoUnsynced("a.jpg", trashInfo, beforeWriting: look, beforeNaming: look))
        #expect(seen == [[], []], "a .trashinfo was named before it was whole: \(seen)")
        #expect(Sandbox.read(info.appending("a.jpg.trashinfo")) == trashInfo.rendered())
        #expect(try !trash.writeInfoUnsynced("a.jpg", trashInfo), "never replaces")
    }

    /// A batch's `.trashinfo` that a kill left empty (created, not yet written, its
    /// photo not yet moved) is removed by recovery, the photo left where it is.
    @Test func recoveryRemovesAnEmptyTrashInfoAKillLeft() throws {
        let box = try Sandbox()
        try box.photo("a.jpg")
        let stopped = try box.runner(failpoints: Failpoints(point: .chunkIntent, count: 1, action: .throwError))
        #expect(throws: BatchError.self) { try stopped.run(plan: try box.plan(["a.jpg"]), requester: .me) }
        let empty = box.homeTrash.appending("info").appending("a.jpg.trashinfo")
        try Sandbox.write(empty, [])
        _ = try box.runner().recover()
        #expect(!Sandbox.exists(empty))
        #expect(Sandbox.exists(box.root.appending("a.jpg")))
        #expect(box.infoFiles.isEmpty)
    }

    @Test(arguments: [false, true])
    func aFileIsNamedOnlyWhenWholeAndNeverReplaces(_ withoutTmpfile: Bool) throws {
        let box = try Sandbox()
        let dir = box.base.appending("info")
        try Sandbox.makeDirectories(dir)
        let handle = try DirectoryHandle.open(dir, followingSymlinks: false)
        if withoutTmpfile { handle.forgoUnnamedFiles() }
        var seen: [ByteString: Int] = [:]
        #expect(try handle.createFile("a.trashinfo", contents: Array("whole".utf8), mode: 0o600, synced: false, beforeNaming: {
            // Between the write and the naming, nothing is there under the name.
            seen = Dictionary(uniqueKeysWithValues: Sandbox.names(in: dir).map { ($0, Sandbox.read(dir.appending($0))?.count ?? -1) })
        }))
        #expect(seen["a.trashinfo"] == nil, "\(seen)")
        if withoutTmpfile { #expect(seen[DirectoryHandle.partialName(for: "a.trashinfo")] == 5) }
        #expect(try !handle.createFile("a.trashinfo", contents: Array("other".utf8), mode: 0o600, synced: true))
        #expect(Sandbox.read(dir.appending("a.trashinfo")) == Array("whole".utf8), "never replaced")
        #expect(Sandbox.names(in: dir) == ["a.trashinfo"], "nothing else is left")
        #expect(try FileStatus.of(dir.appending("a.trashinfo")).mode & 0o777 == 0o600)
    }

    @Test func aPartialFileACrashLeftIsReplacedAndLongNamesStayWithinTheLimit() throws {
        let box = try Sandbox()
        let dir = box.base.appending("info")
        try Sandbox.makeDirectories(dir)
        let handle = try DirectoryHandle.open(dir, followingSymlinks: false)
        handle.forgoUnnamedFiles()
        try Sandbox.write(dir.appending(DirectoryHandle.partialName(for: "b.trashinfo")), Array("[Trash In".utf8))
        #expect(try handle.createFile("b.trashinfo", contents: Array("whole".utf8), mode: 0o600))
        #expect(Sandbox.names(in: dir) == ["b.trashinfo"])

        let long = ByteString(String(repeating: "x", count: 240) + ".trashinfo")
        let partial = DirectoryHandle.partialName(for: long)
        #expect(partial.count <= 255 && partial.lossyString.hasPrefix(".curatord-") && partial == DirectoryHandle.partialName(for: long))
        #expect(try handle.createFile(long, contents: Array("whole".utf8), mode: 0o600))
        #expect(Sandbox.read(dir.appending(long)) == Array("whole".utf8))
    }

    /// Where a kill left a partial `.trashinfo` (a file system without O_TMPFILE),
    /// recovery removes it with the photo's other residue.
    @Test func recoveryRemovesAPartialTrashInfo() throws {
        let box = try Sandbox()
        try box.photo("a.jpg")
        let stopped = try box.runner(failpoints: Failpoints(point: .chunkIntent, count: 1, action: .throwError))
        #expect(throws: BatchError.self) { try stopped.run(plan: try box.plan(["a.jpg"]), requester: .me) }
        let partial = box.homeTrash.appending("info").appending(DirectoryHandle.partialName(for: "a.jpg.trashinfo"))
        try Sandbox.write(partial, Array("[Trash Info]\nPa".utf8))
        let report = try box.runner().recover()
        #expect(!Sandbox.exists(partial))
        #expect(report.repairs.contains { $0.contains("removed a partial .trashinfo") }, "\(report.repairs)")
        #expect(Sandbox.exists(box.root.appending("a.jpg")))
        #expect(box.infoFiles.isEmpty)
    }
}
