// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorStore
import CuratorXMP

/// The marks read from each XMP sidecar (docs/XMP.md), with the size and mtime
/// the file had when read: a warm start reads again only the sidecars that changed.
extension IndexStore {
    /// `stated` 0: the packet holds none of the properties read (nothing says).
    /// `flag` 0 none, 1 pick, 2 reject; `label` darktable's index of the colour.
    static let createSidecarMarksSQL = """
        CREATE TABLE IF NOT EXISTS sidecar_marks(id INTEGER PRIMARY KEY, size INTEGER NOT NULL, mtime INTEGER NOT NULL,
            stated INTEGER NOT NULL, rating INTEGER, flag INTEGER NOT NULL, label INTEGER);
        """

    /// The step that adds the table to an index of the schema before it.
    func addSidecarMarks() throws {
        try database.execute(Self.createSidecarMarksSQL)
    }

    /// Every stored record by sidecar id; a rating out of range is read as none
    /// (only a corrupt file has one).
    func loadSidecarMarks() throws -> [Int64: SidecarMarksRecord] {
        let s = try database.prepare("SELECT id, size, mtime, stated, rating, flag, label FROM sidecar_marks")
        var records: [Int64: SidecarMarksRecord] = [:]
        while try s.step() {
            var marks: PhotoMarks?
            if s.int64(3) != 0 {
                let stored = s.isNull(4) ? nil : Int(s.int64(4))
                let rating = stored.flatMap { (0...5).contains($0) ? $0 : nil }
                let flag: PickFlag = switch s.int64(5) { case 1: .pick; case 2: .reject; default: .none }
                let label = s.isNull(6) ? nil : ColorLabel.allCases.first { Int64($0.darktableIndex) == s.int64(6) }
                marks = PhotoMarks(rating: rating, flag: flag, label: label)
            }
            records[s.int64(0)] = SidecarMarksRecord(size: s.int64(1), mtimeNs: s.int64(2), marks: marks)
        }
        return records
    }

    func setSidecarMarks(_ id: Int64, _ record: SidecarMarksRecord?) throws {
        guard let record else {
            try database.prepare("DELETE FROM sidecar_marks WHERE id = ?").bind(.int(id)).run()
            return
        }
        let marks = record.marks
        let flag: Int64 = switch marks?.flag ?? .none { case .none: 0; case .pick: 1; case .reject: 2 }
        try database.prepare("INSERT OR REPLACE INTO sidecar_marks(id, size, mtime, stated, rating, flag, label) VALUES(?,?,?,?,?,?,?)")
            .bind(.int(id), .int(record.size), .int(record.mtimeNs), .int(marks == nil ? 0 : 1),
                  marks?.rating.map { .int(Int64($0)) } ?? .null, .int(flag),
                  marks?.label.map { .int(Int64($0.darktableIndex)) } ?? .null).run()
    }
}
