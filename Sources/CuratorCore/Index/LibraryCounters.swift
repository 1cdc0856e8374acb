// SPDX-License-Identifier: GPL-2.0-or-later

/// The index's running totals, kept per change rather than counted per question:
/// a status line, a root's summary and a view's positions read them for free.
/// A listed row is a shown photo (a group is listed once).
struct LibraryCounters {
    private(set) var countByRoot: [Int32: Int] = [:]
    private(set) var bytesByRoot: [Int32: Int64] = [:]
    /// Rows listed as photos per root: `countByRoot` less the groups' other files.
    private(set) var listedByRoot: [Int32: Int] = [:]
    /// The same per folder: where a photo is in a view by name is the photos listed
    /// in the folders before its own, plus its place among its folder's, without
    /// the whole view resolved (`ViewPositions`).
    private(set) var listedByFolder: [Int32: Int] = [:]
    /// Photos per root whose capture time is still to be read.
    private(set) var pendingCaptureByRoot: [Int32: Int] = [:]

    /// The totals of the photos read from the store.
    init(loaded totals: [Int32: PhotoLoad.Totals] = [:], listedByFolder: [Int32: Int] = [:]) {
        for (root, totals) in totals {
            countByRoot[root] = totals.rows
            bytesByRoot[root] = totals.bytes
            listedByRoot[root] = totals.listed
            pendingCaptureByRoot[root] = totals.pendingCapture
        }
        self.listedByFolder = listedByFolder
    }

    /// A photo in (`sign` 1) or out (-1) of the index.
    mutating func count(_ photo: Photo, _ sign: Int) {
        countByRoot[photo.rootID, default: 0] += sign
        bytesByRoot[photo.rootID, default: 0] += Int64(sign) * photo.size
        if photo.role == .shown { countListed(photo.rootID, photo.folderID, sign) }
        if photo.capture == .pending { pendingCaptureByRoot[photo.rootID, default: 0] += sign }
    }

    /// A photo replaced in place by `new` (its capture time, its group role);
    /// `old` nil: none was there.
    mutating func replace(_ old: Photo?, with new: Photo) {
        if let old, old.capture == .pending { pendingCaptureByRoot[old.rootID, default: 0] -= 1 }
        if new.capture == .pending { pendingCaptureByRoot[new.rootID, default: 0] += 1 }
        if let old, old.role == .shown { countListed(old.rootID, old.folderID, -1) }
        if new.role == .shown { countListed(new.rootID, new.folderID, 1) }
    }

    /// A photo of `root` whose capture time was read (or is to be read again).
    mutating func changeCapture(root: Int32, from old: CaptureState, to new: CaptureState) {
        if old == .pending { pendingCaptureByRoot[root, default: 0] -= 1 }
        if new == .pending { pendingCaptureByRoot[root, default: 0] += 1 }
    }

    /// A row of `folder` of `root` changed its group role.
    mutating func changeRole(root: Int32, folder: Int32, from old: GroupRole, to new: GroupRole) {
        if old == .shown { countListed(root, folder, -1) }
        if new == .shown { countListed(root, folder, 1) }
    }

    private mutating func countListed(_ root: Int32, _ folder: Int32, _ sign: Int) {
        listedByRoot[root, default: 0] += sign
        let count = listedByFolder[folder, default: 0] + sign
        listedByFolder[folder] = count == 0 ? nil : count
    }
}
