// SPDX-License-Identifier: GPL-2.0-or-later

/// How one root groups the files of a shot (its `groups` and `group_shows`
/// settings, and the photo types it accepts).
public struct GroupSettings: Hashable, Sendable {
    /// Which member of a rendered+RAW group stands for it in listings.
    public enum Shown: String, Hashable, Sendable, CaseIterable {
        case rendered, raw
    }

    /// Off: every photo file is its own photo and sidecars are not looked at, as
    /// before groups existed.
    public var enabled: Bool
    public var shown: Shown
    /// The types that count as photos in this root; a file of another type is
    /// never a member, but it still counts as a sidecar's image being there.
    public var types: PhotoTypeFilter

    public init(enabled: Bool = true, shown: Shown = .rendered, types: PhotoTypeFilter = .all) {
        self.enabled = enabled
        self.shown = shown
        self.types = types
    }

    public static let `default` = GroupSettings()
}
