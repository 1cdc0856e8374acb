// SPDX-License-Identifier: GPL-2.0-or-later
#if CURATOR_FAULT_INJECTION
@testable import CuratorSystem
import Foundation
import Glibc
import Testing

/// Every libc call goes through `SystemCalls`, so a `FaultPlan` can make it fail
/// on the real code path: EINTR is retried, short reads and writes are carried
/// on, and the errors that stay (EACCES, EIO, ENOSPC) name the call and the path.
struct SyscallTableTests {
    static let payload = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }

    // MARK: EINTR

    @Test func anInterruptedOpenIsMadeAgain() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("photo.jpg", [1, 2, 3])
        let plan = FaultPlan(Fault(.openat, path: "photo.jpg", .fail(.interrupted), times: 3))
        let bytes = try plan.run { () throws(SystemError) in
            try FileDescriptor.open(path, O_RDONLY).closeAfter { (fd) throws(SystemError) in try fd.readAll() }
        }
        #expect(bytes == [1, 2, 3])
        #expect(plan.count(.openat) == 4)
        #expect(plan.missed.isEmpty)
    }

    @Test func anInterruptedWriteAndFsyncAreMadeAgain() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.child("out")
        let plan = FaultPlan(Fault(.write, .fail(.interrupted), times: 2), Fault(.fsync, .fail(.interrupted)))
        try plan.run { () throws(SystemError) in
            try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600).closeAfter { (fd) throws(SystemError) in
                try fd.writeAll(Self.payload, path: path.lossyString)
                try fd.sync()
            }
        }
        #expect(scratch.contents(of: "out") == Self.payload)
        #expect(plan.count(.write) == 3)
        #expect(plan.count(.fsync) == 2)
        #expect(plan.missed.isEmpty)
    }

    // MARK: short reads and writes

    @Test func aShortWriteIsCarriedOnToTheEnd() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.child("out")
        let plan = FaultPlan(Fault(.write, .short(999), times: .max))
        try plan.run { () throws(SystemError) in
            try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600).closeAfter { (fd) throws(SystemError) in
                try fd.writeAll(Self.payload)
            }
        }
        #expect(scratch.contents(of: "out") == Self.payload)
        #expect(plan.count(.write) == (Self.payload.count + 998) / 999)
    }

    @Test func aShortReadIsCarriedOnToTheEnd() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("in", Self.payload)
        let plan = FaultPlan(Fault(.read, .short(1000), times: .max))
        let bytes = try plan.run { () throws(SystemError) in
            try FileDescriptor.open(path, O_RDONLY).closeAfter { (fd) throws(SystemError) in try fd.readAll() }
        }
        #expect(bytes == Self.payload)
        #expect(plan.count(.read) == Self.payload.count / 1000 + 1)  // and one that reads the end
    }

    @Test func aShortSendIsCarriedOnToTheEnd() throws {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { pair.forEach { _ = Glibc.close($0) } }
        // Few pieces: each is a buffer of its own in the socket, and nobody reads meanwhile.
        let bytes = Array(Self.payload.prefix(2000))
        let plan = FaultPlan(Fault(.send, .short(97), times: .max))
        try plan.run { () throws(SystemError) in try UnixSocket.sendAll(FileDescriptor(rawValue: pair[0]), bytes) }
        #expect(plan.count(.send) == (bytes.count + 96) / 97)
        var received = [UInt8](repeating: 0, count: bytes.count)
        var got = 0
        while got < bytes.count {
            let n = received.withUnsafeMutableBytes { Glibc.read(pair[1], $0.baseAddress! + got, bytes.count - got) }
            try #require(n > 0)
            got += n
        }
        #expect(received == bytes)
    }

    // MARK: errors that stay

    @Test func eaccesNamesTheCallAndThePath() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("private.jpg", [0])
        let plan = FaultPlan(Fault(.openat, path: "private.jpg", .fail(.accessDenied)))
        do {
            _ = try plan.run { () throws(SystemError) in try FileDescriptor.open(path, O_RDONLY) }
            Issue.record("the open succeeded")
        } catch {
            #expect(error.errno == .accessDenied)
            #expect(error.call == "open")
            #expect(error.path == path.lossyString)
            #expect(error.description == "open \(path.lossyString): Permission denied [EACCES]")
        }
        #expect(plan.count(.openat) == 1, "EACCES is not retried")
    }

    @Test func enospcNamesThePathOfTheWrite() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.child("full")
        let plan = FaultPlan(Fault(.write, .fail(.noSpace), skip: 1))
        do {
            try plan.run { () throws(SystemError) in
                try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600).closeAfter { (fd) throws(SystemError) in
                    try fd.writeAll(Array(Self.payload.prefix(100)), path: path.lossyString)
                    try fd.writeAll(Array(Self.payload.prefix(100)), path: path.lossyString)
                }
            }
            Issue.record("the write succeeded")
        } catch {
            #expect(error.errno == .noSpace)
            #expect(error.description == "write \(path.lossyString): No space left on device [ENOSPC]")
        }
        #expect(scratch.contents(of: "full")?.count == 100)
        #expect(plan.missed.isEmpty)
    }

    @Test func eioFromReaddirIsAnErrorNotTheEndOfTheListing() throws {
        let scratch = try ScratchDirectory()
        try scratch.mkdir("d")
        for name in ["a", "b", "c"] { try scratch.write(ByteString("d/\(name)"), []) }
        let directory = scratch.child("d")
        #expect(try DirectoryReader.entries(of: directory).count == 3)
        let plan = FaultPlan(Fault(.readdir, .fail(Errno(EIO)), skip: 2))
        do {
            _ = try plan.run { () throws(SystemError) in try DirectoryReader.entries(of: directory) }
            Issue.record("a listing cut short by EIO was taken for the whole")
        } catch {
            #expect(error.errno == Errno(EIO))
            #expect(error.call == "readdir")
            #expect(error.path == directory.lossyString)
        }
        #expect(plan.missed.isEmpty)
    }

    /// A file written whole or not at all (a `.trashinfo`): a failed write, a failed
    /// fsync, or a full disk leave no file under the name, by either way of writing.
    @Test(arguments: [Fault(.write, .fail(.noSpace)), Fault(.fsync, .fail(Errno(EIO))), Fault(.write, .fail(Errno(EIO)))])
    func createFileLeavesNothingWhenTheWriteFails(_ fault: Fault) throws {
        for unnamed in [true, false] {
            let scratch = try ScratchDirectory()
            let directory = try DirectoryHandle.open(scratch.path, followingSymlinks: false)
            if !unnamed { directory.forgoUnnamedFiles() }
            let plan = FaultPlan(fault)
            do {
                _ = try plan.run { () throws(SystemError) in
                    try directory.createFile("x.trashinfo", contents: Self.payload, mode: 0o600)
                }
                Issue.record("created despite \(fault)")
            } catch {
                #expect(error.errno == { if case .fail(let e) = fault.effect { e } else { Errno(0) } }())
                #expect(error.path?.hasSuffix("x.trashinfo") == true || error.path?.hasSuffix("x.trashinfo.partial") == true,
                        "\(error)")
            }
            #expect(plan.missed.isEmpty)
            let names = try DirectoryReader.entries(of: scratch.path).map(\.name)
            #expect(names.isEmpty, "left \(names) (unnamed: \(unnamed))")
        }
    }

    @Test func createFileCarriesOnAfterShortWrites() throws {
        for unnamed in [true, false] {
            let scratch = try ScratchDirectory()
            let directory = try DirectoryHandle.open(scratch.path, followingSymlinks: false)
            if !unnamed { directory.forgoUnnamedFiles() }
            let plan = FaultPlan(Fault(.write, .fail(.interrupted)), Fault(.write, .short(100), times: .max))
            let created = try plan.run { () throws(SystemError) in
                try directory.createFile("x.trashinfo", contents: Self.payload, mode: 0o600)
            }
            #expect(created)
            #expect(scratch.contents(of: "x.trashinfo") == Self.payload)
        }
    }

    // MARK: the plan itself

    /// Only the thread running the plan sees its faults: tests run side by side.
    @Test func aPlanIsConfinedToItsThread() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("f", [9])
        let plan = FaultPlan(Fault(.openat, .fail(.accessDenied), times: .max))
        let other = try plan.run { () throws(SystemError) -> Result<[UInt8], SystemError> in
            #expect(throws: SystemError.self) { try FileDescriptor.open(path, O_RDONLY) }
            let result = LockedBox<Result<[UInt8], SystemError>?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                result.value = Result { () throws(SystemError) in
                    try FileDescriptor.open(path, O_RDONLY).closeAfter { (fd) throws(SystemError) in try fd.readAll() }
                }
                done.signal()
            }
            done.wait()
            return result.value ?? .failure(SystemError("thread", errno: .invalid))
        }
        #expect(try other.get() == [9])
        #expect(try FileDescriptor.open(path, O_RDONLY).closeAfter { (fd) throws(SystemError) in try fd.readAll() } == [9])
    }

    @Test func aFaultThatNeverMetItsCallIsReported() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("f", [9])
        let plan = FaultPlan(Fault(.openat, path: "elsewhere", .fail(.accessDenied)), Fault(.read, .short(1), times: 3))
        _ = try plan.run { () throws(SystemError) in
            try FileDescriptor.open(path, O_RDONLY).closeAfter { (fd) throws(SystemError) in try fd.readAll() }
        }
        #expect(plan.missed.map(\.description) == ["openat elsewhere fail(EACCES (Permission denied))", "read short(1)"])
        #expect(plan.calls.first == FaultPlan.Call(call: .openat, path: path, injected: nil))
        #expect(plan.calls.contains { $0.call == .read && $0.path == path && $0.injected == .short(1) })
    }
}

/// A value set on one thread and read on another after a semaphore: the semaphore orders them.
final class LockedBox<T>: @unchecked Sendable {
    // @unchecked: written before `signal`, read after `wait`, never at the same time.
    var value: T
    init(_ value: T) { self.value = value }
}
#endif
