// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

extension CullApp {
    /// A session answer: its state, and the selection's numbers fetched again when
    /// its count says they moved otherwise than the grid knows.
    func settle(_ result: SessionResult) throws(CullError) {
        apply(result)
        if result.count == 0 { selection.replace(with: []) }
        if result.count != selection.count {
            try request(SelectionRequest(session: session)) { [weak self] r in self?.apply(r) }
        }
    }

    /// `v`: seed 000's two modes. Leaving select mode clears the selection (the daemon
    /// does): with photos selected, it says so and asks first (`asked`: the yes).
    func switchMode(asked: Bool = false) throws(CullError) {
        let leaving = mode == .select
        let dropped = selection.count
        if leaving, dropped > 0, !asked {
            ask(Question(title: "Leave select mode?",
                         lines: ["Leaving select mode clears the selection of \(PhotoFileCount.plural(dropped, "photo"))"
                                 + " (\(Self.bytes(selectedBytes)))."],
                         yes: "clear it and leave", no: "stay in select mode", action: .leaveSelectMode))
            return
        }
        try request(ModeRequest(session: session, mode: leaving ? .view : .select)) { [weak self] (r: SessionResult) throws(CullError) in
            guard let self else { return }
            try self.settle(r)
            if leaving {
                self.say(dropped > 0 ? "View mode: the selection of \(dropped) photo\(dropped == 1 ? "" : "s") was cleared." : "View mode.")
            } else {
                self.say("Select mode: Space picks the photo under the cursor" + (r.cap.map { " (at most \($0))." } ?? "."))
            }
        }
    }

    /// Space: seed 002's tap. A protected photo is refused here and by the daemon.
    func toggleUnderCursor() throws(CullError) {
        guard let id = data.id(at: cursor) else { return }
        guard mode == .select else {
            say("View mode: press v to select photos.")
            return
        }
        if data.details[id]?.protected == true {
            say("\(data.details[id]?.path ?? "This photo") is in a protected folder: it cannot be selected.", warning: true)
            return
        }
        try request(ToggleRequest(session: session, selector: PhotoSelector(ids: [id]))) { [weak self] (r: SessionResult) throws(CullError) in
            guard let self else { return }
            self.selection.toggle(id)
            try self.settle(r)
        }
    }

    /// `/`: a glob or a date range; the page and the selection stay (seed 001).
    func setFilter(_ filter: ViewFilter?) throws(CullError) {
        var view = data.view
        var kept = filter ?? ViewFilter()
        kept.types = data.view.filter?.types
        // The marks asked for on the command line stay too.
        kept.ratingMin = data.view.filter?.ratingMin
        kept.ratingMax = data.view.filter?.ratingMax
        kept.flags = data.view.filter?.flags
        kept.labels = data.view.filter?.labels
        view.filter = kept.isEmpty ? nil : kept
        try changeView(view, note: filter == nil ? "Filter cleared." : "Filter: \(FilterText.describe(filter)).")
    }

    /// `s`: the next sort; `r`: the other order. The selection stays.
    func cycleSort() throws(CullError) {
        let order: [SortKey] = [.name, .capture, .mtime, .size, .custom, .rating, .flag, .label]
        let current = data.view.sort ?? .name
        let next = order[((order.firstIndex(of: current) ?? 0) + 1) % order.count]
        var view = data.view
        view.sort = next
        try changeView(view, note: "Sorted by \(Self.describe(next)).")
    }

    func reverseOrder() throws(CullError) {
        var view = data.view
        view.order = (view.order ?? .asc) == .asc ? .desc : .asc
        try changeView(view, note: view.order == .desc ? "Highest first." : "Lowest first.")
    }

    static func describe(_ sort: SortKey) -> String {
        switch sort {
        case .name: "name"
        case .capture: "capture time"
        case .mtime: "modification time"
        case .size: "size"
        case .custom: "your own order"
        case .rating: "stars"
        case .flag: "flag (rejects first)"
        case .label: "colour label"
        }
    }

    // MARK: pages (seed 003: another page resets the editing)

    /// Another page (`o`, `[`, `]`, Backspace) clears the selection: with photos
    /// selected, where the page would change, it says so and asks first.
    func go(_ move: PageMove, asked: Bool = false) throws(CullError) {
        switch move {
        case .openCursorFolder: try openCursorFolder(asked: asked)
        case .sibling(let delta): try siblingFolder(delta, asked: asked)
        case .widen: try widenPage(asked: asked)
        }
    }

