// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc
import Testing

/// A scan reads a folder's names where its listing holds them, one buffer with a
/// NUL after each, and stats them in place.
struct DirectoryListingTests {
    @Test func aListingHoldsEveryNameOnceWithItsKindAndInode() throws {
        let scratch = try ScratchDirectory()
        let odd: [UInt8] = [0x49, 0xff, 0xfe, 0x2e, 0x6a, 0x70, 0x67]  // not UTF-8
        let names: [[UInt8]] = [Array("a.jpg".utf8), Array(String(repeating: "x", count: 255).utf8), odd, Array("ö.png".utf8)]
        for name in names { _ = try scratch.write(ByteString(name), [1, 2, 3]) }
        #expect(mkdir(scratch.path.appending(ByteString("sub")).lossyString, 0o755) == 0)
        #expect(symlink("a.jpg", scratch.path.appending(ByteString("link")).lossyString) == 0)
        let dir = try FileDescriptor.openDirectory(scratch.path)
        let listing = try DirectoryReader.listing(ofOpen: dir, path: scratch.path)
        var seen: [[UInt8]: DirectoryEntry.Kind] = [:]
        let statDir = try FileDescriptor.openDirectory(scratch.path)
        defer { try? statDir.close() }
        try listing.withNames { (all) throws(SystemError) in
            for (i, entry) in listing.entries.enumerated() {
                let name = DirectoryListing.name(of: entry, in: all)
                #expect(Array(name) == listing.name(i).bytes)
                #expect(all[Int(entry.start + entry.length)] == 0, "a NUL after each name")
                seen[Array(name)] = entry.kind
                if entry.kind == .file {
                    let status = try FileStatus.of(terminated: name, relativeTo: statDir)
                    #expect(status.inode == entry.inode && status.size == 3)
                }
            }
        }
        #expect(seen.count == names.count + 2, "no . or .., each entry once: \(seen.keys.map { ByteString($0).lossyString })")
        for name in names { #expect(seen[name] == .file) }
        #expect(seen[Array("sub".utf8)] == .directory)
        #expect(seen[Array("link".utf8)] == .symlink)
        // The entries of the same directory say the same.
        let entries = try DirectoryReader.entries(of: scratch.path)
        #expect(Set(entries.map(\.name.bytes)) == Set(seen.keys))
    }

    @Test func aNameWithoutItsNULIsRefusedNotReadPast() throws {
        let dir = try FileDescriptor.openDirectory("/")
        defer { try? dir.close() }
        let bytes: [UInt8] = Array("etcX".utf8)
        try bytes.withUnsafeBufferPointer { all in
            let name = UnsafeBufferPointer(rebasing: all[0..<3])  // "etc", followed by X
            do {
                _ = try FileStatus.of(terminated: name, relativeTo: dir)
                Issue.record("a name with no NUL after it was stat'ed")
            } catch let error as SystemError {
                #expect(error.errno == .invalid)
            }
            let terminated: [UInt8] = Array("etc\0".utf8)
            try terminated.withUnsafeBufferPointer { (buffer) throws(SystemError) in
                #expect(try FileStatus.of(terminated: UnsafeBufferPointer(rebasing: buffer[0..<3]), relativeTo: dir).isDirectory)
            }
        }
    }
}
