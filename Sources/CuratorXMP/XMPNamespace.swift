// SPDX-License-Identifier: GPL-2.0-or-later

/// An XMP schema: its URI (what identifies it) and the prefix it is written with.
public struct XMPNamespace: Hashable, Sendable {
    public let uri: String
    public let prefix: String

    public init(uri: String, prefix: String) {
        self.uri = uri
        self.prefix = prefix
    }

    /// XMP basic: `xmp:Rating`, `xmp:Label` (the XMP specification, part 1, 8.4).
    public static let xmp = XMPNamespace(uri: "http://ns.adobe.com/xap/1.0/", prefix: "xmp")
    /// digiKam's `PickLabel` and `ColorLabel`.
    public static let digiKam = XMPNamespace(uri: "http://www.digikam.org/ns/1.0/", prefix: "digiKam")
    /// darktable's `colorlabels` (and its develop history, which we never touch).
    public static let darktable = XMPNamespace(uri: "http://darktable.sf.net/", prefix: "darktable")
    /// Windows' `MicrosoftPhoto:Rating`, a percentage.
    public static let microsoftPhoto = XMPNamespace(uri: "http://ns.microsoft.com/photo/1.0", prefix: "MicrosoftPhoto")
    /// Photo Mechanic's `Tagged`.
    public static let photoMechanic = XMPNamespace(uri: "http://ns.camerabits.com/photomechanic/1.0/", prefix: "photomechanic")

    /// Every namespace curatord reads or writes, registered with the toolkit once:
    /// it refuses to look a property up in a namespace it was never told of.
    static let known: [XMPNamespace] = [.xmp, .digiKam, .darktable, .microsoftPhoto, .photoMechanic]
}

/// One property of a namespace, as `prefix:name` in messages.
public struct XMPProperty: Hashable, Sendable, CustomStringConvertible {
    public let namespace: XMPNamespace
    public let name: String

    public init(_ namespace: XMPNamespace, _ name: String) {
        self.namespace = namespace
        self.name = name
    }

    public var description: String { "\(namespace.prefix):\(name)" }
}
