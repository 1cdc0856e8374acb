// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import CuratorXMP

/// One file the marks reader is to read: a sidecar, or an image's embedded packet.
struct MarksJob: Sendable {
    var id: Int64
    var path: PhotoPath
    var embedded: Bool
    /// `PhotoMarksTable.rates` when it was handed out.
    var takenAt: UInt64 = 0
}

/// What one read gave: the sidecar's marks with the size and mtime of the bytes
/// read; nil when it is gone (the watcher will say so) or failed.
struct MarksRead: Sendable {
    var id: Int64
    var record: SidecarMarksRecord?
    /// Unreadable (not XMP, refused, EIO): not read again until it changes.
    var failed: Bool
    /// The inode read: a sidecar replaced by rename twice within one tick of the
    /// file system's clock keeps its size and mtime, not its inode.
    var inode: UInt64? = nil
    var takenAt: UInt64 = 0
}

/// The marks reader's locked steps (what to read next, the marks read), and each
/// group's marks resolved from its sidecars' records (docs/XMP.md's order).
extension CuratorState {
    /// As the content hasher, the reader waits while any root is walked or holds a
    /// batch: a first scan only walks, stats and persists. Sidecars on shares are
    /// not read in the background (`rate` and `photo.info` read them): a share that
    /// hangs would hold every root's reads.
    var marksMayRun: Bool { hashingMayRun }

    /// Up to `limit` sidecars to read, with their paths.
    func takeMarksWork(limit: Int) -> [MarksJob] {
        guard marksMayRun else { return [] }
        // Planned again only once the reads planned are done, as the hasher's: a
        // file that changes meanwhile is caught by its size and mtime when applied.
        if marks.plannedAt != library.fileGeneration && marks.queue.isEmpty && marks.inFlight == 0 { planMarksReads() }
        var jobs: [MarksJob] = []
        while jobs.count < limit, let id = marks.queue.popLast() {
            guard let photo = library.photo(id), photo.type == .xmp || Self.carriesMarks(photo.type),
                  let root = roots[photo.rootID], root.online, !root.onShare,
                  let path = PhotoPath(root: root.config.path, relative: library.relativePath(of: photo)) else { continue }
            jobs.append(MarksJob(id: id, path: path, embedded: photo.type != .xmp, takenAt: marks.rates))
        }
        marks.inFlight += jobs.count
        return jobs
    }

    /// The photos whose embedded XMP is read (`MarksReader.embeddedPacket`): JPEG,
    /// HEIF and AVIF, TIFF, DNG and the TIFF-based RAWs, CR3.
    static func carriesMarks(_ type: PhotoType) -> Bool {
        switch type {
        case .jpeg, .heic, .avif, .tiff, .dng, .cr2, .nef, .arw, .cr3: true
        default: false
        }
    }

    /// Whether a row's marks count: a group's sidecar (an orphan's or an undecided
    /// one's are about no listed photo), any sidecar in a root that does not group
    /// (`LooseSidecars` says whose), or an image of a group, on a local root that
    /// is online.
    private func marksReadable(_ row: PhotoRow, _ known: inout [Int32: (readable: Bool, grouped: Bool)]) -> Bool {
        guard row.type == .xmp || Self.carriesMarks(row.type) else { return false }
        let rootID = library.photos.rootID(of: row)
        let root: (readable: Bool, grouped: Bool)
        if let seen = known[rootID] {
            root = seen
        } else {
            root = roots[rootID].map { ($0.online && !$0.onShare, $0.config.groups) } ?? (false, true)
            known[rootID] = root
        }
        guard root.readable else { return false }
        if row.type == .xmp { return row.role == .sidecar || (row.role == .undecided && !root.grouped) }
        return row.role == .shown || row.role == .member
    }

    /// Sidecars still to read (`xmp_pending`): the queue's, or, when the library's
    /// files changed since it was planned, those not read at their present size and
    /// mtime. Counting walks every row: so the count is made once per change of the
    /// library, and not while a walk or a batch holds the reader back (the last
    /// count stands).
    var marksPending: Int {
        if marks.plannedAt == library.fileGeneration { return marks.pending }
        let mayRun = marksMayRun
        if let counted = marks.counted, counted.generation == library.fileGeneration || (!mayRun && counted.whileHeld) {
            return counted.count + marks.inFlight
        }
        var readable: [Int32: (readable: Bool, grouped: Bool)] = [:]
        var count = 0
        for row in library.photos.rows where marksReadable(row, &readable) && needsMarksRead(row) { count += 1 }
        marks.counted = (library.fileGeneration, count, !mayRun)
        return count + marks.inFlight
    }

    /// Not read at the file's present size and mtime, and not found unreadable so.
    private func needsMarksRead(_ row: PhotoRow) -> Bool {
        !row.marksRead && marks.unreadable[row.id]?.isOf(size: row.size, mtimeNs: row.mtimeNs) != true
    }

