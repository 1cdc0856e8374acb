// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorXMP

// The wire names a listing writes for every photo and every member of a group, as
// static bytes (`JSONWriter.string(plain:)`): a `String` of an enum's raw value is
// made, bridged and released each time it is written. `StaticWireNamesTests` holds
// each to the raw value it stands for.

extension PhotoType {
    /// `wireName`, as static bytes.
    var staticWireName: StaticString {
        switch self {
        case .jpeg: "jpeg"
        case .png: "png"
        case .heic: "heic"
        case .webp: "webp"
        case .tiff: "tiff"
        case .gif: "gif"
        case .avif: "avif"
        case .cr2: "cr2"
        case .cr3: "cr3"
        case .nef: "nef"
        case .arw: "arw"
        case .dng: "dng"
        case .orf: "orf"
        case .rw2: "rw2"
        case .raf: "raf"
        case .mp4: "mp4"
        case .mov: "mov"
        case .xmp: "xmp"
        case .aae: "aae"
        case .pp3: "pp3"
        case .dop: "dop"
        case .thm: "thm"
        }
    }
}

extension MemberKind {
    /// `rawValue`, as static bytes.
    var staticWireName: StaticString {
        switch self {
        case .rendered: "rendered"
        case .raw: "raw"
        case .video: "video"
        case .sidecar: "sidecar"
        }
    }
}

extension PickFlag {
    /// `rawValue`, as static bytes.
    var staticWireName: StaticString {
        switch self {
        case .none: "none"
        case .pick: "pick"
        case .reject: "reject"
        }
    }
}

extension ColorLabel {
    /// `rawValue`, as static bytes.
    var staticWireName: StaticString {
        switch self {
        case .red: "red"
        case .yellow: "yellow"
        case .green: "green"
        case .blue: "blue"
        case .purple: "purple"
        }
    }
}
