// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import FoundationEssentials
import Glibc

/// How many photos a batch or an undo handles between two syncs and commits.
/// Bigger chunks mean fewer syncs and journal commits (each a device flush, about
/// 5 ms on our disks); smaller ones mean earlier progress reports and fewer
/// directory descriptors held. So chunks start small and double: 512, 1024, 2048,
/// then 4096 at most, which syncs 10 000 photos in a handful of rounds rather than 20.
///
/// And they end small (`taper`): each chunk takes at most half of what is left, down
/// to half the first size. While a chunk moves, a helper prepares the next one and
/// writes its `.trashinfo` files, so both cores work; the last chunk has no next one,
/// and its renames, sync and report ran on one core while the other idled (a last
/// chunk of 3 225 files: a sixth of a 15 001-file batch, issue 14).
struct ChunkPolicy: Sendable {
    /// The first chunk's size; each next one is twice the last, up to `largestPhotos`.
    var maxPhotos: Int
    var largestPhotos: Int
    /// Distinct photo directories per chunk: each stays open until the chunk ends.
    var maxDirectories: Int
    /// Whether the last chunks shrink (see above); fixed chunks never do.
    var taper = true

    static let standard = ChunkPolicy(maxPhotos: 512, largestPhotos: 4096, maxDirectories: 128)

    /// Every chunk the same size (tests, and `CURATORD_BATCH_CHUNK`).
    static func fixed(_ size: Int) -> ChunkPolicy {
        ChunkPolicy(maxPhotos: max(size, 1), largestPhotos: max(size, 1), maxDirectories: standard.maxDirectories, taper: false)
    }

    /// The size of a chunk that starts with `remaining` photos left and may hold `limit`.
    private func size(limit: Int, remaining: Int) -> Int {
        guard taper else { return limit }
        let smallest = max(maxPhotos / 2, 1)
        let target = min(limit, max(smallest, (remaining + 1) / 2))
        // No chunk smaller than `smallest` after this one: it takes them.
        return remaining - target < smallest ? max(remaining, 1) : target
    }

    /// `CURATORD_BATCH_CHUNK=<n>` (crash tests: several chunks in a small batch).
    static let environmentVariable = "CURATORD_BATCH_CHUNK"

    static let configured: ChunkPolicy = {
        guard let text = ProcessInfo.processInfo.environment[environmentVariable] else { return .standard }
        guard let size = Int(text), size >= 1 else {
            log.error("\(environmentVariable)=\(text) is not a positive number; ignored")
            return .standard
        }
        return .fixed(size)
    }()

    /// Splits `indices` (in order) into chunks; `directory(i)` names the folder of photo i.
    /// `unit(i)`: the group (issue 15) photo i is trashed with: a group's files,
    /// consecutive, are never split between chunks (a chunk may grow past its size
    /// to hold the last group whole), so that each group is journaled and moved in
    /// one chunk, and its outcome settled as one.
    func chunks<Key: Hashable>(_ indices: [Int], directory: (Int) -> Key, unit: (Int) -> Int64? = { _ in nil }) -> [[Int]] {
        var result: [[Int]] = []
        var current: [Int] = []
        var folders: Set<Key> = []
        var limit = max(maxPhotos, 1)
        var target = size(limit: limit, remaining: indices.count)
        var lastUnit: Int64?
        for (position, index) in indices.enumerated() {
            let folder = directory(index)
            let ownUnit = unit(index)
            let sameGroup = ownUnit != nil && ownUnit == lastUnit
            lastUnit = ownUnit
            if !sameGroup, current.count >= target || (!folders.contains(folder) && folders.count >= maxDirectories) {
                result.append(current)
                current = []
                folders = []
                limit = min(limit * 2, max(largestPhotos, limit))
                target = size(limit: limit, remaining: indices.count - position)
            }
            current.append(index)
            folders.insert(folder)
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}
