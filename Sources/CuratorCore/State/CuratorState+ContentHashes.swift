// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The hasher's locked steps: what to read next, and the hashes read (into the
/// index). Files are read outside the lock (`DuplicateHasher`).
extension CuratorState {
    /// The hasher waits while any root is walked or holds a batch (or an undo, an
    /// emptying): those have the disk and the cores to themselves. Photos on shares
    /// are not read: a share that hangs would hold the hasher, and reading whole
    /// files over a network is what a duplicate search there would cost.
    var hashingMayRun: Bool {
        !roots.values.contains { ($0.scanning && $0.unresponsiveSince == nil) || ($0.online && !$0.watchingDecided) }
            && plans.busyRoots.isEmpty
    }

    /// `hash_pending` in `status`: the reads planned and in hand, and one more while
    /// the files changed since the last plan (which may find none to make), so that
    /// 0 says the hashes are those of the files the index knows.
    var hashPending: Int {
        let planDue = contentHashes.hasherRuns && contentHashes.plannedAt != library.fileGeneration
        return contentHashes.pending + (planDue && contentHashes.pending == 0 ? 1 : 0)
    }

    /// Planned again only once the reads planned are done (planning walks every
    /// photo), when the library's files changed since. A file that changes
    /// meanwhile is caught by its size and mtime when read and applied.
    private func planHashReadsIfDue() {
        if contentHashes.plannedAt != library.fileGeneration && contentHashes.queue.isEmpty && contentHashes.inFlight == 0 {
            planHashReads()
        }
    }

    /// Up to `limit` reads, with the files' absolute paths.
    func takeHashWork(limit: Int) -> [HashJob] {
        guard hashingMayRun else { return [] }
        planHashReadsIfDue()
        var jobs: [HashJob] = []
        while jobs.count < limit, let next = contentHashes.queue.popLast() {
            guard let photo = library.photo(next.id), let root = roots[photo.rootID], root.online, !root.onShare else { continue }
            jobs.append(HashJob(id: next.id, path: root.config.path.appending(library.relativePath(of: photo)), stage: next.stage,
                                size: photo.identity.size, mtimeNs: photo.identity.mtimeNs))
        }
        contentHashes.inFlight += jobs.count
        return jobs
    }

    /// The files of the local roots, as the search sees them.
    func hashableFiles() -> [DuplicateFile] {
        var files: [DuplicateFile] = []
        files.reserveCapacity(library.photos.rows.count)
        var searched: [Int32: Bool] = [:]
        for row in library.photos.rows {
            let rootID = library.photos.rootID(of: row)
            let local = searched[rootID] ?? roots[rootID].map { $0.online && !$0.onShare } ?? false
            searched[rootID] = local
            guard local else { continue }
            files.append(DuplicateFile(photoID: row.id, device: library.photos.device(of: row), inode: row.inode, size: row.size))
        }
        return files
    }

    /// Plans the reads still needed: heads of the files of a shared size, then the
    /// whole of those whose heads agree. Records of photos gone, or whose file has
    /// changed since (it may have no duplicate now), are dropped here.
    func planHashReads() {
        // Only files of a shared size are looked at past this point: most are not.
        let files = DuplicateStages.sharingSize(hashableFiles())
        var queue: [(id: Int64, stage: HashStage)] = []
        var heads: [Int64: ContentHash] = [:]
        for file in files {
            guard let row = library.photos.row(file.photoID), !isUnreadable(row) else { continue }
            if let head = contentHashes.record(row.id, size: row.size, mtimeNs: row.mtimeNs)?.head {
                heads[row.id] = head
            } else {
                queue.append((row.id, .head))
            }
        }
        for id in DuplicateStages.needingFullHash(files, heads: heads) {
            guard let row = library.photos.row(id), !isUnreadable(row),
                  contentHashes.record(id, size: row.size, mtimeNs: row.mtimeNs)?.full == nil else { continue }
            queue.append((id, .full))
        }
        // Taken from the end: the lowest ids (the oldest photos) first.
        contentHashes.queue = queue.sorted { $0.id > $1.id }
        contentHashes.plannedAt = library.fileGeneration
        contentHashes.unreadable = contentHashes.unreadable.filter { library.photos.row($0.key) != nil }
        let gone = contentHashes.records.compactMap { id, record -> Int64? in
            guard let row = library.photos.row(id), record.valid(size: row.size, mtimeNs: row.mtimeNs) != nil else { return id }
            return nil
        }
        guard !gone.isEmpty else { return }
        for id in gone { contentHashes.records[id] = nil }
        do {
            try library.batch { for id in gone { try library.store.setContentHashes(id, nil) } }
        } catch {
            log.error("cannot drop content hashes of photos gone: \(error)")
        }
    }

    private func isUnreadable(_ row: PhotoRow) -> Bool {
        contentHashes.unreadable[row.id]?.valid(size: row.size, mtimeNs: row.mtimeNs) != nil
    }

    /// The hashes read, for the photos still of the size and mtime they were read at.
    func applyHashes(_ results: [HashResult]) {
        contentHashes.inFlight = max(0, contentHashes.inFlight - results.count)
        var changed: [(Int64, HashRecord)] = []
        for result in results {
            guard let row = library.photos.row(result.id), row.size == result.size, row.mtimeNs == result.mtimeNs else { continue }
            if result.failed {
                contentHashes.unreadable[result.id] = HashRecord(size: result.size, mtimeNs: result.mtimeNs)
                continue
            }
            guard let hash = result.hash else { continue }
            var record = contentHashes.record(result.id, size: result.size, mtimeNs: result.mtimeNs)
                ?? HashRecord(size: result.size, mtimeNs: result.mtimeNs)
            switch result.stage {
            case .head: record.head = hash
            case .full: record.full = hash
            }
            contentHashes.records[result.id] = record
            changed.append((result.id, record))
        }
        if !changed.isEmpty {
            do {
                try library.batch { for (id, record) in changed { try library.store.setContentHashes(id, record) } }
            } catch {
                // The index is a cache: kept in memory, they are written with the next change.
                log.error("cannot record content hashes: \(error)")
            }
        }
        // A stage done: the next (whole files whose heads agree) is planned at once,
        // so that the other readers do not take the disk in between.
        if contentHashes.queue.isEmpty && contentHashes.inFlight == 0 { planHashReads() }
    }
}
