// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// What select, deselect and toggle share once their photos are named.
struct SelectionVerb {
    /// Sends the verb (`SelectRequest.self`, `DeselectRequest.self` or `ToggleRequest.self`);
    /// in view mode, enters select mode first and says so (the CLI's courtesy).
    static func run<Verb: SelectorRequest>(_ verb: Verb.Type, _ selector: PhotoSelector, _ context: CLIContext) throws(CLIError) {
        let command = Verb(session: context.options.session, selector: selector)
        let result: SessionResult?
        do {
            result = try context.call(command)
        } catch CLIError.daemon(let error) where error.code == .notInSelectMode && verb != DeselectRequest.self && !context.options.json {
            if let entered = try context.call(ModeRequest(session: context.options.session, mode: .select)) {
                SessionOutput.evictionNote(entered)
            }
            Format.write("Entered select mode.")
            result = try context.call(command)
        }
        guard let r = result else { return }
        var parts: [String] = []
        if let added = r.added, added > 0 { parts.append("\(added) selected") }
        if let removed = r.removed, removed > 0 { parts.append("\(removed) deselected") }
        if let skipped = r.skippedProtected, skipped > 0 {
            parts.append("\(Format.plural(skipped, "protected photo")) left out (protected folders cannot be selected)")
        }
        if let d = r.duplicates {
            var alone: [String] = []
            if let n = d.leftAlone?.protected { alone.append("\(n) with every other copy protected") }
            if let n = d.leftAlone?.outsideView { alone.append("\(n) with every other copy outside the view") }
            if let n = d.leftAlone?.keeperSelected { alone.append("\(n) whose kept copy is selected") }
            parts.append("copies of \(Format.plural(d.sets, "duplicate set")) chosen, the oldest of each kept"
                         + (alone.isEmpty ? "" : "; left alone: " + alone.joined(separator: ", ")))
        }
        if let s = r.stacks {
            var alone: [String] = []
            if let n = s.leftAlone?.protected { alone.append("\(n) with every other frame protected") }
            if let n = s.leftAlone?.outsideView { alone.append("\(n) with every other frame outside the view") }
            if let n = s.leftAlone?.keeperSelected { alone.append("\(n) whose kept frame is selected") }
            parts.append("frames of \(Format.plural(s.sets, "stack")) chosen, the best rated or sharpest of each kept"
                         + (alone.isEmpty ? "" : "; left alone: " + alone.joined(separator: ", ")))
        }
        if !parts.isEmpty { Format.write(parts.joined(separator: ", ").prefix(1).uppercased() + parts.joined(separator: ", ").dropFirst() + ".") }
        Format.write(SessionOutput.describe(r))
    }
}
