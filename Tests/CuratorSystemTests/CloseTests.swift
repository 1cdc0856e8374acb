// SPDX-License-Identifier: GPL-2.0-or-later
#if CURATOR_FAULT_INJECTION
@testable import CuratorSystem
import Foundation
import Glibc
import Synchronization
import Testing

/// close(2) reports a failed write-back on network file systems, so whoever wrote
/// must hear of it; it is never retried (Linux has released the descriptor); and
/// `closeAfter` keeps the body's error when both fail.
struct CloseTests {
    /// True while `fd` is still the descriptor of the file `newFile` made (tests run
    /// side by side: once closed, its number may be another test's file).
    static func isOpen(_ fd: FileDescriptor) -> Bool {
        var st = stat()
        guard Glibc.fstat(fd.rawValue, &st) == 0 else { return false }
        return opened.withLock { $0[fd.rawValue] } == UInt64(st.st_ino)
    }

    static let opened = Mutex<[Int32: UInt64]>([:])

    static func newFile(in scratch: ScratchDirectory, _ name: ByteString = "f") throws -> FileDescriptor {
        let fd = try FileDescriptor.open(scratch.child(name), O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
        var st = stat()
        _ = Glibc.fstat(fd.rawValue, &st)
        opened.withLock { $0[fd.rawValue] = UInt64(st.st_ino) }
        return fd
    }

    @Test func closeReportsItsErrorWithThePath() throws {
        let scratch = try ScratchDirectory()
        let fd = try Self.newFile(in: scratch)
        let plan = FaultPlan(Fault(.close, .fail(Errno(EIO))))
        do {
            try plan.run { () throws(SystemError) in try fd.close(path: "/nfs/f") }
            Issue.record("a close that failed was taken for a success")
        } catch {
            #expect(error.description == "close /nfs/f: Input/output error [EIO]")
        }
        #expect(!Self.isOpen(fd), "the descriptor is gone whatever close reported")
    }

    /// EINTR from close is an error, not a reason to close again: the number may
    /// already be another thread's descriptor.
    @Test func anInterruptedCloseIsNotMadeAgain() throws {
        let scratch = try ScratchDirectory()
        let fd = try Self.newFile(in: scratch)
        let plan = FaultPlan(Fault(.close, .fail(.interrupted)))
        #expect(throws: SystemError.self) { try plan.run { () throws(SystemError) in try fd.close() } }
        #expect(plan.count(.close) == 1)
        #expect(!Self.isOpen(fd))
    }

    @Test func closeAfterReportsAFailedCloseAfterABodyThatSucceeded() throws {
        let scratch = try ScratchDirectory()
        let fd = try Self.newFile(in: scratch)
        let plan = FaultPlan(Fault(.close, .fail(.noSpace)))
        do {
            _ = try plan.run { () throws(SystemError) in
                try fd.closeAfter(path: "f") { (fd) throws(SystemError) -> Int in
                    try fd.writeAll([1, 2, 3])
                    return 3
                }
            }
            Issue.record("the written file's failed close went unreported")
        } catch {
            #expect(error.call == "close")
            #expect(error.errno == .noSpace)
            #expect(error.path == "f")
        }
        #expect(!Self.isOpen(fd))
    }

    @Test func closeAfterKeepsTheBodysErrorWhenBothFail() throws {
        let scratch = try ScratchDirectory()
        let fd = try Self.newFile(in: scratch)
        let plan = FaultPlan(Fault(.write, .fail(.noSpace)), Fault(.close, .fail(Errno(EIO))))
        do {
            try plan.run { () throws(SystemError) in
                try fd.closeAfter { (fd) throws(SystemError) in try fd.writeAll([1], path: "f") }
            }
            Issue.record("no error")
        } catch {
            #expect(error.call == "write")
            #expect(error.errno == .noSpace)
        }
        #expect(plan.missed.isEmpty, "the close was made, and failed")
        #expect(!Self.isOpen(fd))
    }

    @Test func closeAfterClosesAndReturnsTheBodysResult() throws {
        let scratch = try ScratchDirectory()
        let fd = try Self.newFile(in: scratch)
        let plan = FaultPlan()
        let result = try plan.run { () throws(SystemError) in
            try fd.closeAfter { (fd) throws(SystemError) -> String in
                try fd.writeAll([7])
                return "done"
            }
        }
        #expect(result == "done")
        #expect(plan.calls.map(\.call) == [.write, .close])
        #expect(!Self.isOpen(fd))
        #expect(scratch.contents(of: "f") == [7])
    }

    /// A file whose close fails may not hold what was written: it is not left
    /// under its name, by either way of writing it.
    @Test func createFileRemovesWhatItMadeWhenTheCloseFails() throws {
        for unnamed in [true, false] {
            let scratch = try ScratchDirectory()
            let directory = try DirectoryHandle.open(scratch.path, followingSymlinks: false)
            if !unnamed { directory.forgoUnnamedFiles() }
            let plan = FaultPlan(Fault(.close, .fail(Errno(EIO))))
            do {
                _ = try plan.run { () throws(SystemError) in
                    try directory.createFile("x.trashinfo", contents: Array("[Trash Info]\n".utf8), mode: 0o600)
                }
                Issue.record("created although the close failed (unnamed: \(unnamed))")
            } catch {
                #expect(error.call == "close")
                #expect(error.errno == Errno(EIO))
                #expect(error.path?.hasSuffix("x.trashinfo") == true || error.path?.hasSuffix("x.trashinfo.partial") == true)
            }
            #expect(plan.missed.isEmpty)
            let left = try DirectoryReader.entries(of: scratch.path).map(\.name)
            #expect(left.isEmpty, "left \(left) (unnamed: \(unnamed))")
        }
    }

    // MARK: the lock file

    /// The holder's pid is written whole, however the writes come out.
    @Test func theLockFilesPidIsWrittenWholeAfterShortWrites() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.child("curatord.lock")
        let plan = FaultPlan(Fault(.pwrite, .short(1), times: .max))
        let outcome = try plan.run { () throws(SystemError) in try LockFile.acquire(path) }
        guard case .acquired(let lock) = outcome else {
            Issue.record("not acquired: \(outcome)")
            return
        }
        defer { try? lock.descriptor.close() }
        let pid = "\(getpid())\n"
        #expect(scratch.contents(of: "curatord.lock") == Array(pid.utf8))
        #expect(plan.count(.pwrite) == pid.utf8.count)
    }

    @Test func aLockFileThatCannotBeWrittenIsAnErrorWithThePathAndIsClosed() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.child("curatord.lock")
        let plan = FaultPlan(Fault(.pwrite, .fail(.noSpace)))
        do {
            _ = try plan.run { () throws(SystemError) in try LockFile.acquire(path) }
            Issue.record("acquired without its pid")
        } catch {
            #expect(error.description == "pwrite \(path.lossyString): No space left on device [ENOSPC]")
        }
        let opened = try #require(plan.calls.first { $0.call == .openat })
        #expect(opened.path == path)
        #expect(plan.calls.last?.call == .close, "the descriptor (and with it the lock) is let go")
    }
}
#endif
