// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorThumbnails
import Testing

struct ThumbnailQueueTests {
    private func drain(_ queue: inout ThumbnailQueue, background: Bool = true, wanted: (Int64) -> Bool = { _ in true })
        -> [(Int64, [ThumbnailSize], Bool)] {
        var taken: [(Int64, [ThumbnailSize], Bool)] = []
        while let next = queue.take(background: background, wanted: wanted) { taken.append((next.id, next.sizes, next.asked)) }
        return taken
    }

    @Test func askedPhotosGoFirstInTheOrderAskedThenTheNewestOfTheBackground() {
        var queue = ThumbnailQueue()
        for id in Int64(1)...5 { queue.enqueue(id) }
        queue.ask(4, size: .normal)
        queue.ask(2, size: .xxLarge)
        queue.ask(4, size: .large)
        #expect(queue.backlog == 5)
        let taken = drain(&queue)
        #expect(taken.map(\.0) == [4, 2, 5, 3, 1])
        #expect(taken.map(\.2) == [true, true, false, false, false])
        #expect(taken[1].1 == [.normal, .large, .xxLarge], "an asked size beyond the background's is made too")
        #expect(taken[0].1 == [.normal, .large])
        #expect(queue.backlog == 0)
    }

    /// A preview asked for goes first and rides on the photo's next job until the
    /// worker answers; "none can be made" holds until the photo changes, kind by kind.
    @Test func anAskedPreviewGoesFirstAndNoneIsKnownUntilThePhotoChanges() {
        var queue = ThumbnailQueue()
        for id in Int64(1)...3 { queue.enqueue(id) }
        queue.askPreview(2)
        queue.askPreview(2, kind: .screen)
        let taken = drain(&queue)
        #expect(taken.map(\.0) == [2, 3, 1] && taken[0].2)
        #expect(queue.wantedPreviews(2) == [.full, .screen] && queue.wantedPreviews(3).isEmpty)

        queue.finished(2, .ready([.normal, .large]))
        queue.previewFinished(2, kind: .screen, available: false)
        #expect(queue.wantedPreviews(2) == [.full], "the full one is still being made")
        #expect(queue.hasNoPreview(2, kind: .screen) && !queue.hasNoPreview(2, kind: .full))
        queue.previewFinished(2, available: false)
        #expect(queue.wantedPreviews(2).isEmpty && queue.hasNoPreview(2))
        queue.invalidate(2)
        #expect(!queue.hasNoPreview(2) && !queue.hasNoPreview(2, kind: .screen), "a changed photo may have them now")

        queue.askPreview(3, kind: .screen)
        queue.finished(3, .failed("corrupt"))
        #expect(queue.wantedPreviews(3).isEmpty, "its thumbnails failed: the xx-large path says so")
    }

    @Test func backgroundWorkWaitsAskedWorkDoesNot() {
        var queue = ThumbnailQueue()
        queue.enqueue(1)
        queue.ask(2, size: .normal)
        #expect(drain(&queue, background: false).map(\.0) == [2])
        #expect(queue.backlog == 1)
        #expect(drain(&queue).map(\.0) == [1])
    }

    /// A root whose work waits keeps its photos queued, asked or not, while the
    /// others' are taken, newest first across roots.
    @Test func aWaitingRootsPhotosStayQueuedWhileOtherRootsAreTaken() {
        var queue = ThumbnailQueue()
        for id in [1, 3, 5] as [Int64] { queue.enqueue(id, root: 7) }
        for id in [2, 4, 6] as [Int64] { queue.enqueue(id, root: 8) }
        queue.ask(9, root: 7, size: .normal)
        queue.ask(10, root: 8, size: .normal)
        var taken: [Int64] = []
        while let next = queue.take(asked: { $0 == 8 }, background: { $0 == 8 }, wanted: { _ in true }) { taken.append(next.id) }
        #expect(taken == [10, 6, 4, 2])
        #expect(queue.backlog == 4 && queue.isAsked)
        taken = []
        while let next = queue.take(asked: { _ in true }, background: { _ in true }, wanted: { _ in true }) { taken.append(next.id) }
        #expect(taken == [9, 5, 3, 1])
        #expect(queue.backlog == 0 && !queue.isAsked)
    }

    @Test func readyFailedInvalidatedAndForgotten() {
        var queue = ThumbnailQueue()
        queue.enqueue(1)
        queue.enqueue(2)
        _ = drain(&queue)
        queue.finished(1, .ready([.normal, .large]))
        queue.finished(2, .failed("corrupt: x"))
        #expect(queue.isReady(1) && !queue.isReady(2) && queue.failed[2] == "corrupt: x")
        // A photo that changed is looked at again, and is not ready meanwhile.
        queue.invalidate(1)
        #expect(!queue.isReady(1) && queue.backlog == 1)
        // One that left is forgotten, queued or not; a stale id is dropped when taken.
        queue.forget(1)
        queue.forget(2)
        #expect(queue.backlog == 0 && queue.failed.isEmpty)
        #expect(drain(&queue).isEmpty)
        queue.enqueue(3)
        #expect(drain(&queue, wanted: { $0 != 3 }).isEmpty, "a photo no longer wanted (gone, offline, a video) is dropped")
        // Only the sizes asked for make a photo ready: x-large alone does not.
        queue.finished(4, .ready([.xLarge]))
        #expect(!queue.isReady(4))
    }

    @Test func askingForThousandsAgainAndAgainKeepsOneEntryEach() {
        var queue = ThumbnailQueue()
        let ids = (Int64(1)...5000).map { $0 }
        for _ in 0..<20 { for id in ids { queue.ask(id, size: .large) } }
        #expect(queue.backlog == 5000)
        #expect(drain(&queue).count == 5000)
    }

    @Test func departuresComeDueAfterTheirTime() {
        var queue = ThumbnailQueue()
        queue.depart(.init(path: "/p/a.jpg", device: 1, inode: 2, at: 100))
        queue.depart(.init(path: "/p/b.jpg", device: 1, inode: 3, at: 200))
        #expect(queue.takeDepartures(before: 150).map(\.path) == ["/p/a.jpg"])
        #expect(queue.takeDepartures(before: 150).isEmpty)
        #expect(queue.takeDepartures(before: 250).map(\.path) == ["/p/b.jpg"])
    }
}
