// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Testing

/// The pending set between the inotify source and the crawler: order kept,
/// a path's repeated hints merged, never across a rename of its root, bounded.
@Suite struct HintQueueTests {
    static func path(_ p: String, _ flags: HintFlags, root: Int32 = 1) -> Hint {
        Hint(root: root, kind: .path(ByteString(p), flags))
    }

    @Test func aPathsRepeatedHintsMergeIntoTheFirstInOrder() {
        var queue = HintQueue()
        queue.append(Self.path("a.jpg", .awaitingClose))
        queue.append(Self.path("b.jpg", .awaitingClose))
        queue.append(Self.path("a.jpg", .written))
        queue.append(Self.path("b.jpg", .written))
        queue.append(Self.path("b.jpg", .attributes))
        #expect(queue.count == 2)
        let (lost, hints) = queue.take(max: 10)
        #expect(lost == nil)
        // A close-after-write ends the wait for it; the place is the first event's.
        #expect(hints == [Self.path("a.jpg", .written), Self.path("b.jpg", [.written, .attributes])])
        #expect(queue.isEmpty)
    }

    @Test func aCreateAfterACloseWaitsForTheNextClose() {
        #expect(HintFlags.written.merged(with: .deleted).merged(with: .awaitingClose) == [.written, .deleted, .awaitingClose])
        #expect(HintFlags.awaitingClose.merged(with: .deleted) == .deleted)
        #expect(HintFlags.awaitingClose.merged(with: .attributes) == [.awaitingClose, .attributes])
    }

    @Test func hintsAreNotMergedAcrossARenameOfTheirRoot() {
        var queue = HintQueue()
        queue.append(Self.path("a.jpg", .written))
        queue.append(Hint(root: 1, kind: .movedFrom(ByteString("a.jpg"), cookie: 7, isDirectory: false)))
        queue.append(Hint(root: 1, kind: .movedTo(ByteString("b.jpg"), cookie: 7, isDirectory: false)))
        // The new a.jpg must be looked at after the rename, not before it.
        queue.append(Self.path("a.jpg", .written))
        // Another root's rename is no barrier for this one's paths, and the other way round.
        queue.append(Self.path("c.jpg", .written, root: 2))
        queue.append(Hint(root: 1, kind: .rootChanged))
        queue.append(Self.path("c.jpg", .attributes, root: 2))
        let hints = queue.take(max: 100).hints
        #expect(hints.count == 6)
        #expect(hints[3] == Self.path("a.jpg", .written))
        #expect(hints[4] == Self.path("c.jpg", [.written, .attributes], root: 2))
    }

    @Test func cookiesKeepTheirPlaceAndMergingGoesOnAcrossThem() {
        var queue = HintQueue()
        queue.append(Self.path("a.jpg", .awaitingClose))
        queue.append(Hint(root: 1, kind: .cookie(ByteString(".curatord-cookie-1-1"))))
        queue.append(Self.path("a.jpg", .written))
        let hints = queue.take(max: 100).hints
        // Applying the close before the cookie is answered only applies more.
        #expect(hints == [Self.path("a.jpg", .written), Hint(root: 1, kind: .cookie(ByteString(".curatord-cookie-1-1")))])
    }

    @Test func aPartialTakeLeavesTheRestAndStopsMergingIntoWhatWasTaken() {
        var queue = HintQueue()
        for i in 0..<10 { queue.append(Self.path("\(i).jpg", .awaitingClose)) }
        let first = queue.take(max: 4).hints
        #expect(first.map(\.kind) == (0..<4).map { .path(ByteString("\($0).jpg"), .awaitingClose) })
        // 2.jpg was taken: its close is a hint of its own; 7.jpg waits and merges.
        queue.append(Self.path("2.jpg", .written))
        queue.append(Self.path("7.jpg", .written))
        let rest = queue.take(max: 100).hints
        #expect(rest.count == 7)
        #expect(rest[3] == Self.path("7.jpg", .written))
        #expect(rest.last == Self.path("2.jpg", .written))
    }

    @Test func anOverflowDropsWhatCameBeforeIt() {
        var queue = HintQueue()
        queue.append(Self.path("a.jpg", .written))
        queue.append(Hint(root: 1, kind: .cookie(ByteString(".curatord-cookie-1-1"))))
        queue.eventsLost("inotify queue overflow")
        queue.append(Self.path("a.jpg", .deleted))
        #expect(!queue.isEmpty)
        let (lost, hints) = queue.take(max: 100)
        #expect(lost == "inotify queue overflow")
        // Not merged into a hint that the overflow dropped.
        #expect(hints == [Self.path("a.jpg", .deleted)])
        #expect(queue.take(max: 100).lost == nil)
    }

    @Test func pastItsLimitTheQueueReportsALossInsteadOfGrowing() {
        var queue = HintQueue(limit: 100)
        for i in 0..<250 { queue.append(Self.path("\(i).jpg", .written)) }
        #expect(queue.count < 100)
        let (lost, hints) = queue.take(max: 1000)
        #expect(lost != nil)
        // Dropped at the 101st waiting hint, twice: what came after the last drop is left.
        #expect(hints.map(\.kind) == (202..<250).map { .path(ByteString("\($0).jpg"), .written) })
        // The same path again and again is one entry: never a loss.
        for _ in 0..<1000 { queue.append(Self.path("same.jpg", .written)) }
        #expect(queue.take(max: 1000).lost == nil)
    }

    @Test func pendingHintsWakeTheTakerOnceAndNotForACreateAlone() {
        final class Counter: @unchecked Sendable {
            // @unchecked: one test thread.
            var wakes = 0
        }
        let counter = Counter()
        let pending = PendingHints { counter.wakes += 1 }
        // A file being written needs nothing until its close, which merges into its hint.
        pending.add([Self.path("a.jpg", .awaitingClose)])
        #expect(counter.wakes == 0 && !pending.isEmpty)
        pending.add([Self.path("a.jpg", .written)])
        pending.add([Self.path("b.jpg", .written)])
        #expect(counter.wakes == 1, "one wake-up until the taker has taken")
        #expect(pending.take(max: 10).hints == [Self.path("a.jpg", .written), Self.path("b.jpg", .written)])
        pending.add([], lostBefore: "inotify queue overflow")
        #expect(counter.wakes == 2)
        #expect(pending.take(max: 10).lost == "inotify queue overflow")
        pending.add([Hint(root: 1, kind: .cookie(ByteString(".curatord-cookie-1-2")))])
        #expect(counter.wakes == 3)
        _ = pending.take(max: 10)
        #expect(pending.isEmpty)
    }
}
