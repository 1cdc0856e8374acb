// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Foundation
import Glibc
import Testing

/// Reads that follow permissions must cost a listing of 100 000 photos nothing
/// measurable for root or for a user who may read everything: the check is per
/// folder (1 000 here), never per photo, and kept. Prints the figures; the property
/// asserted is the one timing cannot blur: folders read once, never per photo.
@Suite(.serialized)
struct ListingAccessTimingTests {
    static let folders = 1000
    static let perFolder = 100

    /// A state of 100 000 photos in 1 000 real folders (the photos themselves are
    /// not on disk: a listing never looks at them).
    ///
    /// Every mode is set with `chmod`, not left to `mkdir` and the umask: the umask is
    /// the whole test process's, and libvips in a thumbnail test running meanwhile sets
    /// it to 066 for a moment (liborc's `orc_code_allocate_codemem`, when it compiles a
    /// vector program): a folder made then is 0711, closed to other users, the likely
    /// cause of the one failure this test had (in CI, 2026-12-06).
    static func fixture(closed: Set<Int> = []) throws -> ReconcileTests.Fixture {
        let f = try ReconcileTests.Fixture()
        #expect(chmod(f.root, 0o755) == 0)
        var inode: UInt = 1_000_000
        for folder in 0..<folders {
            let name = String(format: "d%04d", folder)
            try FileManager.default.createDirectory(atPath: f.root + "/" + name, withIntermediateDirectories: true)
            #expect(chmod(f.root + "/" + name, closed.contains(folder) ? 0o700 : 0o755) == 0)
            var files: [ScannedFile] = []
            for n in 0..<perFolder {
                var st = stat()
                st.st_mode = S_IFREG | 0o644
                st.st_size = 4096
                inode += 1
                st.st_ino = inode
                st.st_dev = 1
                st.st_mtim.tv_sec = 1_700_000_000 + Int(n)
                files.append(ScannedFile(name: ByteString(String(format: "IMG_%04d.JPG", n)), status: FileStatus(st), type: .jpeg))
            }
            var seen = IDSet()
            _ = try f.state.reconcile(root: f.rootID, directory: ByteString(name), files: files, complete: true,
                                  deferRemovals: false, seen: &seen)
        }
        return f
    }

    /// The best of `reps` whole listings as `uid`, in milliseconds, and the total shown.
    static func listing(_ f: ReconcileTests.Fixture, uid: UInt32, reps: Int = 5) throws -> (ms: Double, total: Int) {
        var best = Double.infinity
        var total = 0
        for _ in 0..<reps {
            let start = MonotonicClock.nanoseconds()
            var stream = try ListCommand.stream(in: f.state, ListRequest(), id: nil, uid: uid, fields: .all)
            let line = stream.line()
            best = min(best, Double(MonotonicClock.nanoseconds() - start) / 1e6)
            total = stream.photoCount
            #expect(line.count > 0)
        }
        return (best, total)
    }

    @Test func aListingOf100000PhotosCostsAReaderOfEverythingWhatItCostsRoot() throws {
        let f = try Self.fixture()
        let other: UInt32 = 3_999_077  // no passwd entry: "other" bits, which 0755 folders give
        let first = try Self.listing(f, uid: other, reps: 1)
        let reads = f.state.access.reads
        #expect(reads <= Self.folders + 1, "permissions are read per folder (and the root's), not per photo: \(reads)")
        let root = try Self.listing(f, uid: 0)
        let user = try Self.listing(f, uid: other)
        #expect(root.total == Self.folders * Self.perFolder && user.total == root.total,
                "root \(root.total), the user \(user.total); \(Self.deniedFolders(f, uid: other))")
        // Nothing changed, so folders are read again only when the 30 s age ran out
        // (a loaded machine): a whole pass over the folders each time, never per photo.
        #expect(f.state.access.reads % reads == 0, "\(f.state.access.reads) reads")
        print("listing of \(root.total) photos: root \(String(format: "%.1f", root.ms)) ms, "
              + "a user who may read everything \(String(format: "%.1f", user.ms)) ms (first, reading \(reads) folders: "
              + "\(String(format: "%.1f", first.ms)) ms)")
    }

    /// The folders `uid` is refused, each with what its directory says now: what a
    /// failure of the test above needs to be understood.
    static func deniedFolders(_ f: ReconcileTests.Fixture, uid: UInt32) -> String {
        let denied = f.state.library.folders.values.filter { !f.state.mayList(folderID: $0.id, root: $0.rootID, uid: uid) }
        let described = denied.prefix(5).map { folder -> String in
            let path = ByteString(f.root).appending(folder.path)
            let mode = (try? FileStatus.of(path)).map { String($0.mode, radix: 8) } ?? "no status"
            let read: String
            do {
                read = "read: mode \(String(try FolderPermissions.read(path).mode, radix: 8))"
            } catch {
                read = "read fails: \(error)"
            }
            return "\(folder.path.lossyString) (\(mode); \(read))"
        }
        return "\(denied.count) folders refused: " + described.joined(separator: ", ")
    }

    @Test func aUserWhoMayNotReadSomeFoldersIsShownTheRest() throws {
        let f = try Self.fixture(closed: Set(stride(from: 0, to: Self.folders, by: 10)))
        let other: UInt32 = 3_999_078
        let user = try Self.listing(f, uid: other)
        #expect(user.total == (Self.folders - Self.folders / 10) * Self.perFolder)
        let root = try Self.listing(f, uid: 0)
        #expect(root.total == Self.folders * Self.perFolder)
        print("listing with a tenth of 1 000 folders closed: root \(String(format: "%.1f", root.ms)) ms of \(root.total), "
              + "the user \(String(format: "%.1f", user.ms)) ms of \(user.total)")
    }
}
