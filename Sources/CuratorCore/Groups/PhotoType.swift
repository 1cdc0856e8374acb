// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// A kind of file the index keeps, told by its extension: the photos, and the
/// sidecars that roots which group files (issue 15) keep beside them (family
/// `sidecar`: never a photo of their own). The raw value is the wire name: it is
/// stored in the index and sent to clients, so it never changes.
public enum PhotoType: String, CaseIterable, Hashable, Sendable, Codable {
    case jpeg, png, heic, webp, tiff, gif, avif
    case cr2, cr3, nef, arw, dng, orf, rw2, raf
    case mp4, mov
    case xmp, aae, pp3, dop, thm

    public enum Family: String, Sendable, Codable {
        case image, raw, video, sidecar
    }

    /// The types that are photos (every family but sidecars).
    public static let photoTypes: [PhotoType] = allCases.filter { $0.family != .sidecar }

    public var isSidecar: Bool { family == .sidecar }

    /// Hashed by its case: with a `String` raw value Swift hashes the wire name, a
    /// string hashed for every file a scan filters by type (`PhotoTypeFilter`) and
    /// every name a grouping reads.
    public func hash(into hasher: inout Hasher) { hasher.combine(caseNumber) }

    /// A number of its own per case (`PhotoTypeTests` checks that they differ).
    var caseNumber: UInt8 {
        switch self {
        case .jpeg: 0
        case .png: 1
        case .heic: 2
        case .webp: 3
        case .tiff: 4
        case .gif: 5
        case .avif: 6
        case .cr2: 7
        case .cr3: 8
        case .nef: 9
        case .arw: 10
        case .dng: 11
        case .orf: 12
        case .rw2: 13
        case .raf: 14
        case .mp4: 15
        case .mov: 16
        case .xmp: 17
        case .aae: 18
        case .pp3: 19
        case .dop: 20
        case .thm: 21
        }
    }

    /// The type of `caseNumber` (a row keeps it in 5 bits); `.jpeg` for a number no case has.
    init(caseNumber: UInt8) {
        self = switch caseNumber {
        case 1: .png
        case 2: .heic
        case 3: .webp
        case 4: .tiff
        case 5: .gif
        case 6: .avif
        case 7: .cr2
        case 8: .cr3
        case 9: .nef
        case 10: .arw
        case 11: .dng
        case 12: .orf
        case 13: .rw2
        case 14: .raf
        case 15: .mp4
        case 16: .mov
        case 17: .xmp
        case 18: .aae
        case 19: .pp3
        case 20: .dop
        case 21: .thm
        default: .jpeg
        }
    }

    public var wireName: String { rawValue }

    public init?(wireName: String) { self.init(rawValue: wireName) }

    /// The type whose wire name these bytes are (the index's stored column, read in
    /// place: a `String` made and matched per row was a tenth of loading it).
    init?(wireName bytes: UnsafeBufferPointer<UInt8>) {
        guard let key = Self.packed(bytes), let type = Self.byPackedWireName[key] else { return nil }
        self = type
    }

    /// Up to 7 bytes and their count as one word (every wire name is shorter); nil
    /// when longer.
    private static func packed<C: Collection>(_ bytes: C) -> UInt64? where C.Element == UInt8 {
        guard bytes.count <= 7 else { return nil }
        var word: UInt64 = 0
        for byte in bytes { word = word << 8 | UInt64(byte) }
        return word | UInt64(bytes.count) << 60
    }

    private static let byPackedWireName: [UInt64: PhotoType] = Dictionary(
        uniqueKeysWithValues: allCases.compactMap { type in packed(Array(type.wireName.utf8)).map { ($0, type) } })

    public var family: Family {
        switch self {
        case .jpeg, .png, .heic, .webp, .tiff, .gif, .avif: .image
        case .cr2, .cr3, .nef, .arw, .dng, .orf, .rw2, .raf: .raw
        case .mp4, .mov: .video
        case .xmp, .aae, .pp3, .dop, .thm: .sidecar
        }
    }

    /// The lowercase extensions that mean this type; the first is the usual one.
    public var extensions: [String] {
        switch self {
        case .jpeg: ["jpg", "jpeg"]
        case .heic: ["heic", "heif", "hif"]  // .hif: in-camera HEIF (Canon, Sony, Fujifilm)
        case .tiff: ["tif", "tiff"]
        default: [rawValue]
        }
    }

    /// The photo type a file name stands for, or nil when it is not a photo. Only the
    /// bytes after the last dot count, ASCII case folded; the name need not be UTF-8.
    /// A dotfile with nothing before its dot (`.jpg`) has no extension.
    public static func detect(name: ByteString) -> PhotoType? {
        guard let type = detectFile(name: name), !type.isSidecar else { return nil }
        return type
    }

    /// The type of a photo or a sidecar (`IMG_0001.xmp`), as `detect` tells it.
    /// Read from the bytes of the last component in place (`ShotKeys.fileType`): the
    /// extension as a lowercased `String` looked up by its hash was three
    /// allocations per file a scan lists (1.5 % of the walker's samples).
    public static func detectFile(name: ByteString) -> PhotoType? {
        name.bytes.withUnsafeBufferPointer { detectFile(name: $0) }
    }

    /// As above, of a name or path read in place.
    public static func detectFile(name bytes: UnsafeBufferPointer<UInt8>) -> PhotoType? {
        var start = bytes.count
        while start > 0, bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
        return ShotKeys.fileType(UnsafeBufferPointer(rebasing: bytes[start...]))?.type
    }

    /// A photo type by extension (`jpg`, `.JPG`) or wire name (`jpeg`), as
    /// configurations spell them; a sidecar's is none.
    public init?(configName: String) {
        var name = Substring(configName)
        if name.first == "." { name = name.dropFirst() }
        let lower = String(name).lowercased()
        guard let type = PhotoType(rawValue: lower) ?? PhotoType.byExtension[lower], !type.isSidecar else { return nil }
        self = type
    }

    private static let byExtension: [String: PhotoType] = {
        var table: [String: PhotoType] = [:]
        for type in allCases {
            for ext in type.extensions { table[ext] = type }
        }
        return table
    }()
}
