// SPDX-License-Identifier: GPL-2.0-or-later

/// A client's change to a session's selection, with positions and filters already
/// resolved to photo ids against the session's view.
public enum SelectionOperation: Equatable, Sendable {
    case select([Int64])
    case deselect([Int64])
    case toggle([Int64])
    case clear
}
