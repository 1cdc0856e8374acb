// SPDX-License-Identifier: GPL-2.0-or-later

/// A failure of the XMP Toolkit: what was being done, to which file, and the
/// toolkit's own error number (exempi's `XMPErr_*`: -201 is XML that does not parse,
/// -202 RDF that is not XMP, -101 a namespace nobody registered).
public struct XMPError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done: "parse", "serialize", "set xmp:Rating", "initialize".
    public let operation: String
    /// The file the packet is from or for; nil for one that is only in memory.
    public let path: String?
    public let code: Int32

    public init(_ operation: String, path: String?, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    public var description: String {
        let subject = path.map { "\(operation) \($0)" } ?? operation
        return "\(subject): \(Self.meaning(code)) (XMP Toolkit error \(code))"
    }

    /// A few words for the errors a sidecar can cause; the number for the rest.
    static func meaning(_ code: Int32) -> String {
        switch code {
        case -201: "not well-formed XML"
        case -202: "RDF that is not XMP"
        case -203: "not valid XMP"
        case -205: "text that is not valid Unicode"
        case -106: "cannot be parsed"
        case -107: "cannot be serialized"
        case -101: "namespace not registered"
        case -102: "bad property path"
        case -15: "out of memory"
        default: "XMP Toolkit failure"
        }
    }
}
