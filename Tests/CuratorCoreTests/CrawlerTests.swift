// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Foundation
import Glibc
import Synchronization
import Testing

/// The crawler on its own: hints and scans over a real folder and a real index,
/// with a stand-in for the inotify source. What it decides comes from the disk.
@Suite struct CrawlerTests {
    @Test func aFolderIsWatchedBeforeItIsRead() throws {
        let f = try CrawlerFixture()
        try f.write("a/x.jpg")
        try f.write("a/b/y.jpg")
        try f.write("z.jpg")
        // Written after the folder was opened, as its watch is being set: the
        // listing that follows the watch must find it.
        // The hook holds the fixture: let go of it at the end, or the scratch folder is never removed.
        defer { f.watcher.duringWatch = { _ in } }
        f.watcher.duringWatch = { directory in
            if directory.path == ByteString("a") { _ = try? f.write("a/late.jpg") }
        }
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        #expect(Set(f.ids.keys) == ["a/x.jpg", "a/b/y.jpg", "z.jpg", "a/late.jpg"])
        #expect(Set(f.watcher.watched) == [.empty, ByteString("a"), ByteString("a/b")])
        #expect(f.state.roots[f.rootID]?.scanning == false)
    }

    @Test func renamesPairedByCookieKeepTheID() throws {
        let f = try CrawlerFixture()
        try f.write("a/x.jpg")
        f.mkdir("b")
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        let id = try #require(f.ids["a/x.jpg"])
        f.rename("a/x.jpg", "b/renamed.jpg")
        f.crawler.apply([f.hint(.movedFrom(ByteString("a/x.jpg"), cookie: 1, isDirectory: false)),
                         f.hint(.movedTo(ByteString("b/renamed.jpg"), cookie: 1, isDirectory: false))])
        #expect(f.ids == ["b/renamed.jpg": id])

        // A folder renamed: its photos keep their ids, and it is read again (a
        // name that is excluded now, or no longer, changes what is indexed).
        f.rename("b", "c")
        f.crawler.apply([f.hint(.movedFrom(ByteString("b"), cookie: 2, isDirectory: true)),
                         f.hint(.movedTo(ByteString("c"), cookie: 2, isDirectory: true))])
        #expect(f.ids == ["c/renamed.jpg": id])
        #expect(f.crawler.scans.map(\.kind) == [.subtree(ByteString("c"))])
        f.scanAll()
        #expect(f.ids == ["c/renamed.jpg": id])
    }

    /// A photo rewritten, then its folder renamed, before the crawler looked: the
    /// rewrite's hint names a path gone with the rename, which is not a deletion.
    @Test func aPhotoWhoseFolderWasRenamedAfterItsEventKeepsItsID() throws {
        let f = try CrawlerFixture()
        try f.write("album/x.jpg")
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        let id = try #require(f.ids["album/x.jpg"])
        try f.write("album/x.jpg", "rewritten")
        f.rename("album", "trip")
        f.crawler.apply([f.path("album/x.jpg", .written),
                         f.hint(.movedFrom(ByteString("album"), cookie: 3, isDirectory: true)),
                         f.hint(.movedTo(ByteString("trip"), cookie: 3, isDirectory: true))])
        f.scanAll()
        #expect(f.ids == ["trip/x.jpg": id])
        #expect(f.state.library.photos[id]?.size == Int64("rewritten".utf8.count))
    }

    @Test func aMoveWithoutItsPartnerIsAMoveOutOnceItHasWaited() throws {
        let f = try CrawlerFixture()
        try f.write("x.jpg")
        try f.write("trashed.jpg")
        try f.write("gone/y.jpg")
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        let outside = f.scratch.child("outside")
        #expect(mkdir(outside.lossyString, 0o755) == 0)
        #expect(rename(f.root.appending(ByteString("x.jpg")).lossyString, outside.appending(ByteString("x.jpg")).lossyString) == 0)
        #expect(rename(f.root.appending(ByteString("gone")).lossyString, outside.appending(ByteString("gone")).lossyString) == 0)
        #expect(rename(f.root.appending(ByteString("trashed.jpg")).lossyString, outside.appending(ByteString("t.jpg")).lossyString) == 0)
        // A batch moves this one out itself and reports it: the crawler leaves it be.
        f.moves.outgoing.expect([WatchTable.Entry(rootID: f.rootID, path: ByteString("trashed.jpg"))])
        f.crawler.apply([f.hint(.movedFrom(ByteString("x.jpg"), cookie: 1, isDirectory: false)),
                         f.hint(.movedFrom(ByteString("gone"), cookie: 2, isDirectory: true)),
                         f.hint(.movedFrom(ByteString("trashed.jpg"), cookie: 3, isDirectory: false))])
        let seenAt = try #require(f.crawler.pendingMoves.values.map(\.seenAt).min())
        f.crawler.settle(now: seenAt + 1_000_000)
        #expect(f.ids.count == 3, "its partner may still come")
        #expect(f.crawler.oldestOutstandingWork != nil, "a sync waits for it")
        f.crawler.settle(now: seenAt + Crawler.moveSettleNs)
        #expect(Set(f.ids.keys) == ["trashed.jpg"])
        #expect(f.crawler.oldestOutstandingWork == nil)
        // The folder that left still exists: its watches are removed, not just forgotten.
        #expect(f.watcher.forgotten.map(\.path) == [ByteString("gone")] && f.watcher.forgotten.first?.unwatch == true)
        #expect(f.moves.outgoing.end([WatchTable.Entry(rootID: f.rootID, path: ByteString("trashed.jpg"))]) == [0])
    }

