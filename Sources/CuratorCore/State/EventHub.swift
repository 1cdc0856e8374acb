// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import FoundationEssentials

/// Who is connected and who listens: the count of client connections, and the
/// subscribers with what each asked to hear (events of some roots, the changes of
/// some of its owner's sessions). Each event is encoded once, then handed to
/// every sink that wants it; a sink queues without blocking, and one that says it
/// is gone (or hopelessly behind) is dropped here.
struct EventHub {
    private var subscribers: [ObjectIdentifier: Subscriber] = [:]
    /// Connections open, subscribed or not.
    private(set) var clients = 0

    var subscriberCount: Int { subscribers.count }
    var hasSubscribers: Bool { !subscribers.isEmpty }

    func isSubscribed(_ sink: any EventSink) -> Bool { subscribers[ObjectIdentifier(sink)] != nil }

    mutating func clientConnected() { clients += 1 }

    /// A connection closed; `sink` is its subscriber side, if it had one.
    mutating func clientDisconnected(_ sink: (any EventSink)?) {
        clients -= 1
        if let sink { subscribers[ObjectIdentifier(sink)] = nil }
    }

    /// `sink` hears events of `roots` (all when nil) and the changes of its owner's
    /// `sessions` (all when nil). Subscribing again replaces what it asked before.
    mutating func subscribe(_ sink: any EventSink, uid: UInt32, roots: Set<Int32>?, sessions: Set<String>?,
                            thumbnails: Bool = false) {
        subscribers[ObjectIdentifier(sink)] = Subscriber(sink: sink, uid: uid, roots: roots, sessions: sessions,
                                                         thumbnails: thumbnails)
    }

    /// A `thumbnail` event of `root`, to the subscribers of the users in `only` that
    /// asked for them; built only when one will receive it.
    mutating func sendThumbnail(_ event: @autoclosure () -> Event, root: Int32, only: Set<UInt32>) {
        let wanting = subscribers.filter { $0.value.thumbnails && ($0.value.roots?.contains(root) ?? true) && only.contains($0.value.uid) }
        guard !wanting.isEmpty else { return }
        let line = Wire.event(event())
        for (key, subscriber) in wanting where !subscriber.sink.deliver(line) { subscribers[key] = nil }
    }

    /// The users who subscribe (for the photos each may see).
    var subscriberUIDs: Set<UInt32> { Set(subscribers.values.map(\.uid)) }

    /// An event of `root` (nil: of the daemon), to every subscriber that hears that
    /// root, and only to the users in `only` when given (the photo's folder is not
    /// everyone's to see).
    mutating func send(_ event: Event, root: Int32?, only: Set<UInt32>? = nil) {
        guard !subscribers.isEmpty, only?.isEmpty != true else { return }
        let line = Wire.event(event)
        for (key, subscriber) in subscribers {
            if let root, let roots = subscriber.roots, !roots.contains(root) { continue }
            if let only, !only.contains(subscriber.uid) { continue }
            if !subscriber.sink.deliver(line) { subscribers[key] = nil }
        }
    }

    /// An event for one user's subscribers only (their sessions, their batches).
    /// The event is built only when someone will receive it.
    mutating func send(_ event: @autoclosure () -> Event, toUID uid: UInt32) {
        guard subscribers.values.contains(where: { $0.uid == uid }) else { return }
        let line = Wire.event(event())
        for (id, subscriber) in subscribers where subscriber.uid == uid {
            if !subscriber.sink.deliver(line) { subscribers[id] = nil }
        }
    }

    /// Whether any subscriber but `origin` (the client whose request made the change) follows the session `key`.
    func hasFollowers(of key: SessionKey, except origin: ObjectIdentifier?) -> Bool {
        subscribers.contains { $0.key != origin && $0.value.follows(key) }
    }

    /// `line` to the subscribers that follow the session `key`, except `origin`.
    mutating func deliver(_ line: Data, toFollowersOf key: SessionKey, except origin: ObjectIdentifier?) {
        for (id, follower) in subscribers where id != origin && follower.follows(key) {
            if !follower.sink.deliver(line) { subscribers[id] = nil }
        }
    }
}
