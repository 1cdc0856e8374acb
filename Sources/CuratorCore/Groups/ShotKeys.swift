// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The bases a file name can group by (`ShotName.keys`), as 64-bit digests read in
/// place from the name's bytes: no copy, no case-folded string, no allocation.
/// Regrouping a folder (`PhotoLibrary.regroup`) reads them for every name to tell
/// which names can group with another at all: most photos have a base of their
/// own and stand alone, and only the rest go through `PhotoGrouping`. Two bases
/// with one digest only put two shots through the grouping together, which
/// groups each as it would alone: a collision costs time, never a wrong group.
struct ShotKeys: Equatable {
    /// The digest of the first base (`ShotName.keys(of:)[0]`).
    var first: UInt64
    /// The second, for a darktable duplicate's sidecar (`IMG_0001_01.CR2.xmp`:
    /// `img_0001_01` and `img_0001`).
    var second: UInt64?
    /// A photo (not a sidecar).
    var isPhoto: Bool

    /// The keys of `name`; nil for a name that groups with nothing (`ShotName.other`).
    init?(_ name: UnsafeBufferPointer<UInt8>) {
        let end = name.count
        guard let dot = Self.extensionDot(name, end: end), let type = Self.type(name, dot: dot, end: end) else { return nil }
        if !type.isSidecar {
            self.init(first: Self.digest(name, 0, dot), second: nil, isPhoto: true)
            return
        }
        // A sidecar: of one file when what precedes its extension is a photo's
        // name (`IMG_0001.CR2.xmp`), else of the shot (`IMG_0001.xmp`).
        guard let fileDot = Self.extensionDot(name, end: dot), let fileType = Self.type(name, dot: fileDot, end: dot),
              !fileType.isSidecar else {
            self.init(first: Self.digest(name, 0, dot), second: nil, isPhoto: false)
            return
        }
        let original = type == .xmp ? Self.darktableBaseEnd(name, fileDot: fileDot) : nil
        self.init(first: Self.digest(name, 0, fileDot), second: original.map { Self.digest(name, 0, $0) }, isPhoto: false)
    }

    init?(_ name: ByteString) {
        guard let keys = name.bytes.withUnsafeBufferPointer({ ShotKeys($0) }) else { return nil }
        self = keys
    }

    private init(first: UInt64, second: UInt64?, isPhoto: Bool) {
        self.first = first
        self.second = second
        self.isPhoto = isPhoto
    }

    /// The digests, first to last.
    var digests: [UInt64] { [first] + (second.map { [$0] } ?? []) }

    /// Whether `digest` is one of them.
    func contains(_ digest: UInt64) -> Bool { first == digest || second == digest }

    /// The digest of a base as `ShotName.keys` spells it (ASCII case folded; folding
    /// again changes nothing, so a folded base and the name it came from agree).
    static func digest(_ base: ByteString) -> UInt64 {
        base.bytes.withUnsafeBufferPointer { digest($0, 0, $0.count) }
    }

    /// A 64-bit hash of bytes `start..<end`, ASCII letters lowercased, read eight
    /// bytes a step (byte by byte, FNV-1a was a tenth of a folder's grouping): each
    /// word folded to lower case in place (`lowercased`), mixed in with a multiply,
    /// the last part word padded with zeros (read as the last eight bytes, shifted),
    /// the length mixed in at the end.
    static func digest(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
        guard let base = bytes.baseAddress, end > start else { return finish(0xcbf2_9ce4_8422_2325) }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var i = start
        let raw = UnsafeRawPointer(base)
        while end - i >= 8 {
            hash = (hash ^ lowercased(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)))) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 29
            i += 8
        }
        if i < end {
            var word: UInt64 = 0
            if end - start >= 8 {
                // The last eight bytes, those already read shifted out.
                word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self)) >> (8 * UInt64(8 - (end - i)))
            } else {
                for k in 0..<(end - i) { word |= UInt64(base[i + k]) << (8 * UInt64(k)) }
            }
            hash = (hash ^ lowercased(word)) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 29
        }
        return finish(hash ^ UInt64(end - start))
    }

    /// Each byte of `word` from `A` to `Z` made its lower case letter; every other byte as it is.
    static func lowercased(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let low7 = word & (0x7F * ones)
        // Per byte, the top bit of: its low 7 bits ≥ "A", its low 7 bits > "Z", the byte itself.
        let fromA = low7 &+ (0x80 - 0x41) * ones
        let pastZ = low7 &+ (0x80 - 0x5B) * ones
        let upper = fromA & ~pastZ & ~word & (0x80 * ones)
        return word | (upper >> 2)
    }

    /// murmur3's final mix: every bit of the hash moves the top bits, which index `DigestHeads`.
    private static func finish(_ value: UInt64) -> UInt64 {
        var h = value
        h ^= h >> 33
        h &*= 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h &*= 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        return h
    }

    /// The last dot of `bytes[..<end]` when it starts an extension as
    /// `ByteString.lowercasedExtension` takes one: not first, not last, at most 8
    /// bytes after it.
    static func extensionDot(_ bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Int? {
        var i = end - 1
        while i > 0, bytes[i] != UInt8(ascii: ".") { i -= 1 }
        guard i > 0, i < end - 1, end - 1 - i <= 8 else { return nil }
        return i
    }

    /// The type of the extension `bytes[dot+1..<end]`, as `PhotoType.detectFile`
    /// tells it, from its bytes packed into one word (after a 1, so that the
    /// length counts too; no known extension is longer than 7 bytes).
    static func type(_ bytes: UnsafeBufferPointer<UInt8>, dot: Int, end: Int) -> PhotoType? {
        guard end - dot - 1 <= 7 else { return nil }
        var packed: UInt64 = 1
        for i in (dot + 1)..<end {
            let byte = bytes[i]
            packed = packed << 8 | UInt64((byte >= 65 && byte <= 90) ? byte + 32 : byte)
        }
        return ExtensionTable.shared[packed]
    }

    /// The type of a file by its name, as `PhotoType.detectFile` tells it, without
    /// a string: what `ShotName` reads names with.
    static func fileType(_ name: UnsafeBufferPointer<UInt8>) -> (type: PhotoType, dot: Int)? {
        guard let dot = extensionDot(name, end: name.count), let type = type(name, dot: dot, end: name.count) else { return nil }
        return (type, dot)
    }

    /// Where the base of a darktable duplicate's original ends (`ShotName.darktableOriginal`):
    /// `<base>_<nn>.<ext>` (two or three digits, not all zeros) names `<base>.<ext>`.
    private static func darktableBaseEnd(_ bytes: UnsafeBufferPointer<UInt8>, fileDot: Int) -> Int? {
        var i = fileDot
        while i > 0, bytes[i - 1] >= UInt8(ascii: "0"), bytes[i - 1] <= UInt8(ascii: "9") { i -= 1 }
        let digits = fileDot - i
        guard (2...3).contains(digits), (i..<fileDot).contains(where: { bytes[$0] != UInt8(ascii: "0") }),
              i - 1 > 0, bytes[i - 1] == UInt8(ascii: "_") else { return nil }
        return i - 1
    }
}
