// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc

/// What a freedesktop.org trash directory holds, read straight from the disk with
/// a parser of our own (percent-decoding included), independent of the daemon's.
struct TrashSnapshot {
    struct Entry {
        /// The name in `files/` (the `.trashinfo` name without its suffix).
        var name: String
        /// `Path=`, percent-decoded.
        var path: String
        var deletionDate: String
    }

    let directory: String
    /// Every `info/*.trashinfo`, parsed (unparsable ones have an empty path).
    var entries: [Entry] = []
    /// Names in `files/`.
    var files: Set<String> = []

    init(_ directory: String) {
        self.directory = directory
        let fm = FileManager.default
        files = Set((try? fm.contentsOfDirectory(atPath: directory + "/files")) ?? [])
        for name in (try? fm.contentsOfDirectory(atPath: directory + "/info")) ?? [] where name.hasSuffix(".trashinfo") {
            let text = Files.read(directory + "/info/" + name) ?? ""
            var path = ""
            var date = ""
            for line in text.split(separator: "\n") {
                if line.hasPrefix("Path=") { path = Self.percentDecode(String(line.dropFirst(5))) }
                if line.hasPrefix("DeletionDate=") { date = String(line.dropFirst(13)) }
            }
            entries.append(Entry(name: String(name.dropLast(".trashinfo".count)), path: path, deletionDate: date))
        }
    }

    func filePath(_ name: String) -> String { directory + "/files/" + name }
    func infoPath(_ name: String) -> String { directory + "/info/" + name + ".trashinfo" }

    /// The entries whose `Path=` is `original`.
    func entries(for original: String) -> [Entry] { entries.filter { $0.path == original } }

    /// `.trashinfo` files without their file, and files without their `.trashinfo`.
    var orphans: [String] {
        let infoNames = Set(entries.map(\.name))
        return entries.filter { !files.contains($0.name) }.map { "info/\($0.name).trashinfo has no file" }
            + files.subtracting(infoNames).sorted().map { "files/\($0) has no .trashinfo" }
    }

    static func percentDecode(_ text: String) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The batch journal read with the `sqlite3` command-line tool, read-only, so that
/// what the tests check is what is on disk, not what the daemon says about it.
enum JournalReader {
    struct Item {
        var step: Int
        var photo: Int
        var relativePath: String
        var state: String
        var outcome: String
    }

    static func items(stateDirectory: String, batch: Int) throws -> [Item] {
        let sql = """
            SELECT step, photo, CAST(rel_path AS TEXT) AS rel, state, outcome FROM items WHERE batch = \(batch) ORDER BY step
            """
        let out = try Tool.run("/usr/bin/sqlite3", ["-readonly", "-json", stateDirectory + "/journal.sqlite", sql])
        guard out.status == 0 else { throw HarnessError("sqlite3 failed: \(out.stderr)") }
        let text = out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return [] }
        guard let rows = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else {
            throw HarnessError("sqlite3 printed no JSON array: \(text)")
        }
        return rows.map {
            Item(step: $0["step"] as? Int ?? 0, photo: $0["photo"] as? Int ?? 0, relativePath: $0["rel"] as? String ?? "",
                 state: $0["state"] as? String ?? "", outcome: $0["outcome"] as? String ?? "")
        }
    }
}

extension JournalReader {
    /// Journal records that recovery must never leave behind: a batch still
    /// `running` or undoing, a photo still mid-step (`intent`, `restoring`).
    static func unsettled(stateDirectory: String) throws -> [String] {
        let sql = """
            SELECT 'batch ' || id || ' is ' || state || CASE WHEN undo_running != 0 THEN ' (undo running)' ELSE '' END
              FROM batches WHERE state = 'running' OR undo_running != 0
            UNION ALL
            SELECT 'batch ' || batch || ' step ' || step || ' is ' || state FROM items WHERE state IN ('intent', 'restoring', 'emptying')
            """
        let out = try Tool.run("/usr/bin/sqlite3", ["-readonly", stateDirectory + "/journal.sqlite", sql])
        guard out.status == 0 else { throw HarnessError("sqlite3 failed: \(out.stderr)") }
        return out.stdout.split(separator: "\n").map(String.init)
    }
}
