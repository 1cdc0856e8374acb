// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Testing

/// The small components of the state: tombstones, the capture queue, the view cache.
@Suite struct SmallStateTests {
    @Test func aTombstoneGivesItsIdBackOnce() {
        var tombstones = Tombstones()
        tombstones.bury(Burial(id: 7, identity: FileIdentity(device: 1, inode: 99, size: 10, mtimeNs: 5),
                               rootName: "r", relativePath: ByteString("a.jpg")))
        tombstones.bury(Burial(id: 8, identity: FileIdentity(device: 2, inode: 99, size: 10, mtimeNs: 5),
                               rootName: "r", relativePath: ByteString("b.jpg")))
        #expect(tombstones.count == 2)
        #expect(tombstones.id(device: 1, inode: 99) == 7)
        #expect(tombstones.exhume(device: 3, inode: 99) == nil)
        #expect(tombstones.exhume(device: 1, inode: 99) == 7)
        #expect(tombstones.exhume(device: 1, inode: 99) == nil)
        // Its path key went with it.
        #expect(tombstones.exhume(rootName: "r", relativePath: ByteString("a.jpg"), size: 10, mtimeNs: 5) == nil)
        #expect(tombstones.id(device: 2, inode: 99) == 8)
    }

    /// A photo gone from the trash for good is forgotten by both keys; the others stay.
    @Test func aForgottenTombstoneGivesNothingBack() {
        var tombstones = Tombstones()
        tombstones.bury(Burial(id: 7, identity: FileIdentity(device: 1, inode: 99, size: 10, mtimeNs: 5),
                               rootName: "r", relativePath: ByteString("a.jpg")))
        tombstones.bury(Burial(id: 8, identity: FileIdentity(device: 1, inode: 100, size: 10, mtimeNs: 5),
                               rootName: "r", relativePath: ByteString("b.jpg")))
        tombstones.forget(7)
        tombstones.forget(42)
        #expect(tombstones.count == 1)
        #expect(tombstones.exhume(device: 1, inode: 99) == nil)
        #expect(tombstones.exhume(rootName: "r", relativePath: ByteString("a.jpg"), size: 10, mtimeNs: 5) == nil)
        #expect(tombstones.id(device: 1, inode: 100) == 8)
        // Buried again under another inode (trashed, restored, trashed again): the old one is no key any more.
        tombstones.bury(Burial(id: 8, identity: FileIdentity(device: 1, inode: 101, size: 10, mtimeNs: 5),
                               rootName: "r", relativePath: ByteString("b.jpg")))
        #expect(tombstones.id(device: 1, inode: 100) == nil)
        tombstones.forget(8)
        #expect(tombstones.count == 0)
    }

    /// Where inode numbers do not last (a share), a photo put back is known by its
    /// root, path, size and mtime; anything else at that path is another photo.
    @Test func aTombstoneIsFoundByPathSizeAndTime() {
        var tombstones = Tombstones()
        tombstones.bury(Burial(id: 7, identity: FileIdentity(device: 1, inode: 99, size: 10, mtimeNs: 5),
                               rootName: "nas", relativePath: ByteString("2024/a.jpg")))
        #expect(tombstones.exhume(rootName: "nas", relativePath: ByteString("2024/a.jpg"), size: 11, mtimeNs: 5) == nil)
        #expect(tombstones.exhume(rootName: "nas", relativePath: ByteString("2024/a.jpg"), size: 10, mtimeNs: 6) == nil)
        #expect(tombstones.exhume(rootName: "pics", relativePath: ByteString("2024/a.jpg"), size: 10, mtimeNs: 5) == nil)
        #expect(tombstones.exhume(rootName: "nas", relativePath: ByteString("2024/a.jpg"), size: 10, mtimeNs: 5) == 7)
        #expect(tombstones.exhume(rootName: "nas", relativePath: ByteString("2024/a.jpg"), size: 10, mtimeNs: 5) == nil)
        #expect(tombstones.exhume(device: 1, inode: 99) == nil, "handed back once, by either key")
    }

    @Test func theCaptureQueueHandsOutWhatIsStillToBeRead() {
        var queue = CaptureQueue()
        for id in 1...6 { queue.append(Int64(id), root: 1) }
        queue.append(7, root: 2)
        var asked: [Int64] = []
        let work = queue.take(from: 1, limit: 2) { id in
            asked.append(id)
            return id == 5 ? nil : ByteString("/p/\(id)")
        }
        #expect(work.map(\.0) == [6, 4], "newest first; one no longer to be read is dropped")
        #expect(work.map(\.1) == [ByteString("/p/6"), ByteString("/p/4")])
        #expect(asked == [6, 5, 4])
        #expect(queue.count == 4)
        #expect(queue.take(from: 1, limit: 10) { ByteString("/p/\($0)") }.map(\.0) == [3, 2, 1])
        #expect(queue.roots == [2], "another root's photos wait in their own queue")
        queue.drop(root: 2)
        #expect(queue.isEmpty)
        queue.append(9, root: 1)
        queue.removeAll()
        #expect(queue.queued.isEmpty)
    }

    @Test func theViewCacheHoldsAFewViewsOfOneGeneration() {
        var cache = ViewCache()
        let view = ResolvedView(slots: [2, 0, 1])
        let byName = ViewSpec(sort: .name)
        #expect(cache.lookup(byName, generation: 1) == nil)
        cache.store(byName, view: view)
        #expect(cache.lookup(byName, generation: 1)?.slots == [2, 0, 1])
        // The library changed: nothing cached is valid.
        #expect(cache.lookup(byName, generation: 2) == nil)
        #expect(cache.count == 0)
        for sort in [SortKey.name, .size, .mtime, .capture] { cache.store(ViewSpec(sort: sort), view: view) }
        #expect(cache.count == 4)
        cache.store(ViewSpec(sort: .custom), view: view)
        #expect(cache.count == 1, "a fifth view starts afresh rather than keep every sort tried")
        #expect(cache.lookup(ViewSpec(sort: .custom), generation: 2) != nil)
        cache.invalidate()
        #expect(cache.lookup(ViewSpec(sort: .custom), generation: 2) == nil)
    }

    @Test func captureTimesKeepTheViewsThatDoNotHangOnThem() {
        var cache = ViewCache()
        let view = ResolvedView(slots: [2, 0, 1])
        let byName = ViewSpec(sort: .name)
        let byCapture = ViewSpec(sort: .capture)
        let fromADay = ViewSpec(filter: ViewFilter(from: "2024-01-01"), sort: .name)
        let untilADay = ViewSpec(filter: ViewFilter(to: "2024-01-01"), sort: .size)
        let bySize = ViewSpec(sort: .size)
        _ = cache.lookup(byName, generation: 7)
        for spec in [byName, byCapture, fromADay, untilADay] { cache.store(spec, view: view) }
        cache.captureTimesChanged(from: 7, to: 8)
        #expect(cache.lookup(byName, generation: 8)?.slots == [2, 0, 1], "a view by name stays")
        #expect(cache.lookup(byCapture, generation: 8) == nil)
        #expect(cache.lookup(fromADay, generation: 8) == nil)
        #expect(cache.lookup(untilADay, generation: 8) == nil)
        // Views of a generation before another change are not carried forward.
        cache.store(bySize, view: view)
        cache.captureTimesChanged(from: 9, to: 10)
        #expect(cache.lookup(bySize, generation: 10) == nil)
        #expect(cache.lookup(byName, generation: 10) == nil)
    }
}
