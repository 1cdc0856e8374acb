// SPDX-License-Identifier: GPL-2.0-or-later

/// The colour labels every tool in docs/XMP.md shares: Lightroom's default label
/// set, darktable's five, digiKam's with magenta as purple. The raw value is the
/// wire name.
public enum ColorLabel: String, Hashable, Sendable, CaseIterable {
    case red
    case yellow
    case green
    case blue
    case purple

    /// `xmp:Label` as Lightroom writes it (and darktable and digiKam read it).
    public var xmpLabel: String {
        switch self {
        case .red: "Red"
        case .yellow: "Yellow"
        case .green: "Green"
        case .blue: "Blue"
        case .purple: "Purple"
        }
    }

    /// The item of `darktable:colorlabels`.
    public var darktableIndex: Int {
        switch self {
        case .red: 0
        case .yellow: 1
        case .green: 2
        case .blue: 3
        case .purple: 4
        }
    }

    /// `digiKam:ColorLabel` (digiKam's magenta is this purple).
    public var digiKamCode: Int {
        switch self {
        case .red: 1
        case .yellow: 3
        case .green: 4
        case .blue: 5
        case .purple: 6
        }
    }

    /// An `xmp:Label`, in any case; nil for any other text (a label set's own names).
    init?(xmpLabel text: String) {
        guard let label = ColorLabel(rawValue: XMPValue.trimmed(text).lowercased()) else { return nil }
        self = label
    }

    init?(darktableIndex index: Int) {
        guard let label = Self.allCases.first(where: { $0.darktableIndex == index }) else { return nil }
        self = label
    }

    /// nil for 0 (no label) and for digiKam's colours no other tool has.
    init?(digiKamCode code: Int) {
        guard let label = Self.allCases.first(where: { $0.digiKamCode == code }) else { return nil }
        self = label
    }
}
