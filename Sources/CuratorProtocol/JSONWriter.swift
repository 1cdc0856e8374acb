// SPDX-License-Identifier: GPL-2.0-or-later

/// Writes JSON straight into bytes, for the responses that can be large (a listing
/// of every photo) or frequent (events). It produces exactly what `Wire`'s Codable
/// encoder produces for the same values (snake_case keys, sorted, no escaped
/// slashes); a test holds the two to that.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false

    public init(reservingCapacity capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A key; the value written next belongs to it.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) {
        separate()
        var copy = value
        copy.withUTF8 { appendEscaped($0) }
        needsComma = true
    }

    public mutating func int<T: BinaryInteger>(_ value: T) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = UInt64(truncatingIfNeeded: value.magnitude)
        // Digits right to left into a small stack buffer, then copied once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var index = 20
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index..<20]))
        }
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8))
        needsComma = true
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: Array("null".utf8))
        needsComma = true
    }

    /// Bytes already encoded as one JSON value.
    public mutating func raw(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    public mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    private mutating func separate() {
        if needsComma {
            bytes.append(UInt8(ascii: ","))
            needsComma = false
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func appendEscaped(_ text: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var start = 0
        for (i, byte) in text.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            if start < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<i])) }
            start = i + 1
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            default:
                bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0xF)]])
            }
        }
        if start < text.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...])) }
        bytes.append(UInt8(ascii: "\""))
    }
}

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
    public static let all = PhotoFields(rawValue: 0x7FF)

    /// Wire names; `path` also brings `path_raw` (the same path, exactly).
    public static let names: [String: PhotoFields] = [
        "capture_time": .captureTime, "id": .id, "mtime_ns": .mtimeNs, "offline": .offline, "path": .path, "path_raw": .path,
        "position": .position, "protected": .protected, "root": .root, "selected": .selected, "size": .size, "type": .type,
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

extension PhotoSummary {
    /// The same object the Codable encoder writes, keys in sorted order; with
    /// `fields`, only those keys.
    public func write(to w: inout JSONWriter, fields: PhotoFields = .all) {
        w.beginObject()
        if fields.contains(.captureTime), let captureTime { w.key("capture_time"); w.string(captureTime) }
        if fields.contains(.id) { w.key("id"); w.int(id) }
        if fields.contains(.mtimeNs) { w.key("mtime_ns"); w.int(mtimeNs) }
        if fields.contains(.offline), let offline { w.key("offline"); w.bool(offline) }
        if fields.contains(.path) { w.key("path"); w.string(path) }
        if fields.contains(.path), let pathRaw { w.key("path_raw"); w.string(pathRaw) }
        if fields.contains(.position), let position { w.key("position"); w.int(position) }
        if fields.contains(.protected), let `protected` { w.key("protected"); w.bool(`protected`) }
        if fields.contains(.root) { w.key("root"); w.string(root) }
        if fields.contains(.selected), let selected { w.key("selected"); w.int(selected) }
        if fields.contains(.size) { w.key("size"); w.int(size) }
        if fields.contains(.type) { w.key("type"); w.string(type) }
        w.endObject()
    }
}

extension FolderSection {
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("count"); w.int(count)
        w.key("first_position"); w.int(firstPosition)
        w.key("path"); w.string(path)
        if let pathRaw { w.key("path_raw"); w.string(pathRaw) }
        w.key("root"); w.string(root)
        w.endObject()
    }
}

extension Wire {
    /// A `list` response line, written without the Codable machinery: a listing of
    /// 100 000 photos is the daemon's largest answer.
    public static func listSuccess(id: RequestID?, result: ListResult, view: [UInt8], fields: PhotoFields = .all) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 160 * result.photos.count + 256)
        w.beginObject()
        if let id {
            w.key("id")
            switch id {
            case .number(let n): w.int(n)
            case .string(let s): w.string(s)
            }
        }
        w.key("ok"); w.bool(true)
        w.key("result")
        w.beginObject()
        w.key("folders"); w.beginArray()
        for folder in result.folders { folder.write(to: &w) }
        w.endArray()
        w.key("offset"); w.int(result.offset)
        w.key("photos"); w.beginArray()
        for photo in result.photos { photo.write(to: &w, fields: fields) }
        w.endArray()
        w.key("total"); w.int(result.total)
        w.key("view"); w.raw(view)
        w.endObject()
        w.endObject()
        w.newline()
        return w.bytes
    }
}
