// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

extension CullApp {
    /// A session answer: its state, and the selection's numbers fetched again when
    /// its count says they moved otherwise than the grid knows.
    func settle(_ result: SessionResult) throws(CullError) {
        dirty = true
        if mirror.settle(result) {
            try request(SelectionRequest(session: session)) { [weak self] r in self?.apply(r) }
        }
    }

    /// `v`: seed 000's two modes. Leaving select mode clears the selection (the daemon
    /// does): with photos selected, it says so and asks first (`asked`: the yes).
    func switchMode(asked: Bool = false) throws(CullError) {
        let leaving = mirror.mode == .select
        let dropped = mirror.selection.count
        if leaving, dropped > 0, !asked {
            ask(Question(title: "Leave select mode?",
                         lines: ["Leaving select mode clears the selection of \(PhotoFileCount.plural(dropped, "photo"))"
                                 + " (\(Self.bytes(mirror.selectedBytes)))."],
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
        guard let id = data.id(at: cursor.position) else { return }
        guard mirror.mode == .select else {
            say("View mode: press v to select photos.")
            return
        }
        if data.details[id]?.protected == true {
            say("\(data.details[id]?.path ?? "This photo") is in a protected folder: it cannot be selected.", warning: true)
            return
        }
        try request(ToggleRequest(session: session, selector: PhotoSelector(ids: [id]))) { [weak self] (r: SessionResult) throws(CullError) in
            guard let self else { return }
            self.mirror.selection.toggle(id)
            try self.settle(r)
        }
    }

    /// `/`: a glob or a date range; the page and the selection stay (seed 001).
    func setFilter(_ filter: ViewFilter?) throws(CullError) {
        let view = ViewEdits.filtered(data.view, by: filter)
        try changeView(view, note: filter == nil ? "Filter cleared." : "Filter: \(FilterText.describe(filter)).")
    }

    /// `s`: the next sort; `r`: the other order. The selection stays.
    func cycleSort() throws(CullError) {
        let view = ViewEdits.nextSort(data.view)
        try changeView(view, note: "Sorted by \(Self.describe(view.sort ?? .name)).")
    }

    func reverseOrder() throws(CullError) {
        let view = ViewEdits.reversed(data.view)
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
        guard !asked, mirror.selection.count > 0 else { return true }
        ask(Question(title: "Go to another page?",
                     lines: ["Going to \(place), another page, clears the selection",
                             "of \(PhotoFileCount.plural(mirror.selection.count, "photo")) (\(Self.bytes(mirror.selectedBytes)))."],
                     yes: "go and clear it", no: "stay here", action: .page(move)))
        return false
    }

    /// `o`: the folder under the cursor as the page.
    private func openCursorFolder(asked: Bool) throws(CullError) {
        guard let layout = currentLayout(), let index = layout.runIndex(of: cursor.position) else { return }
        let run = layout.runs[index]
        guard mayLeavePage(.openCursorFolder, to: [run.root, run.path].filter { !$0.isEmpty }.joined(separator: "/"), asked: asked)
        else { return }
        pages.push(PageMemory(view: data.view, runs: data.runs, cursorID: data.id(at: cursor.position)))
        try goToPage(root: run.root, folder: run.path)
    }

    /// `]` and `[`: the folder beside this page's, in the wider view it was opened from.
    private func siblingFolder(_ delta: Int, asked: Bool) throws(CullError) {
        switch pages.sibling(delta, of: data.view) {
        case .noWiderView:
            say("o opens the folder under the cursor as a page; then [ and ] go to the folders beside it.")
        case .edge:
            say(delta > 0 ? "This is the last folder." : "This is the first folder.")
        case .folder(let root, let path):
            guard mayLeavePage(.sibling(delta), to: [root, path].filter { !$0.isEmpty }.joined(separator: "/"), asked: asked)
            else { return }
            try goToPage(root: root, folder: path)
        }
    }

    /// Backspace: back to the wider view this page was opened from (or the folder above).
    private func widenPage(asked: Bool) throws(CullError) {
        if let wider = pages.last {
            guard mayLeavePage(.widen, to: Self.describe(wider.view), asked: asked) else { return }
            _ = pages.pop()
            try changeView(wider.view, note: "Back to \(Self.describe(wider.view)).", page: true, cursorID: wider.cursorID)
            return
        }
        guard let view = PageHistory.parent(of: data.view) else {
            say("This is the whole \(data.view.root.map { "root \($0)" } ?? "collection").")
            return
        }
        guard mayLeavePage(.widen, to: Self.describe(view), asked: asked) else { return }
        try changeView(view, note: "Up to \(Self.describe(view)).", page: true)
    }

    private func goToPage(root: String, folder: String) throws(CullError) {
        let view = PageHistory.page(of: data.view, root: root, folder: folder)
        try changeView(view, note: "Page \(Self.describe(view)).", page: true)
    }

    static func describe(_ view: ViewSpec) -> String {
        let place = [view.root, view.folder].compactMap { $0 }.joined(separator: "/")
        return place.isEmpty ? "every root" : place
    }

    /// Sets the session's view and lists its shape again; the cursor stays on its photo.
    func changeView(_ view: ViewSpec, note: String, page: Bool = false, cursorID: Int64? = nil) throws(CullError) {
        let dropped = mirror.selection.count
        let follow = cursorID ?? data.id(at: cursor.position)
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
            self.cursor.follow = follow
            try self.listShape()
        }
    }
}
