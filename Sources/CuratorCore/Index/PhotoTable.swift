// SPDX-License-Identifier: GPL-2.0-or-later

/// Every photo by id, stored densely: a `[Int64: Photo]` dictionary keeps a
/// power-of-two bucket array of whole `Photo` values under a 3/4 load, which at
/// 100 000 photos is a 25 MB allocation; here the photos sit in one array and only
/// a small id-to-slot map is hashed. Removal moves the last photo into the hole.
struct PhotoTable {
    private(set) var values: ContiguousArray<Photo> = []
    private var slots: [Int64: Int32] = [:]

    var count: Int { values.count }
    var isEmpty: Bool { values.isEmpty }

    subscript(id: Int64) -> Photo? {
        get { slots[id].map { values[Int($0)] } }
        set {
            if let photo = newValue {
                precondition(photo.id == id, "a photo is stored under its own id")
                if let slot = slots[id] {
                    values[Int(slot)] = photo
                } else {
                    slots[id] = Int32(values.count)
                    values.append(photo)
                }
            } else if let slot = slots.removeValue(forKey: id) {
                let last = values.count - 1
                if Int(slot) != last {
                    values[Int(slot)] = values[last]
                    slots[values[Int(slot)].id] = slot
                }
                values.removeLast()
            }
        }
    }
}
