// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// What the inotify source passes on from the kernel: a place to look at, never a
/// verdict. The crawler stats the path and the disk decides (watchman's pending paths).
struct Hint: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// Events at a path of the root; the flags say which.
        case path(ByteString, HintFlags)
        /// The halves of a rename, which the crawler pairs by `cookie`. A half whose
        /// partner never comes is a move out of (or into) the root. A folder's
        /// `identity` is the one its watch was set on, when it has one: a folder moved
        /// out and straight back in is told by it from another put in its place.
        case movedFrom(ByteString, cookie: UInt32, isDirectory: Bool, identity: WatchTable.DirectoryKey? = nil)
        case movedTo(ByteString, cookie: UInt32, isDirectory: Bool)
        /// A sync cookie file appeared at the top of the root.
        case cookie(ByteString)
        /// The root's own folder was unmounted, deleted or moved away: it is checked
        /// before any later hint of the root is applied as if it were still there.
        case rootChanged
    }

    var root: Int32
    var kind: Kind

    /// True for the hints whose place in the order matters to the ones after them:
    /// a later hint of the same path is not merged into one before a rename.
    var isBarrier: Bool {
        switch kind {
        case .movedFrom, .movedTo, .rootChanged: true
        case .path, .cookie: false
        }
    }
}

/// The events a path hint stands for. Repeated events of one path merge into one
/// hint; what a file is at the moment the crawler looks is the disk's to say.
struct HintFlags: OptionSet, Sendable, Hashable {
    let rawValue: UInt8

    /// IN_CREATE of a file, with no IN_CLOSE_WRITE or IN_DELETE since: being written.
    static let awaitingClose = HintFlags(rawValue: 1 << 0)
    /// IN_CLOSE_WRITE of a file.
    static let written = HintFlags(rawValue: 1 << 1)
    /// IN_ATTRIB of a file.
    static let attributes = HintFlags(rawValue: 1 << 2)
    /// IN_DELETE of a file.
    static let deleted = HintFlags(rawValue: 1 << 3)
    /// IN_CREATE of a directory.
    static let directoryCreated = HintFlags(rawValue: 1 << 4)
    /// IN_DELETE of a directory.
    static let directoryDeleted = HintFlags(rawValue: 1 << 5)
    /// IN_ATTRIB of a directory (a folder unreadable until its mode changed).
    static let directoryAttributes = HintFlags(rawValue: 1 << 6)

    static let file: HintFlags = [.awaitingClose, .written, .attributes, .deleted]
    static let directory: HintFlags = [.directoryCreated, .directoryDeleted, .directoryAttributes]

    /// `self` followed by the events of `later`: a close-after-write or a deletion
    /// ends the wait for a close; a new create starts it again.
    func merged(with later: HintFlags) -> HintFlags {
        var result = self
        if !later.isDisjoint(with: [.written, .deleted]) { result.remove(.awaitingClose) }
        result.formUnion(later)
        return result
    }
}
