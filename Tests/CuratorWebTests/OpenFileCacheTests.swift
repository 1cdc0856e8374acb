// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
@testable import CuratorWeb
import Foundation
import Glibc
import Testing

@Suite struct OpenFileCacheTests {
    /// Five small files in `folder`, open, and their status (what `keep` is given).
    private static func files(in folder: URL) throws -> [(FileDescriptor, OpenFileCache.Opened)] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try (0..<5).map { n in
            let path = folder.appendingPathComponent("\(n).png").path
            try Data(repeating: UInt8(n), count: 10 + n).write(to: URL(fileURLWithPath: path))
            let fd = try FileDescriptor.open(ByteString(path), O_RDONLY | O_CLOEXEC)
            return (fd, OpenFileCache.Opened(contentType: "image/png", version: "v", status: try FileStatus.of(descriptor: fd)))
        }
    }

    private static func key(_ n: Int) -> OpenFileCache.Key { .init(owner: "alice", photo: Int64(n), what: "normal", version: "v") }

    @Test func aFullCacheLetsTheOldestGoAndKeepsWhatItWasJustGiven() throws {
        // Kept files must still be linked: a file unlinked since is never served.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ofc-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let files = try Self.files(in: folder)
        defer {
            for (fd, _) in files { try? fd.close() }
            try? FileManager.default.removeItem(at: folder)
        }
        let cache = OpenFileCache(lifetime: 60, capacity: 4)
        for n in 0..<4 { cache.keep(Self.key(n), file: files[n].0, opened: files[n].1) }
        // Kept again at capacity: the same key, nothing else goes.
        cache.keep(Self.key(2), file: files[2].0, opened: files[2].1)
        #expect(cache.count == 4)
        cache.keep(Self.key(4), file: files[4].0, opened: files[4].1)
        #expect(cache.count == 4)
        #expect(cache.take(Self.key(0)) == nil, "the oldest entry should have gone")
        for n in 1...4 {
            let taken = try #require(cache.take(Self.key(n)), "entry \(n) was dropped instead of the oldest")
            #expect(taken.opened.status.size == Int64(10 + n))
            try taken.file.close()
        }
    }
}
