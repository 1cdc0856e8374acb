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

    /// Issue 11 item 26: a GUI and the CLI sharing one session see each other. A
    /// subscriber that follows a session hears every change another client's
    /// request makes to it, with the whole new state, and never its own requests'.
    @Test func aSessionsFollowersHearOtherClientsChangesButNotTheirOwn() throws {
        let d = try SessionTests.daemon()
        let gui = try d.client()
        _ = try gui.result(["cmd": "subscribe", "sessions": ["shared"]])
        let bystander = try d.client()
        _ = try bystander.result(["cmd": "subscribe", "sessions": ["elsewhere"]])
        let everything = try d.client()
        _ = try everything.result(["cmd": "subscribe"])

        // The CLI (a connection of its own per command) selects three, then deselects the first.
        #expect(try d.ctl(["--session", "shared", "select", "1", "2", "3"]).status == 0)
        #expect(try d.ctl(["--session", "shared", "deselect", "1"]).status == 0)
        let heard = Self.selectionEvents(try Self.drain(gui), session: "shared")
        // Entering select mode, selecting, deselecting: one event each.
        #expect(heard.map { $0["count"] as? Int } == [0, 3, 2])
        let last = try #require(heard.last)
        #expect(last["mode"] as? String == "select")
        #expect(last["cap"] is NSNull)
        #expect(last["view"] as? [String: Any] != nil)
        #expect(last["bytes"] as? Int == "photo 2".utf8.count + "photo 3".utf8.count)
        let items = last["items"] as? [[String: Any]] ?? []
        #expect(items.compactMap { $0["number"] as? Int } == [1, 2])
        #expect(items.compactMap { $0["path"] as? String } == ["2024/05/IMG_0002.JPG", "2024/05/IMG_0003.JPG"])

        // The GUI's own request: its answer says it all, no event to it; the others following hear it.
        let own = try gui.result(["cmd": "select", "session": "shared", "positions": "5"])
        #expect(own["count"] as? Int == 3)
        #expect(Self.selectionEvents(try Self.drain(gui)).isEmpty)
        let others = Self.selectionEvents(try Self.drain(everything), session: "shared")
        #expect(others.last?["count"] as? Int == 3)
        #expect(others.count == 4)
        // A request that changes nothing is no news.
        _ = try d.ctl(["--session", "shared", "select", "5"])
        #expect(Self.selectionEvents(try Self.drain(gui)).isEmpty)

        // The CLI moves the session to another folder: the GUI hears the reset.
        #expect(try d.ctl(["--session", "shared", "view", "pics/2024"]).status == 0)
        let reset = Self.selectionEvents(try Self.drain(gui), session: "shared")
        #expect(reset.count == 1)
        #expect(reset.first?["mode"] as? String == "view")
        #expect(reset.first?["count"] as? Int == 0)
        #expect((reset.first?["view"] as? [String: Any])?["folder"] as? String == "2024")

        // Nothing of "shared" reached the client following another session.
        #expect(Self.selectionEvents(try Self.drain(bystander)).isEmpty)
        #expect(try gui.errorCode(["cmd": "subscribe", "sessions": ["no/slash"]]) == "invalid_argument")
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
