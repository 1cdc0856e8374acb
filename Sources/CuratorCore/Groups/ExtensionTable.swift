// SPDX-License-Identifier: GPL-2.0-or-later

/// Each known extension's type, by the extension packed into one word (a 1, then
/// its bytes lowercased: `ShotKeys.type`), in an open-addressed table found by one
/// multiplication. A `Dictionary` hashed the word with SipHash once per name a scan
/// lists and again per name a folder's groups are planned with: a tenth of the
/// plan's instructions.
struct ExtensionTable: Sendable {
    static let shared = ExtensionTable()

    private static let slotBits = 7
    private var keys: [UInt64]
    private var types: [PhotoType]

    init() {
        keys = [UInt64](repeating: 0, count: 1 << Self.slotBits)
        types = [PhotoType](repeating: .jpeg, count: 1 << Self.slotBits)
        var filled = 0
        for type in PhotoType.allCases {
            for ext in type.extensions where ext.utf8.count <= 7 {
                // Half full at most, so that a miss ends soon.
                precondition(filled < keys.count / 2, "ExtensionTable: too many extensions")
                filled += 1
                var slot = Self.slot(Self.pack(ext))
                while keys[slot] != 0 { slot = (slot + 1) & (keys.count - 1) }
                keys[slot] = Self.pack(ext)
                types[slot] = type
            }
        }
    }

    /// The type of the packed extension `key`, if one has it. A key is never 0 (its leading 1).
    subscript(key: UInt64) -> PhotoType? {
        var slot = Self.slot(key)
        while true {
            let found = keys[slot]
            if found == key { return types[slot] }
            if found == 0 { return nil }
            slot = (slot + 1) & (keys.count - 1)
        }
    }

    static func pack(_ ext: String) -> UInt64 { ext.utf8.reduce(1) { $0 << 8 | UInt64($1) } }

    /// The top bits of the key times a constant of Fibonacci hashing: every byte of the key moves them.
    private static func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> (64 - slotBits)) }
}
