// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import CuratorTestSupport
import Glibc
import Testing

/// Reading files for their hashes: what each stage reads, a file that changed,
/// and files that cannot be read.
@Suite struct FileHasherTests {
    private func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    private func hash(_ path: ByteString, _ stage: HashStage) throws -> ContentHash? {
        let status = try FileStatus.of(path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        defer { buffer.deallocate() }
        // A small buffer: reads of many pieces hash as one.
        return try FileHasher.hash(path: path, stage: stage, size: status.size, mtimeNs: status.mtimeNanoseconds, buffer: buffer)
    }

    @Test func theHeadSeesTheEndsAndTheFullHashEveryByte() throws {
        let scratch = try ScratchDirectory()
        let original = bytes(300_000, seed: 1)
        var middle = original
        middle[150_000] ^= 0xFF
        var end = original
        end[299_999] ^= 0xFF
        let a = try scratch.write("a.jpg", original), b = try scratch.write("b.jpg", original)
        let m = try scratch.write("m.jpg", middle), e = try scratch.write("e.jpg", end)
        #expect(try hash(a, .head) == hash(b, .head))
        #expect(try hash(a, .full) == hash(b, .full))
        #expect(try hash(a, .full) == original.withUnsafeBytes { ContentHash(of: $0) })
        // One byte changed in the middle: the heads agree, the whole files do not.
        #expect(try hash(a, .head) == hash(m, .head))
        #expect(try hash(a, .full) != hash(m, .full))
        #expect(try hash(a, .head) != hash(e, .head))
        // A file the head covers: its head is its content.
        let small = bytes(Int(DuplicateStages.wholeInHead), seed: 2)
        let s = try scratch.write("s.jpg", small)
        #expect(try hash(s, .head) == small.withUnsafeBytes { ContentHash(of: $0) })
    }

    @Test func aFileChangedSinceTheIndexSawItGivesNoHash() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("a.jpg", bytes(1000, seed: 3))
        let status = try FileStatus.of(path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        defer { buffer.deallocate() }
        #expect(try FileHasher.hash(path: path, stage: .head, size: status.size + 1, mtimeNs: status.mtimeNanoseconds, buffer: buffer) == nil)
        #expect(try FileHasher.hash(path: path, stage: .head, size: status.size, mtimeNs: status.mtimeNanoseconds - 1, buffer: buffer) == nil)
    }

    @Test func whatCannotBeReadIsAnErrorNamingThePath() throws {
        let scratch = try ScratchDirectory()
        let fifo = scratch.child("pipe.jpg")
        #expect(fifo.withCString { mkfifo($0, 0o644) } == 0)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        defer { buffer.deallocate() }
        for path in [fifo, scratch.child("gone.jpg")] {
            do {
                _ = try FileHasher.hash(path: path, stage: .full, size: 0, mtimeNs: 0, buffer: buffer)
                Issue.record("\(path) was read")
            } catch {
                #expect(error.path == path.lossyString)
            }
        }
    }
}
