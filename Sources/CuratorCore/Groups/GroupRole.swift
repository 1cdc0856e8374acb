// SPDX-License-Identifier: GPL-2.0-or-later

/// What one row of the index is to listings, once its folder is grouped (issue 15).
/// Stored in the index as its raw value, so the numbers never change.
public enum GroupRole: UInt8, Hashable, Sendable {
    /// Listed: the photo that stands for its group, alone or with others.
    case shown = 0
    /// A photo of a group that another photo shows.
    case member = 1
    /// A sidecar of a group.
    case sidecar = 2
    /// A sidecar whose image is gone, or that no one photo takes (its base name is
    /// shared by several photos that are not grouped): listed only by the orphans filter.
    case orphan = 3
    /// A sidecar whose image is not a photo here (a type the root does not count),
    /// or any sidecar in a root that does not group: never listed, never trashed
    /// with anything.
    case undecided = 4

    /// A row that stands for itself in some listing.
    public var isListed: Bool { self == .shown || self == .orphan }
}