    /// Issue 55: a folder's moved-out half, settled, looks at what stands at its path.
    /// The very folder back (moved out and straight in again) keeps its photos, ids and
    /// watches; another in its place is read afresh in the move's place in the order,
    /// so that a cookie that waited for the move waits for that read too.
    @Test func aFolderMovedOutIsSettledByWhatStandsAtItsPath() throws {
        let f = try CrawlerFixture()
        try f.write("album/x.jpg")
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        let id = try #require(f.ids["album/x.jpg"])
        let status = try #require(try FileStatus.ifExists(f.root.appending(ByteString("album"))))
        let album = WatchTable.DirectoryKey(device: status.device, inode: status.inode)

        // Out and straight back in: two halves that never pair, the folder where it was.
        f.crawler.apply([f.hint(.movedFrom(ByteString("album"), cookie: 1, isDirectory: true, identity: album)),
                         f.hint(.movedTo(ByteString("album"), cookie: 2, isDirectory: true))])
        let seenAt = try #require(f.crawler.pendingMoves.values.map(\.seenAt).min())
        f.crawler.settle(now: seenAt + Crawler.moveSettleNs)
        #expect(f.ids == ["album/x.jpg": id])
        #expect(f.watcher.forgotten.isEmpty, "its watches hold")
        f.scanAll()
        #expect(f.ids == ["album/x.jpg": id])

        // Another folder in its place (the one moved out stands elsewhere now).
        #expect(Glibc.rename(f.root.appending(ByteString("album")).lossyString, f.scratch.child("outside").lossyString) == 0)
        f.mkdir("album")
        try f.write("album/y.jpg")
        f.crawler.apply([f.hint(.movedFrom(ByteString("album"), cookie: 3, isDirectory: true, identity: album))])
        let move = try #require(f.crawler.oldestOutstandingWork)
        let seen = try #require(f.crawler.pendingMoves.values.map(\.seenAt).min())
        f.crawler.settle(now: seen + Crawler.moveSettleNs)
        #expect(f.ids["album/x.jpg"] == nil, "the folder that left took its photos")
        #expect(f.watcher.forgotten.map(\.path) == [ByteString("album")])
        #expect(f.crawler.scans.map(\.kind) == [.subtree(ByteString("album"))])
        #expect(f.crawler.oldestOutstandingWork == move, "the read of the new folder holds the move's place")
        f.scanAll()
        #expect(Set(f.ids.keys) == ["album/y.jpg"])
    }

