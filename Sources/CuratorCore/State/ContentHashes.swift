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
    var records: [Int64: HashRecord] = [:] {
        didSet { generation &+= 1 }
    }
    /// Bumped with every change of `records`: the sets are made of them and of the library.
    private(set) var generation: UInt64 = 0
    /// The sets last found for each user (`CuratorState.duplicateSets`).
    var found = KeptSets<FoundDuplicates>()
    /// Files that could not be read, with the size and mtime they had then.
    var unreadable: [Int64: HashRecord] = [:]
    /// Reads planned, the next last.
    var queue: [(id: Int64, stage: HashStage)] = []
    /// The library's file generation when the queue was planned; nil: plan again
    /// (nothing was planned yet).
    var plannedAt: UInt64?
    /// Reads handed out and not yet applied.
    var inFlight = 0
    /// Whether a hasher takes these reads (`DuplicateHasher` runs): only then is a
    /// plan due counted as pending.
    var hasherRuns = false

    /// Reads still to make, as far as known (`hash_pending` in `status`): a head
    /// that matches another's brings a read of both whole files later.
    var pending: Int { queue.count + inFlight }

    /// A photo's hashes, if they are of the file as the index knows it.
    func record(_ id: Int64, size: Int64, mtimeNs: Int64) -> HashRecord? {
        records[id]?.valid(size: size, mtimeNs: mtimeNs)
    }
}

/// Duplicate sets as found for one user, with what they were found from: found
/// again only once one of these changed (a listing of duplicates, its marks and
/// `select` each ask for them; finding them walks every photo).
struct FoundDuplicates: FoundSets {
    struct Basis: Equatable {
        var library: UInt64
        var access: UInt64
        var hashes: UInt64
        /// Each root in configuration order, and whether its photos are searched.
        var roots: [Int32]
        var searched: [Bool]
    }

    var basis: Basis
    var sets: [DuplicateSet]
    /// Each group in a set, with its set and whether it is (a file of) the keeper.
    var marks: [Int64: DuplicateMark]

    init(basis: Basis, sets: [DuplicateSet]) {
        self.basis = basis
        self.sets = sets
        var marks: [Int64: DuplicateMark] = [:]
        for set in sets {
            for (index, copy) in set.copies.enumerated() {
                for unit in copy.units { marks[unit.groupID] = DuplicateMark(set: set.id, keeper: index == 0) }
            }
        }
        self.marks = marks
    }
}
