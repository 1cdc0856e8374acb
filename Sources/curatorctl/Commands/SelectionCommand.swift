// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol

struct SelectionCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "selection",
        abstract: "Show the selection in the order chosen, numbered, with totals.")

    func run(_ context: CLIContext) throws(CLIError) {
        guard let r = try context.call(SelectionRequest(session: context.options.session)) else { return }
        if r.items.isEmpty {
            Format.write(r.mode == .select ? "Nothing is selected." : "Nothing is selected (the session is in view mode).")
            return
        }
        let width = String(r.items.count).count
        for item in r.items {
            // A group's size is all of its files', as the total below and a delete count it.
            let size = item.totalSize.map { "\(Format.bytes($0)) (\(Format.plural(item.files ?? 1, "file")))" } ?? Format.bytes(item.size)
            Format.write("\(Format.pad(String(item.number), width, right: true)). \("\(item.root)/\(item.path)".forTerminal)  \(size)"
                         + (item.captureTime.map { "  \($0)" } ?? "") + "  #\(item.id)" + (item.hidden == true ? "  (hidden by the view)" : ""))
        }
        let hidden = (r.hidden ?? 0) > 0 ? "; \(r.hidden ?? 0) hidden by the view" : ""
        Format.write("\(Format.photosAndOrphans(r.count - (r.orphans ?? 0), orphans: r.orphans ?? 0)), \(Format.bytes(r.bytes))" + (r.cap.map { " (at most \($0))" } ?? "") + hidden)
    }
}
