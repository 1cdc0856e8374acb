// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
@testable import CuratorDaemon
import Foundation
import Testing

/// What a connection owes its client is bounded: events past 16 MiB are dropped
/// (the client told once), and answers past 1 MiB stop the reading of requests.
struct OutboxTests {
    /// Queues `count` events of `size` bytes; how many were accepted.
    static func queueEvents(_ box: inout Outbox, _ count: Int = 1, size: Int) -> Int {
        (0..<count).filter { _ in box.queueEvent(event(size)) }.count
    }

    static func event(_ size: Int) -> [UInt8] { [UInt8](repeating: UInt8(ascii: "e"), count: size - 1) + [10] }

    /// Everything queued, as the connection would send it.
    static func sendAll(_ box: inout Outbox) -> [UInt8] {
        var out: [UInt8] = []
        while let next = box.takeNext() {
            guard case .bytes(let bytes, let answers) = next else {
                Issue.record("a listing in a queue of bytes")
                continue
            }
            out += bytes
            box.sent(bytes.count, answerBytes: answers)
        }
        return out
    }

    @Test func answersAndEventsGoOutInTheOrderQueued() {
        var box = Outbox()
        box.queueAnswer(Array("a1\n".utf8))
        let accepted = box.queueEvent(Array("e1\n".utf8))
        #expect(accepted)
        box.queueAnswer(Array("a2\n".utf8))
        #expect(String(decoding: Self.sendAll(&box), as: UTF8.self) == "a1\ne1\na2\n")
        #expect(box.isEmpty)
        #expect(box.answerBytes == 0)
        #expect(box.eventBytes == 0)
    }

    /// Small lines join the last queued bytes (one send for a burst of events);
    /// a large one is queued as it is.
    @Test func smallLinesJoinAndLargeOnesStandAlone() {
        var box = Outbox()
        #expect(Self.queueEvents(&box, 100, size: 100) == 100)
        #expect(box.queue.count == 1)
        box.queueAnswer([UInt8](repeating: 0x61, count: 200 << 10))
        #expect(box.queue.count == 2)
        #expect(box.answerBytes == 200 << 10)
        #expect(box.eventBytes == 100 * 100)
    }

    @Test func eventsPastTheLimitAreDroppedWithOneNoticeUntilHalfIsRead() throws {
        var box = Outbox()
        let size = 64 << 10
        let fits = Outbox.maxEventBytes / size
        #expect(Self.queueEvents(&box, fits, size: size) == fits)
        #expect(box.eventBytes == fits * size)
        #expect(Self.queueEvents(&box, 10, size: size) == 10, "dropped, not refused")
        let queued = Self.sendAll(&box)
        let lines = queued.split(separator: 10)
        #expect(lines.count == fits + 1, "the events that fit, then one notice")
        let notice = try #require(lines.last)
        let decoded = try JSONSerialization.jsonObject(with: Data(notice)) as? [String: Any]
        #expect(decoded?["event"] as? String == "dropped")
        // Read (sent) everything: events are queued again.
        #expect(Self.queueEvents(&box, size: size) == 1)
        #expect(box.eventBytes == size)
    }

    @Test func whileDroppingASmallEventDoesNotSlipIn() {
        var box = Outbox()
        let size = 1 << 20
        #expect(Self.queueEvents(&box, 16, size: size) == 16)
        #expect(Self.queueEvents(&box, size: size) == 1)  // over: the notice
        let held = box.eventBytes
        #expect(Self.queueEvents(&box, size: 10) == 1)
        #expect(box.eventBytes == held, "still dropping: the client has read nothing")
    }

    @Test func answersOwedPastTheLimitStopTheReadingOfRequests() {
        var box = Outbox()
        box.queueAnswer([UInt8](repeating: 0x61, count: Outbox.maxAnswerBytes))
        #expect(!box.isFull, "exactly the limit")
        box.queueAnswer([0x0a])
        #expect(box.isFull)
        _ = Self.sendAll(&box)
        #expect(!box.isFull)
    }

    @Test func aClosedOutboxTakesNoEvents() {
        var box = Outbox()
        box.closed = true
        #expect(Self.queueEvents(&box, size: 10) == 0)
        #expect(box.isEmpty)
    }
}
