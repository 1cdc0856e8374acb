// SPDX-License-Identifier: GPL-2.0-or-later

/// A file name as the characters a glob steps over: Unicode scalar values where
/// the bytes are valid UTF-8, and `invalidByteBase + byte` for each byte that is
/// not, which no pattern character can equal.
enum GlobUnits {
    static let slash: UInt32 = 0x2F
    static let invalidByteBase: UInt32 = 0x11_0000

    static func decode(_ bytes: [UInt8], foldingCase: Bool) -> [UInt32] {
        var units: [UInt32] = []
        units.reserveCapacity(bytes.count)
        // Plain ASCII, by far the common case, needs no decoder.
        if bytes.allSatisfy({ $0 < 0x80 }) {
            for byte in bytes { units.append(foldingCase ? lowercased(UInt32(byte)) : UInt32(byte)) }
            return units
        }
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded).value
                units.append(foldingCase ? lowercased(scalar) : scalar)
                offset += encoded.count
            case .error(let length):
                for byte in bytes[offset..<(offset + length)] { units.append(invalidByteBase + UInt32(byte)) }
                offset += length
            case .emptyInput:
                return units
            }
        }
    }

    static func lowercased(_ value: UInt32) -> UInt32 {
        if value < 0x80 {
            return (0x41...0x5A).contains(value) ? value + 0x20 : value
        }
        return simpleMapping(value) { $0.properties.lowercaseMapping }
    }

    static func uppercased(_ value: UInt32) -> UInt32 {
        if value < 0x80 {
            return (0x61...0x7A).contains(value) ? value - 0x20 : value
        }
        return simpleMapping(value) { $0.properties.uppercaseMapping }
    }

    /// The mapping when it is one scalar; `ß` → `SS` and the like stay as they are,
    /// because a glob steps one character at a time.
    private static func simpleMapping(_ value: UInt32, _ mapping: (Unicode.Scalar) -> String) -> UInt32 {
        guard let scalar = Unicode.Scalar(value) else { return value }
        let mapped = mapping(scalar).unicodeScalars
        guard mapped.count == 1, let only = mapped.first else { return value }
        return only.value
    }
}
