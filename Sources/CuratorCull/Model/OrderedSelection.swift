// SPDX-License-Identifier: GPL-2.0-or-later

/// The session's selection as the grid shows it: photo ids in tap order, numbered
/// from 1 (seed 002). Kept in step with the daemon: replaced whole by `selection`
/// answers and events, changed by a toggle exactly as the daemon changes it.
public struct OrderedSelection: Equatable, Sendable {
    public private(set) var ids: [Int64] = []
    private var numbers: [Int64: Int] = [:]

    public init(_ ids: [Int64] = []) { replace(with: ids) }

    public var count: Int { ids.count }

    public func number(of id: Int64) -> Int? { numbers[id] }

    public mutating func replace(with ids: [Int64]) {
        self.ids = ids
        numbers = [:]
        for (index, id) in ids.enumerated() { numbers[id] = index + 1 }
    }

    /// Selected: appended with the next number. Deselected: the later ones move up one.
    public mutating func toggle(_ id: Int64) {
        if let number = numbers[id] {
            ids.remove(at: number - 1)
            numbers[id] = nil
            for index in (number - 1)..<ids.count { numbers[ids[index]] = index + 1 }
        } else {
            ids.append(id)
            numbers[id] = ids.count
        }
    }

    /// A photo that is gone (trashed, deleted): it leaves, the later ones move up.
    public mutating func remove(_ id: Int64) {
        if numbers[id] != nil { toggle(id) }
    }
}
