// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// One photo of a confirmed plan, as the daemon pinned it when it showed the plan.
public struct BatchPlanItem: Hashable, Sendable {
    public var photoID: Int64
    public var rootName: String
    /// The root's absolute path (the configured one; it may be a symlink).
    public var rootPath: ByteString
    /// The photo's path below the root, as bytes.
    public var relativePath: ByteString
    public var identity: FileIdentity
    /// Protected now (the daemon checks at confirm time): skipped as `protected`.
    public var isProtected: Bool
    /// Its root's trash at confirm time, and for a recycle folder the group given it.
    public var trash: TrashKind = .freedesktop
    public var recycleGroup: UInt32?
    /// The group this file is trashed with (the group's listed id, issue 15): a
    /// unit's files are consecutive in a plan, and all go to the trash or none.
    public var unit: Int64?

    public init(photoID: Int64, rootName: String, rootPath: ByteString, relativePath: ByteString,
                identity: FileIdentity, isProtected: Bool = false, unit: Int64? = nil) {
        self.unit = unit
        self.photoID = photoID
        self.rootName = rootName
        self.rootPath = rootPath
        self.relativePath = relativePath
        self.identity = identity
        self.isProtected = isProtected
    }
}

/// A confirmed plan: the photos in the order they are to be trashed (descending
/// view position), and the session it came from.
public struct BatchPlan: Hashable, Sendable {
    public var session: String
    public var items: [BatchPlanItem]
    /// The paths of the roots whose `delete` policy is `owner`: there only a photo's
    /// owner (or root) may trash it.
    public var ownerOnlyRoots: Set<ByteString>

    public init(session: String, items: [BatchPlanItem], ownerOnlyRoots: Set<ByteString> = []) {
        self.session = session
        self.items = items
        self.ownerOnlyRoots = ownerOnlyRoots
    }
}
