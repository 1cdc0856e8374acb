// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// The promises of issue 4 point 5, checked on the disk after a crash and a
/// restart, and the undo that must then bring everything back.
enum CrashCheck {
    /// After the restart: every photo at its original path or in the trash with a
    /// matching `.trashinfo` (never both, never neither, content intact), no
    /// orphan in the trash, nothing left mid-step in the journal. Returns where
    /// the photos stand.
    static func invariants(_ d: Daemon, _ photos: PhotoSet, _ context: String,
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> PhotoSet.Census {
        wholeTrashInfos(d, context, sourceLocation: sourceLocation)
        let census = try photos.census(trash: d.trashDirectory)
        #expect(census.problems.isEmpty, "\(context): \(census.problems)", sourceLocation: sourceLocation)
        let unsettled = try JournalReader.unsettled(stateDirectory: d.stateDir)
        #expect(unsettled.isEmpty, "\(context): \(unsettled)", sourceLocation: sourceLocation)
        return census
    }

    /// Every `.trashinfo` in the trash is whole (`[Trash Info]`, a `Path=` and a
    /// `DeletionDate=`): after recovery, and right after a kill too, before any
    /// restart recovers anything: until the daemon runs again (it may be stopped, or
    /// fail to start) trash-list, gio and file managers read them. `.trashinfo` files
    /// written ahead for photos not moved yet are allowed (the spec allows an info
    /// file without its file); an empty or short one is not.
    static func wholeTrashInfos(_ d: Daemon, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let info = d.trashDirectory + "/info"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: info)) ?? []
        for name in names.sorted() where name.hasSuffix(".trashinfo") {
            let text = Files.read(info + "/" + name) ?? ""
            let lines = text.split(separator: "\n").map(String.init)
            let whole = lines.first == "[Trash Info]"
                && lines.contains { $0.hasPrefix("Path=") && $0.count > "Path=".count }
                && lines.contains { $0.hasPrefix("DeletionDate=") && $0.count > "DeletionDate=".count }
            #expect(whole, "\(context): \(name) is not a whole .trashinfo: \(text.debugDescription)", sourceLocation: sourceLocation)
        }
    }

    /// Undoes the caller's batches until nothing of theirs is in the trash, then
    /// checks every photo is back with identical content and its former id.
    static func undoEverything(_ d: Daemon, _ photos: PhotoSet, ids: [String: Int], _ context: String,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let c = try d.client()
        for _ in 0..<10 {
            let response = try c.request(["cmd": "undo"])
            if response["ok"] as? Bool == true { continue }
            let code = (response["error"] as? [String: Any])?["code"] as? String
            #expect(code == "no_such_batch", "\(context): undo failed: \(response)", sourceLocation: sourceLocation)
            break
        }
        #expect(try photos.allBack().isEmpty, "\(context): not every photo is back", sourceLocation: sourceLocation)
        let census = try photos.census(trash: d.trashDirectory)
        #expect(census.problems.isEmpty && census.inTrash.isEmpty, "\(context): \(census.problems) \(census.inTrash)",
                sourceLocation: sourceLocation)
        try c.sync()
        let now = try c.idsByPath()
        let lostIDs = ids.filter { now[$0.key] != $0.value }.map(\.key).sorted()
        #expect(lostIDs.isEmpty, "\(context): back under another id: \(lostIDs.prefix(5)) (\(lostIDs.count))",
                sourceLocation: sourceLocation)
    }
}
