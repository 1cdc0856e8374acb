// SPDX-License-Identifier: GPL-2.0-or-later

/// Where a photo's marks were read from, for choosing among several that disagree.
public struct MarksSource: Hashable, Sendable {
    public enum Kind: Int, Hashable, Sendable, Comparable {
        /// `NAME.EXT.xmp`: the file's own sidecar.
        case fileSidecar = 0
        /// `NAME.xmp`: the shot's sidecar.
        case shotSidecar = 1
        /// The packet inside the image.
        case embedded = 2

        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    public var kind: Kind
    /// The file's modification time (nanoseconds since the epoch).
    public var modified: Int64
    /// nil when the source holds none of the properties read.
    public var marks: PhotoMarks?

    public init(_ kind: Kind, modified: Int64, marks: PhotoMarks?) {
        self.kind = kind
        self.modified = modified
        self.marks = marks
    }

    /// The photo's marks: of the sidecars that say something, the one modified last
    /// (the last tool the user marked it in), the file's own on equal times; else
    /// the embedded packet's; else unmarked. docs/XMP.md, "What curatord reads".
    public static func resolve(_ sources: [MarksSource]) -> PhotoMarks {
        let stating = sources.filter { $0.marks != nil }
        let sidecar = stating.filter { $0.kind != .embedded }.min { a, b in
            a.modified != b.modified ? a.modified > b.modified : a.kind < b.kind
        }
        return (sidecar ?? stating.first { $0.kind == .embedded })?.marks ?? .unmarked
    }
}
