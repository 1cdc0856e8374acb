// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import Foundation
import Testing

/// Sessions held and saved: save-then-install, room made for a new session,
/// the order of use across a restart, limits, and photos leaving selections.
@Suite struct SessionStoreTests {
    /// Sessions kept in memory, as the index file keeps them; `failing` refuses every write.
    final class MemoryPersistence: SessionPersistence {
        var rows: [SessionKey: [UInt8]] = [:]
        var failing = false
        var deleted: [SessionKey] = []

        struct Refused: Error {}

        func loadSessions() throws -> [(uid: UInt32, name: String, state: [UInt8])] {
            rows.map { ($0.key.uid, $0.key.name, $0.value) }
        }

        func saveSession(uid: UInt32, name: String, state: [UInt8]) throws {
            if failing { throw Refused() }
            rows[SessionKey(uid: uid, name: name)] = state
        }

        func deleteSession(uid: UInt32, name: String) throws {
            deleted.append(SessionKey(uid: uid, name: name))
            rows[SessionKey(uid: uid, name: name)] = nil
        }

        func stored(_ key: SessionKey) throws -> StoredSession? {
            try rows[key].map { try JSONDecoder().decode(StoredSession.self, from: Data($0)) }
        }
    }

    static let me: UInt32 = 1000

    static func key(_ name: String, uid: UInt32 = me) -> SessionKey { SessionKey(uid: uid, name: name) }

    static func selecting(_ ids: [Int64]) throws -> SessionState {
        try SessionState().setMode(.select).state.apply(.select(ids)).state
    }

    static let sorted = SessionState().setView(ViewSpec(sort: .size)).state

    @Test func aSessionIsSavedBeforeItIsInstalled() throws {
        let disk = MemoryPersistence()
        var store = SessionStore(persistence: disk)
        let state = try Self.selecting([1, 2])
        try store.save(state, for: Self.key("a"), maxPerUser: 10, busy: [])
        #expect(store[Self.key("a")] == state)
        #expect(try disk.stored(Self.key("a"))?.state == state)
        disk.failing = true
        do {
            try store.save(Self.sorted, for: Self.key("a"), maxPerUser: 10, busy: [])
            Issue.record("a session that could not be saved was installed")
        } catch {
            #expect(error.code == .internalError)
        }
        #expect(store[Self.key("a")] == state, "the old state stays")
        #expect(throws: ProtocolError.self) { try store.save(Self.sorted, for: Self.key("new"), maxPerUser: 10, busy: []) }
        #expect(store[Self.key("new")] == nil)
        #expect(store.count == 1)
    }

    @Test func theLeastRecentlyUsedIdleSessionMakesRoom() throws {
        let disk = MemoryPersistence()
        var store = SessionStore(persistence: disk)
        try store.save(Self.selecting([1]), for: Self.key("holding"), maxPerUser: 3, busy: [])
        try store.save(Self.sorted, for: Self.key("old"), maxPerUser: 3, busy: [])
        try store.save(Self.sorted, for: Self.key("planned"), maxPerUser: 3, busy: [])
        // Another user's sessions neither count nor make room.
        try store.save(Self.sorted, for: Self.key("theirs", uid: 1001), maxPerUser: 3, busy: [])
        // "planned" is the least recently used idle one, but a plan waits on it.
        #expect(try store.save(Self.sorted, for: Self.key("fourth"), maxPerUser: 3, busy: [Self.key("planned")]) == "old")
        #expect(disk.deleted == [Self.key("old")])
        #expect(Set(store.all.keys.map(\.name)) == ["holding", "planned", "fourth", "theirs"])
        // Reading a session is using it: "planned" is now more recent than "fourth".
        #expect(store.use(Self.key("planned")) == Self.sorted)
        #expect(try store.save(Self.sorted, for: Self.key("fifth"), maxPerUser: 3, busy: []) == "fourth")
        // When every session holds a selection or a plan, a new one is refused.
        try store.save(Self.selecting([2]), for: Self.key("fifth"), maxPerUser: 3, busy: [])
        do {
            try store.save(Self.sorted, for: Self.key("sixth"), maxPerUser: 3, busy: [Self.key("planned")])
            Issue.record("a session made room by dropping a selection or a plan")
        } catch {
            #expect(error.code == .tooManySessions)
            #expect(error.message.contains("fifth, holding, planned"))
        }
        #expect(store.count == 4)
        // An existing session is never refused for the limit.
        try store.save(Self.selecting([3]), for: Self.key("holding"), maxPerUser: 1, busy: [])
    }

