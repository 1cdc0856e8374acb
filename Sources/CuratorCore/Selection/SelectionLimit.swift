// SPDX-License-Identifier: GPL-2.0-or-later

/// The daemon's bound on one selection, beside the session's own cap: no user may
/// grow the daemon's memory without bound. `most` photos may be selected, because
/// of one selection's maximum or of what the user's other selections already hold.
public struct SelectionLimit: Equatable, Sendable {
    public enum Reason: Equatable, Sendable {
        /// `max_selection`: the most one selection may hold.
        case selection
        /// `max_selected_per_user`: the most all of one user's selections may hold together.
        case user
    }

    public var most: Int
    public var reason: Reason
    /// The configured maximum behind it.
    public var configured: Int

    public init(most: Int, reason: Reason, configured: Int) {
        self.most = most
        self.reason = reason
        self.configured = configured
    }

    /// The tighter of a selection's maximum and the user's room left, given
    /// `others` photos selected in the user's other sessions.
    public static func tightest(maxSelection: Int, maxPerUser: Int, others: Int) -> SelectionLimit {
        let room = max(0, maxPerUser - others)
        return room < maxSelection ? SelectionLimit(most: room, reason: .user, configured: maxPerUser)
                                   : SelectionLimit(most: maxSelection, reason: .selection, configured: maxSelection)
    }
}
