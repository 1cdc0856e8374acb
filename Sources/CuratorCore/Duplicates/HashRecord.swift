// SPDX-License-Identifier: GPL-2.0-or-later

/// A photo's hashes as the index keeps them, with the size and mtime they were
/// made of: when either changes the hashes are no longer the file's, and it is
/// read again.
struct HashRecord: Equatable, Sendable {
    var size: Int64
    var mtimeNs: Int64
    var head: ContentHash?
    var full: ContentHash?

    /// The hashes, when they are still of a file of this size and mtime.
    func valid(size: Int64, mtimeNs: Int64) -> HashRecord? {
        self.size == size && self.mtimeNs == mtimeNs ? self : nil
    }
}