    /// Plans the reads still needed: every sidecar not read at its present size and
    /// mtime. Records of sidecars gone are dropped, and the groups whose sidecars
    /// changed are resolved again.
    func planMarksReads() {
        let table = library.photos
        var queue: [Int64] = []
        var touched = Set<Int64>()
        var readable: [Int32: (readable: Bool, grouped: Bool)] = [:]
        var looseOwners: [Int64: [Int64]] = [:]
        for row in table.rows where marksReadable(row, &readable) {
            var group = table.groupID(of: row)
            if row.role == .undecided {
                // A sidecar in a root that does not group: its photos' marks.
                let owners = LooseSidecars.owners(of: table.name(of: row), folder: row.folderID, in: library)
                if !owners.isEmpty { looseOwners[row.id] = owners }
                if owners != marks.looseOwners[row.id] ?? [] {
                    touched.formUnion(owners)
                    touched.formUnion(marks.looseOwners[row.id] ?? [])
                }
                group = owners.first ?? row.id
            }
            if row.marksRead {
                if marks.records[row.id] != nil, marks.groupOf[row.id] != group {
                    if let old = marks.groupOf[row.id] { touched.insert(old) }
                    touched.insert(group)
                    marks.groupOf[row.id] = group
                }
            } else if needsMarksRead(row) {
                queue.append(row.id)
            }
        }
        for (id, owners) in marks.looseOwners where looseOwners[id] == nil { touched.formUnion(owners) }
        marks.looseOwners = looseOwners
        // Taken from the end: the lowest ids (the oldest sidecars) first.
        marks.queue = queue.sorted(by: >)
        marks.plannedAt = library.fileGeneration
        marks.counted = nil
        marks.unreadable = marks.unreadable.filter { table.row($0.key) != nil }
        let gone = marks.records.keys.filter { id in
            guard let row = table.row(id) else { return true }
            return !marksReadable(row, &readable)
        }
        for id in gone {
            marks.records[id] = nil
            if let group = marks.groupOf.removeValue(forKey: id) { touched.insert(group) }
        }
        if !gone.isEmpty {
            do {
                try library.batch { for id in gone { try library.store.setSidecarMarks(id, nil) } }
            } catch {
                log.error("cannot drop the marks of sidecars gone: \(error)")
            }
        }
        marks.dropGroups { library.shownRow(ofGroup: $0) == nil }
        resolveMarks(ofGroups: touched, announce: true)
    }

    /// The marks read, kept and resolved into their groups' (a `metadata` event for
    /// each group whose marks changed).
    func applyMarksReads(_ results: [MarksRead]) {
        marks.inFlight = max(0, marks.inFlight - results.count)
        marks.counted = nil
        var changed: [(Int64, SidecarMarksRecord)] = []
        var touched = Set<Int64>()
        for result in results {
            guard let row = library.photos.row(result.id), row.type == .xmp || Self.carriesMarks(row.type) else { continue }
            if result.failed {
                marks.unreadable[result.id] = SidecarMarksRecord(size: row.size, mtimeNs: row.mtimeNs, marks: nil)
                continue
            }
            // Gone: the watcher takes its row out, and the plan its record.
            guard let record = result.record else { continue }
            let groups = marks.looseOwners[result.id] ?? [library.photos.groupID(of: row)]
            // Read before a `rate` of its group wrote it: maybe the file as it was.
            if groups.contains(where: { marks.isOutrun(group: $0, takenAt: result.takenAt) }) { continue }
            for group in groups { marks.unpin(group, readAt: result.takenAt) }
            // Read as it is now, which may be newer than the row: stored all the same
            // (what the file says), and read again when the row then differs.
            library.noteMarksRead(result.id, size: record.size, mtimeNs: record.mtimeNs, inode: result.inode)
            if let old = marks.groupOf[result.id], !groups.contains(old) { touched.insert(old) }
            if record.marks == nil {
                if marks.records.removeValue(forKey: result.id) != nil { touched.formUnion(groups) }
                marks.groupOf[result.id] = nil
            } else {
                marks.records[result.id] = record
                marks.groupOf[result.id] = groups.first
                touched.formUnion(groups)
            }
            changed.append((result.id, record))
        }
        if marks.queue.isEmpty && marks.inFlight == 0 { marks.plannedAt = nil }
        if !changed.isEmpty {
            do {
                try library.batch { for (id, record) in changed { try library.store.setSidecarMarks(id, record) } }
            } catch {
                // The index is a cache: kept in memory, they are written with the next read.
                log.error("cannot record the marks of sidecars: \(error)")
            }
        }
        resolveMarks(ofGroups: touched, announce: true)
    }

