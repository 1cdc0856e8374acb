// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Our own map from watch descriptor to directory (root + relative path), kept
/// right as directories move. libinotifytools' map goes stale on moves.
struct WatchTable {
    struct Entry: Hashable {
        var rootID: Int32
        var path: ByteString
    }

    private(set) var byWD: [Int32: Entry] = [:]
    private var byPath: [Entry: Int32] = [:]

    var count: Int { byWD.count }

    func entry(_ wd: Int32) -> Entry? { byWD[wd] }
    func wd(root: Int32, path: ByteString) -> Int32? { byPath[Entry(rootID: root, path: path)] }

    func count(root: Int32) -> Int { byWD.values.reduce(0) { $0 + ($1.rootID == root ? 1 : 0) } }

    mutating func insert(wd: Int32, root: Int32, path: ByteString) {
        if let old = byWD[wd] { byPath[old] = nil }
        let entry = Entry(rootID: root, path: path)
        if let oldWD = byPath[entry], oldWD != wd { byWD[oldWD] = nil }
        byWD[wd] = entry
        byPath[entry] = wd
    }

    @discardableResult
    mutating func remove(wd: Int32) -> Entry? {
        guard let entry = byWD.removeValue(forKey: wd) else { return nil }
        if byPath[entry] == wd { byPath[entry] = nil }
        return entry
    }

    /// Watches at or below `path` in `root`.
    func subtree(root: Int32, path: ByteString) -> [(wd: Int32, entry: Entry)] {
        byWD.compactMap { wd, entry in entry.rootID == root && entry.path.isWithin(path) ? (wd, entry) : nil }
    }

    /// A directory moved inside its root: the watches below it follow.
    mutating func move(root: Int32, from: ByteString, to: ByteString) {
        for (wd, entry) in subtree(root: root, path: from) {
            byPath[entry] = nil
            let moved = Entry(rootID: root, path: to.appending(entry.path.relative(to: from)))
            byWD[wd] = moved
            byPath[moved] = wd
        }
    }

    mutating func removeRoot(_ root: Int32) -> [Int32] {
        let wds = byWD.compactMap { $0.value.rootID == root ? $0.key : nil }
        for wd in wds { remove(wd: wd) }
        return wds
    }
}
