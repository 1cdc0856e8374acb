// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Foundation
import Glibc
import Testing

/// The decisions the scanner leaves to `CuratorState`, driven directly over a
/// real folder and a real SQLite file: what is kept, moved, added or removed.
@Suite struct ReconcileTests {
    /// A root folder on disk and an index file, reopened at will (a restart).
    final class Fixture {
        let directory: String
        var root: String { directory + "/root" }
        var indexPath: String { directory + "/index.sqlite" }
        let config: Configuration
        private(set) var state: CuratorState
        let rootID: Int32

        init(protected: [String] = [], groups: Bool = false) throws {
            var template = Array("/tmp/curatord-reconcile-XXXXXX".utf8CString)
            let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
            directory = made.map { String(cString: $0) } ?? "/tmp/curatord-reconcile-\(getpid())"
            try FileManager.default.createDirectory(atPath: directory + "/root", withIntermediateDirectories: true)
            config = Configuration(roots: [RootConfig(name: "pics", path: ByteString(directory + "/root"), protected: protected,
                                                      groups: groups)],
                                   socketPath: ByteString(directory + "/s"), stateDirectory: ByteString(directory),
                                   homeTrash: ByteString(directory + "/trash"))
            state = try CuratorState(config: config, library: PhotoLibrary(store: IndexStore(path: directory + "/index.sqlite")))
            rootID = try #require(state.rootID(named: "pics"))
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        /// A new process over the same index file.
        func restart() throws {
            state = try CuratorState(config: config, library: PhotoLibrary(store: IndexStore(path: indexPath)))
        }

        func write(_ relative: String, _ text: String = "photo") throws {
            let url = URL(fileURLWithPath: root + "/" + relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        func scanned(_ relative: String) throws -> ScannedFile {
            let path = ByteString(relative)
            let status = try FileStatus.of(ByteString(root + "/" + relative))
            return ScannedFile(name: path.lastComponent, status: status, type: PhotoType.detectFile(name: path.lastComponent) ?? .jpeg)
        }

        /// What a scan step does for one directory: every photo file it holds.
        @discardableResult
        func reconcile(_ directory: String, _ names: [String], deferRemovals: Bool = false,
                       seen: inout IDSet) throws -> [LibraryChange] {
            let files = try names.map { try scanned(directory.isEmpty ? $0 : directory + "/" + $0) }
            return try state.reconcile(root: rootID, directory: ByteString(directory), files: files, complete: true,
                                       deferRemovals: deferRemovals, seen: &seen)
        }

        @discardableResult
        func reconcile(_ directory: String, _ names: [String]) throws -> [LibraryChange] {
            var seen = IDSet()
            return try reconcile(directory, names, seen: &seen)
        }

        func id(_ relative: String) -> Int64? { state.library.photoID(root: rootID, relativePath: ByteString(relative)) }

        var paths: Set<String> {
            Set(state.library.photos.values.map { state.library.relativePath(of: $0).lossyString })
        }

        var writes: Int { state.library.storeWrites }
    }

    @Test func unchangedPhotosAreNeitherChangedNorRewritten() throws {
        let f = try Fixture()
        for name in ["a.jpg", "b.jpg", "c.jpg"] { try f.write("album/" + name) }
        let added = try f.reconcile("album", ["a.jpg", "b.jpg", "c.jpg"])
        #expect(added.count == 3)
        #expect(f.writes == 3)
        let ids = [f.id("album/a.jpg"), f.id("album/b.jpg"), f.id("album/c.jpg")]

        #expect(try f.reconcile("album", ["a.jpg", "b.jpg", "c.jpg"]).isEmpty)
        #expect(f.writes == 3)

        try f.restart()
        #expect(f.writes == 0)
        #expect(try f.reconcile("album", ["a.jpg", "b.jpg", "c.jpg"]).isEmpty)
        #expect(f.writes == 0, "a restart over unchanged files must write no row")
        #expect([f.id("album/a.jpg"), f.id("album/b.jpg"), f.id("album/c.jpg")] == ids)

        // A rewritten file is a change of the same photo.
        try f.write("album/b.jpg", "rewritten, longer")
        let changed = try f.reconcile("album", ["a.jpg", "b.jpg", "c.jpg"])
        #expect(changed.count == 1)
        if case .changed(let p) = changed.first { #expect(p.id == ids[1] && p.size == 17) } else { Issue.record("\(changed)") }
        #expect(f.writes == 1)
    }

    /// The watcher decides a file is gone from a stat outside the state lock, and
    /// applies that later under it: an undo that put the photo back and indexed it
    /// meanwhile (under the lock, its former id) must keep it. Applied as decided,
    /// the restored photo left the index until the next scan, and a client's
    /// `select` of its id answered `no_such_photo` (seen once in CI).
    @Test func aFileFoundGoneButBackWhenTheRemovalIsAppliedStaysIndexed() throws {
        let f = try Fixture()
        try f.write("album/a.jpg")
        try f.reconcile("album", ["a.jpg"])
        let id = try #require(f.id("album/a.jpg"))
        // Moved out and back (a batch, then its undo) before the watcher's removal lands.
        try FileManager.default.moveItem(atPath: f.root + "/album/a.jpg", toPath: f.directory + "/a.jpg")
        try FileManager.default.moveItem(atPath: f.directory + "/a.jpg", toPath: f.root + "/album/a.jpg")
        try f.state.fileVanished(root: f.rootID, relativePath: ByteString("album/a.jpg"))
        #expect(f.id("album/a.jpg") == id, "a photo on disk when its removal is applied stays")
        // Really gone: removed.
        try FileManager.default.removeItem(atPath: f.root + "/album/a.jpg")
        try f.state.fileVanished(root: f.rootID, relativePath: ByteString("album/a.jpg"))
        #expect(f.id("album/a.jpg") == nil)
    }

    @Test func aPhotoRenamedWhileDownKeepsItsIDWhicheverFolderIsScannedFirst() throws {
        for destinationFirst in [true, false] {
            let f = try Fixture()
            try f.write("a/x.jpg", "x")
            try f.write("b/keep.jpg")
            try f.reconcile("a", ["x.jpg"])
            try f.reconcile("b", ["keep.jpg"])
            let id = try #require(f.id("a/x.jpg"))
            try f.restart()
            try FileManager.default.moveItem(atPath: f.root + "/a/x.jpg", toPath: f.root + "/b/y.jpg")

            // A full scan: removals wait for the end, so the order does not matter.
            var seen = IDSet()
            try f.reconcile("", [], deferRemovals: true, seen: &seen)
            if destinationFirst {
                try f.reconcile("b", ["keep.jpg", "y.jpg"], deferRemovals: true, seen: &seen)
                try f.reconcile("a", [], deferRemovals: true, seen: &seen)
            } else {
                try f.reconcile("a", [], deferRemovals: true, seen: &seen)
                try f.reconcile("b", ["keep.jpg", "y.jpg"], deferRemovals: true, seen: &seen)
            }
            try f.state.finishScan(root: f.rootID, seen: seen, seenFolders: ["", "a", "b"])
            #expect(f.id("b/y.jpg") == id)
            #expect(f.paths == ["b/keep.jpg", "b/y.jpg"])
            #expect(f.writes == 1, "one row moved, nothing else written")
        }
    }

    @Test func aHardLinkIsAPhotoOfItsOwn() throws {
        let f = try Fixture()
        try f.write("a/x.jpg")
        try f.reconcile("a", ["x.jpg"])
        let id = try #require(f.id("a/x.jpg"))
        try FileManager.default.createDirectory(atPath: f.root + "/b", withIntermediateDirectories: true)
        #expect(link(f.root + "/a/x.jpg", f.root + "/b/link.jpg") == 0)
        let changes = try f.reconcile("b", ["link.jpg"])
        guard case .added(let p)? = changes.first else { Issue.record("\(changes)"); return }
        #expect(p.id != id)
        #expect(f.id("a/x.jpg") == id)
        #expect(f.paths == ["a/x.jpg", "b/link.jpg"])
    }

    @Test func aReusedInodeNumberWithOtherContentIsANewPhoto() throws {
        let f = try Fixture()
        try f.write("old.jpg", "old")
        try f.reconcile("", ["old.jpg"])
        let oldID = try #require(f.id("old.jpg"))
        // The old file is deleted, and a new one gets its inode number (as file systems do).
        let reused = try f.scanned("old.jpg")
        try FileManager.default.removeItem(atPath: f.root + "/old.jpg")
        try f.write("new.jpg", "something else entirely")
        var status = try f.scanned("new.jpg").status
        status.device = reused.status.device
        status.inode = reused.status.inode
        var seen = IDSet()
        let changes = try f.state.reconcile(root: f.rootID, directory: .empty,
                                            files: [ScannedFile(name: "new.jpg", status: status, type: .jpeg)],
                                            complete: true, seen: &seen)
        #expect(f.id("new.jpg") != oldID)
        #expect(f.id("old.jpg") == nil)
        #expect(changes.contains { if case .removed(let p) = $0 { p.id == oldID } else { false } })
    }

    /// A photo emptied from the trash by our hand loses its tombstone: the next file
    /// given its inode number is a new photo, not the emptied one come back.
    @Test func anEmptiedPhotosInodeNumberIsANewPhotosNext() throws {
        let f = try Fixture()
        try f.write("a.jpg", "trashed, then emptied")
        try f.reconcile("", ["a.jpg"])
        let emptiedID = try #require(f.id("a.jpg"))
        let trashed = try f.scanned("a.jpg")
        // A batch trashed it (buried, unindexed); trash.empty then deleted it.
        f.state.tombstones.bury(Burial(id: emptiedID, identity: FileIdentity(trashed.status), rootName: "pics",
                                       relativePath: ByteString("a.jpg")))
        try FileManager.default.removeItem(atPath: f.root + "/a.jpg")
        try f.reconcile("", [])
        f.state.photosPurged([BatchItemResult(step: 1, id: emptiedID, root: "pics", path: "a.jpg", size: trashed.status.size,
                                              outcome: .emptied)])
        #expect(f.state.tombstones.id(device: trashed.status.device, inode: trashed.status.inode) == nil)
        // A new file that the file system gives the freed inode number.
        try f.write("new.jpg", "a new photo")
        var status = try f.scanned("new.jpg").status
        status.device = trashed.status.device
        status.inode = trashed.status.inode
        var seen = IDSet()
        _ = try f.state.reconcile(root: f.rootID, directory: .empty, files: [ScannedFile(name: "new.jpg", status: status, type: .jpeg)],
                              complete: true, seen: &seen)
        let newID = try #require(f.id("new.jpg"))
        #expect(newID != emptiedID)
    }

    @Test func whatVanishedIsRemovedWithItsFolders() throws {
        let f = try Fixture()
        try f.write("a/x.jpg")
        try f.write("a/deep/y.jpg")
        try f.write("b/z.jpg")
        try f.reconcile("a", ["x.jpg"])
        try f.reconcile("a/deep", ["y.jpg"])
        try f.reconcile("b", ["z.jpg"])
        let z = try #require(f.id("b/z.jpg"))

        // A directory read whole: a photo missing from it is gone at once.
        try FileManager.default.removeItem(atPath: f.root + "/a/x.jpg")
        let removed = try f.reconcile("a", [])
        #expect(removed.count == 1)
        #expect(f.paths == ["a/deep/y.jpg", "b/z.jpg"])

        // A full scan that did not see "a" at all: its folders and photos go, with their paths.
        try FileManager.default.removeItem(atPath: f.root + "/a")
        try f.state.finishScan(root: f.rootID, seen: [z], seenFolders: ["", "b"])
        #expect(f.paths == ["b/z.jpg"])
        #expect(f.state.library.folderID(root: f.rootID, path: "a") == nil)
        #expect(f.state.library.folderID(root: f.rootID, path: "a/deep") == nil)
        #expect(f.state.library.folders(root: f.rootID, within: .empty).map(\.path).sorted() == ["", "b"])
    }

    @Test func anUnreadableDirectoryIsNotTreatedAsEmpty() throws {
        let f = try Fixture()
        try f.write("private/x.jpg")
        try f.write("private/deep/y.jpg")
        try f.write("open/z.jpg")
        try f.reconcile("private", ["x.jpg"])
        try f.reconcile("private/deep", ["y.jpg"])
        try f.reconcile("open", ["z.jpg"])
        let z = try #require(f.id("open/z.jpg"))

        // The scan could not open "private" (EACCES): it saw neither it nor below it.
        try f.state.finishScan(root: f.rootID, seen: [z], seenFolders: ["", "open"], unreadable: ["private"])
        #expect(f.paths == ["private/x.jpg", "private/deep/y.jpg", "open/z.jpg"])
        #expect(f.writes == 3)
    }

    @Test func aFolderMovedKeepsItsPhotosAndIsPersisted() throws {
        let f = try Fixture()
        for relative in ["a/1.jpg", "a/b/2.jpg", "a/b/c/3.jpg", "other/4.jpg"] { try f.write(relative) }
        for (dir, name) in [("a", "1.jpg"), ("a/b", "2.jpg"), ("a/b/c", "3.jpg"), ("other", "4.jpg")] { try f.reconcile(dir, [name]) }
        let ids = ["a/1.jpg", "a/b/2.jpg", "a/b/c/3.jpg"].map { f.id($0) }

        try f.state.folderMoved(root: f.rootID, from: "a", to: "other/moved")
        #expect(["other/moved/1.jpg", "other/moved/b/2.jpg", "other/moved/b/c/3.jpg"].map { f.id($0) } == ids)
        #expect(f.state.library.folders(root: f.rootID, within: "other").map(\.path.lossyString).sorted()
                == ["other", "other/moved", "other/moved/b", "other/moved/b/c"])
        #expect(f.state.library.folders(root: f.rootID, within: "a").isEmpty)

        try f.restart()
        #expect(["other/moved/1.jpg", "other/moved/b/2.jpg", "other/moved/b/c/3.jpg"].map { f.id($0) } == ids)
        // The subtree hangs together after loading: removing it takes everything below.
        _ = try f.state.library.batch { try f.state.library.removeTree(root: f.rootID, path: "other/moved") }
        #expect(f.paths == ["other/4.jpg"])
    }

    /// A new folder's rows are added by its plan unfiled under their names and
    /// filed together, in the plan's name order, at the folder's end: after it,
    /// every name finds its row, and the same listing again changes nothing.
    @Test func aNewFolderAddedByItsPlanHasEveryNameFiled() throws {
        let f = try Fixture(groups: true)
        let names = ["b.xmp", "B.CR2", "a.jpg", "B.JPG", "a.CR2", "c.png", "B.CR2.xmp", "a.MOV", "IMG_2.HEIC", "IMG_2.MOV", "IMG_10.jpg"]
        for name in names { try f.write("d/" + name, name) }
        let files = try names.map { try f.scanned("d/" + $0) }
        let plan = FolderGroupPlan(names: files.map(\.name), settings: GroupSettings(enabled: true, shown: .rendered))
        let ordered = plan.order.map { files[Int($0)] }
        var seen = IDSet()
        var arrivals = HeldArrivals()
        try f.state.reconcile(root: f.rootID, folders: [ScannedFolder(path: "d", files: ordered[...], complete: true, groups: plan.inOrder())],
                              deferRemovals: true, coalesceAdded: true, seen: &seen, arrivals: &arrivals)
        let library = f.state.library
        let folder = try #require(library.folderID(root: f.rootID, path: "d"))
        #expect(library.members(ofFolder: folder).map(\.name) == names.map { ByteString($0) }.sorted(), "filed in name order")
        for name in names {
            let id = try #require(f.id("d/" + name), "\(name) is filed")
            #expect(library.photo(id)?.name == ByteString(name))
        }
        #expect(library.photo(try #require(f.id("d/B.CR2")))?.groupID == f.id("d/B.JPG"), "grouped as planned")
        let writes = f.writes
        #expect(try f.reconcile("d", names).isEmpty, "the same files again: nothing changes")
        #expect(f.writes == writes)
    }

    @Test func pendingCaptureTimesOfARootThatCameBackAreQueuedAgain() throws {
        let f = try Fixture()
        try f.write("a.jpg")
        try f.write("b.jpg")
        try f.reconcile("", ["a.jpg", "b.jpg"])
        #expect(f.state.library.pendingCaptureByRoot[f.rootID] == 2)
        // The reader dropped them while the root was offline.
        f.state.capturePending.removeAll()
        f.state.requeuePendingCaptures(root: f.rootID)
        #expect(Set(f.state.capturePending.queued) == Set([f.id("a.jpg"), f.id("b.jpg")].compactMap { $0 }))
    }
    /// A scan step adds a new folder's rows with the groups its plan gives
    /// (`FolderGroupPlan`); a file it cannot add as planned (here a share's file
    /// held to be paired with a photo that vanished) has the folder grouped again
    /// whole, as the rows stand: the RAW's own sidecar is an orphan until the RAW
    /// is there, then joins it, and the RAW keeps its id.
    @Test func aNewFolderWhoseFileIsHeldIsGroupedAsItsRowsStand() throws {
        let f = try Fixture(groups: true)
        try f.write("a/IMG_1.CR2", "raw")
        try f.reconcile("a", ["IMG_1.CR2"])
        let raw = try #require(f.id("a/IMG_1.CR2"))
        f.state.roots[f.rootID]?.onShare = true
        // Renamed on the server, beside a JPEG and the RAW's sidecar (size and time kept).
        try FileManager.default.createDirectory(atPath: f.root + "/b", withIntermediateDirectories: true)
        #expect(Glibc.rename(f.root + "/a/IMG_1.CR2", f.root + "/b/IMG_1.CR2") == 0)
        try f.write("b/IMG_1.JPG")
        try f.write("b/IMG_1.CR2.xmp", "edits")
        // The sidecar comes before the RAW in the listing: placed, then the RAW held.
        let files = try ["IMG_1.CR2.xmp", "IMG_1.JPG", "IMG_1.CR2"].map { try f.scanned("b/" + $0) }
        let plan = FolderGroupPlan(names: files.map(\.name), settings: GroupSettings(enabled: true, shown: .rendered))
        #expect(plan.role == [.sidecar, .shown, .member])
        var seen = IDSet()
        var arrivals = HeldArrivals()
        try f.state.reconcile(root: f.rootID, folders: [ScannedFolder(path: "b", files: files[...], complete: true, groups: plan)],
                              deferRemovals: true, coalesceAdded: true, seen: &seen, arrivals: &arrivals)
        #expect(arrivals.files.map(\.file.name) == ["IMG_1.CR2"], "held to be paired at the scan's end")
        let library = f.state.library
        let jpeg = try #require(f.id("b/IMG_1.JPG"))
        #expect(library.photo(jpeg)?.groupID == jpeg && library.photo(jpeg)?.role == .shown)
        #expect(f.id("b/IMG_1.CR2.xmp").flatMap { library.photo($0) }?.role == .orphan, "no RAW here yet")
        try f.state.finishScan(root: f.rootID, seen: seen, seenFolders: ["", "a", "b"], unreadable: [], arrivals: arrivals,
                               coalesceAdded: true)
        #expect(f.id("b/IMG_1.CR2") == raw, "paired: the RAW keeps its id")
        #expect(library.photo(raw)?.groupID == jpeg && library.photo(raw)?.role == .member)
        #expect(f.id("b/IMG_1.CR2.xmp").flatMap { library.photo($0) }?.role == .sidecar)
    }
}
