// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// `selection` events against the real daemon: who hears a session's changes, and
/// when (docs/PROTOCOL.md, "subscribe" and "Sessions and selections").
@Suite(.serialized)
struct SessionEventTests {
    /// The `selection` events among `events`, by session name.
    static func selectionEvents(_ events: [[String: Any]], session: String? = nil) -> [[String: Any]] {
        events.filter { $0["event"] as? String == "selection" && (session == nil || $0["session"] as? String == session) }
    }

    /// Every event `c` has received up to the answer of one more request: events
    /// queued before that answer are in its backlog then.
    static func drain(_ c: Client) throws -> [[String: Any]] {
        _ = try c.result(["cmd": "status"])
        var events: [[String: Any]] = []
        while let e = try c.nextEvent(timeout: 0.01) { events.append(e) }
        return events
    }

    /// Issue 11 item 23: your own `delete.confirm` empties your session; that is the
    /// answer to your request, not news, so no `selection` event follows it. Another
    /// session of yours that held a trashed photo was changed by something else
    /// than a request on it, and is told.
    @Test func aConfirmSendsNoSelectionEventForItsOwnSessionButTellsTheOthers() throws {
        let d = try SessionTests.daemon()
        let c = try d.client()
        _ = try c.result(["cmd": "subscribe"])
        try c.select("1 2 3")
        try c.select("2 4", session: "other")
        _ = try Self.drain(c)

        let result = try c.deleteSelection()
        #expect(result["trashed"] as? Int == 3)
        // Asking about the other session flushes what the batch left to announce.
        let other = try SessionTests.selection(c, session: "other")
        #expect(other.map(\.path) == ["2024/05/IMG_0004.JPG"])
        let events = try Self.drain(c)
        #expect(Self.selectionEvents(events, session: "default").isEmpty, "\(events)")
        let told = Self.selectionEvents(events, session: "other")
        #expect(told.count == 1)
        let items = told.first?["items"] as? [[String: Any]] ?? []
        #expect(items.compactMap { $0["path"] as? String } == ["2024/05/IMG_0004.JPG"])
        #expect(items.compactMap { $0["number"] as? Int } == [1])
    }

    /// Item 23: the session's answers carry `cap`, `null` when there is none, as
    /// docs/PROTOCOL.md shows it.
    @Test func answersCarryCapAsNullWhenThereIsNone() throws {
        let d = try SessionTests.daemon()
        let c = try d.client()
        let mode = try c.result(["cmd": "mode", "mode": "select"])
        #expect(mode["cap"] is NSNull)
        let selection = try c.result(["cmd": "selection"])
        #expect(selection["cap"] is NSNull)
        let capped = try c.result(["cmd": "mode", "mode": "select", "cap": 3])
        #expect(capped["cap"] as? Int == 3)
        #expect(try c.result(["cmd": "selection"])["cap"] as? Int == 3)
    }
}
