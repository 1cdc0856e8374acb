// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// One read the hasher is to make.
struct HashJob: Sendable {
    var id: Int64
    var path: ByteString
    var stage: HashStage
    var size: Int64
    var mtimeNs: Int64
}

/// What one read gave: a hash, nothing (the file changed meanwhile: read again
/// once the index has caught up), or an error (not read again until it changes).
struct HashResult: Sendable {
    var id: Int64
    var stage: HashStage
    var size: Int64
    var mtimeNs: Int64
    var hash: ContentHash?
    var failed: Bool
}

/// The photos' content hashes (kept in the index, `content_hashes`) and the reads
/// still to make. Only files that share their size with another file are read
/// (`DuplicateStages`): the queue is planned from the whole library, again
/// whenever the library has changed since, or the queue ran dry after a stage.
struct ContentHashes {
    /// By photo id; a record whose size or mtime is not the photo's any more is stale.
    var records: [Int64: HashRecord] = [:]
    /// Files that could not be read, with the size and mtime they had then.
    var unreadable: [Int64: HashRecord] = [:]
    /// Reads planned, the next last.
    var queue: [(id: Int64, stage: HashStage)] = []
    /// The library's generation when the queue was planned; nil: plan again (a
    /// stage is done, or nothing was planned yet).
    var plannedAt: UInt64?
    /// Reads handed out and not yet applied.
    var inFlight = 0

    /// Reads still to make, as far as known (`hash_pending` in `status`): a head
    /// that matches another's brings a read of both whole files later.
    var pending: Int { queue.count + inFlight }

    /// A photo's hashes, if they are of the file as the index knows it.
    func record(_ id: Int64, size: Int64, mtimeNs: Int64) -> HashRecord? {
        records[id]?.valid(size: size, mtimeNs: mtimeNs)
    }
}
