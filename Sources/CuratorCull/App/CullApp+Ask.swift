// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

extension CullApp {
    /// Puts a question over the grid: nothing that clears a selection or moves a
    /// file happens on one key without saying what it will do.
    func ask(_ question: Question) {
        overlay = .ask(question)
        writer.invalidate()
        dirty = true
    }

    /// `y` to a question: what it asked about, with nothing asked again.
    func answerYes(_ question: Question) throws(CullError) {
        closeOverlay()
        switch question.action {
        case .leaveSelectMode: try switchMode(asked: true)
        case .page(let move): try go(move, asked: true)
        case .undo(let batch, let count): try undo(batch: batch, count)
        }
    }

    func answerNo(_ question: Question) {
        closeOverlay()
        switch question.action {
        case .leaveSelectMode, .page: say("Nothing changed: the selection stays.")
        case .undo: say("Nothing was put back.")
        }
    }

    /// Ctrl+Z: finds the batch an undo would put back (this grid's last one while it is
    /// in the trash, else the latest one of the user's still there), says what it holds
    /// and where, and asks. What is asked about is what is undone: the batch by its id.
    func proposeUndo() throws(CullError) {
        try request(TrashListRequest()) { [weak self] list in
            guard let self else { return }
            guard let batch = self.batches.toUndo(inTrash: Set(list.photos.map(\.batch))) else {
                self.say("Nothing to undo: nothing you moved to the trash with curatord is still there.")
                return
            }
            let photos = list.photos.filter { $0.batch == batch }
            self.ask(Self.undoQuestion(batch, photos))
        }
    }

    static func undoQuestion(_ batch: Int64, _ photos: [TrashedPhoto]) -> Question {
        let count = PhotoFileCount(photos)
        let roots = Array(Set(photos.map(\.root))).sorted()
        var folders: [String] = []
        for photo in photos {
            let folder = photo.path.split(separator: "/").dropLast().joined(separator: "/")
            let place = folder.isEmpty ? photo.root : "\(photo.root)/\(folder)"
            if !folders.contains(place) { folders.append(place) }
        }
        let when = photos.first.map { " on " + String($0.trashedAt.prefix(16)).replacingFirst("T", with: " at ") } ?? ""
        var lines = [
            "Batch \(batch), moved to the trash\(when):",
            "\(count.phrase), \(bytes(photos.reduce(0) { $0 + $1.size })),",
            "back to \(roots.count == 1 ? "root" : "roots") \(roots.joined(separator: ", ")):",
        ]
        let shown = folders.prefix(3)
        lines += shown.map { "  \($0)" }
        if folders.count > shown.count { lines.append("  … and \(folders.count - shown.count) more folders") }
        return Question(title: "Undo batch \(batch)?", lines: lines, yes: "put them back", no: "leave them in the trash",
                        action: .undo(batch: batch, count: count))
    }
}
