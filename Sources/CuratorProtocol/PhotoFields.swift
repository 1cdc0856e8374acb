// SPDX-License-Identifier: GPL-2.0-or-later

/// The keys of a photo a `list` may be limited to (`fields`).
public struct PhotoFields: OptionSet, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let captureTime = PhotoFields(rawValue: 1 << 0)
    public static let id = PhotoFields(rawValue: 1 << 1)
    public static let mtimeNs = PhotoFields(rawValue: 1 << 2)
    public static let offline = PhotoFields(rawValue: 1 << 3)
    public static let path = PhotoFields(rawValue: 1 << 4)
    public static let position = PhotoFields(rawValue: 1 << 5)
    public static let protected = PhotoFields(rawValue: 1 << 6)
    public static let root = PhotoFields(rawValue: 1 << 7)
    public static let selected = PhotoFields(rawValue: 1 << 8)
    public static let size = PhotoFields(rawValue: 1 << 9)
    public static let type = PhotoFields(rawValue: 1 << 10)
    public static let thumbnail = PhotoFields(rawValue: 1 << 11)
    /// A group's `members`, `kind` and `total_size`.
    public static let members = PhotoFields(rawValue: 1 << 12)
    /// `rating`, `flag` and `label` (docs/XMP.md).
    public static let marks = PhotoFields(rawValue: 1 << 13)
    public static let all = PhotoFields(rawValue: 0x3FFF)

    /// Wire names; `path` also brings `path_raw` (the same path, exactly).
    public static let names: [String: PhotoFields] = [
        "capture_time": .captureTime, "id": .id, "mtime_ns": .mtimeNs, "offline": .offline, "path": .path, "path_raw": .path,
        "position": .position, "protected": .protected, "root": .root, "selected": .selected, "size": .size, "thumbnail": .thumbnail,
        "type": .type, "members": .members, "kind": .members, "total_size": .members, "rating": .marks, "flag": .marks, "label": .marks,
    ]

    /// Nil names the unknown field.
    public init(names: [String]) throws(ProtocolError) {
        var set: PhotoFields = []
        for name in names {
            guard let field = Self.names[name] else {
                throw ProtocolError(.invalidArgument, "\"\(name)\" is not a photo field; fields are \(Self.names.keys.sorted().joined(separator: ", ")).",
                                    argument: "fields")
            }
            set.insert(field)
        }
        self = set
    }
}
