// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc
import Testing

/// `readAll(limit:)` reads a file whole or throws: never its first `limit` bytes
/// as if they were all of it.
struct FileDescriptorTests {
    @Test func readAllReadsUpToTheLimitAndRefusesMore() throws {
        let scratch = try ScratchDirectory()
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let path = try scratch.write("data", bytes)
        func read(limit: Int) throws(SystemError) -> [UInt8] {
            let fd = try FileDescriptor.open(path, O_RDONLY)
            return try fd.closeAfter { (fd) throws(SystemError) in try fd.readAll(limit: limit, path: path.lossyString) }
        }
        #expect(try read(limit: 200_000) == bytes)
        #expect(try read(limit: 1 << 20) == bytes)
        do {
            _ = try read(limit: 199_999)
            Issue.record("a file one byte over the limit was read")
        } catch {
            #expect(error.errno == .fileTooLarge)
            #expect(error.description.contains(path.lossyString), "\(error)")
        }
    }

    @Test func anEndlessFileIsRefused() throws {
        let fd = try FileDescriptor.open("/dev/zero", O_RDONLY)
        #expect(throws: SystemError.self) {
            try fd.closeAfter { (fd) throws(SystemError) in try fd.readAll(limit: 1 << 16) }
        }
    }

    @Test func aTrashInfoTooLargeIsNotRead() throws {
        let scratch = try ScratchDirectory()
        try scratch.mkdir("info")
        try scratch.write("info/x.trashinfo", Array("[Trash Info]\nPath=/a\nDeletionDate=2024-01-01T00:00:00\n".utf8)
                                                + [UInt8](repeating: UInt8(ascii: "#"), count: 1 << 16))
        let handle = try DirectoryHandle.open(scratch.child("info"), followingSymlinks: false)
        #expect(throws: SystemError.self) { try handle.readFile("x.trashinfo", limit: 1 << 16) }
    }
}
