// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Glibc
import Testing

@Suite("FolderAccess: who may list which folder, checked per folder and kept")
struct FolderAccessTests {
    /// Permissions by absolute path, and how often each was read.
    final class Disk: @unchecked Sendable {  // used on the test's thread only
        var folders: [ByteString: FolderPermissions] = [:]
        var reads: [ByteString: Int] = [:]
        func read(_ path: ByteString) throws(SystemError) -> FolderPermissions {
            reads[path, default: 0] += 1
            guard let found = folders[path] else { throw SystemError("lstat", path: path.lossyString, errno: .noEntry) }
            return found
        }
    }

    static func dir(_ uid: UInt32, _ gid: UInt32, _ mode: UInt32) -> FolderPermissions {
        FolderPermissions(uid: uid, gid: gid, mode: S_IFDIR | mode)
    }

    // uids with no passwd entry: their groups are their own gid only.
    static let alice: UInt32 = 3_999_001
    static let bob: UInt32 = 3_999_002

    /// `FolderAccess.mayList`, callable inside `#expect`.
    func may(_ access: inout FolderAccess, folder: Int32, root: Int32, path: ByteString, uid: UInt32, rootPath: ByteString) -> Bool {
        access.mayList(folder: folder, root: root, path: path, uid: uid, rootPath: rootPath)
    }

    func disk() -> Disk {
        let disk = Disk()
        disk.folders[ByteString("/r")] = Self.dir(0, 0, 0o755)
        disk.folders[ByteString("/r/alice")] = Self.dir(Self.alice, Self.alice, 0o755)
        disk.folders[ByteString("/r/alice/private")] = Self.dir(Self.alice, Self.alice, 0o2770)
        return disk
    }

    @Test func ownerGroupAndOtherAsLsWouldHaveIt() {
        let disk = disk()
        var access = FolderAccess(read: disk.read)
        let root = ByteString("/r")
        #expect(may(&access, folder: 1, root: 1, path: ByteString("alice"), uid: Self.bob, rootPath: root))
        #expect(!may(&access, folder: 2, root: 1, path: ByteString("alice/private"), uid: Self.bob, rootPath: root))
        #expect(may(&access, folder: 2, root: 1, path: ByteString("alice/private"), uid: Self.alice, rootPath: root))
        #expect(may(&access, folder: 2, root: 1, path: ByteString("alice/private"), uid: 0, rootPath: root))
        #expect(!may(&access, folder: 3, root: 1, path: ByteString("gone"), uid: Self.bob, rootPath: root),
                "a folder the daemon cannot stat is nobody's but root's")
    }

    @Test func eachDirectoryIsReadOnceForEveryUserAndFolder() {
        let disk = disk()
        var access = FolderAccess(read: disk.read)
        let root = ByteString("/r")
        for _ in 0..<1000 {
            for uid in [Self.alice, Self.bob] {
                _ = access.mayList(folder: 2, root: 1, path: ByteString("alice/private"), uid: uid, rootPath: root)
                _ = access.mayList(folder: 1, root: 1, path: ByteString("alice"), uid: uid, rootPath: root)
            }
        }
        #expect(disk.reads.values.allSatisfy { $0 == 1 }, "\(disk.reads)")
        #expect(access.reads == 3)
        // Root never asks.
        disk.reads.removeAll()
        var rootAccess = FolderAccess(read: disk.read)
        _ = rootAccess.mayList(folder: 2, root: 1, path: ByteString("alice/private"), uid: 0, rootPath: root)
        #expect(disk.reads.isEmpty)
    }

    @Test func aChangedDirectoryIsReadAgainAndItsVerdictsDropped() {
        let disk = disk()
        var access = FolderAccess(read: disk.read)
        let root = ByteString("/r")
        let private_ = ByteString("alice/private")
        let seen6 = access.mayList(folder: 2, root: 1, path: private_, uid: Self.bob, rootPath: root)
        #expect(!seen6)
        disk.folders[ByteString("/r/alice/private")] = Self.dir(Self.alice, Self.alice, 0o755)
        #expect(!may(&access, folder: 2, root: 1, path: private_, uid: Self.bob, rootPath: root), "kept until told")
        let generation = access.generation
        access.directoryChanged(root: 1, path: private_)
        #expect(access.generation != generation)
        let seen8 = access.mayList(folder: 2, root: 1, path: private_, uid: Self.bob, rootPath: root)
        #expect(seen8)
        // A change above a folder changes its verdict too.
        disk.folders[ByteString("/r/alice")] = Self.dir(Self.alice, Self.alice, 0o700)
        access.directoryChanged(root: 1, path: ByteString("alice"))
        let seen9 = access.mayList(folder: 2, root: 1, path: private_, uid: Self.bob, rootPath: root)
        #expect(!seen9)
    }

    @Test func aVerdictIsForTheFolderPathItWasMadeFor() {
        let disk = disk()
        var access = FolderAccess(read: disk.read)
        let root = ByteString("/r")
        #expect(may(&access, folder: 7, root: 1, path: ByteString("alice"), uid: Self.bob, rootPath: root))
        #expect(!may(&access, folder: 7, root: 1, path: ByteString("alice/private"), uid: Self.bob, rootPath: root),
                "an id handed out again for another folder is not taken for the old one")
    }
}

