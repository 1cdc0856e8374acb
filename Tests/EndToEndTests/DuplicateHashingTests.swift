// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// The content hashes of the duplicate search, made by the real daemon in the
/// background and kept in its index: only files of a shared size are read, the
/// whole file only when the first and last blocks agree, and a file is read again
/// only when its size or mtime changes. The index is read once the daemon has
/// stopped (its WAL is its own while it runs).
@Suite struct DuplicateHashingTests {
    private static func random(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    private static func write(_ path: String, _ bytes: [UInt8]) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }

    /// Path in the root → (head, full) as hex, "" for none.
    private static func hashes(_ daemon: Daemon) throws -> [String: (head: String, full: String)] {
        let sql = """
            SELECT CASE WHEN f.path = x'' THEN '' ELSE CAST(f.path AS TEXT) || '/' END || CAST(p.name AS TEXT),
                   hex(h.head), hex(h.full)
            FROM content_hashes h JOIN photos p ON p.id = h.id JOIN folders f ON f.id = p.folder;
            """
        let out = try Tool.run("/usr/bin/sqlite3", ["-separator", "|", daemon.stateDir + "/index.sqlite", sql], timeout: 10)
        var result: [String: (head: String, full: String)] = [:]
        for line in out.stdout.split(separator: "\n") {
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3 else { continue }
            result[fields[0]] = (fields[1], fields[2])
        }
        return result
    }

    /// Waits for the listing of duplicates to show `paths` and nothing is left to read.
    private static func settle(_ client: Client, listing paths: Set<String>) throws {
        var listed: Set<String> = []
        var pending: Int?
        do {
            try eventually(timeout: 30, "duplicates \(paths.sorted())") {
                listed = Set(try client.photos(["filter": ["duplicates": true]]).compactMap { $0["path"] as? String })
                pending = try client.status()["hash_pending"] as? Int
                return listed == paths && pending == 0
            }
        } catch {
            Issue.record("listed \(listed.sorted()), hash_pending \(String(describing: pending)), \(try client.photos())")
            throw error
        }
    }

