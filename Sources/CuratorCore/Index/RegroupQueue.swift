// SPDX-License-Identifier: GPL-2.0-or-later

/// What the open `PhotoLibrary` transaction must group again before it commits:
/// folders whole, or only the groups that the bases (`ShotKeys` digests) of the
/// names it put in or took out can change; and which rows it added, which bring
/// no group id of their own. Emptied when the transaction ends.
struct RegroupQueue {
    /// Folders to group again whole.
    private(set) var wholeFolders: Set<Int32> = []
    /// Per folder, the bases of the names put in or taken out (a folder also whole
    /// is grouped whole).
    private(set) var keysByFolder: [Int32: Set<UInt64>] = [:]
    /// Rows added in the transaction: those whose id it handed out (from
    /// `freshFrom` on) and those that came back under their former id: a bound
    /// and a small set, so a scan adding every photo hashes none of them.
    private var freshFrom: Int64 = .max
    private var freshReturned: Set<Int64> = []

    /// A transaction begins; the ids it hands out start at `nextID`.
    mutating func begin(nextID: Int64) { freshFrom = nextID }

    /// The transaction ended (committed or rolled back): nothing is left to group.
    mutating func end() {
        wholeFolders.removeAll(keepingCapacity: true)
        keysByFolder.removeAll(keepingCapacity: true)
        freshFrom = .max
        freshReturned.removeAll(keepingCapacity: true)
    }

    mutating func regroupWhole(_ folder: Int32) { wholeFolders.insert(folder) }

    func isWhole(_ folder: Int32) -> Bool { wholeFolders.contains(folder) }

    /// The groups a name of `folder` with bases `keys` can be in.
    mutating func touch(_ folder: Int32, _ keys: ShotKeys) {
        keysByFolder[folder, default: []].insert(keys.first)
        if let second = keys.second { keysByFolder[folder]?.insert(second) }
    }

    /// The next folder to group whole, taken off the queue.
    mutating func popWhole() -> Int32? { wholeFolders.popFirst() }

    /// A row came back under its former id (from the trash) in this transaction.
    mutating func returned(_ id: Int64) { freshReturned.insert(id) }

    /// Whether row `id` was added in this transaction (and so has no former group).
    func isFresh(_ id: Int64) -> Bool { id >= freshFrom || freshReturned.contains(id) }

    /// Whether row `id` came back under its former id in this transaction.
    func isReturned(_ id: Int64) -> Bool { freshReturned.contains(id) }
}
