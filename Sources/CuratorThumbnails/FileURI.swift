// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The `file://` URI of a local file, spelled exactly as GLib's `g_filename_to_uri`
/// (and so Nautilus, GIMP and every GIO program) spells it: the thumbnail standard
/// names a thumbnail after the MD5 of this text, so one byte of difference means
/// another program's thumbnail is never found, and ours never found by it.
///
/// The path is taken as bytes: a name that is not valid UTF-8 is escaped byte by
/// byte, as GLib does for the filename encoding of a Unix system.
public struct FileURI: Hashable, Sendable, CustomStringConvertible {
    /// The URI, ASCII only.
    public let text: String

    public var description: String { text }

    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case notAbsolute
        case containsNUL
        case notFileURI
        case remoteHost(String)
        case badEscape
        case escapedSlashOrNUL
        case fragment

        public var description: String {
            switch self {
            case .notAbsolute: "the path is not absolute"
            case .containsNUL: "the path contains a NUL byte"
            case .notFileURI: "not a file:// URI"
            case .remoteHost(let host): "the URI names another host (\(host))"
            case .badEscape: "a % not followed by two hex digits"
            case .escapedSlashOrNUL: "an escaped / or NUL in the path"
            case .fragment: "a local file URI with a # fragment"
            }
        }
    }

    /// The URI of an absolute path. The path is first made canonical the way GIO's
    /// `g_file_new_for_path` does (`.` and `..` resolved, repeated and trailing
    /// slashes dropped), without touching the disk: symlinks stay as they are.
    public init(path: ByteString) throws(Failure) {
        guard path.bytes.first == UInt8(ascii: "/") else { throw .notAbsolute }
        guard !path.containsNUL else { throw .containsNUL }
        let canonical = Self.canonical(path.bytes)
        var out: [UInt8] = Array("file://".utf8)
        out.reserveCapacity(out.count + canonical.count * 3)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in canonical {
            if Self.allowedInPath(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        text = String(decoding: out, as: UTF8.self)
    }

    /// A URI as another program wrote it (a thumbnail's `Thumb::URI`), unchecked.
    public init(verbatim text: String) { self.text = text }

    /// The local path a `file://` URI names, as `g_filename_from_uri` decodes it: an
    /// empty host or `localhost` only, `%XX` escapes decoded to bytes, an escaped
    /// `/` or NUL refused.
    public func path() throws(Failure) -> ByteString {
        let bytes = Array(text.utf8)
        let scheme = Array("file://".utf8)
        guard bytes.count > scheme.count, bytes[..<scheme.count].elementsEqual(scheme, by: { Self.lower($0) == $1 }) else {
            throw .notFileURI
        }
        var rest = bytes[scheme.count...]
        guard let slash = rest.firstIndex(of: UInt8(ascii: "/")) else { throw .notFileURI }
        let host = String(decoding: rest[rest.startIndex..<slash], as: UTF8.self)
        guard host.isEmpty || host.lowercased() == "localhost" else { throw .remoteHost(host) }
        rest = rest[slash...]
        var path: [UInt8] = []
        path.reserveCapacity(rest.count)
        var i = rest.startIndex
        while i < rest.endIndex {
            let byte = rest[i]
            if byte == UInt8(ascii: "%") {
                guard i + 2 < rest.endIndex, let high = Self.hexValue(rest[i + 1]), let low = Self.hexValue(rest[i + 2]) else {
                    throw .badEscape
                }
                let decoded = high << 4 | low
                guard decoded != 0, decoded != UInt8(ascii: "/") else { throw .escapedSlashOrNUL }
                path.append(decoded)
                i += 3
            } else {
                guard byte != UInt8(ascii: "#") else { throw .fragment }  // as GLib: no fragment in a file URI
                path.append(byte)
                i += 1
            }
        }
        return ByteString(path)
    }

    /// The MD5 of the URI in lowercase hex: the thumbnail's file name without `.png`.
    public var thumbnailHash: String { MD5.hex(text.utf8) }

    // MARK: the escaping rules

    /// What GLib leaves unescaped in the path of a URI (its `UNSAFE_PATH` set):
    /// letters, digits and `!$&'()*+,-./:=@_~`. Everything else, every byte of 128
    /// or more included, becomes `%XX` with upper-case hex digits.
    static func allowedInPath(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"),
             UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: "@"), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Lexical canonicalisation, as `g_canonicalize_filename`: no disk access.
    /// Exactly two leading slashes are kept (POSIX leaves their meaning to the
    /// system, and GIO keeps them); more than two are one.
    static func canonical(_ path: [UInt8]) -> [UInt8] {
        let leading = path.prefix(while: { $0 == UInt8(ascii: "/") }).count
        var components: [ArraySlice<UInt8>] = []
        for component in path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            if component.elementsEqual([UInt8(ascii: ".")]) { continue }
            if component.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
                if !components.isEmpty { components.removeLast() }
                continue
            }
            components.append(component)
        }
        var out: [UInt8] = leading == 2 ? [UInt8(ascii: "/")] : []
        if components.isEmpty { return out + [UInt8(ascii: "/")] }
        out.reserveCapacity(path.count)
        for component in components {
            out.append(UInt8(ascii: "/"))
            out.append(contentsOf: component)
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