    /// True when the page is left at once; else the question is up, and its yes goes.
    private func mayLeavePage(_ move: PageMove, to place: String, asked: Bool) -> Bool {
        guard !asked, selection.count > 0 else { return true }
        ask(Question(title: "Go to another page?",
                     lines: ["Going to \(place), another page, clears the selection",
                             "of \(PhotoFileCount.plural(selection.count, "photo")) (\(Self.bytes(selectedBytes)))."],
                     yes: "go and clear it", no: "stay here", action: .page(move)))
        return false
    }

    /// `o`: the folder under the cursor as the page.
    private func openCursorFolder(asked: Bool) throws(CullError) {
        guard let layout = currentLayout(), let index = layout.runIndex(of: cursor) else { return }
        let run = layout.runs[index]
        guard mayLeavePage(.openCursorFolder, to: [run.root, run.path].filter { !$0.isEmpty }.joined(separator: "/"), asked: asked)
        else { return }
        pages.append(PageMemory(view: data.view, runs: data.runs, cursorID: data.id(at: cursor)))
        try goToPage(root: run.root, folder: run.path)
    }

    /// `]` and `[`: the folder beside this page's, in the wider view it was opened from.
    private func siblingFolder(_ delta: Int, asked: Bool) throws(CullError) {
        guard let wider = pages.last else {
            say("o opens the folder under the cursor as a page; then [ and ] go to the folders beside it.")
            return
        }
        var folders: [FolderRun] = []
        for run in wider.runs where !folders.contains(where: { $0.root == run.root && $0.path == run.path }) { folders.append(run) }
        let here = folders.firstIndex { $0.root == data.view.root && $0.path == (data.view.folder ?? "") } ?? 0
        let target = here + delta
        guard folders.indices.contains(target) else {
            say(delta > 0 ? "This is the last folder." : "This is the first folder.")
            return
        }
        let folder = folders[target]
        guard mayLeavePage(.sibling(delta), to: [folder.root, folder.path].filter { !$0.isEmpty }.joined(separator: "/"), asked: asked)
        else { return }
        try goToPage(root: folder.root, folder: folder.path)
    }

    /// Backspace: back to the wider view this page was opened from (or the folder above).
    private func widenPage(asked: Bool) throws(CullError) {
        if let wider = pages.last {
            guard mayLeavePage(.widen, to: Self.describe(wider.view), asked: asked) else { return }
            pages.removeLast()
            try changeView(wider.view, note: "Back to \(Self.describe(wider.view)).", page: true, cursorID: wider.cursorID)
            return
        }
        guard let folder = data.view.folder, !folder.isEmpty else {
            say("This is the whole \(data.view.root.map { "root \($0)" } ?? "collection").")
            return
        }
        var view = data.view
        let parent = folder.split(separator: "/").dropLast().joined(separator: "/")
        view.folder = parent.isEmpty ? nil : parent
        view.recursive = nil
        guard mayLeavePage(.widen, to: Self.describe(view), asked: asked) else { return }
        try changeView(view, note: "Up to \(Self.describe(view)).", page: true)
    }

    private func goToPage(root: String, folder: String) throws(CullError) {
        var view = data.view
        view.root = root
        view.folder = folder.isEmpty ? nil : folder
        view.folderRaw = nil
        view.recursive = false
        try changeView(view, note: "Page \(Self.describe(view)).", page: true)
    }

    static func describe(_ view: ViewSpec) -> String {
        let place = [view.root, view.folder].compactMap { $0 }.joined(separator: "/")
        return place.isEmpty ? "every root" : place
    }

    /// Sets the session's view and lists its shape again; the cursor stays on its photo.
    func changeView(_ view: ViewSpec, note: String, page: Bool = false, cursorID: Int64? = nil) throws(CullError) {
        let dropped = selection.count
        let follow = cursorID ?? data.id(at: cursor)
        try request(ViewRequest(session: session, view: view)) { [weak self] (r: SessionResult) throws(CullError) in
            guard let self else { return }
            try self.settle(r)
            var text = note
            let removed = r.removed ?? 0
            if removed > 0 {
                text += page ? " Another page: the selection of \(removed) photo\(removed == 1 ? "" : "s") was cleared."
                    : " \(removed) photo\(removed == 1 ? "" : "s") left the selection."
            } else if page && dropped > 0 && r.count == 0 {
                text += " Another page: the selection was cleared."
            }
            self.say(text)
            self.followAfterShape = follow
            try self.listShape()
        }
    }
}

/// A wider view a folder page was opened from, to go back to and to find its neighbours in.
struct PageMemory {
    var view: ViewSpec
    var runs: [FolderRun]
    var cursorID: Int64?
}