    @Test func anUndosOwnMoveBackIsLeftToItAndAnyOtherArrivalIsIndexed() throws {
        let f = try CrawlerFixture()
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        // Two files arrive from outside the root (MOVED_TO without a MOVED_FROM): an
        // undo moves one back and indexes it itself; the other is somebody else's.
        try f.write("back.jpg")
        try f.write("other.jpg")
        f.moves.incoming.expect([WatchTable.Entry(rootID: f.rootID, path: ByteString("back.jpg"))])
        f.crawler.apply([f.hint(.movedTo(ByteString("back.jpg"), cookie: 7, isDirectory: false)),
                         f.hint(.movedTo(ByteString("other.jpg"), cookie: 8, isDirectory: false))])
        #expect(Set(f.ids.keys) == ["other.jpg"], "the undo's arrival is not indexed a second time by the watcher")
        #expect(!f.moves.incoming.isExpecting && !f.moves.isExpecting)
        #expect(f.moves.incoming.end([WatchTable.Entry(rootID: f.rootID, path: ByteString("back.jpg"))]) == [0],
                "the undo hears that its arrival was skipped, to have it looked at if it did not index it")
        // A second arrival at that path once the undo is over is the watcher's again.
        f.crawler.apply([f.hint(.movedTo(ByteString("back.jpg"), cookie: 9, isDirectory: false))])
        #expect(Set(f.ids.keys) == ["other.jpg", "back.jpg"])
    }

    @Test func aFileBeingWrittenIsIndexedAtItsCloseNotBefore() throws {
        let f = try CrawlerFixture()
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        try f.write("new.jpg", "half")
        f.crawler.apply([f.path("new.jpg", .awaitingClose)])
        f.crawler.apply([f.path("new.jpg", .attributes)])
        #expect(f.ids.isEmpty)
        #expect(f.crawler.pendingCreates[ByteString("new.jpg")] != nil)
        try f.write("new.jpg", "written whole")
        f.crawler.apply([f.path("new.jpg", .written)])
        #expect(f.ids.keys.sorted() == ["new.jpg"])
        #expect(f.state.library.photos.values.first?.size == Int64("written whole".utf8.count))
        #expect(f.crawler.pendingCreates.isEmpty)
    }

    @Test func theDiskDecidesWhatAHintMeans() throws {
        let f = try CrawlerFixture()
        try f.write("a.jpg")
        try f.write("dir/b.jpg")
        try f.write("notes.txt")
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        #expect(Set(f.ids.keys) == ["a.jpg", "dir/b.jpg"])
        // A hint of a deletion for a file that is there is a change; one of a close
        // for a file that is gone is a deletion; a folder deleted takes its photos.
        try f.write("a.jpg", "rewritten")
        f.remove("dir/b.jpg")
        #expect(rmdir(f.root.appending(ByteString("dir")).lossyString) == 0)
        f.crawler.apply([f.path("a.jpg", .deleted), f.path("dir/b.jpg", .written), f.path("dir", .directoryDeleted),
                         f.path("notes.txt", .written)])
        #expect(Set(f.ids.keys) == ["a.jpg"])
        #expect(f.state.library.photos.values.first?.size == Int64("rewritten".utf8.count))
        // A deleted folder's watches are dropped by the kernel: forgotten, not removed.
        #expect(f.watcher.forgotten.map(\.path) == [ByteString("dir")] && f.watcher.forgotten.first?.unwatch == false)
    }

    /// Issue 12's first bug: a photo renamed across folders while a full rescan runs
    /// was removed by the scan's end (neither folder showed it when the scan read
    /// it) and added again by the rename's events: a new id.
    @Test func aPhotoRenamedAcrossFoldersDuringAFullScanKeepsItsID() throws {
        let f = try CrawlerFixture()
        try f.write("a/x.jpg")
        try f.write("b/y.jpg")
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        let before = f.ids
        #expect(before.count == 2)

        f.crawler.sliceNanoseconds = 0
        f.crawler.directoriesPerWatch = 1
        f.crawler.scheduleFullScan(reason: "test")
        #expect(f.crawler.runScanStep() == .working)  // the root
        #expect(f.crawler.runScanStep() == .working)  // one of the two folders
        let job = try #require(f.crawler.scans.first)
        // From the folder not read yet to the one read already: neither shows it to the scan.
        let (from, to) = job.seenFolders.contains(ByteString("b")) ? ("a/x.jpg", "b/x.jpg") : ("b/y.jpg", "a/y.jpg")
        f.rename(from, to)
        f.crawler.apply([f.hint(.movedFrom(ByteString(from), cookie: 5, isDirectory: false)),
                         f.hint(.movedTo(ByteString(to), cookie: 5, isDirectory: false))])
        #expect(f.crawler.runScanStep() == .readyToFinish)
        #expect(f.crawler.finishFullScan() == .finished(cookies: []))
        var expected = before
        expected[to] = expected.removeValue(forKey: from)
        #expect(f.ids == expected)
    }

    /// The same for a folder renamed during a full scan after the scan read it: the
    /// scan's end must not take it (and its photos) for gone.
    @Test func aFolderRenamedDuringAFullScanKeepsItsPhotos() throws {
        let f = try CrawlerFixture()
        try f.write("a/x.jpg")
        try f.write("a/deep/y.jpg")
        try f.write("b/z.jpg")
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        let before = f.ids

        f.crawler.sliceNanoseconds = 0
        f.crawler.directoriesPerWatch = 1
        f.crawler.scheduleFullScan(reason: "test")
        var step = f.crawler.runScanStep()
        while step == .working, !(f.crawler.scans.first?.seenFolders.contains(ByteString("a/deep")) ?? true) {
            step = f.crawler.runScanStep()
        }
        f.rename("a", "moved")
        f.crawler.apply([f.hint(.movedFrom(ByteString("a"), cookie: 6, isDirectory: true)),
                         f.hint(.movedTo(ByteString("moved"), cookie: 6, isDirectory: true))])
        while step != .readyToFinish && step != .idle { step = f.crawler.runScanStep() }
        _ = f.crawler.finishFullScan()
        f.scanAll()
        #expect(f.ids == ["moved/x.jpg": before["a/x.jpg"], "moved/deep/y.jpg": before["a/deep/y.jpg"], "b/z.jpg": before["b/z.jpg"]])
    }

    /// Issue 14: the start-up scan was quadratic, because a copy of the running job
    /// left in the queue shared its `seenPhotos`, and the first insert of every step
    /// copied the whole set. A step must insert into the job's own set, in place.
    /// A first scan adds each new folder's rows with their groups already set
    /// (`FolderGroupPlan`, made by the walker) and groups no folder again after:
    /// over random folders of shots, pairs, Live Photos, sidecars of both kinds,
    /// darktable duplicates, orphans and ambiguous names, each folder's groups are
    /// those grouping it again whole gives, each group bears its shown photo's id,
    /// and its rows are those bearing that id.
    @Test func aNewFoldersRowsComeWithTheGroupsGroupingItWouldGive() throws {
        let f = try CrawlerFixture()
        let bases = ["IMG_0001", "img_0001", "IMG_0002", "IMG_0001_01", "Ré"]
        let photos = ["JPG", "jpg", "HEIC", "CR2", "cr2", "NEF", "MOV"]
        let sidecars = ["xmp", "XMP", "aae", "pp3", "thm"]
        var random = SplitMix64(seed: 15)
        for folder in 0..<200 {
            var names = Set<String>()
            for _ in 0..<Int.random(in: 1...10, using: &random) {
                let base = bases[Int.random(in: 0..<bases.count, using: &random)]
                let photo = photos[Int.random(in: 0..<photos.count, using: &random)]
                let sidecar = sidecars[Int.random(in: 0..<sidecars.count, using: &random)]
                switch Int.random(in: 0..<5, using: &random) {
                case 0, 1: names.insert("\(base).\(photo)")
                case 2: names.insert("\(base).\(sidecar)")
                case 3: names.insert("\(base).\(photo).\(sidecar)")
                default: names.insert("\(base).txt.\(sidecar)")
                }
            }
            for name in names { try f.write("f\(folder)/\(name)") }
        }
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        let library = f.state.library
        #expect(library.regroupedRows == 0, "a new folder's rows are placed, not grouped again")
        var members = 0
        var sidecarsJoined = 0
        for folder in library.folderIDs(inRoot: f.rootID) {
            let ids = library.photoIDs(inFolder: folder)
            for id in ids {
                let photo = try #require(library.photo(id))
                members += photo.role == .member ? 1 : 0
                sidecarsJoined += photo.role == .sidecar ? 1 : 0
                guard photo.role == .shown else { continue }
                #expect(photo.groupID == id, "\(photo.name): a new group bears its shown photo's id")
                #expect(Set(library.rows(ofGroup: id)) == Set(ids.filter { library.photo($0)?.groupID == id }), "\(photo.name)")
            }
            _ = library.takeShifts()
            try library.batch { try library.regroup(folder: folder, rows: ids) }
            let shifts = library.takeShifts()
            #expect(shifts.isEmpty, "\(shifts.map { "\(library.photo($0.id)?.name.lossyString ?? "?") \($0.fromRole)->\($0.toRole)" })")
        }
        #expect(library.listedByRoot[f.rootID] == library.photos.values.filter { $0.role == .shown }.count)
        // The folders reach every rule, not only photos alone.
        #expect(members > 40 && sidecarsJoined > 40, "\(members) members, \(sidecarsJoined) sidecars joined")
    }

    /// A folder's own scan (one made or moved in) asks which of its folders the
    /// index knows for that subtree only: asking for the root's every folder, for
    /// each of the hundreds of folders a `tar -x` makes, was most of the watcher's
    /// time at a million photos.
    @Test func aFolderScanLooksOnlyAtItsOwnSubtreesFolders() throws {
        let f = try CrawlerFixture()
        try f.write("a/x.jpg")
        try f.write("b/c/y.jpg")
        try f.write("b/e/z.jpg")
        f.mkdir("b/d")
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        #expect(f.state.foldersWithRows(root: f.rootID, within: nil) == [ByteString("a"), ByteString("b/c"), ByteString("b/e")])
        #expect(f.state.foldersWithRows(root: f.rootID, within: ByteString("b")) == [ByteString("b/c"), ByteString("b/e")])
        #expect(f.state.foldersWithRows(root: f.rootID, within: ByteString("b/c")) == [ByteString("b/c")])
        #expect(f.state.foldersWithRows(root: f.rootID, within: ByteString("new")).isEmpty)
    }

    @Test func aScanStepNeverCopiesTheSetOfPhotosSeen() throws {
        func storage(_ set: IDSet) -> UInt { set.wordsAddress }
        let f = try CrawlerFixture()
        for folder in 0..<30 {
            for photo in 0..<5 { try f.write("f\(folder)/\(photo).jpg") }
        }
        f.crawler.sliceNanoseconds = 0
        f.crawler.directoriesPerWatch = 1
        f.crawler.scheduleFullScan(reason: nil)
        #expect(f.crawler.runScanStep() == .working)
        let job = try #require(f.crawler.scans.first)
        // Room for every photo: from here on, new storage can only mean a copy.
        job.seenPhotos.reserve(through: 100_000)
        let address = storage(job.seenPhotos)
        var steps = 0
        while f.crawler.runScanStep() == .working {
            steps += 1
            #expect(storage(job.seenPhotos) == address, "step \(steps) copied the set")
        }
        #expect(steps >= 29)
        #expect(job.seenPhotos.count == 150)
        #expect(f.crawler.finishFullScan() == .finished(cookies: []))
        #expect(f.ids.count == 150)
    }

    @Test func anOfflineRootDropsItsHintsAndScans() throws {
        let f = try CrawlerFixture()
        f.crawler.scheduleFullScan(reason: nil)
        f.crawler.stop()
        #expect(f.crawler.nextScan == nil)
        try f.write("a.jpg")
        f.crawler.apply([f.path("a.jpg", .written)])
        f.crawler.scheduleFullScan(reason: "requested")
        #expect(f.crawler.scans.isEmpty && f.ids.isEmpty)
        f.crawler.start(config: f.crawler.config, watching: true)
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        #expect(f.ids.keys.sorted() == ["a.jpg"])
    }

    // MARK: issue 14: bounded holds, the walk ahead, the end in steps

    /// A scan applies several folders per hold of the lock (and per transaction),
    /// never more than `photosPerLock` photos, splitting a large folder.
    @Test func aScanAppliesSeveralFoldersPerHoldWithinItsBound() throws {
        let f = try CrawlerFixture()
        for folder in 0..<40 {
            for photo in 0..<5 { try f.write("f\(folder)/\(photo).jpg") }
        }
        for photo in 0..<230 { try f.write("big/\(photo).jpg") }
        f.crawler.photosPerLock = 50
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        #expect(f.ids.count == 430)
        let adding = f.lock.holds.map { $0.after - $0.before }.filter { $0 > 0 }
        #expect(adding.reduce(0, +) == 430)
        #expect(adding.allSatisfy { $0 <= 50 }, "holds added \(adding)")
        // One hold per folder would be 41 of them.
        #expect(adding.count < 20, "holds added \(adding)")
    }

    /// The next folders are walked (opened, watched, listed, stat'ed) on the walker
    /// thread while the last ones are applied on the crawler's.
    @Test func theWalkRunsAheadOnTheWalkerThread() throws {
        let f = try CrawlerFixture()
        for folder in 0..<40 {
            for photo in 0..<2 { try f.write("f\(folder)/\(photo).jpg") }
        }
        let names = Mutex<Set<String>>([])
        f.watcher.duringWatch = { _ in
            let text = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            names.withLock { _ = $0.insert(text.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        f.crawler.directoriesPerWatch = 2
        f.crawler.sliceNanoseconds = 10_000_000_000
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        #expect(f.ids.count == 80)
        let watchedFrom = names.withLock { $0 }
        #expect(watchedFrom.contains("curatord-walk"), "watched from \(watchedFrom)")
        #expect(Set(f.watcher.watched).count == 41)
    }

    /// The walker keeps a second group queued behind the one it walks; whatever it
    /// was handed is walked and applied within the step that handed it out (a walk
    /// reads the crawler's settings, which only change between steps). Steps of
    /// 3 ms with something always waiting, each ending while the walker has groups
    /// in hand: no walk runs between two steps, every folder is watched once,
    /// every photo indexed.
    @Test func everyGroupTheWalkerIsHandedIsAppliedWithinItsStep() throws {
        let f = try CrawlerFixture()
        for folder in 0..<120 {
            for photo in 0..<2 { try f.write("f\(folder)/\(photo).jpg") }
        }
        let crawlerThread = pthread_self()
        let inStep = Mutex(false)
        let outside = Mutex(0)
        let byWalker = Mutex(0)
        f.watcher.duringWatch = { _ in
            usleep(1_000)  // walking slower than applying, on either thread: the queued group waits its turn
            guard pthread_equal(pthread_self(), crawlerThread) == 0 else { return }
            byWalker.withLock { $0 += 1 }
            if !inStep.withLock({ $0 }) { outside.withLock { $0 += 1 } }
        }
        f.crawler.directoriesPerWatch = 2
        f.crawler.sliceNanoseconds = 3_000_000
        f.crawler.scheduleFullScan(reason: nil)
        var steps = 0
        scan: while true {
            inStep.withLock { $0 = true }
            let step = f.crawler.runScanStep(othersWaiting: { true })
            inStep.withLock { $0 = false }
            steps += 1
            switch step {
            case .readyToFinish: _ = f.crawler.finishFullScan()
            case .idle: break scan
            case .working, .outOfWatches: continue
            }
        }
        #expect(steps > 10, "the steps were cut short: \(steps)")
        #expect(byWalker.withLock { $0 } > 0, "the walker walked")
        #expect(outside.withLock { $0 } == 0, "a walk ran between two steps")
        #expect(f.ids.count == 240)
        #expect(Set(f.watcher.watched).count == 121 && f.watcher.watched.count == 121, "each folder watched once")
    }

    /// Where applying is quicker than walking (a warm restart), the crawler's thread
    /// walks too while the walker is at it, instead of waiting for it: two cores
    /// stat the tree. Here the walker is slowed down; every folder is still watched
    /// once and indexed.
    @Test func theCrawlersThreadWalksTooWhileTheWalkerIsBusy() throws {
        let f = try CrawlerFixture()
        for folder in 0..<60 {
            for photo in 0..<2 { try f.write("f\(folder)/\(photo).jpg") }
        }
        let crawlerThread = pthread_self()
        let fromCrawler = Mutex(0)
        f.watcher.duringWatch = { _ in
            if pthread_equal(pthread_self(), crawlerThread) != 0 {
                fromCrawler.withLock { $0 += 1 }
            } else {
                usleep(20_000)  // a slow walk: a share, or a cold cache
            }
        }
        f.crawler.directoriesPerWatch = 4
        f.crawler.sliceNanoseconds = 10_000_000_000
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        #expect(f.ids.count == 120)
        #expect(Set(f.watcher.watched).count == 61 && f.watcher.watched.count == 61, "each folder watched once")
        // Without it, the crawler's thread walks only each step's first folder (one step here).
        let walkedHere = fromCrawler.withLock { $0 }
        #expect(walkedHere >= 10, "the crawler's thread walked \(walkedHere) of 61 folders")
        #expect(walkedHere < 61, "the walker walked none")
    }

    /// A first scan of a root with no photo looks none up by inode (there is none
    /// renamed while the daemon was away to find); a scan of a root with photos does,
    /// and a photo renamed across folders between two scans keeps its id.
    @Test func onlyAScanOfARootWithPhotosLooksForPhotosRenamedMeanwhile() throws {
        let f = try CrawlerFixture()
        try f.write("a/x.jpg")
        try f.write("b/keep.jpg")
        f.crawler.scheduleFullScan(reason: nil)
        #expect(f.crawler.runScanStep() != .idle)
        #expect(f.crawler.scans.first?.adoptsRenamed == false)
        f.scanAll()
        let id = try #require(f.ids["a/x.jpg"])

        f.rename("a/x.jpg", "b/y.jpg")  // no hint: as while the daemon was away
        f.crawler.scheduleFullScan(reason: "test")
        #expect(f.crawler.runScanStep() != .idle)
        #expect(f.crawler.scans.first?.adoptsRenamed == true)
        f.scanAll()
        #expect(f.ids["b/y.jpg"] == id)
        #expect(Set(f.ids.keys) == ["b/keep.jpg", "b/y.jpg"])
    }

    /// A step goes on past its slice while nothing else waits for the watcher's
    /// thread, up to its longest; it ends at the slice as soon as something does.
    @Test func aStepGoesOnPastItsSliceOnlyWhileNothingElseWaits() throws {
        let f = try CrawlerFixture()
        for folder in 0..<30 {
            try f.write("f\(folder)/0.jpg")
        }
        f.crawler.directoriesPerWatch = 1
        f.crawler.sliceNanoseconds = 1
        f.crawler.longestSliceNanoseconds = 60_000_000_000

        // Nothing waits: the whole tree in one step.
        var asked = 0
        f.crawler.scheduleFullScan(reason: nil)
        #expect(f.crawler.runScanStep(othersWaiting: { asked += 1; return false }) == .readyToFinish)
        #expect(asked > 0)
        #expect(f.crawler.finishFullScan() == .finished(cookies: []))
        #expect(f.ids.count == 30)

        // Something waits from the start: the step ends at its slice, the rest is left.
        asked = 0
        f.crawler.scheduleFullScan(reason: "test")
        #expect(f.crawler.runScanStep(othersWaiting: { asked += 1; return true }) == .working)
        #expect(asked > 0)
        #expect(f.crawler.scans.first?.pending.isEmpty == false)

        // Without the question (a remote root's lane), the slice is the step.
        var steps = 0
        var step = Crawler.ScanStep.working
        while step == .working {
            step = f.crawler.runScanStep()
            steps += 1
        }
        #expect(step == .readyToFinish)
        #expect(steps > 1, "\(steps) steps")
        #expect(f.crawler.finishFullScan() == .finished(cookies: []))
        #expect(f.ids.count == 30)
    }

    /// The end of a full scan removes what it did not see in steps of a bounded
    /// size, each its own hold of the lock; together they remove all of it, and
    /// drop the folders gone, deepest first.
    @Test func theEndOfAFullScanRemovesWhatIsGoneInBoundedSteps() throws {
        let f = try CrawlerFixture()
        for folder in 0..<30 {
            for photo in 0..<4 { try f.write("f\(folder)/\(photo).jpg") }
        }
        try f.write("gone/a.jpg")
        try f.write("gone/deep/b.jpg")
        try f.write("gone/deep/c.jpg")
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        let before = f.ids
        #expect(before.count == 123)

        f.remove("f3/0.jpg")
        f.remove("f17/1.jpg")
        f.remove("f17/2.jpg")
        for photo in 0..<4 { f.remove("f29/\(photo).jpg") }
        for file in ["gone/a.jpg", "gone/deep/b.jpg", "gone/deep/c.jpg"] { f.remove(file) }
        #expect(Glibc.rmdir(f.root.appending(ByteString("gone/deep")).lossyString) == 0)
        #expect(Glibc.rmdir(f.root.appending(ByteString("gone")).lossyString) == 0)

        f.crawler.finishBudgetPerLock = 10
        f.crawler.foldersDroppedPerLock = 1
        f.crawler.scheduleFullScan(reason: "test")
        f.lock.forgetHolds()
        f.scanAll()
        var expected = before
        for path in ["f3/0.jpg", "f17/1.jpg", "f17/2.jpg", "gone/a.jpg", "gone/deep/b.jpg", "gone/deep/c.jpg"] + (0..<4).map({ "f29/\($0).jpg" }) {
            expected[path] = nil
        }
        #expect(f.ids == expected)
        let removing = f.lock.holds.map { $0.before - $0.after }.filter { $0 > 0 }
        #expect(removing.reduce(0, +) == 10)
        #expect(removing.count >= 3, "the removals came in holds of \(removing)")
        #expect(removing.allSatisfy { $0 <= 4 }, "the removals came in holds of \(removing)")
        #expect(f.state.library.folderID(root: f.rootID, path: ByteString("gone")) == nil)
        #expect(f.state.library.folderID(root: f.rootID, path: ByteString("gone/deep")) == nil)
        #expect(f.state.library.folderID(root: f.rootID, path: ByteString("f29")) != nil)
        #expect(f.state.roots[f.rootID]?.scanning == false)
    }

    /// Another folder put at the root's path while a full scan walks it (an unmount,
    /// a restore from a backup): the scan ends without removing anything, and says
    /// the root changed; the index still holds every photo it held.
    @Test func aFullScanWhoseRootIsReplacedMidScanRemovesNothing() throws {
        let f = try CrawlerFixture()
        for folder in ["a", "b", "c", "d"] {
            for photo in 0..<3 { try f.write("\(folder)/\(photo).jpg") }
        }
        f.crawler.scheduleFullScan(reason: nil)
        f.scanAll()
        let before = f.ids
        #expect(before.count == 12)

        let swapped = Mutex(false)
        defer { f.watcher.duringWatch = { _ in } }  // it holds the fixture (and its scratch folder) otherwise
        f.watcher.duringWatch = { directory in
            guard directory.path == ByteString("b"), !swapped.withLock({ $0 }) else { return }
            swapped.withLock { $0 = true }
            #expect(Glibc.rename(f.root.lossyString, f.scratch.child("root.old").lossyString) == 0)
            #expect(Glibc.mkdir(f.root.lossyString, 0o755) == 0)
            _ = try? f.write("a/0.jpg", "another")
        }
        f.crawler.directoriesPerWatch = 1
        f.crawler.sliceNanoseconds = 10_000_000_000
        f.crawler.scheduleFullScan(reason: "test")
        var ends: [Crawler.FullScanEnd] = []
        while true {
            switch f.crawler.runScanStep() {
            case .idle: break
            case .working, .outOfWatches: continue
            case .readyToFinish: ends.append(f.crawler.finishFullScan()); continue
            }
            break
        }
        let didSwap = swapped.withLock { $0 }
        #expect(didSwap)
        #expect(ends == [.rootChanged])
        #expect(Set(f.ids.keys) == Set(before.keys))
        #expect(f.state.roots[f.rootID]?.scanning == false)
    }
}

/// How a scan step's folders are grouped into holds of the lock.
@Suite struct ScanHoldsTests {
    private func folder(_ path: String, _ count: Int) -> ScannedFolder {
        let status = FileStatus(stat())
        let files = (0..<count).map { ScannedFile(name: ByteString("\(path)-\($0).jpg"), status: status, type: .jpeg) }
        return ScannedFolder(path: ByteString(path), files: files[...], complete: true)
    }

    @Test func smallFoldersShareAHoldUpToTheLimit() {
        let holds = ScanHolds.group([folder("a", 3), folder("b", 3), folder("c", 3), folder("e", 0)], limit: 6, splitting: true)
        #expect(holds.map { $0.map(\.path.lossyString) } == [["a", "b"], ["c", "e"]])
        #expect(holds.joined().allSatisfy { $0.complete })
    }

    @Test func aLargeFolderIsSplitOnlyWhenAllowed() {
        let split = ScanHolds.group([folder("a", 2), folder("big", 10), folder("c", 1)], limit: 4, splitting: true)
        #expect(split.map { $0.map { "\($0.path.lossyString):\($0.files.count)" } } == [["a:2"], ["big:4"], ["big:4"], ["big:2", "c:1"]])
        #expect(split.joined().filter { $0.path == ByteString("big") }.allSatisfy { !$0.complete })
        let names = split.joined().filter { $0.path == ByteString("big") }.flatMap { $0.files.map(\.name) }
        #expect(names == folder("big", 10).files.map(\.name))

        let whole = ScanHolds.group([folder("a", 2), folder("big", 10), folder("c", 1)], limit: 4, splitting: false)
        #expect(whole.map { $0.map { "\($0.path.lossyString):\($0.files.count)" } } == [["a:2"], ["big:10"], ["c:1"]])
        #expect(whole.joined().allSatisfy { $0.complete })
    }

    /// A sidecar weighs a quarter of a photo (rounded up per folder), so a tree of
    /// RAW+JPEG pairs and `.xmp`s takes no more holds than its photos call for.
    @Test func sidecarsWeighAQuarterOfAPhoto() {
        func withSidecars(_ path: String, photos: Int, sidecars: Int) -> ScannedFolder {
            var f = folder(path, photos)
            let status = FileStatus(stat())
            f.files += (0..<sidecars).map { ScannedFile(name: ByteString("\(path)-\($0).xmp"), status: status, type: .xmp) }
            return f
        }
        #expect(ScanHolds.weight(of: withSidecars("a", photos: 3, sidecars: 0).files) == 3)
        #expect(ScanHolds.weight(of: withSidecars("a", photos: 3, sidecars: 1).files) == 4)
        #expect(ScanHolds.weight(of: withSidecars("a", photos: 3, sidecars: 8).files) == 5)
        #expect(ScanHolds.weight(of: withSidecars("a", photos: 0, sidecars: 0).files) == 1)
        // 4 + 1, 4 + 1: two folders of four photos and four sidecars share a hold of 10.
        let holds = ScanHolds.group([withSidecars("a", photos: 4, sidecars: 4), withSidecars("b", photos: 4, sidecars: 4),
                                     folder("c", 3)], limit: 10, splitting: true)
        #expect(holds.map { $0.map(\.path.lossyString) } == [["a", "b"], ["c"]])
    }
}
