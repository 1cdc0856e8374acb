// SPDX-License-Identifier: GPL-2.0-or-later

/// Writes JSON straight into bytes, for the daemon's largest answer: a listing of
/// every photo (15 MB at 100 000 photos, written and sent a piece at a time). It produces exactly what `Wire`'s
/// Codable encoder produces for the same values (snake_case keys, sorted, no
/// escaped slashes); tests hold the two to that.
///
/// It writes into one buffer of its own, checking room once per value rather
/// than per byte, and its methods are `@inlinable`: a listing calls them a
/// million times, and through an `Array` and across the module boundary each
/// call cost more than the bytes it wrote. Non-copyable: the buffer has one owner.
public struct JSONWriter: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var count = 0
    @usableFromInline var capacity: Int
    @usableFromInline var needsComma = false

    public init(reservingCapacity capacity: Int = 256) {
        self.capacity = max(capacity, 64)
        base = Self.allocate(self.capacity)
    }

    deinit { base.deallocate() }

    /// What was written so far.
    public var bytes: [UInt8] { [UInt8](UnsafeBufferPointer(start: base, count: count)) }

    /// The bytes written since the last `removeAll`.
    public var written: Int { count }

    /// Reads what was written so far in place (to send it).
    public func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Forgets what was written (it was sent) and keeps the buffer and the place in
    /// the JSON: the next value is still separated from the last by a comma.
    public mutating func removeAll() { count = 0 }

    /// Whether the next value needs a comma before it: what a line written in
    /// pieces into several writers carries from one to the next.
    public var separatorPending: Bool {
        get { needsComma }
        set { needsComma = newValue }
    }

    // MARK: values

    @inlinable public mutating func beginObject() { opening(UInt8(ascii: "{")) }
    @inlinable public mutating func endObject() { closing(UInt8(ascii: "}")) }
    @inlinable public mutating func beginArray() { opening(UInt8(ascii: "[")) }
    @inlinable public mutating func endArray() { closing(UInt8(ascii: "]")) }

    /// A key; the value written next belongs to it.
    @inlinable public mutating func key(_ name: StaticString) {
        name.withUTF8Buffer { name in
            reserve(name.count + 4)
            if needsComma { put(UInt8(ascii: ",")) }
            put(UInt8(ascii: "\""))
            put(name)
            put(UInt8(ascii: "\""))
            put(UInt8(ascii: ":"))
        }
        needsComma = false
    }

    @inlinable public mutating func string(_ value: String) {
        var copy = value
        copy.withUTF8 { string(escapedPrefix: UnsafeBufferPointer(start: nil, count: 0), $0) }
    }

    /// A string of `escapedPrefix` (made by `escaped(_:)`, reused across many
    /// strings: a folder's path) followed by `text`, escaped here. `text` must be
    /// valid UTF-8.
    @inlinable public mutating func string(escapedPrefix: UnsafeBufferPointer<UInt8>, _ text: UnsafeBufferPointer<UInt8>) {
        // Room for the worst case: every byte of `text` a six-byte \u00XX escape.
        reserve(escapedPrefix.count + 6 * text.count + 3)
        separate()
        put(UInt8(ascii: "\""))
        put(escapedPrefix)
        putEscaped(text)
        put(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A string known when the program was built that needs no escaping (a type's
    /// or a kind's name on the wire): its bytes are copied as they are, with no
    /// `String` to bridge or release (a listing writes one or more a photo).
    @inlinable public mutating func string(plain text: StaticString) {
        text.withUTF8Buffer { text in
            reserve(text.count + 3)
            separate()
            put(UInt8(ascii: "\""))
            put(text)
            put(UInt8(ascii: "\""))
        }
        needsComma = true
    }

    /// A string already escaped by `escaped(_:)`.
    @inlinable public mutating func string(escaped: [UInt8]) {
        escaped.withUnsafeBufferPointer { string(escapedPrefix: $0, UnsafeBufferPointer(start: nil, count: 0)) }
    }

    /// A string of at most `maxCount` bytes that `body` writes, which need no
    /// escaping (digits, letters, `-`, `:`...), such as a date.
    @inlinable public mutating func plainString(maxCount: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maxCount + 3)
        separate()
        put(UInt8(ascii: "\""))
        count += body(base + count)
        precondition(count < capacity, "plainString wrote past its room")
        put(UInt8(ascii: "\""))
        needsComma = true
    }

    @inlinable public mutating func int(_ value: Int) { int(Int64(value)) }

    @inlinable public mutating func int(_ value: Int64) {
        reserve(21)
        separate()
        if value < 0 { put(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let digits = Self.decimalDigits(magnitude)
        // Right to left, straight into place, two digits per division (a listing
        // writes 400 000 numbers, mtimes of 19 digits among them).
        var at = count + digits
        count = at
        Self.digitPairs.withUTF8Buffer { pairs in
            while magnitude >= 100 {
                let pair = Int(magnitude % 100) &* 2
                magnitude /= 100
                at -= 2
                base[at] = pairs[pair]
                base[at + 1] = pairs[pair + 1]
            }
            if magnitude >= 10 {
                at -= 2
                base[at] = pairs[Int(magnitude) &* 2]
                base[at + 1] = pairs[Int(magnitude) &* 2 + 1]
            } else {
                at -= 1
                base[at] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude)
            }
        }
        needsComma = true
    }

    /// How many decimal digits `value` has, from its bit length: a count of up to
    /// 20 steps per number was a third of the time of a listing's integers (an
    /// mtime in nanoseconds has 19 digits). `bits * 1233 >> 12` is ⌊bits · log₁₀ 2⌋,
    /// which is the count or one short of it; one comparison settles which.
    @inlinable static func decimalDigits(_ value: UInt64) -> Int {
        let guess = ((64 - value.leadingZeroBitCount) &* 1233) >> 12
        return max(1, value >= powersOfTen[guess] ? guess + 1 : guess)
    }

    /// 10⁰ to 10¹⁹ (the largest that a `UInt64` holds).
    @usableFromInline static let powersOfTen: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
        100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
        10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]

    @usableFromInline static let digitPairs: StaticString = """
        0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
        5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
        """

    @inlinable public mutating func bool(_ value: Bool) { word(value ? "true" : "false") }

    @inlinable public mutating func null() { word("null") }

    /// Bytes already encoded as one JSON value.
    @inlinable public mutating func raw(_ json: [UInt8]) {
        json.withUnsafeBufferPointer { json in
            reserve(json.count + 1)
            separate()
            put(json)
        }
        needsComma = true
    }

    @inlinable public mutating func newline() {
        reserve(1)
        put(UInt8(ascii: "\n"))
    }

    /// The inside of a JSON string for valid UTF-8 `text`, quotes left out.
    public static func escaped(_ text: some Collection<UInt8>) -> [UInt8] {
        let text = Array(text)
        var writer = JSONWriter(reservingCapacity: 6 * text.count)
        text.withUnsafeBufferPointer { writer.putEscaped($0) }
        return writer.bytes
    }

    // MARK: the buffer

    @inlinable mutating func opening(_ bracket: UInt8) {
        reserve(2)
        separate()
        put(bracket)
        needsComma = false
    }

    @inlinable mutating func closing(_ bracket: UInt8) {
        reserve(1)
        put(bracket)
        needsComma = true
    }

    @inlinable mutating func word(_ text: StaticString) {
        text.withUTF8Buffer { text in
            reserve(text.count + 1)
            separate()
            put(text)
        }
        needsComma = true
    }

    /// Room for `more` bytes; every `put` below is covered by one of these.
    @inlinable mutating func reserve(_ more: Int) {
        if capacity - count < more { grow(more) }
    }

    /// Moves to a buffer twice as large (or as large as needed). Allocation fails
    /// only as an Array's does.
    @usableFromInline mutating func grow(_ more: Int) {
        let wanted = max(capacity * 2, count + more)
        let moved = Self.allocate(wanted)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = wanted
    }

    @usableFromInline static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }

    @inlinable mutating func separate() {
        if needsComma {
            put(UInt8(ascii: ","))
            needsComma = false
        }
    }

    @inlinable mutating func put(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    @inlinable mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    @usableFromInline static let hex: StaticString = "0123456789abcdef"

    /// Escapes as the Codable encoder does: `"` and `\`, the short forms of
    /// \n \r \t \b \f, \u00XX for other control bytes; everything else as is.
    @inlinable mutating func putEscaped(_ text: UnsafeBufferPointer<UInt8>) {
        var start = 0
        for i in 0..<text.count {
            let byte = text[i]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            put(UnsafeBufferPointer(rebasing: text[start..<i]))
            start = i + 1
            put(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): put(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): put(UInt8(ascii: "\\"))
            case 0x0A: put(UInt8(ascii: "n"))
            case 0x0D: put(UInt8(ascii: "r"))
            case 0x09: put(UInt8(ascii: "t"))
            case 0x08: put(UInt8(ascii: "b"))
            case 0x0C: put(UInt8(ascii: "f"))
            default:
                put(UInt8(ascii: "u"))
                put(UInt8(ascii: "0"))
                put(UInt8(ascii: "0"))
                Self.hex.withUTF8Buffer { hex in
                    put(hex[Int(byte >> 4)])
                    put(hex[Int(byte & 0xF)])
                }
            }
        }
        put(UnsafeBufferPointer(rebasing: text[start...]))
    }
}