    @Test func onlyWhatCouldCollideIsReadAndKept() throws {
        let daemon = Daemon()
        let root = daemon.root()
        let original = Self.random(300_000, seed: 1)
        var middle = original
        middle[150_000] ^= 0xFF
        Files.mkdir(root + "/copy")
        Self.write(root + "/a.jpg", original)
        Self.write(root + "/copy/a.jpg", original)
        #expect(link(root + "/a.jpg", root + "/link.jpg") == 0)
        Self.write(root + "/mid.jpg", middle)
        Self.write(root + "/other.jpg", Self.random(300_000, seed: 2))
        Self.write(root + "/lone.jpg", Self.random(1234, seed: 3))
        Self.write(root + "/s1.jpg", Self.random(5000, seed: 4))
        Self.write(root + "/s2.jpg", Self.random(5000, seed: 4))
        try daemon.start()
        try Self.settle(try daemon.client(), listing: ["a.jpg", "link.jpg", "copy/a.jpg", "s1.jpg", "s2.jpg"])
        #expect(daemon.stop() == 0)

        let rows = try Self.hashes(daemon)
        #expect(Set(rows.keys) == ["a.jpg", "copy/a.jpg", "link.jpg", "mid.jpg", "other.jpg", "s1.jpg", "s2.jpg"], "\(rows.keys.sorted())")
        // A size of its own: never read.
        #expect(rows["lone.jpg"] == nil)
        // The heads of the large files agree but for `other`'s; the whole files of
        // the copy and the link (the same inode) agree, the one with a byte changed does not.
        let a = try #require(rows["a.jpg"])
        #expect(a.head.count == 32 && a.full.count == 32)
        #expect(rows["copy/a.jpg"]?.head == a.head && rows["mid.jpg"]?.head == a.head && rows["other.jpg"]?.head != a.head)
        #expect(rows["copy/a.jpg"]?.full == a.full && rows["link.jpg"]?.full == a.full && rows["mid.jpg"]?.full != a.full)
        // Heads that differ: the whole file is not read.
        #expect(rows["other.jpg"]?.full == "")
        // Small files: the head is the whole content, read once.
        #expect(rows["s1.jpg"]?.head == rows["s2.jpg"]?.head && rows["s1.jpg"]?.full == "")

        // Changed in place with its size and mtime put back while the daemon is
        // down: the stored hash is kept (the file is not read again). s1.jpg and
        // s2.jpg, rewritten alike with new mtimes, are read again (the listing
        // shows them once they are).
        var before = stat()
        #expect(stat(root + "/other.jpg", &before) == 0)
        let fd = open(root + "/other.jpg", O_WRONLY)
        #expect(fd >= 0)
        let zeros = [UInt8](repeating: 0, count: 16)
        _ = zeros.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        close(fd)
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, root + "/other.jpg", &times, 0) == 0)
        Self.write(root + "/s1.jpg", Self.random(5000, seed: 7))
        Self.write(root + "/s2.jpg", Self.random(5000, seed: 7))
        try daemon.start()
        try Self.settle(try daemon.client(), listing: ["a.jpg", "link.jpg", "copy/a.jpg", "s1.jpg", "s2.jpg"])
        #expect(daemon.stop() == 0)
        let restarted = try Self.hashes(daemon)
        #expect(restarted["other.jpg"]?.head == rows["other.jpg"]?.head)
        #expect(restarted["s1.jpg"].map { !$0.head.isEmpty && $0.head != rows["s1.jpg"]?.head } == true)

        // Written while watched (a new mtime): read again, now a copy of mid.jpg. The
        // copy of a.jpg grows by a byte: no duplicate now, and its record goes.
        try daemon.start()
        let client = try daemon.client()
        Self.write(root + "/other.jpg", middle)
        Self.write(root + "/copy/a.jpg", Self.random(300_001, seed: 6))
        try client.sync()
        try Self.settle(client, listing: ["mid.jpg", "other.jpg", "s1.jpg", "s2.jpg"])
        #expect(daemon.stop() == 0)
        let watched = try Self.hashes(daemon)
        #expect(watched["other.jpg"]?.full == watched["mid.jpg"]?.full && watched["other.jpg"]?.full.count == 32)
        #expect(watched["copy/a.jpg"] == nil)
    }

    /// The hasher's threads take only cores nothing else wants (SCHED_IDLE, nice 19)
    /// and queue their reads beside everyone's, last among equals (best-effort, level
    /// 7): in the idle I/O class they were left the disk only once the capture and
    /// marks readers had read every photo.
    @Test func theHashersThreadsRunIdleInTheLowestBestEffortClass() throws {
        let daemon = Daemon()
        _ = daemon.root()
        try daemon.start()
        var threads: [String: (nice: Substring, policy: Substring)] = [:]
        try eventually(timeout: 10, "the hasher's threads") {
            threads = [:]
            for tid in try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/task") {
                let task = "/proc/\(daemon.pid)/task/\(tid)"
                guard Files.read(task + "/comm")?.hasPrefix("curatord-hash") == true, let stat = Files.read(task + "/stat"),
                      let end = stat.lastIndex(of: ")") else { continue }
                let fields = stat[stat.index(after: end)...].split(separator: " ")
                threads[tid] = (fields[16], fields[38])
            }
            return threads.count == 2 && threads.values.allSatisfy { $0.policy == "5" }
        }
        for (tid, priority) in threads {
            #expect(priority.nice == "19", "nice of thread \(tid)")
            let ionice = try Tool.run("/usr/bin/ionice", ["-p", tid])
            #expect(ionice.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "best-effort: prio 7", "\(ionice.stdout)")
        }
        #expect(daemon.stop() == 0)
    }
}
