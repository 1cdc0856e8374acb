// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The photo types one root accepts, from its configuration: wire names (`jpeg`),
/// extensions (`jpg`, `.CR2`) or families (`image`, `raw`, `video`). An extension
/// selects its whole type, so `jpg` also admits `.jpeg` files.
public struct PhotoTypeFilter: Hashable, Sendable {
    public let types: Set<PhotoType>
    /// `types` as a bit per `PhotoType.caseNumber`: asked for every file a scan
    /// lists and every name a grouping reads, where a set's lookup hashed the type
    /// (a fifth of a folder's grouping).
    private let mask: UInt32

    public static let all = PhotoTypeFilter(types: Set(PhotoType.photoTypes))

    public init(types: Set<PhotoType>) {
        self.types = types
        mask = types.reduce(0) { $0 | Self.bit($1) }
    }

    private static func bit(_ type: PhotoType) -> UInt32 { 1 << UInt32(type.caseNumber) }

    /// Throws on the first name that is none of the above, so a typo in a
    /// configuration is reported instead of silently dropping photos.
    public init(names: [String]) throws(UnknownPhotoTypeError) {
        var types: Set<PhotoType> = []
        for name in names {
            if let type = PhotoType(configName: name) {
                types.insert(type)
            } else if let family = PhotoType.Family(rawValue: name.lowercased()), family != .sidecar {
                types.formUnion(PhotoType.photoTypes.filter { $0.family == family })
            } else {
                throw UnknownPhotoTypeError(name: name)
            }
        }
        self.init(types: types)
    }

    public func contains(_ type: PhotoType) -> Bool { mask & Self.bit(type) != 0 }

    /// The file's type when it is a photo this root accepts, else nil.
    public func detect(name: ByteString) -> PhotoType? {
        guard let type = PhotoType.detect(name: name), contains(type) else { return nil }
        return type
    }

    /// Wire names in a stable order, for status output and configuration dumps.
    public var wireNames: [String] {
        PhotoType.photoTypes.filter(contains).map(\.wireName)
    }
}

public struct UnknownPhotoTypeError: Error, Hashable, Sendable, CustomStringConvertible {
    public let name: String

    public init(name: String) { self.name = name }

    public var description: String {
        let known = PhotoType.photoTypes.map(\.wireName).joined(separator: ", ")
        return "unknown photo type '\(name)': expected one of \(known), an extension such as jpg, or image, raw, video"
    }
}
