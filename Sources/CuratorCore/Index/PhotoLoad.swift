// SPDX-License-Identifier: GPL-2.0-or-later

/// The in-memory index built from the store's rows at start-up, in one pass and a
/// finish: what filing each row as a new photo (`PhotoLibrary.insertInMemory`, a
/// `Photo` and a name array made per row, a search and an insert in its folder's
/// entries, its group's rows rebuilt, four totals looked up) leaves, at a fraction
/// of the cost. That was most of a warm restart's main thread (issue 14).
///
/// Rows come in id order (`IndexStore.loadPhotos`); each is appended to the table
/// as stored, its inode filed, its folder's ids and its root's totals kept in
/// runs (a folder's rows are mostly consecutive ids: the scan that made them
/// numbered them folder by folder). `finish` sorts each folder's names once and
/// links each group's rows.
struct PhotoLoad {
    private(set) var photos = PhotoTable()
    private(set) var byInode = InodeIndex()
    private(set) var entries: [Int32: FolderEntries] = [:]
    private(set) var groupLinks = GroupLinks()
    /// Per folder, one more than its highest rank (at least 1).
    private(set) var nextRank: [Int32: Int64] = [:]
    private(set) var totals: [Int32: Totals] = [:]
    /// Rows listed (shown photos) per folder.
    private(set) var listedByFolder: [Int32: Int] = [:]
    /// Rows loaded (each one a change of the library's generation, as filing it was).
    private(set) var count = 0

    /// A root's photos: rows, bytes, those listed, those whose capture time is to be read.
    struct Totals: Equatable {
        var rows = 0
        var bytes: Int64 = 0
        var listed = 0
        var pendingCapture = 0
    }

    /// Ids by folder, in load order; the folder being loaded is `run` until another comes.
    private var idsByFolder: [Int32: [Int64]] = [:]
    private var run: Run?
    /// (group, row) of each row whose group is another row's id.
    private var inOthersGroups: [(group: Int64, id: Int64)] = []

    init(reserving rows: Int) {
        photos.reserve(rows)
        byInode.reserve(rows)
    }

    /// One stored row, `name` valid only during the call.
    mutating func add(id: Int64, rootID: Int32, folderID: Int32, name: UnsafeBufferPointer<UInt8>, device: UInt64, inode: UInt64,
                      size: Int64, mtimeNs: Int64, type: PhotoType, captureRaw: Int64, rank: Int64, groupID: Int64,
                      role: GroupRole, captureDetail: CaptureDetail = .none) {
        guard photos.appendStored(id: id, rootID: rootID, folderID: folderID, name: name, device: device, inode: inode, size: size,
                                  mtimeNs: mtimeNs, type: type, captureRaw: captureRaw, rank: rank, groupID: groupID, role: role,
                                  captureDetail: captureDetail)
        else { return }
        count += 1
        // As filing it did: a later row of the same inode takes its place. (The
        // index is swapped out for the call, so that its digests are read from the
        // table without a copy of either.)
        var index = InodeIndex()
        swap(&index, &byInode)
        index.set(PhotoLibrary.inodeDigest(device, inode), id) { other in
            photos.row(other).map { PhotoLibrary.inodeDigest(photos.device(of: $0), $0.inode) }
        }
        swap(&index, &byInode)
        if run?.folder != folderID { endRun(startingWith: (folderID, rootID)) }
        run?.add(id: id, rank: rank, size: size, listed: role == .shown, pendingCapture: CaptureState(raw: captureRaw) == .pending)
        if groupID != id { inOthersGroups.append((groupID, id)) }
    }

    private mutating func endRun(startingWith next: (folder: Int32, root: Int32)?) {
        if let run {
            idsByFolder[run.folder, default: []].append(contentsOf: run.ids)
            nextRank[run.folder] = max(nextRank[run.folder] ?? 1, run.highestRank + 1)
            totals[run.root, default: Totals()].add(run.totals)
            if run.totals.listed > 0 { listedByFolder[run.folder, default: 0] += run.totals.listed }
        }
        run = next.map { Run(folder: $0.folder, root: $0.root, ids: idsByFolder.removeValue(forKey: $0.folder) ?? []) }
    }

    /// Files every folder's names and links every group's rows; call once, after the last row.
    mutating func finish() {
        endRun(startingWith: nil)
        for (folder, ids) in idsByFolder { entries[folder] = FolderEntries(filing: ids, in: photos) }
        idsByFolder = [:]
        // A group is kept when a row bears another's id: its rows are every row
        // bearing its id, its own row among them when that row is in it.
        inOthersGroups.sort { $0.group != $1.group ? $0.group < $1.group : $0.id < $1.id }
        var start = 0
        while start < inOthersGroups.count {
            let group = inOthersGroups[start].group
            var end = start
            var rows: [Int64] = []
            while end < inOthersGroups.count && inOthersGroups[end].group == group {
                rows.append(inOthersGroups[end].id)
                end += 1
            }
            if let own = photos.row(group), photos.groupID(of: own) == group { rows.insert(group, at: 0) }
            groupLinks[group] = rows
            start = end
        }
        inOthersGroups = []
    }
}

extension PhotoLoad {
    /// The rows of one folder loaded one after another.
    fileprivate struct Run {
        var folder: Int32
        var root: Int32
        var ids: [Int64]
        var highestRank = Int64.min
        var totals = Totals()

        mutating func add(id: Int64, rank: Int64, size: Int64, listed: Bool, pendingCapture: Bool) {
            ids.append(id)
            // Saturated to 32 bits, as the row keeps it.
            highestRank = max(highestRank, Int64(Int32(clamping: rank)))
            totals.rows += 1
            totals.bytes += size
            if listed { totals.listed += 1 }
            if pendingCapture { totals.pendingCapture += 1 }
        }
    }
}

extension PhotoLoad.Totals {
    fileprivate mutating func add(_ other: Self) {
        rows += other.rows
        bytes += other.bytes
        listed += other.listed
        pendingCapture += other.pendingCapture
    }
}
