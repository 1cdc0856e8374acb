// SPDX-License-Identifier: GPL-2.0-or-later

/// What one operation did to an ordered selection.
public struct SelectionChange: Equatable, Sendable {
    /// Photos that joined, in the order they were numbered.
    public var added: [Int64]
    /// Photos that left, in the order the request named them (number order for `clear`).
    public var removed: [Int64]
    /// True when a photo that stayed selected got a new number, i.e. something
    /// before it left. Subscribers need the new numbering then.
    public var renumbered: Bool

    public init(added: [Int64] = [], removed: [Int64] = [], renumbered: Bool = false) {
        self.added = added
        self.removed = removed
        self.renumbered = renumbered
    }

    public static let none = SelectionChange()

    /// True when the selection's contents are what they were.
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty }
}
