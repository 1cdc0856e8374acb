// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The index's folders: by id, by path, by root and by parent, so that a folder's
/// subtree is found by walking down from it, never by a pass over every folder.
/// Each change returns what it replaced (`Change`), which `PhotoLibrary` logs and
/// hands back to `undo` when its transaction rolls back.
struct FolderTree {
    /// What one change replaced: enough to put the tree back exactly.
    enum Change {
        /// A folder linked: what held its path before, and whether it was already
        /// among its root's folders and its parent's children.
        case linked(Folder, atPath: Int32?, inRoot: Bool, child: Bool)
        /// A folder unlinked: whether its path, its root's set and its parent's
        /// children held it (and so were changed).
        case unlinked(Folder, atPath: Bool, inRoot: Bool, child: Bool)
        /// A folder dropped: its children and its dropped path before.
        case dropped(Int32, children: Set<Int32>?, path: ByteString?)
    }

    private(set) var folders: [Int32: Folder] = [:]
    private var byPath: [FolderKey: Int32] = [:]
    /// Folder id -> the folders directly below it.
    private var children: [Int32: Set<Int32>] = [:]
    private var byRoot: [Int32: Set<Int32>] = [:]
    /// Paths of folders dropped recently, so that `removed` events published after
    /// the batch that dropped them still carry the photo's full path.
    private var droppedPaths: [Int32: ByteString] = [:]
    /// Bumped when a folder is unlinked (dropped or moved) or a change undone:
    /// within one epoch folders are only added, each appended to `linkedSinceEpoch`,
    /// so an answer worked out over every folder needs only the folders linked
    /// since, not a walk of all of them per change.
    private(set) var epoch: UInt64 = 0
    private(set) var linkedSinceEpoch: [Int32] = []

    // MARK: lookups

    func id(root: Int32, path: ByteString) -> Int32? { byPath[FolderKey(rootID: root, path: path)] }

    /// The folder directly above `folder`, when it is linked.
    func parentID(of folder: Folder) -> Int32? {
        folder.path.isEmpty ? nil : id(root: folder.rootID, path: folder.path.parent)
    }

    /// The path of a folder, also of one dropped since `forgetDropped`.
    func path(_ id: Int32) -> ByteString? { folders[id]?.path ?? droppedPaths[id] }

    func ids(inRoot root: Int32) -> Set<Int32> { byRoot[root] ?? [] }

    /// Folders of `root` at or below `path`, parents before their children.
    func subtree(root: Int32, within path: ByteString) -> [Folder] {
        guard let top = id(root: root, path: path) else { return [] }
        var result: [Folder] = []
        var stack = [top]
        while let id = stack.popLast() {
            guard let folder = folders[id] else { continue }
            result.append(folder)
            if let below = children[id] { stack.append(contentsOf: below) }
        }
        return result
    }

    // MARK: changes

    @discardableResult
    mutating func link(_ folder: Folder) -> Change {
        let key = FolderKey(rootID: folder.rootID, path: folder.path)
        let parent = parentID(of: folder)
        let change = Change.linked(folder, atPath: byPath[key], inRoot: byRoot[folder.rootID]?.contains(folder.id) == true,
                                   child: parent.map { children[$0]?.contains(folder.id) == true } ?? false)
        folders[folder.id] = folder
        byPath[key] = folder.id
        byRoot[folder.rootID, default: []].insert(folder.id)
        linkedSinceEpoch.append(folder.id)
        if let parent { children[parent, default: []].insert(folder.id) }
        return change
    }

    @discardableResult
    mutating func unlink(_ folder: Folder) -> Change {
        let key = FolderKey(rootID: folder.rootID, path: folder.path)
        let parent = parentID(of: folder)
        let change = Change.unlinked(folders[folder.id] ?? folder, atPath: byPath[key] == folder.id,
                                     inRoot: byRoot[folder.rootID]?.contains(folder.id) == true,
                                     child: parent.map { children[$0]?.contains(folder.id) == true } ?? false)
        folders[folder.id] = nil
        if byPath[key] == folder.id { byPath[key] = nil }
        newEpoch()
        byRoot[folder.rootID]?.remove(folder.id)
        if let parent { removeChild(folder.id, of: parent) }
        return change
    }

    /// A folder unlinked for good: its children forgotten, its path kept for the
    /// events of the photos it held.
    @discardableResult
    mutating func drop(_ folder: Folder) -> Change {
        let change = Change.dropped(folder.id, children: children[folder.id], path: droppedPaths[folder.id])
        children[folder.id] = nil
        droppedPaths[folder.id] = folder.path
        return change
    }

    /// At the start of a transaction: the paths dropped before it are no longer asked.
    mutating func forgetDropped() { droppedPaths.removeAll(keepingCapacity: true) }

    /// Puts back what `change` replaced (changes are undone newest first).
    mutating func undo(_ change: Change) {
        switch change {
        case .linked(let folder, let atPath, let inRoot, let child):
            newEpoch()
            folders[folder.id] = nil
            byPath[FolderKey(rootID: folder.rootID, path: folder.path)] = atPath
            if !inRoot { byRoot[folder.rootID]?.remove(folder.id) }
            if !child, let parent = parentID(of: folder) { removeChild(folder.id, of: parent) }
        case .unlinked(let folder, let atPath, let inRoot, let child):
            newEpoch()
            folders[folder.id] = folder
            if atPath { byPath[FolderKey(rootID: folder.rootID, path: folder.path)] = folder.id }
            if inRoot { byRoot[folder.rootID, default: []].insert(folder.id) }
            if child, let parent = parentID(of: folder) { children[parent, default: []].insert(folder.id) }
        case .dropped(let id, let below, let path):
            children[id] = below
            droppedPaths[id] = path
        }
    }

    private mutating func removeChild(_ id: Int32, of parent: Int32) {
        children[parent]?.remove(id)
        if children[parent]?.isEmpty == true { children[parent] = nil }
    }

    private mutating func newEpoch() {
        epoch &+= 1
        linkedSinceEpoch.removeAll(keepingCapacity: true)
    }
}
