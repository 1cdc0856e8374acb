// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol
import Foundation

struct WatchCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "watch",
        abstract: """
            Follow events as they happen (photos added, removed, changed, moved; your sessions' changes, \
            or --session's).
            """,
        discussion: "Ctrl-C stops. With --json, each event is printed as curatord sends it, one per line.")

    @Argument("ROOT", help: "The roots to follow (default: every root).")
    var roots: [String] = []

    func run(_ context: CLIContext) throws(CLIError) {
        try context.requireSameProtocol()
        let client = try context.connection()
        // With --session, the changes of that session only; else of all of yours.
        let sessions = context.options.session.map { [$0] }
        _ = try client.call(SubscribeRequest(roots: roots.isEmpty ? nil : roots, sessions: sessions))
        if !context.options.json && Format.isTerminal { Format.error("Watching; Ctrl-C stops.") }
        let decoder = Wire.makeDecoder()
        while true {
            let line = try client.readLine()
            if context.options.json {
                Format.writeRaw(line)
                continue
            }
            guard let event = try? decoder.decode(Event.self, from: line) else { continue }
            // Names and messages from the daemon: shown, never obeyed, by the terminal.
            Format.write(Self.describe(event).forTerminal)
        }
    }

    static func describe(_ e: Event) -> String {
        let root = e.root.map { "\($0): " } ?? ""
        switch e.event {
        case .added: return "+ \(root)\(e.photo?.path ?? "?")  #\(e.photo?.id ?? 0)"
        case .removed: return "- \(root)\(e.from?.path ?? "?")  #\(e.photoId ?? 0)"
        case .changed: return "~ \(root)\(e.photo?.path ?? "?")  #\(e.photo?.id ?? 0)"
        case .moved: return "> \(root)\(e.from?.path ?? "?") -> \(e.photo?.path ?? "?")  #\(e.photo?.id ?? 0)"
        case .offline: return "! \(root)offline: \(e.message ?? "")"
        case .online: return "! \(root)online again"
        case .scan: return "· \(root)scan \(e.state ?? "")\(e.count.map { ", \($0) photos" } ?? "")"
        case .scanned:
            let folder = e.folder.map { $0.path.isEmpty ? "/" : $0.path + "/" } ?? "?"
            return "+ \(root)\(folder)  \(Format.plural(e.count ?? 0, "photo")) found by the scan"
        case .overflow: return "! the inotify queue overflowed; rescanning"
        case .selection: return "· session \(e.session ?? "?"): " + describeSession(e)
        case .batch: return "· batch \(e.batch ?? 0): \(e.done ?? 0)/\(e.total ?? 0) \(e.state ?? "")"
        case .dropped: return "! events were dropped (reading too slowly); list again"
        case .sets: return "· \(e.state ?? "sets") changed: \(e.count ?? 0) now"
        case .metadata:
            let marks = e.photo.map { RateOutput.brief(rating: $0.rating, flag: $0.flag, label: $0.label) } ?? ""
            return "* \(root)\(e.photo?.path ?? "?")  #\(e.photo?.id ?? 0)  \(marks.isEmpty ? "no marks" : marks)"
        case .thumbnail:
            let sizes = e.sizes.map { " " + $0.map(\.rawValue).joined(separator: ",") } ?? ""
            return "· \(root)thumbnail #\(e.photoId ?? 0) \(e.state ?? "")\(sizes)\(e.message.map { ": \($0)" } ?? "")"
        }
    }

    /// "select mode, 3 photos selected (12 MB), at most 8" or "view mode".
    static func describeSession(_ e: Event) -> String {
        guard e.mode == .select else { return "view mode" }
        var text = "select mode, \(Format.plural(e.count ?? 0, "photo")) selected"
        if let bytes = e.bytes { text += " (\(Format.bytes(bytes)))" }
        if let cap = e.cap ?? nil { text += ", at most \(cap)" }
        return text
    }
}
