// SPDX-License-Identifier: GPL-2.0-or-later

/// Every photo by id, stored densely: a `[Int64: Photo]` dictionary keeps a
/// power-of-two bucket array of whole `Photo` values under a 3/4 load, which at
/// 100 000 photos is a 25 MB allocation; here the photos sit in one array, and the
/// slot of each id is found in a plain array indexed by id (ids are handed out
/// in sequence and never reused, so it costs 4 bytes per id ever given out).
/// Removal moves the last photo into the hole.
struct PhotoTable {
    private(set) var values: ContiguousArray<Photo> = []
    private var slotByID = SlotIndex()

    var count: Int { values.count }

    /// Room for `n` photos, with the usual eighth to spare.
    mutating func reserve(_ n: Int) { values.reserveCapacity(n + n / 8) }
    var isEmpty: Bool { values.isEmpty }

    /// Where photo `id` is in `values`.
    func slot(of id: Int64) -> Int32? { slotByID[id] }

    subscript(id: Int64) -> Photo? {
        get { slotByID[id].map { values[Int($0)] } }
        set {
            if let photo = newValue {
                precondition(photo.id == id, "a photo is stored under its own id")
                if let slot = slotByID[id] {
                    values[Int(slot)] = photo
                } else {
                    // Grow by an eighth, not by doubling: at 100 000 photos a doubled
                    // array would hold 5 MB of empty slots for good.
                    if values.count == values.capacity { values.reserveCapacity(values.count + max(values.count / 8, 1024)) }
                    slotByID[id] = Int32(values.count)
                    values.append(photo)
                }
            } else if let slot = slotByID[id] {
                slotByID[id] = nil
                let last = values.count - 1
                if Int(slot) != last {
                    values[Int(slot)] = values[last]
                    slotByID[values[Int(slot)].id] = slot
                }
                values.removeLast()
            }
        }
    }
}

/// Slot by id in a flat array; ids are positive and dense. An id past the array
/// (or not positive) has no slot. Absurdly large ids, which only a corrupt index
/// could hold, fall back to a dictionary rather than a huge array.
struct SlotIndex {
    private var flat: [Int32] = []
    private var sparse: [Int64: Int32] = [:]
    static let flatLimit: Int64 = 1 << 26

    subscript(id: Int64) -> Int32? {
        get {
            if id > 0 && id < Self.flatLimit {
                guard id < flat.count else { return nil }
                let slot = flat[Int(id)]
                return slot < 0 ? nil : slot
            }
            return sparse[id]
        }
        set {
            if id > 0 && id < Self.flatLimit {
                if id >= flat.count {
                    guard newValue != nil else { return }
                    // Grow geometrically so appending ids stays amortised O(1).
                    let size = max(Int(id) + 1, flat.count * 3 / 2, 1024)
                    flat.append(contentsOf: repeatElement(-1, count: size - flat.count))
                }
                flat[Int(id)] = newValue ?? -1
            } else {
                sparse[id] = newValue
            }
        }
    }
}
