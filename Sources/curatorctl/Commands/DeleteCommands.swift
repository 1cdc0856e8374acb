// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import Foundation
import Glibc

/// `rm`: prepare a plan, show it, ask like the article's alert, then confirm.
struct RemoveCommand: CLICommand {
    static let name = "rm"
    static let abstract = "Move the selected photos (or one photo) to the trash, after showing the plan and asking."
    static let usage = "rm [--yes] [--photo ID|PATH]"
    var yes: Bool
    var photo: String?

    init(parsing arguments: inout ArgumentList) throws(CLIError) {
        yes = arguments.flag("--yes", "-y")
        photo = try arguments.option("--photo")
        try arguments.noMore()
    }

    func run(_ context: CLIContext) throws(CLIError) {
        let session = context.options.session
        var ids: [Int64]?
        if let photo { ids = [try Self.resolvePhoto(photo, context)] }
        let client = try context.connection()
        let prepare = Command.deletePrepare(DeletePrepareRequest(session: session, ids: ids))
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
            plan = try client.call(prepare, as: DeletePlanResult.self)
        }
        if !context.options.json {
            Format.write("Move \(Format.plural(plan.count, "photo")), \(Format.bytes(plan.bytes)), to the trash?")
            for item in plan.items.prefix(5) { Format.write("  \(item.root)/\(item.path)  \(Format.bytes(item.size))") }
            if plan.items.count > 5 { Format.write("  ... and \(plan.items.count - 5) more") }
        }
        if !yes {
            // Asked on the terminal, or answered by a script on stdin; no answer is no.
            Format.prompt("Delete? [y/N] ")
            let answer = readLine(strippingNewline: true)?.lowercased() ?? ""
            guard answer == "y" || answer == "yes" else {
                _ = try? client.call(.deleteCancel(DeleteCancelRequest(session: session, token: plan.token)), as: DeleteCancelResult.self)
                throw CLIError.cancelled
            }
        }
        let showProgress = !context.options.json && isatty(2) != 0 && plan.count >= 20
        if showProgress {
            try context.requireSameProtocol()
            _ = try client.call(.subscribe(SubscribeRequest()), as: SubscribeResult.self)
        }
        let command = Command.deleteConfirm(DeleteConfirmRequest(session: session, token: plan.token))
        let result: BatchResult
        if showProgress {
            result = try Self.confirmWithProgress(client, command, total: plan.count)
        } else if context.options.json {
            Format.writeRaw(try client.callRaw(command))
            return
        } else {
            result = try client.call(command, as: BatchResult.self)
        }
        Format.write("Batch \(result.batch): \(Format.plural(result.trashed, "photo")) moved to the trash (\(Format.bytes(result.bytes)))"
                     + (result.skipped > 0 ? ", \(result.skipped) skipped:" : "."))
        for item in result.items where item.outcome != .trashed {
            Format.write("  \(item.root)/\(item.path): \(Self.reason(item))")
        }
        Format.write("Undo with: curatorctl undo \(result.batch)")
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
    static func confirmWithProgress(_ client: Client, _ command: Command, total: Int) throws(CLIError) -> BatchResult {
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
        let status = try context.connection().call(.status(StatusRequest()), as: StatusResult.self)
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
                listing = try context.connection().call(.list(ListRequest(view: spec)), as: ListResult.self)
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

struct UndoCommand: CLICommand {
    static let name = "undo"
    static let abstract = "Put a batch's photos back where they were (your latest batch, or the one named)."
    static let usage = "undo [BATCH]"
    var batch: Int64?

    init(parsing arguments: inout ArgumentList) throws(CLIError) {
        let rest = try arguments.positionals()
        guard rest.count <= 1 else { throw CLIError.usage("usage: curatorctl \(Self.usage)") }
        if let text = rest.first {
            guard let id = Int64(text) else { throw CLIError.usage("BATCH is a batch number, as `curatorctl history` shows") }
            batch = id
        }
    }

    func run(_ context: CLIContext) throws(CLIError) {
        guard let r = try context.call(.undo(UndoRequest(batch: batch)), as: UndoResult.self) else { return }
        let failed = r.items.count { $0.outcome != .restored && $0.outcome != .conflict && $0.outcome != .missing }
        let notBack = r.items.filter { $0.outcome != .restored }
        Format.write("Batch \(r.batch): \(Format.plural(r.restored, "photo")) put back"
                     + (r.conflicts > 0 ? ", \(r.conflicts) left in the trash because a file now stands at their path" : "")
                     + (r.missing > 0 ? ", \(r.missing) no longer in the trash" : "")
                     + (failed > 0 ? ", \(failed) could not be put back" : "") + (notBack.isEmpty ? "." : ":"))
        for item in notBack { Format.write("  \(item.root)/\(item.path): \(Self.reason(item))") }
        if failed > 0 { Format.write("They stay recorded: `curatorctl undo \(r.batch)` again puts them back once that is fixed.") }
    }

    /// Why a photo did not come back, in one phrase: the daemon's detail when it gives
    /// one (it says it whole), else what the outcome means.
    static func reason(_ item: BatchItemResult) -> String {
        switch item.outcome {
        case .conflict: "a file is in the way; still in the trash"
        case .missing: item.detail ?? "not in the trash any more"
        default: "could not be put back: " + (item.detail ?? item.outcome.rawValue)
        }
    }
}

struct HistoryCommand: CLICommand {
    static let name = "history"
    static let abstract = "List your batches: id, time, state, counts, bytes."
    static let usage = "history [--limit N]"
    var limit: Int?

    init(parsing arguments: inout ArgumentList) throws(CLIError) {
        limit = try arguments.intOption("--limit", "-n")
        try arguments.noMore()
    }

    func run(_ context: CLIContext) throws(CLIError) {
        guard let r = try context.call(.history(HistoryRequest(limit: limit)), as: HistoryResult.self) else { return }
        if r.batches.isEmpty {
            Format.write("No batches yet.")
            return
        }
        for b in r.batches {
            Format.write("\(Format.pad(String(b.batch), 5, right: true))  \(b.createdAt)  \(Format.pad(b.state.rawValue, 13))  "
                         + "\(b.trashed)/\(b.count) trashed, \(b.restored) restored, \(Format.bytes(b.bytes))")
        }
    }
}
