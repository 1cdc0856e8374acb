// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorXMP

/// The photos' marks (stars, flag, colour label: docs/XMP.md) as the index keeps
/// them: what each sidecar said when last read (stored in the index,
/// `sidecar_marks`), each listed group's marks resolved from its sidecars, and the
/// sidecars still to read. Files are read outside the state lock (`MarksReader`);
/// the queue is planned from the library's sidecars again whenever the library
/// changed (a sidecar written by another program is a changed row).
struct PhotoMarksTable {
    /// By sidecar id, the records that state marks. Whether a file was read at its
    /// present size and mtime is its row's `marksRead` (most files state none:
    /// a record of each would be resident memory for nothing).
    var records: [Int64: SidecarMarksRecord] = [:]
    /// The group each record's sidecar was in when its group was resolved.
    var groupOf: [Int64: Int64] = [:]
    /// By listed id, the groups with marks (unmarked ones are absent).
    private(set) var byGroup: [Int64: PhotoMarks] = [:]
    /// In roots that do not group, by sidecar, the photos it is about
    /// (`LooseSidecars`) as last planned: a change of them resolves those photos again.
    var looseOwners: [Int64: [Int64]] = [:]
    /// Sidecars that could not be read, with the size and mtime they had then:
    /// not read again until they change.
    var unreadable: [Int64: SidecarMarksRecord] = [:]
    /// Sidecars to read, the next last.
    var queue: [Int64] = []
    /// The library's `fileGeneration` when the queue was planned; nil: plan again.
    var plannedAt: UInt64?
    /// Reads handed out and not yet applied.
    var inFlight = 0
    /// The last count of sidecars to read without a plan (`marksPending`): the
    /// library's `fileGeneration` it was made at, and whether the reader was held then.
    var counted: (generation: UInt64, count: Int, whileHeld: Bool)?
    /// Counts every change of a group's marks: views filtered or sorted by marks
    /// are made again after one.
    private(set) var version: UInt64 = 0
    /// Counts the `rate`s. A rated group is pinned to what the `rate` wrote, with the
    /// count then, until a file of it read after that `rate` is applied: a read taken
    /// before may be of a file as it was before the write (or between two writes),
    /// and is dropped; a resolve meanwhile (a plan, a regroup) keeps the pinned marks.
    private(set) var rates: UInt64 = 0
    private var pins: [Int64: UInt64] = [:]

    mutating func noteRate(ofGroup id: Int64) {
        rates &+= 1
        pins[id] = rates
    }

    /// Whether a read handed out when `rates` was `takenAt` came before a `rate` of `group`.
    func isOutrun(group: Int64, takenAt: UInt64) -> Bool { (pins[group] ?? 0) > takenAt }

    func isPinned(_ group: Int64) -> Bool { pins[group] != nil }

    /// A read handed out at `takenAt` is applied: the group's own files say its marks again.
    mutating func unpin(_ group: Int64, readAt takenAt: UInt64) {
        if let pin = pins[group], pin <= takenAt { pins[group] = nil }
    }

    /// Sidecars still to read (`xmp_pending` in `status`).
    var pending: Int { queue.count + inFlight }

    func marks(ofGroup id: Int64) -> PhotoMarks { byGroup[id] ?? .unmarked }

    /// Every group with marks (a copy-on-write copy, for a listing outside the lock).
    var groups: [Int64: PhotoMarks] { byGroup }

    /// Sets a group's marks; false when they were those already.
    mutating func set(_ marks: PhotoMarks, ofGroup id: Int64) -> Bool {
        guard self.marks(ofGroup: id) != marks else { return false }
        byGroup[id] = marks == .unmarked ? nil : marks
        version &+= 1
        return true
    }

    /// Forgets the marks of groups no longer listed.
    mutating func dropGroups(where gone: (Int64) -> Bool) {
        let dropped = byGroup.keys.filter(gone)
        pins = pins.filter { !gone($0.key) }
        guard !dropped.isEmpty else { return }
        for id in dropped { byGroup[id] = nil }
        version &+= 1
    }
}
