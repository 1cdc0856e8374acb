// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// A wider view a folder page was opened from, to go back to and to find its neighbours in.
struct PageMemory {
    var view: ViewSpec
    var runs: [FolderRun]
    var cursorID: Int64?
}

/// The wider views folder pages were opened from (`o`), innermost last, and the
/// pages `[`, `]` and Backspace go to from here.
struct PageHistory {
    private(set) var wider: [PageMemory] = []

    var last: PageMemory? { wider.last }

    mutating func push(_ memory: PageMemory) { wider.append(memory) }

    mutating func pop() -> PageMemory? { wider.popLast() }

    /// Where `]` (+1) or `[` (-1) goes from the page showing `view`.
    enum Sibling: Equatable {
        /// No folder page is open: nothing is beside it.
        case noWiderView
        /// Already the last (`delta` > 0) or the first folder.
        case edge
        case folder(root: String, path: String)
    }

    /// The folder beside this page's in the wider view it was opened from: each
    /// folder once, in the order the wider view first shows it (a sort other than
    /// by name splits a folder into several runs).
    func sibling(_ delta: Int, of view: ViewSpec) -> Sibling {
        guard let memory = wider.last else { return .noWiderView }
        var folders: [FolderRun] = []
        for run in memory.runs where !folders.contains(where: { $0.root == run.root && $0.path == run.path }) { folders.append(run) }
        let here = folders.firstIndex { $0.root == view.root && $0.path == (view.folder ?? "") } ?? 0
        let target = here + delta
        guard folders.indices.contains(target) else { return .edge }
        return .folder(root: folders[target].root, path: folders[target].path)
    }

    /// The folder above `view`'s, not recursive; nil at a root's top or over every root.
    static func parent(of view: ViewSpec) -> ViewSpec? {
        guard let folder = view.folder, !folder.isEmpty else { return nil }
        var parent = view
        let path = folder.split(separator: "/").dropLast().joined(separator: "/")
        parent.folder = path.isEmpty ? nil : path
        parent.recursive = nil
        return parent
    }

    /// One folder of `root` as the page: its photos alone, filter and sort kept.
    static func page(of view: ViewSpec, root: String, folder: String) -> ViewSpec {
        var page = view
        page.root = root
        page.folder = folder.isEmpty ? nil : folder
        page.folderRaw = nil
        page.recursive = false
        return page
    }
}