    @Test func theOrderOfUseIsSavedAndReadBack() throws {
        let disk = MemoryPersistence()
        var store = SessionStore(persistence: disk)
        for name in ["first", "second", "third"] { try store.save(Self.sorted, for: Self.key(name), maxPerUser: 10, busy: []) }
        _ = store.use(Self.key("first"))
        let used = try #require(store.lastUse(of: Self.key("first")))
        #expect(try disk.stored(Self.key("first"))?.used != used, "a read is not written at once")
        store.saveUse()
        #expect(try disk.stored(Self.key("first"))?.used == used)
        var again = SessionStore(persistence: disk)
        try again.load(removing: { _ in false })
        #expect(again.count == 3)
        #expect(again.lastUse(of: Self.key("first")) == used)
        // A session saved after the reload comes later than everything read back.
        try again.save(Self.selecting([9]), for: Self.key("second"), maxPerUser: 10, busy: [])
        #expect((again.lastUse(of: Self.key("second")) ?? 0) > used)
    }

    @Test func loadingDropsPhotosThatLeftAndSkipsUnreadableRows() throws {
        let disk = MemoryPersistence()
        var store = SessionStore(persistence: disk)
        try store.save(Self.selecting([1, 2, 3]), for: Self.key("a"), maxPerUser: 10, busy: [])
        disk.rows[Self.key("broken")] = Array("{not json".utf8)
        var again = SessionStore(persistence: disk)
        try again.load(removing: { $0 == 2 })
        #expect(again[Self.key("a")]?.selection.items == [1, 3])
        #expect(again[Self.key("broken")] == nil)
        #expect(again.count == 1)
    }

    @Test func aUsersOtherSessionsShareOneBudget() throws {
        var store = SessionStore(persistence: MemoryPersistence())
        try store.save(Self.selecting([1, 2, 3]), for: Self.key("a"), maxPerUser: 10, busy: [])
        try store.save(Self.selecting([4, 5, 6, 7]), for: Self.key("a", uid: 1001), maxPerUser: 10, busy: [])
        #expect(store.selectionLimit(for: Self.key("b"), maxSelection: 100, maxPerUser: 5)
                == SelectionLimit(most: 2, reason: .user, configured: 5))
        #expect(store.selectionLimit(for: Self.key("a"), maxSelection: 4, maxPerUser: 50)
                == SelectionLimit(most: 4, reason: .selection, configured: 4))
    }

    @Test func photosThatLeftLeaveEverySelectionOnceSavedOrNot() throws {
        let disk = MemoryPersistence()
        var store = SessionStore(persistence: disk)
        try store.save(Self.selecting([1, 2, 3]), for: Self.key("a"), maxPerUser: 10, busy: [])
        try store.save(Self.selecting([3, 4]), for: Self.key("b", uid: 1001), maxPerUser: 10, busy: [])
        try store.save(Self.selecting([5]), for: Self.key("c"), maxPerUser: 10, busy: [])
        #expect(!store.hasLeavers)
        store.photosLeft([3])
        store.photosLeft([1])
        #expect(store.hasLeavers)
        let changed = store.settleLeavers()
        #expect(Set(changed.map(\.key.name)) == ["a", "b"])
        #expect(store[Self.key("a")]?.selection.items == [2])
        #expect(store[Self.key("b", uid: 1001)]?.selection.items == [4])
        #expect(try disk.stored(Self.key("a"))?.state.selection.items == [2])
        #expect(!store.hasLeavers)
        #expect(store.settleLeavers().isEmpty)
        // A photo gone is gone from memory even when the index file refuses the write.
        disk.failing = true
        store.photosLeft([5])
        #expect(store.settleLeavers().map(\.key.name) == ["c"])
        #expect(store[Self.key("c")]?.selection.isEmpty == true)
        #expect(try disk.stored(Self.key("c"))?.state.selection.items == [5])
    }
}
