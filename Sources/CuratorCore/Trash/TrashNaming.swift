// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Names inside a trash: `IMG_1.jpg`, then `IMG_1.2.jpg`, `IMG_1.3.jpg`, ... The same
/// name is used in `files/` and, with `.trashinfo` appended, in `info/`, so it must
/// leave room for that suffix within NAME_MAX.
enum TrashNaming {
    static let maxNameLength = 255 - TrashInfo.fileSuffix.count

    /// The name to try on the `attempt`-th try (1-based).
    static func candidate(for name: ByteString, attempt: Int) -> ByteString {
        // The name itself, when it fits: what nearly every photo of a batch gets.
        if attempt <= 1 && name.count <= maxNameLength { return name }
        var (stem, ext) = split(name.bytes)
        let suffix: [UInt8] = attempt <= 1 ? [] : Array(".\(attempt)".utf8)
        if suffix.count + ext.count >= maxNameLength {
            // An absurd extension: keep none of it rather than none of the stem.
            stem += ext
            ext = []
        }
        let budget = maxNameLength - suffix.count - ext.count
        return ByteString(truncated(stem, to: budget) + suffix + ext)
    }

    /// Splits at the last dot that is neither leading nor trailing; the extension keeps its dot.
    static func split(_ name: [UInt8]) -> (stem: [UInt8], ext: [UInt8]) {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0, dot < name.count - 1 else { return (name, []) }
        return (Array(name[..<dot]), Array(name[dot...]))
    }

    /// Cuts to at most `limit` bytes without splitting a UTF-8 sequence (bytes that
    /// are not UTF-8 are cut anywhere: there is no character to keep whole).
    static func truncated(_ bytes: [UInt8], to limit: Int) -> [UInt8] {
        guard bytes.count > limit else { return bytes }
        let limit = max(limit, 1)
        // bytes[limit] is the first byte dropped: a continuation byte means a
        // sequence was split, so back off to its lead byte (at most 3 steps).
        var end = limit
        while end > limit - 3, end > 1, bytes[end] & 0xC0 == 0x80 {
            end -= 1
        }
        if bytes[end] & 0xC0 == 0x80 { end = limit }
        return Array(bytes[..<end])
    }
}
