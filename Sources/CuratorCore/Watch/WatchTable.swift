// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Our own map from watch descriptor to directory (root + relative path), kept
/// right as directories move. libinotifytools' map goes stale on moves, and its
/// name lookup returns the first entry ever filed under a name.
///
/// Moves and removals of a subtree cost the size of that subtree: each directory
/// knows its watched children by name.
struct WatchTable {
    struct Entry: Hashable, Sendable {
        var rootID: Int32
        var path: ByteString
    }

    /// The directory a watch was set on (device and inode): a directory replaced at
    /// the same path is a different one and needs a watch of its own.
    struct DirectoryKey: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    private(set) var byWD: [Int32: Entry] = [:]
    private var byPath: [Entry: Int32] = [:]
    private var identity: [Int32: DirectoryKey] = [:]
    /// (root, directory) -> names of its sub-directories that have a watch.
    private var children: [Entry: Set<ByteString>] = [:]
    private var countByRoot: [Int32: Int] = [:]

    var count: Int { byWD.count }

    func entry(_ wd: Int32) -> Entry? { byWD[wd] }
    func wd(root: Int32, path: ByteString) -> Int32? { byPath[Entry(rootID: root, path: path)] }
    func directory(_ wd: Int32) -> DirectoryKey? { identity[wd] }

    func count(root: Int32) -> Int { countByRoot[root] ?? 0 }

    /// Live watches per root (roots with none left out).
    var countsByRoot: [Int32: Int] { countByRoot.filter { $0.value > 0 } }

    /// Records a watch. A watch already filed under another path (the directory
    /// moved while events were lost), or another watch at this path (the directory
    /// was replaced), is superseded; the superseded wd is returned so that the
    /// caller can drop it.
    @discardableResult
    mutating func insert(wd: Int32, root: Int32, path: ByteString, directory: DirectoryKey? = nil) -> Int32? {
        if byWD[wd] != nil { remove(wd: wd) }
        let entry = Entry(rootID: root, path: path)
        var superseded: Int32?
        if let oldWD = byPath[entry], oldWD != wd {
            remove(wd: oldWD)
            superseded = oldWD
        }
        byWD[wd] = entry
        byPath[entry] = wd
        if let directory { identity[wd] = directory }
        countByRoot[root, default: 0] += 1
        if !path.isEmpty { children[Entry(rootID: root, path: path.parent), default: []].insert(path.lastComponent) }
        return superseded
    }

    @discardableResult
    mutating func remove(wd: Int32) -> Entry? {
        guard let entry = byWD.removeValue(forKey: wd) else { return nil }
        identity[wd] = nil
        if byPath[entry] == wd { byPath[entry] = nil }
        countByRoot[entry.rootID, default: 0] -= 1
        if !entry.path.isEmpty {
            let parent = Entry(rootID: entry.rootID, path: entry.path.parent)
            children[parent]?.remove(entry.path.lastComponent)
            if children[parent]?.isEmpty == true { children[parent] = nil }
        }
        return entry
    }

    /// Watches at or below `path` in `root`, parents before children.
    func subtree(root: Int32, path: ByteString) -> [(wd: Int32, entry: Entry)] {
        var result: [(wd: Int32, entry: Entry)] = []
        var stack = [path]
        while let current = stack.popLast() {
            let entry = Entry(rootID: root, path: current)
            if let wd = byPath[entry] { result.append((wd, entry)) }
            for name in children[entry] ?? [] { stack.append(current.appending(name)) }
        }
        return result
    }

    /// A directory moved inside its root: the watches below it follow.
    mutating func move(root: Int32, from: ByteString, to: ByteString) {
        let moving = subtree(root: root, path: from)
        var keys: [Int32: DirectoryKey] = [:]
        for (wd, _) in moving {
            keys[wd] = identity[wd]
            remove(wd: wd)
        }
        for (wd, entry) in moving {
            insert(wd: wd, root: root, path: to.appending(entry.path.relative(to: from)), directory: keys[wd])
        }
    }

    mutating func removeRoot(_ root: Int32) -> [Int32] {
        let wds = subtree(root: root, path: .empty).map(\.wd)
        for wd in wds { remove(wd: wd) }
        return wds
    }

    mutating func removeAll() {
        self = WatchTable()
    }
}