extension FolderAccessTests {
    /// `FolderAccess.startReading`, callable inside `#expect`.
    func starts(_ access: inout FolderAccess) -> Bool { access.startReading() }

    /// What the reader thread does (`Curator.startSharePermissionReader`), here on the test's thread.
    func runReader(_ access: inout FolderAccess, _ disk: Disk) {
        while true {
            let batch = access.nextWanted(limit: 2)
            if batch.isEmpty { return }
            access.storeRead(batch.map { item in (key: item.key, permissions: try? disk.read(item.path)) })
        }
    }

    /// A share root's folders are never read while the question is asked (under the
    /// state lock, where a hung share would lock every user out): until the reader
    /// has read them, nobody but root sees them; once read, the verdict is as `ls`'s.
    @Test func aShareIsNeverReadWhenAskedAndUnreadFoldersAreHidden() {
        let disk = disk()
        var access = FolderAccess(read: disk.read)
        let root = ByteString("/r")
        access.setOnShare(1, true, rootPath: root)
        let alice = ByteString("alice")
        let private_ = ByteString("alice/private")
        #expect(!may(&access, folder: 1, root: 1, path: alice, uid: Self.bob, rootPath: root), "not read yet: hidden")
        #expect(may(&access, folder: 1, root: 1, path: alice, uid: 0, rootPath: root))
        #expect(disk.reads.isEmpty, "a share's folder was read when asked: \(disk.reads)")
        #expect(starts(&access))
        #expect(!starts(&access), "one reader at a time")
        let generation = access.generation
        runReader(&access, disk)
        #expect(access.generation != generation, "verdicts made before the read are dropped")
        #expect(may(&access, folder: 1, root: 1, path: alice, uid: Self.bob, rootPath: root))
        #expect(!may(&access, folder: 2, root: 1, path: private_, uid: Self.bob, rootPath: root))
        runReader(&access, disk)
        #expect(may(&access, folder: 2, root: 1, path: private_, uid: Self.alice, rootPath: root))
        #expect(!may(&access, folder: 2, root: 1, path: private_, uid: Self.bob, rootPath: root))

        // A change (a scan of the polled share, IN_ATTRIB) asks for a read again:
        // what was read stays in use until the reader answers (on a hung share, until
        // it answers), and a read that finds nothing new keeps the verdicts.
        disk.reads.removeAll()
        disk.folders[ByteString("/r/alice/private")] = Self.dir(Self.alice, Self.alice, 0o755)
        access.forget(root: 1)
        #expect(!may(&access, folder: 2, root: 1, path: private_, uid: Self.bob, rootPath: root))
        #expect(disk.reads.isEmpty)
        #expect(starts(&access))
        runReader(&access, disk)
        #expect(may(&access, folder: 2, root: 1, path: private_, uid: Self.bob, rootPath: root), "read again after the change")
        let unchanged = access.generation
        access.forget(root: 1)
        runReader(&access, disk)
        #expect(access.generation == unchanged, "nothing changed: views stay valid")
    }

    /// After a scan, a share's folders (and every directory above them) are read
    /// before anyone asks.
    @Test func aScannedShareIsReadBeforeAnyoneAsks() {
        let disk = disk()
        var access = FolderAccess(read: disk.read)
        let root = ByteString("/r")
        access.want(root: 1, folders: [ByteString("alice/private")])
        #expect(!starts(&access), "a local root is read when asked")
        access.setOnShare(1, true, rootPath: root)
        access.want(root: 1, folders: [ByteString("alice/private")])
        #expect(starts(&access))
        runReader(&access, disk)
        #expect(Set(disk.reads.keys) == [ByteString("/r"), ByteString("/r/alice"), ByteString("/r/alice/private")], "\(disk.reads)")
        #expect(may(&access, folder: 2, root: 1, path: ByteString("alice/private"), uid: Self.alice, rootPath: root))
        #expect(!starts(&access), "nothing left to read")
    }
}
