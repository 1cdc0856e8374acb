// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Testing

/// The index's folders alone: lookups by path, root and subtree, and every change
/// undone exactly (`PhotoLibrary` rolls a failed transaction back through `undo`).
struct FolderTreeTests {
    static func folder(_ id: Int32, _ path: ByteString, root: Int32 = 1) -> Folder { Folder(id: id, rootID: root, path: path) }

    /// root "" <- a <- a/b <- a/b/c, and x, in root 1; "" in root 2.
    static func sample() -> FolderTree {
        var tree = FolderTree()
        for folder in [folder(1, ""), folder(2, "a"), folder(3, "a/b"), folder(4, "a/b/c"), folder(5, "x"), folder(6, "", root: 2)] {
            tree.link(folder)
        }
        return tree
    }

    /// What a caller can see of a tree, to compare two of them.
    static func view(_ tree: FolderTree) -> [String] {
        var lines: [String] = []
        for root: Int32 in [1, 2] {
            lines.append("root \(root): \(tree.ids(inRoot: root).sorted())")
            for path: ByteString in ["", "a", "a/b", "a/b/c", "x", "y", "y/c"] {
                lines.append("\(root) \(path): \(String(describing: tree.id(root: root, path: path)))"
                             + " below \(tree.subtree(root: root, within: path).map(\.id).sorted())")
            }
        }
        for id: Int32 in 1...7 { lines.append("\(id): \(String(describing: tree.path(id)))") }
        return lines
    }

    @Test func findsByPathRootAndSubtree() {
        let tree = Self.sample()
        #expect(tree.id(root: 1, path: "a/b") == 3)
        #expect(tree.id(root: 2, path: "a/b") == nil)
        #expect(tree.ids(inRoot: 1) == [1, 2, 3, 4, 5])
        #expect(tree.subtree(root: 1, within: "a").map(\.id) == [2, 3, 4], "parents before their children")
        #expect(tree.subtree(root: 1, within: "").count == 5)
        #expect(tree.parentID(of: Self.folder(4, "a/b/c")) == 3)
        #expect(tree.parentID(of: Self.folder(1, "")) == nil)
        #expect(tree.path(4) == "a/b/c")
    }

    @Test func unlinkingMovesTheEpochAndLinkingListsTheFolder() {
        var tree = Self.sample()
        let epoch = tree.epoch
        #expect(tree.linkedSinceEpoch == [1, 2, 3, 4, 5, 6])
        tree.unlink(Self.folder(5, "x"))
        #expect(tree.epoch == epoch &+ 1 && tree.linkedSinceEpoch.isEmpty)
        #expect(tree.id(root: 1, path: "x") == nil && tree.subtree(root: 1, within: "").count == 4)
        tree.link(Self.folder(7, "y"))
        #expect(tree.linkedSinceEpoch == [7] && tree.epoch == epoch &+ 1)
    }

    @Test func aDroppedFolderKeepsItsPathUntilForgotten() {
        var tree = Self.sample()
        tree.unlink(Self.folder(4, "a/b/c"))
        tree.drop(Self.folder(4, "a/b/c"))
        #expect(tree.id(root: 1, path: "a/b/c") == nil)
        #expect(tree.path(4) == "a/b/c", "removed events published after the batch name the photo's folder")
        tree.forgetDropped()
        #expect(tree.path(4) == nil)
    }

    /// A subtree moved (as `moveFolderTree` does) and a folder dropped, then each
    /// change undone newest first: the tree is as it was.
    @Test func undoingEveryChangeNewestFirstRestoresTheTree() {
        var tree = Self.sample()
        let before = Self.view(tree)
        var changes: [FolderTree.Change] = []
        let moving = tree.subtree(root: 1, within: "a/b")
        for folder in moving { changes.append(tree.unlink(folder)) }
        for var folder in moving {
            folder.path = ByteString("y").appending(folder.path.relative(to: "a/b"))
            changes.append(tree.link(folder))
        }
        #expect(tree.id(root: 1, path: "y/c") == 4 && tree.id(root: 1, path: "a/b") == nil)
        changes.append(tree.unlink(Self.folder(5, "x")))
        changes.append(tree.drop(Self.folder(5, "x")))
        // A path linked over another folder's (a row read twice) is undone too.
        changes.append(tree.link(Self.folder(7, "a")))
        #expect(tree.id(root: 1, path: "a") == 7)
        while let change = changes.popLast() { tree.undo(change) }
        #expect(Self.view(tree) == before)
    }
}
