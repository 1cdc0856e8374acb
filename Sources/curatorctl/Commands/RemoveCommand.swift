// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol
import Foundation
import Glibc

/// `rm`: prepare a plan, show it, ask like the article's alert, then confirm.
struct RemoveCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "rm",
        abstract: "Move the selected photos (or one photo) to the trash, after showing the plan and asking.")

    @Flag("--yes", "-y", help: "Do not ask (for scripts): the plan is shown and carried out.")
    var yes: Bool

    @Option("--photo", value: "ID|PATH", help: """
        This photo instead of the selection: by id, by ROOT/PATH as ls shows it, or by the path of its file \
        (absolute, or from the working directory).
        """)
    var photo: String?

    @Option("--only", value: "raw|rendered", help: """
        Of each photo that is a group (a RAW and its JPEG, with their sidecars), trash only that part: its RAW \
        (with the RAW's own sidecars) or its rendered file (JPEG, HEIC, ...). The group's own sidecar stays while \
        any of its files does. Photos without such a file are left out.
        """, expecting: "raw or rendered", transform: { ["raw", "rendered"].contains($0) ? $0 : nil })
    var only: String?

    func run(_ context: CLIContext) throws(CLIError) {
        let session = context.options.session
        var ids: [Int64]?
        if let photo { ids = [try Self.resolvePhoto(photo, context)] }
        let client = try context.connection()
        let prepare = DeletePrepareRequest(session: session, ids: ids, only: only)
        let plan: DeletePlanResult
        if context.options.json {
            let raw = try client.callRaw(prepare)
            Format.writeRaw(raw)
            guard let decoded = try? Wire.makeDecoder().decode(Response<DeletePlanResult>.self, from: raw), let result = decoded.result else {
                throw CLIError.daemon((try? Wire.makeDecoder().decode(Response<DeletePlanResult>.self, from: raw))?.error
                                      ?? ProtocolError(.internalError, "no plan"))
            }
            plan = result
        } else {
            plan = try client.call(prepare)
        }
        if !context.options.json {
            Format.write("Move \(Self.counted(plan)), \(Format.bytes(plan.bytes)), to the trash?")
            let shown = min(plan.items.count, 5)
            for item in plan.items.prefix(shown) {
                Format.write("  \("\(item.root)/\(item.path)".forTerminal)  \(Format.bytes(item.size))")
                for file in item.files ?? [] { Format.write("      \(file.kind) \(file.path.forTerminal)  \(Format.bytes(file.size))") }
            }
            if shown < plan.items.count { Format.write("  ... and \(plan.items.count - shown) more") }
        }
        if !yes {
            // Asked on the terminal, or answered by a script on stdin; no answer is no.
            Format.prompt("Delete? [y/N] ")
            let answer = readLine(strippingNewline: true)?.lowercased() ?? ""
            guard answer == "y" || answer == "yes" else {
                _ = try? client.call(DeleteCancelRequest(session: session, token: plan.token))
                throw CLIError.cancelled
            }
        }
        let showProgress = !context.options.json && isatty(2) != 0 && plan.count >= 20
        if showProgress {
            try context.requireSameProtocol()
            _ = try client.call(SubscribeRequest())
        }
        let command = DeleteConfirmRequest(session: session, token: plan.token)
        let result: BatchResult
        if showProgress {
            result = try Self.confirmWithProgress(client, command, total: plan.files ?? plan.count)
        } else if context.options.json {
            let raw = try client.callRaw(command)
            Format.writeRaw(raw)
            // The same exit status as without --json: a script reads both.
            if let decoded = try? Wire.makeDecoder().decode(Response<BatchResult>.self, from: raw), let done = decoded.result {
                try Self.requireMoved(done)
            }
            return
        } else {
            result = try client.call(command)
        }
        // A group's files, and orphaned sidecars, are counted as files (the plan said what they make).
        let inFiles = result.items.contains { $0.group != nil } || plan.items.contains { $0.orphan == true }
        let moved = Format.plural(result.trashed, inFiles ? "file" : "photo")
        Format.write("Batch \(result.batch): \(moved) moved to the trash (\(Format.bytes(result.bytes)))"
                     + (result.skipped > 0 ? ", \(result.skipped) skipped:" : "."))
        for item in result.items where item.outcome != .trashed {
            Format.write("  \("\(item.root)/\(item.path)".forTerminal): \(Self.reason(item).forTerminal)")
        }
        // Only a batch that moved something has anything to undo.
        if result.trashed > 0 { Format.write("Undo with: curatorctl undo \(result.batch)") }
        try Self.requireMoved(result)
    }

    /// What a plan takes, as its question says it: photos (with their files, where
    /// groups make them more) and orphaned sidecars, which are no photos (issue 15).
    static func counted(_ plan: DeletePlanResult) -> String {
        let orphans = plan.items.count { $0.orphan == true }
        return Format.photosAndOrphans(plan.count - orphans, orphans: orphans, files: (plan.files ?? plan.count) - orphans)
    }

    /// Exit status 6 when the batch moved nothing, 7 when it moved only part of the plan.
    static func requireMoved(_ result: BatchResult) throws(CLIError) {
        let planned = result.trashed + result.skipped
        guard result.trashed < planned else { return }
        if result.trashed == 0 {
            throw CLIError.incomplete("nothing was moved to the trash (batch \(result.batch): \(Format.plural(result.skipped, "photo")) skipped).",
                                      nothingDone: true)
        }
        throw CLIError.incomplete("only \(result.trashed) of \(Format.plural(planned, "photo")) were moved to the trash (batch \(result.batch)).",
                                  nothingDone: false)
    }

    static func reason(_ item: BatchItemResult) -> String {
        let base: String = switch item.outcome {
        case .changed: "changed since the plan was shown; left alone"
        case .vanished: "no longer there"
        case .permissionDenied: "you may not delete it"
        case .protected: "in a protected folder"
        case .noTrash: "no trash on its file system"
        case .pending: "not reached (the batch was interrupted)"
        default: item.outcome.rawValue
        }
        return item.detail.map { "\(base) (\($0))" } ?? base
    }

    /// Sends the confirmation and draws a progress bar from batch events until the response.
    static func confirmWithProgress(_ client: Client, _ command: DeleteConfirmRequest, total: Int) throws(CLIError) -> BatchResult {
        try client.send(Wire.request(id: .string("confirm"), command: command))
        let decoder = Wire.makeDecoder()
        while true {
            let line = try client.readLine()
            if let event = try? decoder.decode(Event.self, from: line), event.event == .batch, let done = event.done {
                let width = 30
                let filled = total > 0 ? min(width, done * width / total) : width
                let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
                Format.prompt("\r[\(bar)] \(done)/\(total)")
                continue
            }
            if let response = try? decoder.decode(Response<BatchResult>.self, from: line), response.id == .string("confirm") {
                Format.prompt("\n")
                if let result = response.result { return result }
                throw CLIError.daemon(response.error ?? ProtocolError(.internalError, "no result"))
            }
        }
    }

    /// A photo named by id, by `ROOT/PATH` as `ls` shows it, or by a file's path
    /// (absolute, or from the working directory) under a root. A relative text may be
    /// either of the last two (in a root named `photos`, `photos/a/x.jpg` typed from
    /// inside that root is both): the file on disk, when there is one, is tried first,
    /// then the other reading; a reading whose folder does not exist is no answer.
    static func resolvePhoto(_ text: String, _ context: CLIContext) throws(CLIError) -> Int64 {
        if let id = Int64(text) { return id }
        let status = try context.connection().call(StatusRequest())
        var onDisk: (root: String, path: String)?
        let absolute = URL(fileURLWithPath: text, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL.path
        if let root = status.roots.first(where: { absolute.hasPrefix($0.path.hasSuffix("/") ? $0.path : $0.path + "/") }) {
            onDisk = (root.name, String(absolute.dropFirst(root.path.count).drop { $0 == "/" }))
        }
        var named: (root: String, path: String)?
        if !text.hasPrefix("/"), let slash = text.firstIndex(of: "/"), status.roots.contains(where: { $0.name == String(text[..<slash]) }) {
            named = (String(text[..<slash]), String(text[text.index(after: slash)...]))
        }
        let fileExists = FileManager.default.fileExists(atPath: absolute)
        let readings = (fileExists ? [onDisk, named] : [named, onDisk]).compactMap { $0 }
        for reading in readings {
            var spec = ViewSpec(root: reading.root, recursive: false)
            let folder = reading.path.split(separator: "/").dropLast().joined(separator: "/")
            if !folder.isEmpty { spec.folder = folder }
            let listing: ListResult
            do {
                listing = try context.connection().call(ListRequest(view: spec))
            } catch CLIError.daemon(let error) where error.code == .noSuchFolder {
                continue
            }
            if let match = listing.photos.first(where: { $0.path == reading.path }) { return match.id }
        }
        let tried = readings.map { "\($0.root)/\($0.path)" }
        throw CLIError.daemon(ProtocolError(.noSuchPhoto, "No indexed photo is at \(text)"
                                            + (tried.isEmpty ? " (it is in no root)." : " (looked for \(tried.joined(separator: " and "))).")))
    }
}
