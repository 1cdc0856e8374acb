// SPDX-License-Identifier: GPL-2.0-or-later

/// A file as the duplicate search sees it: one indexed photo (or sidecar).
struct DuplicateFile: Hashable, Sendable {
    var photoID: Int64
    var device: UInt64
    var inode: UInt64
    var size: Int64

    var inodeKey: InodeKey { InodeKey(device: device, inode: inode) }
}

/// What a file's content is known as: its size and a hash of all of it. Files of
/// equal keys are taken as identical (XXH3-128: a chance collision is negligible).
struct ContentKey: Hashable, Comparable, Sendable {
    var size: Int64
    var hash: ContentHash

    static func < (a: ContentKey, b: ContentKey) -> Bool {
        (a.size, a.hash.high, a.hash.low) < (b.size, b.hash.high, b.hash.low)
    }
}

/// The three stages of the search, cheapest first, so that only what could
/// collide is read: files of equal size; of those, a hash of the first and last
/// `DuplicateStages.blockSize` bytes; of those that still agree, the whole file.
/// Hard links of one inode are one file: they never make each other candidates.
/// Empty files are never duplicates (nothing to free, nothing of a photo in them).
enum DuplicateStages {
    static let blockSize = 65_536

    /// A file no larger than this is read whole for its head hash, which is then
    /// its content hash: the third stage never reads it again.
    static let wholeInHead = Int64(2 * blockSize)

    /// The files that need a head hash: those whose size another inode shares, in
    /// the order given.
    static func sharingSize(_ files: [DuplicateFile]) -> [DuplicateFile] {
        shared(files.filter { $0.size > 0 }) { $0.size }
    }

    /// The files that need their whole content hashed: larger than a head covers,
    /// and whose size and head hash another inode shares. `heads`: by photo id.
    static func needingFullHash(_ files: [DuplicateFile], heads: [Int64: ContentHash]) -> Set<Int64> {
        let large = files.filter { $0.size > wholeInHead && heads[$0.photoID] != nil }
        return Set(shared(large) { file in heads[file.photoID].map { ContentKey(size: file.size, hash: $0) } }.map(\.photoID))
    }

    /// A file's content key from its hashes: the head alone when the head covers
    /// the whole file; nil when the hash it needs is not known.
    static func contentKey(_ file: DuplicateFile, head: ContentHash?, full: ContentHash?) -> ContentKey? {
        guard file.size > 0 else { return nil }
        if file.size <= wholeInHead { return head.map { ContentKey(size: file.size, hash: $0) } }
        return full.map { ContentKey(size: file.size, hash: $0) }
    }

    /// The files whose `key` at least one other inode has, in the order given. Most
    /// keys are one file's: counted first, so that only shared ones get a set of inodes.
    private static func shared<Key: Hashable>(_ files: [DuplicateFile], by key: (DuplicateFile) -> Key?) -> [DuplicateFile] {
        var counts: [Key: Int] = [:]
        counts.reserveCapacity(files.count)
        for file in files {
            if let k = key(file) { counts[k, default: 0] += 1 }
        }
        var candidates: [(key: Key, file: DuplicateFile)] = []
        var inodes: [Key: Set<InodeKey>] = [:]
        for file in files {
            guard let k = key(file), let count = counts[k], count > 1 else { continue }
            candidates.append((k, file))
            inodes[k, default: []].insert(file.inodeKey)
        }
        return candidates.filter { (inodes[$0.key]?.count ?? 0) > 1 }.map(\.file)
    }
}
