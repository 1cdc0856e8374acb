// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import Foundation
import Synchronization
import Testing

/// Subscribers and delivery: who hears which event, and a sink that is gone is dropped.
@Suite struct EventHubTests {
    /// Keeps what it is handed; `accepts` false plays a client that is gone.
    final class RecordingSink: EventSink {
        private let state: Mutex<(lines: [String], accepts: Bool)>

        init(accepts: Bool = true) { state = Mutex(([], accepts)) }

        func deliver(_ line: Data) -> Bool {
            state.withLock { box in
                box.lines.append(String(decoding: line, as: UTF8.self))
                return box.accepts
            }
        }

        var lines: [String] { state.withLock { $0.lines } }
    }

    static func event(_ root: String) -> Event { Event(event: .online, root: root) }

    @Test func clientsAreCountedAndAClosedConnectionStopsListening() {
        var hub = EventHub()
        let sink = RecordingSink()
        hub.clientConnected()
        hub.clientConnected()
        hub.subscribe(sink, uid: 1000, roots: nil, sessions: nil)
        #expect(hub.clients == 2)
        #expect(hub.isSubscribed(sink))
        #expect(hub.subscriberCount == 1)
        hub.clientDisconnected(nil)
        #expect(hub.isSubscribed(sink))
        hub.clientDisconnected(sink)
        #expect(hub.clients == 0)
        #expect(!hub.isSubscribed(sink))
        #expect(!hub.hasSubscribers)
    }

    @Test func rootEventsGoToSubscribersOfThatRootAndGoneSinksAreDropped() {
        var hub = EventHub()
        let all = RecordingSink()
        let onlyTwo = RecordingSink()
        let gone = RecordingSink(accepts: false)
        hub.subscribe(all, uid: 1, roots: nil, sessions: nil)
        hub.subscribe(onlyTwo, uid: 2, roots: [2], sessions: nil)
        hub.subscribe(gone, uid: 3, roots: nil, sessions: nil)
        hub.send(Self.event("one"), root: 1)
        hub.send(Self.event("two"), root: 2)
        hub.send(Event(event: .overflow, message: "lost"), root: nil)
        #expect(all.lines.count == 3)
        #expect(all.lines[0] == String(decoding: Wire.event(Self.event("one")), as: UTF8.self))
        #expect(onlyTwo.lines.count == 2, "its root, and the daemon's own events")
        #expect(onlyTwo.lines[0].contains("\"two\""))
        #expect(gone.lines.count == 1, "told once, then dropped")
        #expect(hub.subscriberCount == 2)
    }

    @Test func aUsersEventsGoToThatUserOnlyAndAreBuiltOnlyForSomeone() {
        var hub = EventHub()
        let mine = RecordingSink()
        let theirs = RecordingSink()
        hub.subscribe(mine, uid: 1000, roots: [1], sessions: [])
        hub.subscribe(theirs, uid: 1001, roots: nil, sessions: nil)
        var built = 0
        func batchEvent() -> Event {
            built += 1
            return Event(event: .batch, state: "done", done: 1, total: 1)
        }
        hub.send(batchEvent(), toUID: 1000)
        #expect(mine.lines.count == 1, "a user's events ignore the roots filter")
        #expect(theirs.lines.isEmpty)
        hub.send(batchEvent(), toUID: 4242)
        #expect(built == 1, "nobody of uid 4242 listens: the event is never built")
    }

    @Test func followersOfASessionAreItsOwnersSubscribersButTheAskingClient() {
        var hub = EventHub()
        let everything = RecordingSink()
        let justB = RecordingSink()
        let none = RecordingSink()
        let asking = RecordingSink()
        let otherUser = RecordingSink()
        hub.subscribe(everything, uid: 1000, roots: nil, sessions: nil)
        hub.subscribe(justB, uid: 1000, roots: nil, sessions: ["b"])
        hub.subscribe(none, uid: 1000, roots: nil, sessions: [])
        hub.subscribe(asking, uid: 1000, roots: nil, sessions: nil)
        hub.subscribe(otherUser, uid: 1001, roots: nil, sessions: nil)
        let a = SessionKey(uid: 1000, name: "a")
        let origin = ObjectIdentifier(asking)
        #expect(hub.hasFollowers(of: a, except: origin))
        hub.deliver(Data("a\n".utf8), toFollowersOf: a, except: origin)
        #expect(everything.lines == ["a\n"])
        #expect(justB.lines.isEmpty && none.lines.isEmpty && asking.lines.isEmpty && otherUser.lines.isEmpty)
        hub.deliver(Data("b\n".utf8), toFollowersOf: SessionKey(uid: 1000, name: "b"), except: nil)
        #expect(justB.lines == ["b\n"])
        #expect(asking.lines == ["b\n"])
        // Subscribing again replaces what was asked.
        hub.subscribe(everything, uid: 1000, roots: nil, sessions: [])
        hub.clientDisconnected(asking)
        #expect(!hub.hasFollowers(of: a, except: nil))
    }
}
