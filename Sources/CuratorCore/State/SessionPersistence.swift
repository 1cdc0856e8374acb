// SPDX-License-Identifier: GPL-2.0-or-later

/// Where sessions are kept across restarts: the index file (`IndexStore`), or a
/// stand-in in tests. `state` is a `StoredSession`'s JSON.
protocol SessionPersistence: AnyObject {
    func loadSessions() throws -> [(uid: UInt32, name: String, state: [UInt8])]
    func saveSession(uid: UInt32, name: String, state: [UInt8]) throws
    func deleteSession(uid: UInt32, name: String) throws
}

extension IndexStore: SessionPersistence {}
