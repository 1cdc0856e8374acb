// SPDX-License-Identifier: GPL-2.0-or-later

/// The cull's decision about a photo, kept apart from its stars. The raw value is
/// the wire name.
public enum PickFlag: String, Hashable, Sendable, CaseIterable {
    case none
    case pick
    case reject
}
