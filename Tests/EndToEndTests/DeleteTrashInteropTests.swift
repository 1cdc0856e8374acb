// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// People's own trash tools see what curatord did (issue 4 point 3), and what they
/// do is seen by curatord (point 6): trash-cli's `trash-list` and `trash-restore`,
/// run on the daemon's private `XDG_DATA_HOME`, never the real home trash.
@Suite(.serialized)
struct DeleteTrashInteropTests {
    static let names = ["Beach day 01.JPG", "Été 02.JPG", "plain_03.JPG"]

    /// The daemon with three photos whose names need percent-encoding, all selected
    /// and trashed but the last one.
    static func trashedTwo() throws -> (Daemon, PhotoSet, Client, Int, ClosedRange<Date>) {
        let d = Daemon()
        try FileManager.default.createDirectory(atPath: d.root() + "/2024 trip", withIntermediateDirectories: true)
        for (i, name) in names.enumerated() { Files.write(d.root() + "/2024 trip/" + name, "photo \(i) " + name) }
        let photos = try PhotoSet(root: d.root(), relativePaths: names.map { "2024 trip/" + $0 })
        try d.start()
        let c = try d.client()
        let ids = try c.idsByPath()
        _ = try c.result(["cmd": "mode", "mode": "select"])
        _ = try c.result(["cmd": "select", "ids": photos.relativePaths.prefix(2).compactMap { ids[$0] }])
        let before = Date(timeIntervalSinceNow: -1)
        let result = try c.deleteSelection()
        let after = Date(timeIntervalSinceNow: 1)
        #expect(result["trashed"] as? Int == 2)
        return (d, photos, c, try #require(result["batch"] as? Int), before...after)
    }

    static func trashCLI(_ d: Daemon, _ tool: String, _ arguments: [String], input: String? = nil) throws -> Tool.Output {
        try Tool.run("/usr/bin/" + tool, arguments, environment: d.environment, input: input)
    }

    @Test func trashListShowsOurPhotosWithTheirOriginalPathsAndDates() throws {
        guard Tool.exists("/usr/bin/trash-list") else {
            print("skipped: trash-cli is not installed")
            return
        }
        let (d, photos, _, _, window) = try Self.trashedTwo()
        let listing = try Self.trashCLI(d, "trash-list", [])
        #expect(listing.status == 0, "\(listing.stderr)")
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        formatter.timeZone = TimeZone.current
        var listed: [String: Date] = [:]
        for line in listing.stdout.split(separator: "\n") where line.count > 20 {
            // "2026-11-29 15:46:12 /abs/path"
            let date = formatter.date(from: String(line.prefix(19)))
            let path = String(line.dropFirst(20))
            if path.hasPrefix(d.home.path) { listed[path] = date }
        }
        let expected = photos.relativePaths.prefix(2).map(photos.absolute)
        #expect(Set(listed.keys) == Set(expected), "\(listing.stdout)")
        for path in expected {
            let date = try #require(listed[path] ?? nil, "no date for \(path)")
            #expect(window.contains(date), "\(date) is not the time of the batch \(window)")
        }
    }

    /// trash-restore puts one photo back: the daemon indexes it again under its
    /// former id, and a later undo reports it as restored by another tool while
    /// putting the other one back.
    @Test func trashRestorePutsOneBackAndUndoReportsItAsMissing() throws {
        guard Tool.exists("/usr/bin/trash-restore") else {
            print("skipped: trash-cli is not installed")
            return
        }
        let (d, photos, c, batch, _) = try Self.trashedTwo()
        let ids = try c.idsByPath()
        #expect(ids.count == 1)
        // The ids before the batch, from the journal.
        let journal = try JournalReader.items(stateDirectory: d.stateDir, batch: batch)
        var formerIDs: [String: Int] = [:]
        for item in journal { formerIDs[item.relativePath] = item.photo }
        #expect(formerIDs.count == 2)

        let beach = photos.relativePaths[0]
        let restore = try Self.trashCLI(d, "trash-restore", [photos.absolute(beach)], input: "0\n")
        #expect(restore.status == 0, "\(restore.stdout) \(restore.stderr)")
        #expect(try photos.allBack([beach]).isEmpty, "trash-restore put it back")
        try c.sync()
        try eventually(timeout: 10, "the restored photo to be indexed") { try c.idsByPath()[beach] != nil }
        #expect(try c.idsByPath()[beach] == formerIDs[beach], "indexed again under its former id")

        let undo = try c.undo()
        #expect(undo["batch"] as? Int == batch)
        let outcomes = PhotoOutcomes(undo)
        #expect(outcomes.byPath == [beach: "missing", photos.relativePaths[1]: "restored"])
        let detail = outcomes.item(beach)?["detail"] as? String ?? ""
        #expect(detail.contains("another tool"), "\(detail)")
        #expect(undo["restored"] as? Int == 1)
        #expect(undo["missing"] as? Int == 1)
        #expect(undo["state"] as? String == "undone")
        #expect(try photos.allBack().isEmpty)
        try c.sync()
        let after = try c.idsByPath()
        #expect(after[beach] == formerIDs[beach])
        #expect(after[photos.relativePaths[1]] == formerIDs[photos.relativePaths[1]])
        #expect(TrashSnapshot(d.trashDirectory).entries.isEmpty)
        #expect(TrashSnapshot(d.trashDirectory).files.isEmpty)
    }
}
