// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol

struct UndoCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "undo",
        abstract: "Put a batch's photos back where they were (your latest batch, or the one named).")

    @Argument("BATCH", help: "The batch's number, as history shows it (default: your latest batch still in the trash).",
              expecting: "a batch number, as `curatorctl history` shows", transform: { Int64($0) })
    var batch: Int64?

    func run(_ context: CLIContext) throws(CLIError) {
        guard let (r, writeText) = try context.callDecoding(UndoRequest(batch: batch)) else { return }
        if writeText { Self.write(r) }
        // Exit status 6 when nothing came back, 7 when only part did (the lines above say why).
        guard r.restored < r.items.count else { return }
        if r.restored == 0 {
            throw CLIError.incomplete("nothing was put back (batch \(r.batch)).", nothingDone: true)
        }
        let back = PhotoFileCount(r.items.filter { $0.outcome == .restored }), all = PhotoFileCount(r.items)
        let files = back.files == back.photos && all.files == all.photos ? "" : " (\(back.files) of \(Format.plural(all.files, "file")))"
        throw CLIError.incomplete("only \(back.photos) of \(Format.plural(all.photos, "photo"))\(files) were put back (batch \(r.batch)).",
                                  nothingDone: false)
    }

    static func write(_ r: UndoResult) {
        let failed = r.items.count { $0.outcome != .restored && $0.outcome != .conflict && $0.outcome != .missing }
        let notBack = r.items.filter { $0.outcome != .restored }
        // Each file of a group has its result: photos and files counted apart, as the plan said them.
        func count(_ outcome: (PhotoOutcome) -> Bool) -> PhotoFileCount { PhotoFileCount(r.items.filter { outcome($0.outcome) }) }
        Format.write("Batch \(r.batch): \(count { $0 == .restored }.phrase) put back"
                     + (r.conflicts > 0 ? ", \(count { $0 == .conflict }.phrase) left in the trash because a file now stands at their path" : "")
                     + (r.missing > 0 ? ", \(count { $0 == .missing }.phrase) no longer in the trash" : "")
                     + (failed > 0 ? ", \(count { ![.restored, .conflict, .missing].contains($0) }.phrase) could not be put back" : "")
                     + (notBack.isEmpty ? "." : ":"))
        for item in notBack { Format.write("  \("\(item.root)/\(item.path)".forTerminal): \(Self.reason(item).forTerminal)") }
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
