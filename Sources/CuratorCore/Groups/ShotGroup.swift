// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// One file of a group.
public struct GroupMember: Hashable, Sendable {
    public var name: ByteString
    public var kind: MemberKind
    /// For a sidecar of one file (`IMG_0001.CR2.xmp`, `IMG_0001_01.CR2.xmp`), that
    /// file's name; nil for a photo and for a sidecar of the whole shot (`IMG_0001.xmp`).
    public var sidecarOf: ByteString?

    public init(name: ByteString, kind: MemberKind, sidecarOf: ByteString? = nil) {
        self.name = name
        self.kind = kind
        self.sidecarOf = sidecarOf
    }
}

/// The files of one shot in one folder: listed, selected, trashed and restored as one.
/// A photo that is alone (no partner, no sidecar) is a group of one.
public struct ShotGroup: Hashable, Sendable {
    /// The shown photo first, then the other photos (rendered, RAW, video), then
    /// the sidecars by name.
    public private(set) var members: [GroupMember]

    init(members: [GroupMember]) {
        precondition(members.first.map { $0.kind != .sidecar } ?? false, "a group is shown by a photo")
        self.members = members
    }

    /// The photo that stands for the group.
    public var shown: GroupMember { members[0] }

    public var photos: [GroupMember] { members.filter { $0.kind != .sidecar } }
    public var sidecars: [GroupMember] { members.filter { $0.kind == .sidecar } }

    /// More than one file: a pair, a Live Photo, or a photo with sidecars.
    public var isGroup: Bool { members.count > 1 }

    /// What `--only rendered` (or `raw`, `video`) takes of this group: the photos
    /// of that kind and the sidecars that belong to those files; the sidecars of
    /// the whole shot only when no photo would stay. Empty when the group has no
    /// photo of that kind.
    public func part(_ kind: MemberKind) -> [GroupMember] {
        precondition(kind != .sidecar, "a part is named by a kind of photo")
        let taken = photos.filter { $0.kind == kind }
        guard !taken.isEmpty else { return [] }
        let names = Set(taken.map(\.name))
        let everyPhoto = taken.count == photos.count
        return members.filter { member in
            switch member.kind {
            case .sidecar:
                if let file = member.sidecarOf { return names.contains(file) }
                return everyPhoto
            default:
                return member.kind == kind
            }
        }
    }
}

/// How the files of one folder group: every photo in exactly one group, and the
/// sidecars that are in none.
public struct FolderGrouping: Hashable, Sendable {
    /// By the shown photo's name.
    public var groups: [ShotGroup]
    /// Sidecars whose image is gone, or that could belong to more than one photo
    /// (`IMG_0001.xmp` beside `IMG_0001.JPG` and `IMG_0001.HEIC`): listed by
    /// `--orphans`, where their user finds them, and trashed only on their own. By name.
    public var orphans: [ByteString]
    /// Sidecars whose image is there but is not a photo of this root: neither
    /// listed nor orphans. By name.
    public var undecided: [ByteString]
}