    /// Loads the stored records at start: each file read at its present size and
    /// mtime is noted on its row, the records that state marks are kept and their
    /// groups resolved, and the records of files gone are dropped.
    func loadMarks() throws {
        var groups = Set<Int64>()
        var gone: [Int64] = []
        for (id, record) in try library.store.loadSidecarMarks() {
            guard let row = library.photos.row(id) else {
                gone.append(id)
                continue
            }
            library.noteMarksRead(id, size: record.size, mtimeNs: record.mtimeNs)
            guard record.marks != nil else { continue }
            marks.records[id] = record
            let group = library.photos.groupID(of: row)
            marks.groupOf[id] = group
            groups.insert(group)
        }
        if !gone.isEmpty {
            do {
                try library.batch { for id in gone { try library.store.setSidecarMarks(id, nil) } }
            } catch {
                // Left for the next start: a record of a file gone is never matched.
                log.error("cannot drop the marks of sidecars gone: \(error)")
            }
        }
        resolveMarks(ofGroups: groups, announce: false)
    }

    /// Resolves each group's marks from its sidecars' records again; with
    /// `announce`, a `metadata` event for each group whose marks changed.
    func resolveMarks(ofGroups groups: Set<Int64>, announce: Bool) {
        for group in groups {
            guard library.shownRow(ofGroup: group) != nil else { continue }
            // Pinned by a `rate` whose write is not read yet: what it wrote stands.
            guard !marks.isPinned(group) else { continue }
            if marks.set(resolvedMarks(ofGroup: group), ofGroup: group), announce { announceMarks(ofGroup: group) }
        }
    }

    /// A group's marks by docs/XMP.md's order, from its sidecars' last reads.
    func resolvedMarks(ofGroup group: Int64) -> PhotoMarks {
        let files = markedFiles(ofGroup: group)
        let marked = MarkedFiles(files)
        var sources: [MarksSource] = []
        for file in files {
            guard let record = marks.records[file.id] else { continue }
            if file.type == .xmp {
                guard marked.sidecars.contains(file.name) else { continue }
                sources.append(MarksSource(marked.kind(of: file.name), modified: record.mtimeNs, marks: record.marks))
            } else {
                sources.append(MarksSource(.embedded, modified: record.mtimeNs, marks: record.marks))
            }
        }
        return MarksSource.resolve(sources)
    }

    /// The files whose XMP says a listed photo's marks (`rate`, `photo.info`).
    func markedFiles(of photo: Photo) -> MarkedFiles {
        MarkedFiles(withLooseSidecars(library.members(ofGroupShownBy: photo) ?? [photo]))
    }

    /// The files whose XMP says group `group`'s marks: its rows (a photo alone: itself)
    /// with their loose sidecars.
    private func markedFiles(ofGroup group: Int64) -> [Photo] {
        let ids = library.rows(ofGroup: group)
        return withLooseSidecars((ids.isEmpty ? [group] : ids).compactMap { library.photo($0) })
    }

    /// A group's files and, for a photo in a root that does not group, the
    /// sidecars about it (`LooseSidecars`).
    private func withLooseSidecars(_ files: [Photo]) -> [Photo] {
        guard files.count == 1, let photo = files.first, !photo.type.isSidecar, roots[photo.rootID]?.config.groups == false
        else { return files }
        return files + LooseSidecars.of(photo, in: library)
    }

    /// A group's marks as `rate` wrote them, known before the watcher sees the
    /// files change (a listing right after the answer shows them).
    /// `sidecars`: what `rate` wrote into each, kept as their records until they are
    /// read again: a group resolved meanwhile (a plan, another file of it read) must
    /// not go back to what the sidecars said before.
    func noteRated(_ marks: PhotoMarks, ofGroup group: Int64, sidecars: [(name: ByteString, marks: PhotoMarks?)]) {
        self.marks.noteRate(ofGroup: group)
        let now = WallClock.nanoseconds()
        for file in markedFiles(ofGroup: group) where file.type == .xmp {
            guard let written = sidecars.first(where: { $0.name == file.name }) else { continue }
            // Not the file's size and mtime: its row (changed by the write) still
            // asks for a read, which replaces this record.
            if let marks = written.marks {
                self.marks.records[file.id] = SidecarMarksRecord(size: -1, mtimeNs: now, marks: marks)
                self.marks.groupOf[file.id] = group
            } else {
                self.marks.records[file.id] = nil
            }
        }
        if self.marks.set(marks, ofGroup: group) { announceMarks(ofGroup: group) }
    }

    /// `metadata`: the group's record with its new marks, to the subscribers who
    /// may see it.
    func announceMarks(ofGroup group: Int64) {
        viewCache.invalidate()
        guard events.hasSubscribers, let photo = library.listed(group) else { return }
        let uids = events.subscriberUIDs
        let allowed = uids.filter { mayList(folderID: photo.folderID, root: photo.rootID, uid: $0) }
        events.send(Event(event: .metadata, root: rootName(photo.rootID), photo: summary(photo)), root: photo.rootID,
                    only: allowed.count == uids.count ? nil : allowed)
    }
}
