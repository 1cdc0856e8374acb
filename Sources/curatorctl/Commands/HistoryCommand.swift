// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol

struct HistoryCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "history",
        abstract: "List your batches, newest first: id, time, state, counts, bytes.",
        discussion: """
            Batches of other users that trashed photos you own are listed too, with who ran them \
            ("by bob") and counting your photos only; `curatorctl undo BATCH` puts those photos back.
            """)

    @Option("--limit", "-n", value: "N", help: "Show the newest N batches (default 50).",
            expecting: "a whole number, 0 or more", transform: { Int($0).flatMap { $0 >= 0 ? $0 : nil } })
    var limit: Int?

    func run(_ context: CLIContext) throws(CLIError) {
        guard let r = try context.call(HistoryRequest(limit: limit)) else { return }
        if r.batches.isEmpty {
            Format.write("No batches yet.")
            return
        }
        for b in r.batches {
            Format.write("\(Format.pad(String(b.batch), 5, right: true))  \(b.createdAt)  \(Format.pad(b.state.rawValue, 13))  "
                         + "\(Self.counts(b)), \(Format.bytes(b.bytes))"
                         + (b.byUid.map { uid in ", by \(b.byUser ?? "uid \(uid)") (your photos in it)" } ?? ""))
        }
    }

    /// "2/2 photos trashed (7/7 files), 0 restored": photos and files apart where a
    /// group makes them differ (a daemon that does not count photos: files alone).
    static func counts(_ b: BatchSummary) -> String {
        guard let photos = b.photos, let trashed = b.photosTrashed, let restored = b.photosRestored else {
            return "\(b.trashed)/\(Format.plural(b.count, "file")) trashed, \(b.restored) restored"
        }
        let files = photos == b.count && trashed == b.trashed ? "" : " (\(b.trashed)/\(Format.plural(b.count, "file")))"
        let back = restored == b.restored ? "\(restored)" : "\(restored) (\(Format.plural(b.restored, "file")))"
        return "\(trashed)/\(Format.plural(photos, "photo")) trashed\(files), \(back) restored"
    }
}
