// SPDX-License-Identifier: GPL-2.0-or-later

/// Photo ids numbered 1...k in the order they were selected, with an optional cap.
/// Removing a photo renumbers those after it (article 002). Every operation is
/// all-or-nothing: a refused one leaves the selection exactly as it was.
///
/// Costs, for k selected photos: `contains` and appending are O(1); `number(of:)` is
/// O(1) while nothing before the end was removed, O(log k) otherwise; removing m
/// photos is O(m log k) amortised; `items` is O(k).
public struct OrderedSelection: Sendable {
    /// The most photos it may hold; nil for no limit.
    public private(set) var cap: Int?
    /// Ids in selection order. A slot whose id has moved on (deselected, or
    /// deselected and selected again later) is a hole; holes are compacted away
    /// once they are half the slots, so removal never shifts the array per photo.
    private var slots: [Int64] = []
    /// The slot of each selected id: the source of truth for membership.
    private var slotOf: [Int64: Int] = [:]
    private var holes = SlotCounter()

    /// A cap below 1 is a caller's bug: clients' caps are checked by `SessionState`.
    public init(cap: Int? = nil) {
        precondition((cap ?? 1) >= 1, "cap must be at least 1")
        self.cap = cap
    }

    public var count: Int { slotOf.count }
    public var isEmpty: Bool { slotOf.isEmpty }

    public func contains(_ id: Int64) -> Bool { slotOf[id] != nil }

    /// The photo's 1-based number, or nil when it is not selected.
    public func number(of id: Int64) -> Int? {
        guard let slot = slotOf[id] else { return nil }
        return slot + 1 - (holes.total == 0 ? 0 : holes.marked(before: slot))
    }

    /// The selected ids in number order.
    public var items: [Int64] {
        if holes.total == 0 { return slots }
        var result: [Int64] = []
        result.reserveCapacity(count)
        for (slot, id) in slots.enumerated() where slotOf[id] == slot {
            result.append(id)
        }
        return result
    }

    /// Appends the ids not yet selected, in the order given (repeats count once);
    /// those already selected keep their numbers. Refused whole past the cap, or
    /// past the daemon's `limit`.
    @discardableResult
    public mutating func select(_ ids: [Int64], limit: SelectionLimit? = nil) throws(SelectionError) -> SelectionChange {
        var named = Set<Int64>()
        let new = ids.filter { slotOf[$0] == nil && named.insert($0).inserted }
        try checkCap(keeping: count, adding: new.count, limit: limit)
        new.forEach { append($0) }
        return SelectionChange(added: new)
    }

    /// Removes the ids that are selected and ignores the rest.
    @discardableResult
    public mutating func deselect(_ ids: [Int64]) -> SelectionChange {
        removeSelected(ids)
    }

    /// Removes the selected ids and appends the others, as one request: the cap
    /// and the limit are checked on the result, so a toggle that frees room may use it.
    @discardableResult
    public mutating func toggle(_ ids: [Int64], limit: SelectionLimit? = nil) throws(SelectionError) -> SelectionChange {
        var named = Set<Int64>()
        let unique = ids.filter { named.insert($0).inserted }
        let leaving = unique.filter { slotOf[$0] != nil }
        let joining = unique.filter { slotOf[$0] == nil }
        try checkCap(keeping: count - leaving.count, adding: joining.count, limit: limit)
        var change = removeSelected(leaving)
        joining.forEach { append($0) }
        change.added = joining
        return change
    }

    @discardableResult
    public mutating func clear() -> SelectionChange {
        let change = SelectionChange(removed: items)
        slots = []
        slotOf = [:]
        holes.reset(slotCount: 0)
        return change
    }

    /// Drops photos that left the disk. Same as `deselect`, named for the caller's
    /// intent; `renumbered` on the result says whether subscribers need new numbers.
    @discardableResult
    public mutating func remove(ids: [Int64]) -> SelectionChange {
        removeSelected(ids)
    }

    /// Sets a new cap, refused when the selection already holds more than it allows.
    public mutating func setCap(_ newCap: Int?) throws(SelectionError) {
        if let newCap {
            guard newCap >= 1 else { throw .invalidCap(newCap) }
            guard count <= newCap else { throw .capBelowSelection(cap: newCap, count: count) }
        }
        cap = newCap
    }

    private func checkCap(keeping staying: Int, adding new: Int, limit: SelectionLimit? = nil) throws(SelectionError) {
        guard new > 0 else { return }
        if let cap, staying + new > cap { throw .selectionFull(cap: cap, requested: new, available: cap - staying) }
        // A selection already past a limit lowered since may shrink, never grow.
        if let limit, staying + new > limit.most {
            throw .limitReached(limit, requested: new, available: max(0, limit.most - staying))
        }
    }

    private mutating func append(_ id: Int64) {
        slotOf[id] = slots.count
        slots.append(id)
        holes.appendSlot()
    }

    private mutating func removeSelected(_ ids: [Int64]) -> SelectionChange {
        var removed: [Int64] = []
        var firstHole = Int.max
        for id in ids {
            // removeValue also makes a repeated id a no-op.
            guard let slot = slotOf.removeValue(forKey: id) else { continue }
            removed.append(id)
            holes.mark(slot)
            firstHole = min(firstHole, slot)
        }
        guard !removed.isEmpty else { return .none }
        // Holes at the end renumber nobody: drop them so the common "untap the
        // last one" keeps numbering O(1).
        while let last = slots.last, slotOf[last] != slots.count - 1 {
            slots.removeLast()
            holes.removeLastSlot()
        }
        let renumbered = firstHole < slots.count
        if holes.total * 2 > slots.count { compact() }
        return SelectionChange(removed: removed, renumbered: renumbered)
    }

    private mutating func compact() {
        slots = items
        for (slot, id) in slots.enumerated() { slotOf[id] = slot }
        holes.reset(slotCount: slots.count)
    }
}

extension OrderedSelection: Equatable {
    /// Equal when they hold the same photos in the same order with the same cap,
    /// however many holes each has inside.
    public static func == (lhs: OrderedSelection, rhs: OrderedSelection) -> Bool {
        lhs.cap == rhs.cap && lhs.count == rhs.count && lhs.items == rhs.items
    }
}

/// Persisted as `{"cap": 8, "ids": [...]}`; decoding refuses a selection that breaks
/// its own rules rather than carry it on.
extension OrderedSelection: Codable {
    private enum CodingKeys: String, CodingKey { case cap, ids }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let cap = try container.decodeIfPresent(Int.self, forKey: .cap)
        let ids = try container.decode([Int64].self, forKey: .ids)
        if let cap, cap < 1 {
            throw DecodingError.dataCorruptedError(forKey: .cap, in: container, debugDescription: "cap \(cap) is below 1")
        }
        self.init(cap: cap)
        do {
            try select(ids)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .ids, in: container, debugDescription: error.message)
        }
        guard count == ids.count else {
            throw DecodingError.dataCorruptedError(forKey: .ids, in: container, debugDescription: "an id is listed twice")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(cap, forKey: .cap)
        try container.encode(items, forKey: .ids)
    }
}
