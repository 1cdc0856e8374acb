// SPDX-License-Identifier: GPL-2.0-or-later

/// The keyboard on its way to the grid: the terminal's bytes decoded into keys and
/// queued until the loop may handle them (keys typed while the terminal was being
/// asked what it can show, or while a session request was on its way, wait).
struct KeyInput {
    private var decoder = KeyDecoder()
    private var queue: [Key] = []

    /// An ESC is held back: it may start a sequence, or be Escape alone.
    var isHolding: Bool { decoder.isHolding }

    var isEmpty: Bool { queue.isEmpty }

    /// Bytes read from the terminal, queued as keys. True when Ctrl-C is among them,
    /// which the loop does not keep waiting.
    mutating func feed(_ bytes: [UInt8]) -> Bool {
        let typed = decoder.feed(bytes)
        queue += typed
        return typed.contains(.control("c"))
    }

    /// Nothing more came after a held ESC: it is Escape.
    mutating func flushHeld() { queue += decoder.flush() }

    mutating func next() -> Key? { queue.isEmpty ? nil : queue.removeFirst() }

    /// What the terminal sent after `ESC [ c`: its answer (`ESC ... c`) is returned,
    /// not a key; whatever was typed around it is queued. Nil when no answer came.
    mutating func separateAnswer(_ bytes: [UInt8]) -> [UInt8]? {
        var rest = bytes
        var answer: [UInt8]?
        if let start = rest.firstIndex(of: 0x1B), let end = rest[start...].firstIndex(of: UInt8(ascii: "c")) {
            answer = Array(rest[start...end])
            rest.removeSubrange(start...end)
        }
        _ = feed(rest)
        return answer
    }
}
