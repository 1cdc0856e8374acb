// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
@testable import CuratorSystem
import Glibc
import Testing

/// A `.trashinfo` a batch writes is created with O_CREAT|O_EXCL and written (the
/// trash specification's way, a third less system time); one written elsewhere
/// (recovery, undo's repairs, root in another user's trash) appears whole or not
/// at all: written unnamed (O_TMPFILE) and then named, or, where the file system has
/// no O_TMPFILE, written under a partial name and renamed without replacing.
@Suite("Trash: .trashinfo files are written whole")
struct TrashInfoWriteTests {
    /// Never replaces; holds exactly what was written, private; between the creation
    /// and the write the name is there, empty (what a kill there leaves).
    @Test func anExclusiveFileNeverReplacesAndIsEmptyOnlyBeforeItsWrite() throws {
        let box = try Sandbox()
        let dir = box.base.appending("info")
        try Sandbox.makeDirectories(dir)
        let handle = try DirectoryHandle.open(dir, followingSymlinks: false)
        var before: [UInt8]?
        #expect(try handle.createExclusive("a.trashinfo", contents: Array("whole".utf8), mode: 0o600) {
            before = Sandbox.read(dir.appending("a.trashinfo"))
        })
        #expect(before == [], "created empty, then written")
        #expect(Sandbox.read(dir.appending("a.trashinfo")) == Array("whole".utf8))
        #expect(try FileStatus.of(dir.appending("a.trashinfo")).mode & 0o777 == 0o600)
        #expect(try !handle.createExclusive("a.trashinfo", contents: Array("other".utf8), mode: 0o600))
        #expect(Sandbox.read(dir.appending("a.trashinfo")) == Array("whole".utf8), "never replaced")
        // Never through a symlink, even a dangling one: the name is taken.
        #expect(symlink(dir.appending("elsewhere").lossyString, dir.appending("b.trashinfo").lossyString) == 0)
        #expect(try !handle.createExclusive("b.trashinfo", contents: Array("x".utf8), mode: 0o600))
        #expect(!Sandbox.exists(dir.appending("elsewhere")))
    }

    #if CURATOR_FAULT_INJECTION
    /// A write that fails (a full disk) removes the name it created: no empty or
    /// short `.trashinfo` is left behind by an error, only by a kill.
    @Test(arguments: [Fault.Effect.fail(.noSpace), .fail(Errno(EIO))])
    func aFailedWriteLeavesNoExclusiveFile(_ effect: Fault.Effect) throws {
        let box = try Sandbox()
        let dir = box.base.appending("info")
        try Sandbox.makeDirectories(dir)
        let handle = try DirectoryHandle.open(dir, followingSymlinks: false)
        let plan = FaultPlan(Fault(.write, path: "c.trashinfo", effect))
        #expect(throws: SystemError.self) {
            try plan.run { () throws(SystemError) in
                _ = try handle.createExclusive("c.trashinfo", contents: Array("whole".utf8), mode: 0o600)
            }
        }
        #expect(plan.missed.isEmpty, "the write was made to fail")
        #expect(Sandbox.names(in: dir).isEmpty, "nothing is left: \(Sandbox.names(in: dir))")
    }
    #endif

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
        #expect(try handle.createFile("a.trashinfo", contents: Array("whole".utf8), mode: 0o600, synced: false) {
            // Between the write and the naming, nothing is there under the name.
            seen = Dictionary(uniqueKeysWithValues: Sandbox.names(in: dir).map { ($0, Sandbox.read(dir.appending($0))?.count ?? -1) })
        })
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
