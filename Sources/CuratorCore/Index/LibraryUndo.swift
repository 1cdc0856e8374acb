// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// One change a `PhotoLibrary` transaction made to its in-memory tables, with what
/// it replaced: enough to put the tables back exactly as they were when SQLite rolls
/// the transaction back, so that memory and `index.sqlite` never disagree. Each
/// case is one memory operation (a photo in or out, a folder linked or unlinked),
/// so a transaction that drops 100 000 photos logs 100 000 entries, not 400 000.
enum LibraryUndo {
    /// A photo put in: what its folder entry, its inode slot and its folder's next
    /// rank held before.
    case inserted(Photo, entry: Int64?, inode: Int64?, rank: Int64?)
    /// A photo taken out: whether its folder entry and its inode slot were its own
    /// (and so were cleared).
    case removed(Photo, entry: Bool, inode: Bool)
    /// A photo replaced in place (capture time, rank): the one before.
    case replaced(Photo)
    /// A row's group and role before a regrouping changed them (in place).
    case regrouped(Int64, group: Int64, role: GroupRole)
    /// A change to the folder tree (`FolderTree.Change`).
    case folder(FolderTree.Change)
    /// A folder's next rank before `takeRank` or before the folder was dropped.
    case rank(Int32, Int64?)
    /// A group's rows (`PhotoLibrary.groupLinks`) before they changed.
    case groupRows(Int64, [Int64]?)
    /// A row that joined a group kept as its last row (`GroupLinks.append`).
    case joined(Int64)
    /// The id counters before an id was handed out.
    case ids(next: Int64, reserved: Int64)
}
